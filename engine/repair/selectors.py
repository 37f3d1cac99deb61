"""Preprocessor selectors (spec §4.1): JSON-Pointer-like paths with a ``*`` wildcard.

Faithful to the reference: the first segment is dropped whatever it is, numeric segments do not
index arrays (REP-Q4), a literal ``*`` key is unreachable, and the leaf is read with ordinary JS
property access, so inherited ``Object.prototype`` members are found (REP-Q11).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .jsdata import js_get

ROOT = object()  # the key of the root location (it has no parent)


@dataclass
class Location:
    parent: Any  # None for the root
    key: Any  # str for objects, int for arrays, ROOT for the root
    value: Any

    @property
    def is_root(self) -> bool:
        return self.key is ROOT


def decode_segment(segment: str) -> str:
    return segment.replace("~1", "/").replace("~0", "~")


def split_selector(selector: str) -> list[str] | None:
    """Decoded segments after the first; ``None`` for the root selectors ``""`` and ``"/"``."""
    if selector in ("", "/"):
        return None
    return [decode_segment(s) for s in selector.split("/")[1:]]


def resolve(root: Any, selector: str, *, index_arrays: bool = False,
            own_only: bool = False, on_numeric_array: Callable[[str], object] | None = None) -> list[Location]:
    """Every location the selector addresses in ``root`` (missing leaves included)."""
    segments = split_selector(selector)
    if not segments:
        return [Location(None, ROOT, root)]
    containers = [root]
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        if segment == "*":
            if last:
                return [Location(c, j, item) for c in containers if isinstance(c, list)
                        for j, item in enumerate(c)]
            containers = [item for c in containers if isinstance(c, list) for item in c]
            continue
        if last:
            found = []
            for c in containers:
                if isinstance(c, dict):
                    found.append(Location(c, segment, js_get(c, segment, own_only=own_only)))
                elif isinstance(c, list) and segment.isdigit() and segment.isascii():
                    if on_numeric_array is not None:
                        on_numeric_array(selector)
                    if index_arrays and int(segment) < len(c):  # strict fix of REP-Q4
                        found.append(Location(c, int(segment), c[int(segment)]))
            return found
        nxt = []
        for c in containers:
            if isinstance(c, dict):
                child = js_get(c, segment, own_only=own_only)
                if isinstance(child, dict | list):
                    nxt.append(child)
            elif isinstance(c, list) and segment.isdigit() and segment.isascii():
                if on_numeric_array is not None:
                    on_numeric_array(selector)
                if index_arrays and int(segment) < len(c):
                    nxt.append(c[int(segment)])
        containers = nxt
    return []  # pragma: no cover - the loop always returns at the last segment


def set_location(root: object, location: Location, value: object) -> Any:
    """Write ``value`` at the location; returns the (possibly replaced) root."""
    if location.is_root:
        return value
    location.parent[location.key] = value
    location.value = value
    return root


def schema_at(schema: object, selector: str) -> Any:
    """The (built) schema node a selector addresses, following properties/items; ``None`` if unknown."""
    node = schema
    for segment in split_selector(selector) or []:
        if not isinstance(node, dict):
            return None
        if segment == "*" or (segment.isdigit() and node.get("type") == "array"):
            node = node.get("items")
        else:
            props = node.get("properties")
            if not isinstance(props, dict) or segment not in props:
                return None
            node = props[segment]
    return node
