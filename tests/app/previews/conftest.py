"""Fixtures for the preview tests: private config/data folders, no modal dialogs, small inline
packs, filters and samples written to a temp workspace (nothing from ../shared)."""

from __future__ import annotations

import json
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import pytest

PACK = {
    "language": "en",
    "category": "filler",
    "rules": [
        {"name": "en_hedges", "pattern": "\\b(?:basically|really|just)\\s+", "replacement": "",
         "category": "filler"},
        {"name": "en_please", "pattern": "\\bcould you (?:please )?", "replacement": "", "category": "filler",
         "context": "user"},
        {"name": "en_in_order_to", "pattern": "\\bin order to\\b", "replacement": "to", "category": "context"},
        {"name": "en_abbrev", "pattern": "\\b(?:configuration|database)\\b",
         "replacementMap": {"configuration": "config", "database": "DB"}, "category": "ultra",
         "minIntensity": "full"},
    ],
}
RUNAWAY = {"name": "en_runaway", "pattern": "(a|aa)+$", "replacement": "", "flags": "g", "category": "filler"}
SAMPLE = ("Could you please basically look at the configuration in `src/app.py` and, in order to be sure, "
          "really run the database tests.")
FILTER = {
    "id": "mytool", "label": "My tool", "category": "build", "priority": 60,
    "match": {"commands": ["^mytool\\b"], "patterns": [], "outputTypes": []},
    "rules": {"dropPatterns": ["^\\s*$", "^debug:"], "collapsePatterns": [], "deduplicate": False},
    "preserve": {"errorPatterns": ["\\berror\\b"], "summaryPatterns": ["^summary:"]},
    "tests": [],
}


def tool_output(debug_lines: int = 30) -> str:
    lines = ["mytool 1.0 building"] + [f"debug: step {i}" for i in range(debug_lines)]
    lines += ["", "warning: unused thing", "error: link failed in main.o", "", "summary: 1 error, 1 warning"]
    return "\n".join(lines) + "\n"


def write_pack(root: Path, pack: dict) -> Path:
    path = root / pack["language"] / f"{pack['category']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(pack, indent=2), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("RULEWRIGHT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture
def pack_root(tmp_path) -> Path:
    root = tmp_path / "packs"
    write_pack(root, PACK)
    return root


@pytest.fixture
def workspace(tmp_path) -> Path:
    """A workspace with one pack (and a sample beside it), one filter file and an output sample."""
    root = tmp_path / "ws"
    write_pack(root / "rules", PACK)
    (root / "rules" / "en" / "samples").mkdir()
    (root / "rules" / "en" / "samples" / "request.txt").write_text(SAMPLE, encoding="utf-8")
    (root / "filters").mkdir()
    (root / "filters" / "mytool.json").write_text(json.dumps(FILTER, indent=2), encoding="utf-8")
    (root / "samples").mkdir()
    (root / "samples" / "mytool.log").write_text(tool_output(), encoding="utf-8")
    (root / "samples" / "mytool.cmd").write_text("$ mytool build\n", encoding="utf-8")
    return root
