"""Empty patterns in a filter: a row the author added and has not typed yet.

An empty JavaScript regex matches every line, so an empty ``dropPatterns`` row makes OmniRoute
drop the whole output, and an empty keep/error/summary row keeps everything. The validator flags
each one where it is (``RTK-empty-pattern``); the IDE's previews leave them out until the author
types a pattern, so a half-made row never shows a result no one asked for.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from engine.diagnostics import Diagnostic, Level

# pattern lists by pointer (relative to a filter object), canonical and legacy shapes
PATTERN_LISTS = ("/match/commands", "/match/patterns", "/rules/dropPatterns", "/rules/includePatterns",
                 "/rules/collapsePatterns", "/preserve/errorPatterns", "/preserve/summaryPatterns",
                 "/stripPatterns", "/keepPatterns", "/priorityPatterns", "/collapsePatterns")
PATTERN_TABLES = ("/rules/replace", "/rules/matchOutput", "/replace", "/matchOutput")  # rows with "pattern"
_EFFECT = {
    "dropPatterns": "drops every line of the output",
    "stripPatterns": "drops every line of the output",
    "includePatterns": "keeps every line",
    "keepPatterns": "keeps every line",
    "collapsePatterns": "collapses every line",
    "errorPatterns": "treats every line as an error line",
    "summaryPatterns": "treats every line as a summary line",
    "priorityPatterns": "treats every line as a priority line",
    "commands": "matches every command",
    "patterns": "matches every output",
    "replace": "matches the empty string at every position",
    "matchOutput": "matches every output",
}
_SEVERE = {"dropPatterns", "stripPatterns", "commands", "patterns"}


def _resolve(obj: Any, pointer: str) -> Any:
    for part in pointer.strip("/").split("/"):
        if not isinstance(obj, dict):
            return None
        obj = obj.get(part)
    return obj


def _is_empty(value: Any) -> bool:
    return isinstance(value, str) and value == ""


def empty_pattern_pointers(filter_obj: Any) -> list[str]:
    """Pointers (relative to the filter) of every empty pattern string."""
    out: list[str] = []
    if not isinstance(filter_obj, dict):
        return out
    for base in PATTERN_LISTS:
        items = _resolve(filter_obj, base)
        if isinstance(items, list):
            out.extend(f"{base}/{i}" for i, item in enumerate(items) if _is_empty(item))
    for base in PATTERN_TABLES:
        rows = _resolve(filter_obj, base)
        if isinstance(rows, list):
            out.extend(f"{base}/{i}/pattern" for i, row in enumerate(rows)
                       if isinstance(row, dict) and _is_empty(row.get("pattern")))
    return out


def _field(pointer: str) -> str:
    parts = pointer.strip("/").split("/")
    return next((p for p in reversed(parts) if not p.isdigit() and p != "pattern"), parts[0])


def describe(pointer: str) -> str:
    """Why an empty pattern at ``pointer`` matters, in plain words."""
    effect = _EFFECT.get(_field(pointer), "matches everything")
    return f"empty pattern: it {effect}; type a pattern or remove the row"


def _prefixer(value: object) -> Callable[[int], str]:
    """The pointer prefix of item ``i``: ``/i`` in an array, nothing for a single object."""
    if isinstance(value, list):
        return lambda i: f"/{i}"
    return lambda _i: ""


def empty_pattern_diagnostics(value: Any) -> list[Diagnostic]:
    """One diagnostic per empty pattern of a filter file (one filter object or an array)."""
    items = value if isinstance(value, list) else [value]
    prefix = _prefixer(value)
    out: list[Diagnostic] = []
    for i, item in enumerate(items):
        for pointer in empty_pattern_pointers(item):
            level: Level = "error" if _field(pointer) in _SEVERE else "warning"
            out.append(Diagnostic(describe(pointer), level, "RTK-empty-pattern", pointer=prefix(i) + pointer,
                                  source="validate"))
    return out


def without_empty_patterns(value: Any) -> tuple[Any, list[str]]:
    """A copy of a filter file value without its empty pattern rows, and the pointers left out.

    A table row whose pattern is empty goes as a whole (its replacement means nothing alone).
    """
    items = value if isinstance(value, list) else [value]
    prefix = _prefixer(value)
    found = [(i, p) for i, item in enumerate(items) for p in empty_pattern_pointers(item)]
    if not found:
        return value, []
    cleaned = copy.deepcopy(value)
    cleaned_items = cleaned if isinstance(cleaned, list) else [cleaned]
    for i, pointer in reversed(found):  # last first: earlier indices stay valid
        parts = pointer.strip("/").split("/")
        if parts[-1] == "pattern":
            parts = parts[:-1]
        parent = _resolve(cleaned_items[i], "/" + "/".join(parts[:-1]))
        if isinstance(parent, list):
            del parent[int(parts[-1])]
    return cleaned, [prefix(i) + p for i, p in found]
