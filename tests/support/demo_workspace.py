"""A small workspace for the panel tests and the docs screenshots (written here, not copied).

Two filter files with inline tests (one test fails on purpose, one test's command selects
another filter), project filters in ``.rtk/`` (one of them hides security-scanner errors) with a
``trust.json`` that no longer matches, and a TOML filter file. ``python -m tests.support.demo_workspace DIR`` writes it to DIR.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path


def _filter(ident: str, label: str, commands: list[str], drop: list[str], tests: list[dict], *,
            category: str = "test", on_empty: str = "", keep: list[str] | None = None) -> dict:
    return {
        "id": ident, "label": label, "description": f"Shortens {label} output", "category": category,
        "priority": 60,
        "match": {"commands": commands, "patterns": [], "outputTypes": []},
        "rules": {"stripAnsi": True, "replace": [], "matchOutput": [], "includePatterns": keep or [],
                  "dropPatterns": drop, "collapsePatterns": [], "deduplicate": False, "truncateLineAt": 0,
                  "maxLines": 0, "headLines": 20, "tailLines": 20, "onEmpty": on_empty, "filterStderr": False},
        "preserve": {"errorPatterns": ["\\berror\\b"], "summaryPatterns": []},
        "tests": tests,
    }


PYTEST = _filter(
    "pytest-quiet", "pytest", ["^pytest\\b", "^python -m pytest\\b"], ["^\\s*$", "^platform ", "^rootdir: ",
                                                                       "^plugins: ", "^collected "],
    [
        {"name": "drops the header", "command": "pytest -q",
         "input": "platform linux -- Python 3.11\nrootdir: /srv\ncollected 3 items\n\ntests/test_a.py ...\n3 passed",
         "expected": "tests/test_a.py ...\n3 passed"},
        {"name": "keeps failures", "command": "pytest",
         "input": "collected 2 items\nFAILED tests/test_b.py::test_x\n1 failed, 1 passed",
         "expected": "FAILED tests/test_b.py::test_x\n1 failed, 1 passed"},
        {"name": "plugins line (outdated expectation)", "command": "pytest -x",
         "input": "plugins: cov-5.0\ncollected 1 item\ntests/test_c.py .\n1 passed",
         "expected": "plugins: cov-5.0\ntests/test_c.py .\n1 passed"},
    ])

NPM = _filter(
    "npm-install", "npm install", ["^npm (install|i|ci)\\b"], ["^npm (WARN|notice)", "^\\s*$"],
    [
        {"name": "drops warnings", "command": "npm install",
         "input": "npm WARN deprecated glob@7\n\nadded 120 packages in 3s",
         "expected": "added 120 packages in 3s"},
        {"name": "audit command", "command": "npm audit",
         "input": "npm notice new version\nfound 0 vulnerabilities",
         "expected": "found 0 vulnerabilities"},
    ], category="package", on_empty="ok")

GIT_LOG = _filter(
    "git-log-short", "git log", ["^git log\\b"], ["^Author: ", "^Date: ", "^\\s*$"],
    [{"name": "keeps subjects", "command": "git log -3",
      "input": "commit 1a2b\nAuthor: A <a@x>\nDate:   Mon\n\n    Fix the parser\n",
      "expected": "commit 1a2b\n    Fix the parser"}],
    category="git")

AUDIT = _filter(
    "audit-quiet", "npm audit", ["^npm audit\\b"], ["^npm ERR!", "vulnerabilit"],
    [{"name": "quiet audit", "command": "npm audit",
      "input": "npm ERR! 3 high severity vulnerabilities\nnpm ERR! run `npm audit fix`",
      "expected": "No vulnerabilities found"}],
    category="package", on_empty="No vulnerabilities found")

TOML = '''schema_version = 1

[filters.make-quiet]
description = "Drops make's directory chatter"
match_command = "^make\\\\b"
strip_lines_matching = ["^make\\\\[\\\\d+\\\\]: (Entering|Leaving) directory"]

[[tests.make-quiet]]
name = "drops directory lines"
input = "make[1]: Entering directory '/srv'\\ncc -o app main.c\\nmake[1]: Leaving directory '/srv'"
expected = "cc -o app main.c"
'''


def write_demo_workspace(root: Path) -> Path:
    """Write the demo workspace into ``root`` (created); returns ``root``."""
    (root / "filters").mkdir(parents=True, exist_ok=True)
    (root / ".rtk").mkdir(exist_ok=True)
    dump = lambda value: json.dumps(value, indent=2, ensure_ascii=False) + "\n"  # noqa: E731
    (root / "filters" / "pytest.json").write_text(dump(PYTEST), encoding="utf-8")
    (root / "filters" / "npm.json").write_text(dump(NPM), encoding="utf-8")
    (root / "filters" / "make.toml").write_text(TOML, encoding="utf-8")
    project = dump([GIT_LOG, AUDIT])
    (root / ".rtk" / "filters.json").write_text(project, encoding="utf-8")
    # trusted once, then edited: the stored hash is of an older version of the file
    older = hashlib.sha256(project.replace("git log", "git-log").encode()).hexdigest()
    (root / ".rtk" / "trust.json").write_text(dump({"filtersSha256": older}), encoding="utf-8")
    return root


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "demo-workspace")
    print(write_demo_workspace(target))
