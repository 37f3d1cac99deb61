"""Edit JSON text the way a person would: touch only the value that changed.

Every operation returns one ``Splice`` (replace ``text[start:end]`` by ``insert``), computed from
the span tree of :mod:`engine.jsontree`. Keys keep their order, untouched values keep
their formatting, and new text follows the file's own style (indent unit, ``": "`` spacing, line
ending, one-line vs multi-line containers). The same splice is what the undo stack records.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from engine.jsontree import Node, ParseResult, join_pointer, resolve, split_pointer


@dataclass(frozen=True)
class Splice:
    start: int
    end: int
    insert: str

    def apply(self, text: str) -> str:
        # one join, not two concatenations: each ``+`` copies the whole (possibly 2 MB) text again
        return "".join((text[: self.start], self.insert, text[self.end :]))

    def inverse(self, text: str) -> Splice:
        """The splice that undoes this one, given the text *before* it was applied."""
        return Splice(self.start, self.start + len(self.insert), text[self.start : self.end])


class EditError(ValueError):
    """The edit does not fit the document (wrong pointer, not a container, text not JSON)."""


@dataclass(frozen=True)
class Style:
    indent: str = "  "
    newline: str = "\n"
    colon: str = ": "

    @classmethod
    def detect(cls, text: str) -> Style:
        newline = "\r\n" if "\r\n" in text[:4096] else "\n"
        indent = "  "
        m = re.search(r"\n([ \t]+)\S", text[:65536])
        if m:
            unit = m.group(1)
            indent = "\t" if unit.startswith("\t") else " " * min(len(unit), 8)
        colon = ": "
        m2 = re.search(r'"\s*(:\s*)\S', text[:65536])
        if m2 and m2.group(1) == ":":
            colon = ":"
        return cls(indent, newline, colon)


def dumps(value: Any, style: Style, level: int, one_line: bool = False) -> str:
    """Serialise ``value`` as it would appear at nesting ``level`` of a file in ``style``."""
    if one_line or not isinstance(value, (dict, list)) or not value:
        return _compact(value)
    pad = style.indent * (level + 1)
    end_pad = style.indent * level
    nl = style.newline
    if isinstance(value, dict):
        parts = [f"{pad}{_scalar(k)}{style.colon}{dumps(v, style, level + 1, _keep_compact(v))}"
                 for k, v in value.items()]
        return "{" + nl + ("," + nl).join(parts) + nl + end_pad + "}"
    parts = [f"{pad}{dumps(v, style, level + 1, _keep_compact(v))}" for v in value]
    return "[" + nl + ("," + nl).join(parts) + nl + end_pad + "]"


def _keep_compact(value: Any) -> bool:
    """Short lists of scalars read best on one line (``"flags": ["g", "i"]``)."""
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return len(_compact(value)) <= 60
    return False


def _scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _level_of(text: str, node_start: int, style: Style) -> int:
    """Nesting level implied by the indentation of the line where ``node_start`` sits."""
    line_start = text.rfind("\n", 0, node_start) + 1
    lead = len(text[line_start:node_start]) - len(text[line_start:node_start].lstrip(" \t"))
    unit = len(style.indent) or 1
    return lead // unit


def _is_multiline(text: str, node: Node) -> bool:
    return text.find("\n", node.start, node.end) != -1  # no copy of a (possibly 2 MB) array's text


def _tree(parsed: ParseResult) -> Node:
    if parsed.root is None:
        raise EditError("the document is not valid JSON; fix it in the JSON view first")
    return parsed.root


def set_value(text: str, parsed: ParseResult, pointer: str, value: Any, style: Style | None = None) -> Splice:
    """Replace the value at ``pointer``, or add the member when its parent object lacks it."""
    root = _tree(parsed)
    node = resolve(root, pointer)
    style = style or Style.detect(text)
    if node is None:
        tokens = split_pointer(pointer)
        if not tokens:
            raise EditError("no root value")
        # create missing parents as nested objects on the deepest existing object
        depth = len(tokens) - 1
        while depth > 0 and resolve(root, join_pointer(tokens[:depth])) is None:
            depth -= 1
        parent = resolve(root, join_pointer(tokens[:depth]))
        if parent is None or parent.kind != "object":
            raise EditError(f"cannot create {pointer}: its parent is not an object")
        nested: Any = value
        for token in reversed(tokens[depth + 1 :]):
            nested = {token: nested}
        return add_member(text, parsed, join_pointer(tokens[:depth]), tokens[depth], nested, style)
    if node.value == value and type(node.value) is type(value):
        return Splice(node.start, node.start, "")
    one_line = not _is_multiline(text, node) and node.kind in ("object", "array") and bool(node.value)
    if node.kind not in ("object", "array") or not node.value:
        one_line = _keep_compact(value) or not isinstance(value, (dict, list))
    level = _level_of(text, _line_anchor(text, node.start), style)
    return Splice(node.start, node.end, dumps(value, style, level, one_line))


def _line_anchor(text: str, offset: int) -> int:
    """First non-blank offset of the line holding ``offset`` (its indentation marks the level)."""
    line_start = text.rfind("\n", 0, offset) + 1
    stripped = text[line_start:offset]
    return line_start + len(stripped) - len(stripped.lstrip(" \t"))


def add_member(text: str, parsed: ParseResult, obj_pointer: str, key: str, value: Any,
               style: Style | None = None) -> Splice:
    """Append ``key: value`` to the object at ``obj_pointer`` (after its last member)."""
    root = _tree(parsed)
    obj = resolve(root, obj_pointer)
    if obj is None or obj.kind != "object":
        raise EditError(f"{obj_pointer or '/'} is not an object")
    style = style or Style.detect(text)
    level = _level_of(text, _line_anchor(text, obj.start), style)
    if not obj.members:
        return Splice(obj.start, obj.end, dumps({key: value}, style, level))
    last = obj.members[-1]
    multiline = _is_multiline(text, obj)
    if multiline:
        member_level = _level_of(text, last.key_start, style)
        sep = "," + style.newline + style.indent * member_level
    else:
        member_level = level
        sep = ", "
    rendered = dumps(value, style, member_level, not multiline or _keep_compact(value))
    return Splice(last.node.end, last.node.end, f"{sep}{_scalar(key)}{style.colon}{rendered}")


def remove(text: str, parsed: ParseResult, pointer: str) -> Splice:
    """Delete the member or array item at ``pointer`` together with its separator."""
    root = _tree(parsed)
    tokens = split_pointer(pointer)
    if not tokens:
        raise EditError("cannot remove the root value")
    parent = resolve(root, join_pointer(tokens[:-1]))
    if parent is None:
        raise EditError(f"{pointer} does not exist")
    return remove_child(text, parent, tokens[-1])


def remove_child(text: str, parent: Node, token: str) -> Splice:
    """Delete member ``token`` of object ``parent`` (or item ``token`` of an array)."""
    if parent.kind == "object":
        member = parent.member(token)
        if member is None:
            raise EditError(f"member {token!r} does not exist")
        index = next(i for i, m in enumerate(parent.members) if m is member)
        count = len(parent.members)

        def span(i: int) -> tuple[int, int]:
            return parent.members[i].key_start, parent.members[i].node.end
    elif parent.kind == "array":
        index = int(token) if token.isdigit() else -1
        count = len(parent.items)
        if not 0 <= index < count:
            raise EditError(f"item {token} does not exist")

        def span(i: int) -> tuple[int, int]:  # only the neighbours are looked at, not every item
            return parent.items[i].start, parent.items[i].end
    else:
        raise EditError(f"{token!r}: the parent is not a container")
    if count == 1:
        # the only element: empty the container but keep its brackets
        opener = text[parent.start]
        closer = "}" if opener == "{" else "]"
        return Splice(parent.start, parent.end, opener + closer)
    if index < count - 1:
        # remove from this element's start to the next element's start
        return Splice(span(index)[0], span(index + 1)[0], "")
    # last element: remove from the previous element's end
    return Splice(span(index - 1)[1], span(index)[1], "")


def insert_item(text: str, parsed: ParseResult, array_pointer: str, index: int, value: Any,
                style: Style | None = None) -> Splice:
    """Insert ``value`` into the array at ``array_pointer`` so that it ends up at ``index``."""
    root = _tree(parsed)
    arr = resolve(root, array_pointer)
    if arr is None or arr.kind != "array":
        raise EditError(f"{array_pointer or '/'} is not an array")
    return insert_into(text, arr, index, value, style)


def insert_into(text: str, arr: Node, index: int, value: Any, style: Style | None = None,
                raw: str | None = None) -> Splice:
    """Insert ``value`` into array node ``arr`` at ``index`` (only item spans are needed).

    ``raw``: the item's text as it should appear (a moved item keeps its own formatting).
    """
    style = style or Style.detect(text)
    level = _level_of(text, _line_anchor(text, arr.start), style)
    items = arr.items
    index = max(0, min(index, len(items)))
    if not items:
        if raw is not None:
            return Splice(arr.start, arr.end, "[" + raw + "]")
        return Splice(arr.start, arr.end, dumps([value], style, level, _keep_compact([value])))
    multiline = _is_multiline(text, arr)
    if multiline:
        anchor = items[0]
        item_level = _level_of(text, _line_anchor(text, anchor.start), style)
        sep = "," + style.newline + style.indent * item_level
    else:
        item_level = level
        sep = ", "
    rendered = raw if raw is not None else dumps(value, style, item_level, not multiline or _keep_compact(value))
    if index < len(items):
        return Splice(items[index].start, items[index].start, rendered + sep)
    return Splice(items[-1].end, items[-1].end, sep + rendered)


def move_item(text: str, parsed: ParseResult, array_pointer: str, src: int, dst: int) -> Splice:
    """Move item ``src`` so that it lands at index ``dst``; every item keeps its own text."""
    root = _tree(parsed)
    arr = resolve(root, array_pointer)
    if arr is None or arr.kind != "array":
        raise EditError(f"{array_pointer or '/'} is not an array")
    return move_within(text, arr, src, dst)


def move_within(text: str, arr: Node, src: int, dst: int) -> Splice:
    """Move item ``src`` of array node ``arr`` to index ``dst``."""
    items = arr.items
    if not (0 <= src < len(items) and 0 <= dst < len(items)):
        raise EditError("index out of range")
    if src == dst:
        return Splice(items[src].start, items[src].start, "")
    texts = [text[n.start : n.end] for n in items]
    moved = texts.pop(src)
    texts.insert(dst, moved)
    lo, hi = min(src, dst), max(src, dst)
    # keep the separators between lo..hi exactly as they were; only the item texts rotate
    pieces = []
    for i in range(lo, hi + 1):
        pieces.append(texts[i])
        if i < hi:
            pieces.append(text[items[i].end : items[i + 1].start])
    return Splice(items[lo].start, items[hi].end, "".join(pieces))


def replace_all(text: str, value: Any) -> Splice:
    """Rewrite the whole document (used only for brand-new files)."""
    style = Style.detect(text) if text.strip() else Style()
    return Splice(0, len(text), dumps(value, style, 0) + style.newline)
