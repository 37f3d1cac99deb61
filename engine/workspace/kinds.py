"""What a workspace file is, and where its editable list of items lives.

Caveman packs (``{language, category, rules}``), RTK filters (one canonical or legacy filter
object, or an array of them, e.g. ``.rtk/filters.json``), RTK TOML v1 files and
``.rtk/trust.json`` are told apart by location first and by shape second, so a half-typed file
keeps its kind while it is broken.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any


class FileKind(enum.Enum):
    CAVEMAN_PACK = "caveman-pack"
    RTK_FILTER = "rtk-filter"  # one filter object per file (built-in style)
    RTK_FILTERS = "rtk-filters"  # an array of filters (or a project/global filters.json)
    RTK_TOML = "rtk-toml"
    TRUST = "trust"
    JSON = "json"  # some other JSON file
    OTHER = "other"

    @property
    def label(self) -> str:
        return {
            FileKind.CAVEMAN_PACK: "Caveman pack",
            FileKind.RTK_FILTER: "RTK filter",
            FileKind.RTK_FILTERS: "RTK filters",
            FileKind.RTK_TOML: "RTK TOML filters",
            FileKind.TRUST: "RTK trust file",
            FileKind.JSON: "JSON",
            FileKind.OTHER: "file",
        }[self]

    @property
    def has_items(self) -> bool:
        return self in (FileKind.CAVEMAN_PACK, FileKind.RTK_FILTER, FileKind.RTK_FILTERS)


FILTER_CANONICAL_KEYS = {"id", "label", "match"}
FILTER_LEGACY_KEYS = {"id", "name", "commandTypes"}


def looks_like_filter(value: Any) -> bool:
    return isinstance(value, dict) and (
        value.keys() >= FILTER_CANONICAL_KEYS or value.keys() >= FILTER_LEGACY_KEYS
        or ("id" in value and ("rules" in value or "preserve" in value) and "language" not in value)
    )


def looks_like_pack(value: Any) -> bool:
    return isinstance(value, dict) and "rules" in value and ("language" in value or "category" in value) \
        and isinstance(value.get("rules"), list)


def looks_like_rtk_toml(text: str) -> bool:
    """rtk's TOML filter file, by its ``[filters.…]`` tables (``filters/make.toml`` says it by
    its content only)."""
    return "[filters." in text


def classify(path: str | PurePath, value: Any = None, parsed_ok: bool = True, *, text: str | None = None) -> FileKind:
    """Kind of the file at ``path`` whose parsed JSON is ``value`` (None when not parsed);
    ``text``, when known, tells an rtk TOML file that its name does not."""
    p = PurePath(path)
    name = p.name
    in_rtk = p.parent.name == ".rtk" or (p.parent.name == "rtk" and name.startswith("filters."))
    if name.endswith(".toml"):
        by_name = in_rtk or "filter" in name or (text is not None and looks_like_rtk_toml(text))
        return FileKind.RTK_TOML if by_name else FileKind.OTHER
    if not name.endswith(".json"):
        return FileKind.OTHER
    if in_rtk and name == "trust.json":
        return FileKind.TRUST
    if in_rtk and name == "filters.json":
        return FileKind.RTK_FILTERS
    if parsed_ok and value is not None:
        if looks_like_pack(value):
            return FileKind.CAVEMAN_PACK
        if looks_like_filter(value):
            return FileKind.RTK_FILTER
        if isinstance(value, list) and value and all(looks_like_filter(v) for v in value):
            return FileKind.RTK_FILTERS
        if "filtersSha256" in (value if isinstance(value, dict) else {}):
            return FileKind.TRUST
    # broken or empty: guess from the folder names
    parts = {part.lower() for part in p.parts[:-1]}
    if parts & {"filters", "rtk"}:
        return FileKind.RTK_FILTER
    if parts & {"rules", "packs", "caveman"}:
        return FileKind.CAVEMAN_PACK
    return FileKind.JSON


@dataclass(frozen=True)
class ItemList:
    """Where the visual editor's list lives: ``pointer`` of an array, or a single object."""

    pointer: str
    single: bool  # True: the file *is* one item (pointer "" is that object)


def item_list(kind: FileKind, value: Any) -> ItemList | None:
    if kind == FileKind.CAVEMAN_PACK:
        return ItemList("/rules", False)
    if kind in (FileKind.RTK_FILTER, FileKind.RTK_FILTERS):
        if isinstance(value, list):
            return ItemList("", False)
        return ItemList("", True)
    return None


def items_of(kind: FileKind, value: Any) -> list[Any]:
    """The items of the file's list (rules or filters); [] when the shape is unexpected."""
    spec = item_list(kind, value)
    if spec is None:
        return []
    if spec.single:
        return [value] if isinstance(value, dict) else []
    if kind == FileKind.CAVEMAN_PACK:
        rules = value.get("rules") if isinstance(value, dict) else None
        return rules if isinstance(rules, list) else []
    return value if isinstance(value, list) else []


def item_pointer(kind: FileKind, value: Any, index: int) -> str:
    spec = item_list(kind, value)
    if spec is None:
        return ""
    if spec.single:
        return ""
    return f"{spec.pointer}/{index}"


def item_label(kind: FileKind, item: Any) -> str | None:
    """The item's own title (a rule's name, a filter's id and label), or None when it has none."""
    if not isinstance(item, dict):
        return None
    if kind == FileKind.CAVEMAN_PACK:
        name = item.get("name")
        return name if isinstance(name, str) and name.strip() else None
    ident = item.get("id")
    label = item.get("label", item.get("name"))
    if isinstance(ident, str) and ident:
        return ident if not isinstance(label, str) or not label else f"{ident} — {label}"
    return None


def item_title(kind: FileKind, item: Any, index: int) -> str:
    """The item's label, or its position when it has none."""
    label = item_label(kind, item)
    if label is not None:
        return label
    if not isinstance(item, dict):
        return f"#{index + 1} (not an object)"
    return f"rule {index + 1}" if kind == FileKind.CAVEMAN_PACK else f"filter {index + 1}"
