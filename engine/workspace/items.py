"""The list the visual editor shows (rules of a pack, filters of a file), kept live across edits.

Parsing a 2 MB filter file takes most of a second, so the full span tree is built in a worker.
Between two full parses this index keeps the item spans current by shifting them through every
splice, and re-parses only the one item an edit touched (a few hundred bytes). Form edits and
list operations work on these spans, so both views stay in sync on every keystroke whatever the
file size. A splice that crosses item boundaries (or changes anything outside the list) marks the
index stale until the next full parse.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from engine import jsonedit, jsontree
from engine.jsonedit import Splice, Style
from engine.workspace.kinds import FileKind, item_list, items_of

LIST_CHANGED = -1
_DECODER = json.JSONDecoder()


class _SpanNodes(Sequence[jsontree.Node]):
    """The items of the list as span-only ``jsontree.Node`` objects, made when looked at."""

    def __init__(self, spans: Sequence[Sequence[int]]) -> None:
        self._spans = spans

    def __len__(self) -> int:
        return len(self._spans)

    @overload
    def __getitem__(self, index: int) -> jsontree.Node: ...

    @overload
    def __getitem__(self, index: slice) -> list[jsontree.Node]: ...

    def __getitem__(self, index: int | slice) -> jsontree.Node | list[jsontree.Node]:
        if isinstance(index, slice):
            return [jsontree.Node("object", a, b) for a, b in self._spans[index]]
        a, b = self._spans[index]
        return jsontree.Node("object", a, b)


@dataclass
class ItemIndex:
    kind: FileKind
    list_pointer: str
    single: bool  # the file is one item (a one-filter file)
    container: list[int] | None  # [start, end) of the array, None when single
    spans: list[list[int]] = field(default_factory=list)  # [start, end) per item
    values: list[Any] = field(default_factory=list)
    stale: bool = False

    @classmethod
    def build(cls, kind: FileKind, parsed: jsontree.ParseResult) -> ItemIndex | None:
        if not parsed.ok:
            return None
        spec = item_list(kind, parsed.value)
        if spec is None:
            return None
        node = jsontree.resolve(parsed.root, spec.pointer)
        if node is None:
            return None
        if spec.single:
            if node.kind != "object":
                return None
            return cls(kind, "", True, None, [[node.start, node.end]], [node.value])
        if node.kind != "array":
            return None
        values = items_of(kind, parsed.value)
        return cls(kind, spec.pointer, False, [node.start, node.end],
                   [[n.start, n.end] for n in node.items], list(values))

    @classmethod
    def scan(cls, kind: FileKind, text: str) -> tuple[ItemIndex | None, jsontree.ParseResult]:
        """Build the index at C speed (no span tree); also returns the shallow parse."""
        parsed = jsontree.shallow_parse(text)
        if not parsed.ok:
            return None, parsed
        spec = item_list(kind, parsed.value)
        root = parsed.root
        if spec is None or root is None:
            return None, parsed
        if spec.single:
            if root.kind != "object":
                return None, parsed
            return cls(kind, "", True, None, [[root.start, root.end]], [root.value]), parsed
        container = root if spec.pointer == "" else jsontree.resolve(root, spec.pointer)
        if container is None or container.kind != "array":
            return None, parsed
        if container is not root:
            container = jsontree.scan_container(text, container.start)
        return cls(kind, spec.pointer, False, [container.start, container.end],
                   [[n.start, n.end] for n in container.items], [n.value for n in container.items]), parsed

    def __len__(self) -> int:
        return len(self.spans)

    def pointer(self, index: int) -> str:
        return "" if self.single else f"{self.list_pointer}/{index}"

    # -- keeping spans current ------------------------------------------------------------------
    def apply(self, splice: Splice, text_after: str, removed: str | None = None) -> int | None:
        """Shift spans through ``splice`` (already applied, giving ``text_after``).

        ``removed`` is the text the splice replaced (None: unknown, so gap edits are re-read).

        Returns the index of the one item whose text changed, ``LIST_CHANGED`` when the list was
        re-read, or None when no item changed. When the splice does not fit inside one item (or
        between items as whitespace) the array is re-read with the C decoder; only if that fails
        is the index stale until the next full parse.
        """
        if self.stale:
            return None
        result = self._apply(splice, text_after, removed)
        if self.stale and self.container is not None:
            self.stale = not self._local_rescan(splice, text_after)
            return LIST_CHANGED if not self.stale else None
        return result

    def _local_rescan(self, splice: Splice, text: str) -> bool:
        """Re-read only the items a structural splice touched (add, delete, move, paste).

        Items before the splice keep their spans, items after it are shifted; only the changed
        region is decoded, so moving one filter in a 2 MB file costs microseconds, not a rescan.
        """
        if self.container is None:
            return False
        old_spans, old_values = self.spans, self.values
        s, e = splice.start, splice.end
        delta = len(splice.insert) - (e - s)
        first = next((i for i, (_a, b) in enumerate(old_spans) if b >= s), len(old_spans))
        # where decoding restarts: the first touched item's start, or just after the separator
        if first < len(old_spans) and old_spans[first][0] < s:
            pos = old_spans[first][0]
        elif first > 0:
            pos = jsontree.after_blanks(text, old_spans[first - 1][1])
            if not text.startswith(",", pos):
                return self.rescan(text)
            pos = jsontree.after_blanks(text, pos + 1)
        else:
            pos = jsontree.after_blanks(text, self.container[0] + 1)
        # old items that start after the splice survive, shifted
        survivors = {a + delta: i for i, (a, _b) in enumerate(old_spans) if a >= e and i >= first}
        spans, values = old_spans[:first], old_values[:first]
        decoder = _DECODER
        try:
            if text.startswith("]", pos) and not spans:
                self.spans, self.values = [], []
                self.container = [self.container[0], pos + 1]
                return True
            while True:
                if pos >= s + len(splice.insert) and pos in survivors:
                    k = survivors[pos]
                    spans += [[a + delta, b + delta] for a, b in old_spans[k:]]
                    values += old_values[k:]
                    self.spans, self.values = spans, values
                    self.container = [self.container[0], self.container[1] + delta]
                    return True
                value, end = decoder.raw_decode(text, pos)
                spans.append([pos, end])
                values.append(value)
                pos = jsontree.after_blanks(text, end)
                if text.startswith(",", pos):
                    pos = jsontree.after_blanks(text, pos + 1)
                    continue
                if text.startswith("]", pos):
                    self.spans, self.values = spans, values
                    self.container = [self.container[0], pos + 1]
                    return True
                return False
        except ValueError:
            return False

    def rescan(self, text: str) -> bool:
        """Re-read every item of the array from its (known) start; False when it is not valid."""
        if self.container is None:
            return False
        decoder = _DECODER
        pos = self.container[0]
        if pos >= len(text) or text[pos] != "[":
            return False
        spans: list[list[int]] = []
        values: list[Any] = []
        pos = jsontree.after_blanks(text, pos + 1)
        try:
            if text.startswith("]", pos):
                end = pos + 1
            else:
                while True:
                    value, end = decoder.raw_decode(text, pos)
                    spans.append([pos, end])
                    values.append(value)
                    pos = jsontree.after_blanks(text, end)
                    if text.startswith(",", pos):
                        pos = jsontree.after_blanks(text, pos + 1)
                        continue
                    if text.startswith("]", pos):
                        end = pos + 1
                        break
                    return False
        except ValueError:
            return False
        self.container = [self.container[0], end]
        self.spans, self.values = spans, values
        return True

    def _apply(self, splice: Splice, text_after: str, removed: str | None) -> int | None:
        s, e, delta = splice.start, splice.end, len(splice.insert) - (splice.end - splice.start)
        if delta == 0 and not splice.insert and s == e:
            return None
        for i, (a, b) in enumerate(self.spans):
            if a <= s and e <= b and not (s == e == a and not self.single) and not (s == e == b and not self.single):
                # inside item i (insertions exactly at its edges belong to the gaps)
                self.spans[i][1] = b + delta
                self._shift_after(i + 1, delta)
                if self.container:
                    self.container[1] += delta
                return self._reparse(i, text_after)
        # not inside one item: allowed only as whitespace in a gap of the array
        blank = splice.insert.strip() == "" and removed is not None and removed.strip() == ""
        if not blank or not self.container:
            self.stale = True
            return None
        c0, c1 = self.container
        if not (c0 < s and e < c1):
            if e <= c0 or s >= c1:
                # outside the array (pack header, whitespace at the end): structure unchanged?
                if e <= c0:
                    self.container = [c0 + delta, c1 + delta]
                    self._shift_after(0, delta)
                return None
            self.stale = True
            return None
        for a, b in self.spans:
            if s < b and e > a:
                self.stale = True  # removed part of an item
                return None
        first_after = next((i for i, (a, _b) in enumerate(self.spans) if a >= e), len(self.spans))
        self._shift_after(first_after, delta)
        self.container[1] += delta
        return None

    def _shift_after(self, first: int, delta: int) -> None:
        for span in self.spans[first:]:
            span[0] += delta
            span[1] += delta

    def _reparse(self, i: int, text: str) -> int:
        a, b = self.spans[i]
        sub = jsontree.parse(text[a:b])
        if sub.ok and sub.root is not None and sub.root.start == 0 and sub.root.end == b - a:
            self.values[i] = sub.value
        else:
            self.stale = True  # the item is no longer one JSON value
        return i

    # -- edits ------------------------------------------------------------------------------------
    def item_tree(self, text: str, i: int) -> tuple[int, jsontree.ParseResult]:
        """(offset, tree) of item ``i``, parsed from the line it starts on (so levels are right)."""
        a, b = self.spans[i]
        line_start = text.rfind("\n", 0, a) + 1
        base = line_start if text[line_start:a].strip() == "" else a
        return base, jsontree.parse(text[base:b])

    def set_field(self, text: str, i: int, rel_pointer: str, value: Any, style: Style) -> Splice:
        """Splice that sets ``rel_pointer`` (relative to item ``i``) to ``value``."""
        base, tree = self.item_tree(text, i)
        rel = jsonedit.set_value(text[base : self.spans[i][1]], tree, rel_pointer, value, style)
        return Splice(base + rel.start, base + rel.end, rel.insert)

    def remove_field(self, text: str, i: int, rel_pointer: str) -> Splice | None:
        base, tree = self.item_tree(text, i)
        if jsontree.resolve(tree.root, rel_pointer) is None:
            return None
        rel = jsonedit.remove(text[base : self.spans[i][1]], tree, rel_pointer)
        return Splice(base + rel.start, base + rel.end, rel.insert)

    def _array_node(self) -> jsontree.Node:
        if self.single or self.container is None:
            raise jsonedit.EditError("this file holds a single item; it has no list to change")
        node = jsontree.Node("array", self.container[0], self.container[1])
        node.items = _SpanNodes(self.spans)  # an edit looks at one or two items, not all 2,200
        return node

    def insert(self, text: str, index: int, value: Any, style: Style) -> Splice:
        return jsonedit.insert_into(text, self._array_node(), index, value, style)

    def remove(self, text: str, index: int) -> Splice:
        return jsonedit.remove_child(text, self._array_node(), str(index))

    def move(self, text: str, src: int, dst: int) -> Splice:
        """One splice rotating items src..dst (fine for small lists; see ``insert_raw``)."""
        return jsonedit.move_within(text, self._array_node(), src, dst)

    def item_text(self, text: str, index: int) -> str:
        a, b = self.spans[index]
        return text[a:b]

    def insert_raw(self, text: str, index: int, raw: str, style: Style) -> Splice:
        """Insert an item's text verbatim (the second half of a move done as delete + insert)."""
        return jsonedit.insert_into(text, self._array_node(), index, None, style, raw=raw)

    def duplicate_value(self, index: int) -> Any:
        import copy

        return copy.deepcopy(self.values[index])
