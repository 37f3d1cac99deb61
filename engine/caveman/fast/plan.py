"""Where a JavaScript pattern's matches can start: literal anchors derived from its parsed
tree (``\\b(?:please|kindly)…`` starts at "please" or "kindly"; ``(?:^|\\s)\\.{0,2}/…`` starts 0–3
units before a "/"), with the offsets at which they sit from the match start, or a start kind
(text start, line starts). ``engine.caveman.fast.regex`` tries the real regex at those
positions only."""

from __future__ import annotations

from dataclasses import dataclass

from engine import memo
from engine.caveman.required import required_of
from engine.jsregex import ast as A
from engine.jsregex.backtracking import parse_root

MAX_STRINGS = 64
MAX_LITERAL = 32  # longer needles scan faster (str.count skips further)
MAX_SET = 16
WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")

StartAnchor = tuple[frozenset[str], int, int]  # (literals, lo, hi): a match starts lo..hi units before one
# what a walk finds: anchors, a start kind ("text"/"line"), or a start kind narrowed by anchors
Found = list[StartAnchor] | str | tuple[str, list[StartAnchor]]


@dataclass(frozen=True)
class Plan:
    """Where matches can start: ``anchors`` ((literals, lo, hi), …) or a start kind."""

    anchors: tuple[StartAnchor, ...] = ()
    start: str = ""  # "text": only at 0; "line": at 0 and after each line terminator
    ignore_case: bool = False
    boundary: bool = False  # every match starts with ``\\b`` (a word boundary at the start)


def _width(node: A.Node) -> tuple[int, int | None]:
    if isinstance(node, A.CharSet | A.Dot):
        return (1, 1) if not getattr(node, "strings", ()) else (0, None)
    if isinstance(node, A.Anchor | A.Look | A.Empty):
        return 0, 0
    if isinstance(node, A.Group):
        return _width(node.body)
    if isinstance(node, A.Seq):
        lo = 0
        hi: int | None = 0
        for item in node.items:
            a, b = _width(item)
            lo += a
            hi = None if hi is None or b is None else hi + b
        return lo, hi
    if isinstance(node, A.Alt):
        widths = [_width(a) for a in node.alternatives]
        highs = [b for _a, b in widths if b is not None]
        return min(w[0] for w in widths), (max(highs) if len(highs) == len(widths) else None)
    if isinstance(node, A.Quant):
        a, b = _width(node.body)
        return a * node.min, (None if node.max is None or b is None else b * node.max)
    return 0, None  # backreferences, unsupported constructs


def _small_set(node: A.Node) -> list[str] | None:
    if not isinstance(node, A.CharSet) or node.strings:
        return None
    chars: list[str] = []
    for lo, hi in node.ranges:
        if hi - lo + 1 + len(chars) > MAX_SET or hi >= 0xD800:
            return None
        chars.extend(chr(c) for c in range(lo, hi + 1))
    return chars or None


class _NoPlan(Exception):
    pass


def _extend(items: list[A.Node], i: int, strings: list[str]) -> list[str]:
    """Grow literal strings through the following single-character items; an optional one
    (``x?``) keeps both variants. Every match starts with one of the returned strings."""
    while i < len(items) and max(map(len, strings)) < MAX_LITERAL:
        item = items[i]
        chars = _small_set(item)
        if chars is not None:
            grown = [s + c for s in strings for c in chars]
        elif isinstance(item, A.Quant) and item.min == 0 and item.max == 1 \
                and (optional := _small_set(item.body)):
            grown = strings + [s + c for s in strings for c in optional]
        else:
            break
        if len(grown) > MAX_STRINGS:
            break
        strings = grown
        i += 1
    return sorted(set(strings))


def _anchors(items: list[A.Node], lo: int, hi: int, multiline: bool) -> Found:
    for i, item in enumerate(items):
        if isinstance(item, A.Anchor) and item.kind == "^" and lo == hi == 0:
            start = "line" if multiline else "text"
            try:  # literals right after ^ narrow the line starts down further
                rest = _anchors(items[i + 1:], 0, 0, multiline)
            except _NoPlan:
                return start
            return (start, rest) if isinstance(rest, list) else start
        chars = _small_set(item)
        if chars is not None:
            return [(frozenset(_extend(items, i + 1, chars)), lo, hi)]
        if isinstance(item, A.Quant) and item.min >= 1:
            inner = _small_set(item.body)
            if inner is not None:
                return [(frozenset(inner), lo, hi)]
            found = _node_anchors(item.body, lo, hi, multiline)
            if found is not None:
                return found
        elif isinstance(item, A.Group | A.Alt | A.Seq):
            found = _node_anchors(item, lo, hi, multiline)
            if found is not None:
                return found
        a, b = _width(item)
        if b is None:
            raise _NoPlan
        lo, hi = lo + a, hi + b
    raise _NoPlan


def _node_anchors(node: A.Node, lo: int, hi: int, multiline: bool) -> Found | None:
    """Anchors of ``node`` (list), a start kind (str, or with anchors: tuple) or None when it has none."""
    if isinstance(node, A.Group):
        return _node_anchors(node.body, lo, hi, multiline)
    if isinstance(node, A.Alt):
        out: list[StartAnchor] = []
        for alt in node.alternatives:
            found = _node_anchors(alt, lo, hi, multiline)
            if not isinstance(found, list):
                return None
            out.extend(found)
        return out
    items = node.items if isinstance(node, A.Seq) else [node]
    try:
        return _anchors(items, lo, hi, multiline)
    except _NoPlan:
        return None


def analyse(source: str, flags: str) -> tuple[Plan | None, int | None]:
    """``(start plan or None, minimum match width or None)`` of a JS pattern."""
    return pattern_facts(source, flags)[:2]


@memo.lru(maxsize=2048)
def pattern_facts(source: str, flags: str) -> tuple[Plan | None, int | None, frozenset[str] | None]:
    """``analyse``, and the literals every match holds (``engine.caveman.required``), from one
    parse (a pattern typed in a live preview is a new one at each keystroke)."""
    try:
        # (not kept: only patterns that go on to meet enough text need their tree again, for the
        # linearity checks of the untimed set-up, and parse it then)
        root = parse_root(source, flags)
    except Exception:  # an internal shape we do not know: never risk a wrong answer
        return None, None, None
    plan, min_width = _plan(root, flags)
    return plan, min_width, required_of(root, flags)


def _plan(root: A.Node, flags: str) -> tuple[Plan | None, int | None]:
    try:
        min_width = _width(root)[0]
        if any(f in flags for f in "yuv"):
            return None, min_width
        found = _node_anchors(root, 0, 0, "m" in flags)
    except Exception:  # an internal shape we do not know: never risk a wrong answer
        return None, None
    if found is None:
        return None, min_width
    if isinstance(found, str):
        return Plan(start=found), min_width
    boundary = _starts_at_boundary(root)
    if isinstance(found, tuple):
        start, anchors = found
        return Plan(anchors=_merge(anchors), start=start, ignore_case="i" in flags, boundary=boundary), min_width
    return Plan(anchors=_merge(found), ignore_case="i" in flags, boundary=boundary), min_width


def _starts_at_boundary(root: A.Node) -> bool:
    """Whether a ``\\b`` is among the zero-width items the pattern starts with (so it is tested
    at the match start)."""
    items = root.items if isinstance(root, A.Seq) else [root]
    for item in items:
        if isinstance(item, A.Anchor) and item.kind == "b":
            return True
        if not isinstance(item, A.Anchor | A.Look | A.Empty):
            return False
    return False


def at_boundaries(units: str, positions: list[int]) -> list[int]:
    """The positions where JavaScript's non-``u`` ``\\b`` holds (``\\w`` is ``[A-Za-z0-9_]``;
    the edges of the text count as non-word)."""
    n, word = len(units), WORD
    return [p for p in positions if (p > 0 and units[p - 1] in word) != (p < n and units[p] in word)]


MERGE_PREFIX = 6


def _common_prefix(strings: list[str]) -> str:
    first, last = min(strings), max(strings)
    k = 0
    while k < len(first) and first[k] == last[k]:
        k += 1
    return first[:k]


def _merge(anchors: list[StartAnchor]) -> tuple[StartAnchor, ...]:
    """Fewer literals to scan for: per offset range, drop a literal that extends another one (its
    occurrences are among the shorter one's) and replace literals sharing their first
    ``MERGE_PREFIX`` characters by their common prefix (a few more candidates, fewer scans), or
    all of them by a shared tail that starts with punctuation."""
    by_range: dict[tuple[int, int], set[str]] = {}
    for literals, lo, hi in anchors:
        by_range.setdefault((lo, hi), set()).update(literals)
    out: list[StartAnchor] = []
    for (lo, hi), in_range in by_range.items():
        groups: dict[str, list[str]] = {}
        for lit in in_range:
            groups.setdefault(lit[:MERGE_PREFIX] if len(lit) >= MERGE_PREFIX else lit, []).append(lit)
        merged = {_common_prefix(group) for group in groups.values()}
        kept = {lit for lit in merged if not any(o != lit and lit.startswith(o) for o in merged)}
        suffix = _common_suffix(kept) if len(kept) > 1 else ""
        if len(suffix) >= MERGE_SUFFIX and not suffix[0].isalnum() and not suffix[0].isspace():
            # one search for a shared tail led by punctuation (``://`` of ``http://``/
            # ``https://``), rare in prose, instead of one per literal; it sits further in
            shifts = [len(lit) - len(suffix) for lit in kept]
            out.append((frozenset({suffix}), lo + min(shifts), hi + max(shifts)))
            continue
        out.append((frozenset(kept), lo, hi))
    return tuple(out)


MERGE_SUFFIX = 3


def _common_suffix(strings: set[str]) -> str:
    return _common_prefix([s[::-1] for s in strings])[::-1]


def plan_for(source: str, flags: str) -> Plan | None:
    """The start plan of a JS pattern, or None (use a full scan)."""
    return analyse(source, flags)[0]


def literals_of(plan: Plan) -> list[str]:
    return [lit for literals, _lo, _hi in plan.anchors for lit in literals]
