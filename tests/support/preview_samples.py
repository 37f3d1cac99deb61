"""Small inline packs, filters and samples for the preview tests (engine view-models and Qt panels);
nothing from ../shared."""

from __future__ import annotations

import json
from pathlib import Path

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


def write_pack_root(root: Path) -> Path:
    """A pack folder holding ``PACK``."""
    write_pack(root, PACK)
    return root


def write_preview_workspace(root: Path) -> Path:
    """A workspace with one pack (and a sample beside it), one filter file and an output sample."""
    write_pack(root / "rules", PACK)
    (root / "rules" / "en" / "samples").mkdir()
    (root / "rules" / "en" / "samples" / "request.txt").write_text(SAMPLE, encoding="utf-8")
    (root / "filters").mkdir()
    (root / "filters" / "mytool.json").write_text(json.dumps(FILTER, indent=2), encoding="utf-8")
    (root / "samples").mkdir()
    (root / "samples" / "mytool.log").write_text(tool_output(), encoding="utf-8")
    (root / "samples" / "mytool.cmd").write_text("$ mytool build\n", encoding="utf-8")
    return root
