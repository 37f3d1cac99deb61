"""Starting points for new packs, rules and filters: valid, minimal, and safe to run.

A new filter carries ``rules`` and ``preserve`` objects even when empty: OmniRoute fails to load a
canonical filter without them (RTK-Q1).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.workspace.jsonedit import Style, dumps

RULE_CATEGORIES = ("filler", "context", "structural", "dedup", "terse", "ultra")
RULE_CONTEXTS = ("all", "user", "assistant", "system")
INTENSITIES = ("lite", "full", "ultra")
FILTER_CATEGORIES = ("git", "test", "build", "shell", "docker", "package", "infra", "cloud", "generic")
JS_FLAGS = ("d", "g", "i", "m", "s", "u", "v", "y")

_NAME_OK = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def unique_name(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base}_{n}" in taken:
        n += 1
    return f"{base}_{n}"


def new_rule(taken_names: set[str], category: str = "filler") -> dict[str, Any]:
    return {
        "name": unique_name("new_rule", taken_names),
        "pattern": "\\bbasically\\s+",
        "replacement": "",
        "flags": "gi",
        "context": "all",
        "category": category if category in RULE_CATEGORIES else "filler",
        "minIntensity": "lite",
        "description": "Describe what this rule removes and why it is safe.",
    }


def new_pack(language: str, category: str) -> dict[str, Any]:
    return {"language": language, "category": category, "rules": [new_rule(set(), category)]}


def new_filter(taken_ids: set[str], category: str = "generic") -> dict[str, Any]:
    ident = unique_name("new-filter", taken_ids)
    return {
        "id": ident,
        "label": "New filter",
        "description": "",
        "category": category if category in FILTER_CATEGORIES else "generic",
        "priority": 50,
        "match": {"commands": ["^mytool\\b"], "patterns": [], "outputTypes": []},
        "rules": {
            "stripAnsi": True,
            "replace": [],
            "matchOutput": [],
            "includePatterns": [],
            "dropPatterns": ["^\\s*$"],
            "collapsePatterns": [],
            "deduplicate": False,
            "truncateLineAt": 0,
            "maxLines": 0,
            "headLines": 20,
            "tailLines": 20,
            "onEmpty": "",
            "filterStderr": False,
        },
        "preserve": {"errorPatterns": ["\\berror\\b"], "summaryPatterns": []},
        "tests": [{"name": "drops blank lines", "command": "mytool", "input": "a\n\nb", "expected": "a\nb"}],
    }


def render(value: Any) -> str:
    return dumps(value, Style(), 0) + "\n"


def check_file_name(name: str) -> str | None:
    """Why ``name`` is not a good file or pack name, or None when it is."""
    if not name:
        return "a name is required"
    if not _NAME_OK.match(name):
        return "use letters, digits, '-', '_' or '.', starting with a letter or digit"
    return None


def pack_path(workspace: Path, language: str, category: str) -> Path:
    return workspace / "rules" / language / f"{category}.json"


def filter_path(workspace: Path, ident: str) -> Path:
    return workspace / "filters" / f"{ident}.json"
