"""The parsed form of a JavaScript pattern.

Character matchers are already evaluated to code-point sets (case-folded images under ``i``),
so the emitter never needs to know about escapes, classes or folding.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from .charset import Ranges

INF = None  # an unbounded quantifier maximum


class Node:
    """Base of the AST nodes: value equality and a readable repr over the fields.

    Plain classes with ``__slots__`` rather than dataclasses: generating a dozen dataclasses
    cost ~4 ms of every CLI run's start-up, and these nodes need nothing more.
    """

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    # mutable value objects, like the dataclasses they replace (mypy types object.__hash__ as a
    # method and cannot express the documented ``__hash__ = None``)
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._fields)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"


class Empty(Node):
    __slots__ = ()


class Seq(Node):
    __slots__ = _fields = ("items",)

    def __init__(self, items: list[Node]) -> None:
        self.items = items


class Alt(Node):
    __slots__ = ("alternatives", "spans")
    _fields = ("alternatives",)

    def __init__(self, alternatives: list[Node], spans: tuple[tuple[int, int], ...] = ()) -> None:
        self.alternatives = alternatives
        # where each alternative lies in the source (parser units), when the parser made it;
        # not compared (``engine.jsregex.facts`` reads alternatives back as source text)
        self.spans = spans


class CharSet(Node):
    """One character from ``ranges``, or (``v`` mode) one of ``strings`` (longest first)."""

    __slots__ = _fields = ("ranges", "strings", "hint", "hint_denoted", "literal", "v8_loop_defect")

    def __init__(
        self,
        ranges: Ranges,
        strings: tuple[str, ...] = (),
        hint: str | None = None,  # a `regex` class using property tables (faster than big explicit sets)
        hint_denoted: Ranges = (),  # what ``hint`` matches; the emitter corrects it to ``ranges``
        literal: bool = False,  # a pattern character or character escape (not a class)
        v8_loop_defect: bool = False,  # a v-mode [^]: V8 11.3 repeats it at most once (GAPS.md §2)
    ) -> None:
        self.ranges = ranges
        self.strings = strings
        self.hint = hint
        self.hint_denoted = hint_denoted
        self.literal = literal
        self.v8_loop_defect = v8_loop_defect


class Dot(Node):
    __slots__ = ()


class Anchor(Node):
    __slots__ = _fields = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind  # "^", "$", "b", "B"


class Group(Node):
    __slots__ = _fields = ("index", "body", "name", "start", "end")

    def __init__(self, index: int, body: Node, name: str | None = None, start: int = 0, end: int = 0) -> None:
        self.index = index
        self.body = body
        self.name = name
        self.start = start  # source span (parser units), for diagnostics
        self.end = end


class Look(Node):
    __slots__ = _fields = ("behind", "negative", "body")

    def __init__(self, behind: bool, negative: bool, body: Node) -> None:
        self.behind = behind
        self.negative = negative
        self.body = body


class Quant(Node):
    __slots__ = _fields = ("body", "min", "max", "greedy", "start", "end")

    def __init__(self, body: Node, min: int, max: int | None, greedy: bool = True,
                 start: int = 0, end: int = 0) -> None:
        self.body = body
        self.min = min
        self.max = max
        self.greedy = greedy
        self.start = start  # source span (parser units) of atom + quantifier, for diagnostics
        self.end = end


class Backref(Node):
    __slots__ = _fields = ("index", "name", "start", "end")

    def __init__(self, index: int = 0, name: str | None = None, start: int = 0, end: int = 0) -> None:
        self.index = index
        self.name = name  # resolved to ``index`` once the whole pattern is parsed
        self.start = start
        self.end = end


class Unsupported(Node):
    """A valid construct whose data Rulewright lacks (string properties other than keycaps)."""

    __slots__ = _fields = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what


@dataclass
class QuirkEvent:
    code: str
    start: int  # offsets in the parser's units (UTF-16 without u; code points with u/v)
    end: int
    message: str


@dataclass
class Parsed:
    root: Node
    group_count: int
    group_names: list[tuple[str, int]]  # (name, index) in pattern order
    quirks: list[QuirkEvent] = field(default_factory=list)
    unsupported: str | None = None

    def atom_text(self) -> list[int] | None:
        """The code points when the whole pattern is literal text (V8 then uses plain string search)."""
        items = self.root.items if isinstance(self.root, Seq) else [self.root]
        out = []
        for item in items:
            if not (isinstance(item, CharSet) and item.literal):
                return None
            out.append(item.ranges[0][0])
        return out or None


def walk(root: Node) -> Iterator[Node]:
    """Every node under ``root`` (itself included), each once, in no particular order: what
    the analyses that ask "does any node …" need."""
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Seq):
            stack.extend(node.items)
        elif isinstance(node, Alt):
            stack.extend(node.alternatives)
        elif isinstance(node, Group | Look | Quant):
            stack.append(node.body)
