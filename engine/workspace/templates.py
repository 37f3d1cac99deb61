"""Starting points for new rules and filters in the editor: minimal, and nothing a placeholder.

A new filter carries ``rules`` and ``preserve`` objects even when empty: OmniRoute fails to load a
canonical filter without them (RTK-Q1).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.jsonedit import Style, dumps

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
    """A rule just added: a unique name and the keys the format requires, nothing else.

    The pattern stays empty until the author types one (the form shows an example as placeholder
    text; previews leave the rule out and the validator flags it meanwhile). Flags, context and
    intensity are left out so the engine's defaults apply; the category is written only when it
    is not the default (it follows the rule the author added it after).
    """
    rule: dict[str, Any] = {"name": unique_name("new_rule", taken_names), "pattern": "", "replacement": ""}
    if category in RULE_CATEGORIES and category != "filler":
        rule["category"] = category
    return rule


def example_pack(language: str, category: str) -> dict[str, Any]:
    """A small complete pack (tests, demos): one real rule with every field written."""
    return {"language": language, "category": category, "rules": [{
        "name": "basically", "pattern": "\\bbasically\\s+", "replacement": "", "flags": "gi", "context": "all",
        "category": category if category in RULE_CATEGORIES else "filler", "minIntensity": "lite",
        "description": "Drops the filler word 'basically'."}]}


def new_filter(taken_ids: set[str], category: str = "generic") -> dict[str, Any]:
    """A filter added to a filter list: a unique id, no commands and every line stage empty.

    The filter changes nothing until the author fills it in (the validator says that it matches
    no command yet), so nothing of a template's choosing ends up in the data. A filter *file* for
    a command starts from ``engine.rtk.scaffold`` instead. ``rules`` and ``preserve`` and their
    pattern lists are written even when empty (RTK-Q1: OmniRoute fails to load a canonical filter
    without them).
    """
    ident = unique_name("new-filter", taken_ids)
    return {
        "id": ident,
        "label": "New filter",
        "description": "",
        "category": category if category in FILTER_CATEGORIES else "generic",
        "priority": 50,
        "match": {"commands": [], "patterns": [], "outputTypes": []},
        "rules": {
            "stripAnsi": True,
            "replace": [],
            "matchOutput": [],
            "includePatterns": [],
            "dropPatterns": [],
            "collapsePatterns": [],
            "deduplicate": False,
            "truncateLineAt": 0,
            "maxLines": 0,
            "headLines": 20,
            "tailLines": 20,
            "onEmpty": "",
            "filterStderr": False,
        },
        "preserve": {"errorPatterns": [], "summaryPatterns": []},
        "tests": [],
    }


def example_filter(taken_ids: set[str], category: str = "generic") -> dict[str, Any]:
    """A small complete filter with one passing test (tests, demos)."""
    value = new_filter(taken_ids, category)
    value["match"]["commands"] = ["^mytool\\b"]
    value["rules"]["dropPatterns"] = ["^\\s*$"]
    value["preserve"]["errorPatterns"] = ["\\berror\\b"]
    value["tests"] = [{"name": "drops blank lines", "command": "mytool", "input": "a\n\nb", "expected": "a\nb"}]
    return value


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
