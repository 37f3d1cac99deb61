"""Adding a learned pattern to a filter in an open filter file, as one text splice.

The IDE's "Drop/Keep lines like these" writes through the document's undo stack, so the edit
must be a single splice of the file's text: an item appended to the filter's
``rules.dropPatterns`` (or ``preserve.*``), with the containing object or array created when the
filter has none yet. Formatting follows the file's own style (``jsonedit.Style.detect``).
"""

from __future__ import annotations

from typing import Any

from engine import jsonedit, jsontree
from engine.workspace.filter_files import filter_pointers

FIELDS = {"rules.dropPatterns", "rules.collapsePatterns", "preserve.errorPatterns", "preserve.summaryPatterns",
          "match.patterns"}


def filter_object(text: str, filter_id: str) -> tuple[str, dict[str, Any]]:
    """(pointer, value) of the filter ``filter_id`` in a filter file's text."""
    parsed = jsontree.parse(text)
    if not parsed.ok:
        raise jsonedit.EditError("the file is not valid JSON right now; fix it first")
    pointers = filter_pointers(parsed.root.value if parsed.root is not None else None)
    if filter_id not in pointers:
        raise jsonedit.EditError(f"no filter {filter_id!r} in this file")
    node = jsontree.resolve(parsed.root, pointers[filter_id])
    if node is None or not isinstance(node.value, dict):  # (filter_pointers lists objects only)
        raise jsonedit.EditError(f"no filter {filter_id!r} in this file")
    return pointers[filter_id], node.value


def add_pattern_splice(text: str, filter_id: str, dotted: str, pattern: str) -> jsonedit.Splice:
    """The splice that appends ``pattern`` to ``dotted`` (e.g. ``rules.dropPatterns``) of
    ``filter_id``; raises ``EditError`` when the pattern is already there or the file cannot take it."""
    if dotted not in FIELDS:
        raise ValueError(f"not a pattern list: {dotted}")
    outer, inner = dotted.split(".")
    pointer, value = filter_object(text, filter_id)
    parsed = jsontree.parse(text)
    style = jsonedit.Style.detect(text)
    container = value.get(outer)
    if container is None:
        return jsonedit.add_member(text, parsed, pointer, outer, {inner: [pattern]}, style)
    if not isinstance(container, dict):
        raise jsonedit.EditError(f"the filter's {outer} is not an object")
    items = container.get(inner)
    if items is None:
        return jsonedit.add_member(text, parsed, f"{pointer}/{outer}", inner, [pattern], style)
    if not isinstance(items, list):
        raise jsonedit.EditError(f"the filter's {dotted} is not an array")
    if pattern in items:
        raise jsonedit.EditError(f"{dotted} already holds {pattern!r}")
    return jsonedit.insert_item(text, parsed, f"{pointer}/{outer}/{inner}", len(items), pattern, style)


def pattern_list(text: str, filter_id: str, dotted: str) -> list[str]:
    outer, inner = dotted.split(".")
    _, value = filter_object(text, filter_id)
    items = (value.get(outer) or {}).get(inner) if isinstance(value.get(outer), dict) else None
    return [p for p in items if isinstance(p, str)] if isinstance(items, list) else []
