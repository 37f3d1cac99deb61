"""The parsed form of a JavaScript pattern.

Character matchers are already evaluated to code-point sets (case-folded images under ``i``),
so the emitter never needs to know about escapes, classes or folding.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .charset import Ranges

INF = None  # an unbounded quantifier maximum


@dataclass(slots=True)
class Node:
    pass


@dataclass(slots=True)
class Empty(Node):
    pass


@dataclass(slots=True)
class Seq(Node):
    items: list[Node]


@dataclass(slots=True)
class Alt(Node):
    alternatives: list[Node]


@dataclass(slots=True)
class CharSet(Node):
    """One character from ``ranges``, or (``v`` mode) one of ``strings`` (longest first)."""

    ranges: Ranges
    strings: tuple[str, ...] = ()
    hint: str | None = None  # a `regex` class using property tables (faster than big explicit sets)
    hint_denoted: Ranges = ()  # what ``hint`` matches; the emitter corrects it to ``ranges``
    literal: bool = False  # a pattern character or character escape (not a class)
    v8_loop_defect: bool = False  # a v-mode [^]: V8 11.3 repeats it at most once (GAPS.md §2)


@dataclass(slots=True)
class Dot(Node):
    pass


@dataclass(slots=True)
class Anchor(Node):
    kind: str  # "^", "$", "b", "B"


@dataclass(slots=True)
class Group(Node):
    index: int
    body: Node
    name: str | None = None
    start: int = 0  # source span (parser units), for diagnostics
    end: int = 0


@dataclass(slots=True)
class Look(Node):
    behind: bool
    negative: bool
    body: Node


@dataclass(slots=True)
class Quant(Node):
    body: Node
    min: int
    max: int | None
    greedy: bool = True
    start: int = 0  # source span (parser units) of atom + quantifier, for diagnostics
    end: int = 0


@dataclass(slots=True)
class Backref(Node):
    index: int = 0
    name: str | None = None  # resolved to ``index`` once the whole pattern is parsed
    start: int = 0
    end: int = 0


@dataclass(slots=True)
class Unsupported(Node):
    """A valid construct whose data Rulewright lacks (string properties other than keycaps)."""

    what: str


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
