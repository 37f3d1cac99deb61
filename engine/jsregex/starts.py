"""Where the matches of a pattern can start, and how wide they are, read from its parsed form.

A search that wants to try a pattern only where a match can begin (Caveman's fast path,
``engine.caveman.fast``) needs three facts, answered here from the one parse of the pattern
(``translate.parsed_root``) so that no caller walks the tree itself:

- ``min_width``: the fewest units any match consumes (lookarounds, anchors and empty items
  consume none; a backreference or an unknown construct counts as 0);
- ``starts``: literal *anchors* — sets of literals with the range of offsets ``lo..hi`` at which
  one of them sits after the match start (``\\b(?:please|kindly)…`` starts at "please" or
  "kindly", offset 0; ``(?:^|\\s)\\.{0,2}/…`` starts 1–3 units before a "/"… or at a line start),
  or a *start kind* (``^`` first: only at the text's start, or with ``m`` at every line start),
  possibly narrowed by the literals right after the ``^``; None when the pattern can start
  anywhere as far as this analysis can tell;
- ``boundary``: whether a ``\\b`` is among the zero-width items the pattern starts with (so it
  holds at every match start);
- ``required_any``: texts of which every match holds one (``literals.required_any``).

Literals and offsets are in parser units (UTF-16 units without ``u``/``v``, code points with
them), case-canonical under ``i``: the subject units of ``engine.jsregex.subject``. A sticky
pattern starts only at ``lastIndex``, whatever these facts say; callers that search a
different subject than the pattern's (code units for a ``u`` pattern) must not use the offsets.
The answers are conservative: a shape not understood gets no anchors (None) and width 0.

``word_boundaries`` tests JavaScript's non-``u`` ``\\b`` at given positions of a text, so that
a caller can drop candidate starts where a pattern whose ``boundary`` is set cannot match.
``merge_anchors`` trades exactness of the anchors for fewer literals to search for (every
match still starts within the merged ranges).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import memo
from . import ast as A
from .literals import required_any
from .translate import compile_cost_refusal, parsed_root

MAX_STRINGS = 64  # literal strings an anchor may grow into (one per branch of small classes)
MAX_LITERAL = 32  # an anchor literal stops growing at this length
MAX_SET = 16  # a class of at most this many characters (none a surrogate) becomes literals
MERGE_PREFIX = 6
MERGE_SUFFIX = 3
WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")

StartAnchor = tuple[frozenset[str], int, int]  # (literals, lo, hi): a match starts lo..hi units before one


@dataclass(frozen=True, slots=True)
class MatchStarts:
    """Where every match can start: at ``lo..hi`` units before one of an anchor's literals
    (``anchors``), or at a start kind (``line_start``: "text" only at 0, "line" at 0 and after
    each line terminator), narrowed by ``anchors`` when both are set."""

    anchors: tuple[StartAnchor, ...] = ()
    line_start: str = ""  # "", "text" or "line"
    boundary: bool = False  # a ``\\b`` holds at every match start


@dataclass(frozen=True, slots=True)
class StartFacts:
    """What ``start_facts`` knows of a pattern (module docstring); ``None``: not known."""

    min_width: int | None
    starts: MatchStarts | None
    required_any: frozenset[str] | None


NOTHING_KNOWN = StartFacts(None, None, None)


@memo.lru(maxsize=memo.PATTERN_MEMO_SIZE)
def start_facts(source: str, flags: str) -> StartFacts:
    """Start, width and required-literal facts of ``/source/flags``; ``NOTHING_KNOWN`` for a
    pattern that does not parse or is too costly to parse (never raises)."""
    if compile_cost_refusal(source, "v" in flags) is not None:
        return NOTHING_KNOWN
    try:
        root = parsed_root(source, flags)
    except Exception:  # a syntax error or an internal shape we do not know: no claim
        return NOTHING_KNOWN
    try:
        min_width: int | None = width(root)[0]
        starts = match_starts(root, multiline="m" in flags)
    except Exception:  # (a tree deeper than the interpreter's stack, an unknown shape)
        min_width, starts = None, None
    return StartFacts(min_width, starts, required_any(root))


def width(node: A.Node) -> tuple[int, int | None]:
    """``(fewest, most)`` units a match of ``node`` consumes; most is None when unbounded or
    unknown (a backreference, an unsupported construct, a ``v``-mode class with strings)."""
    if isinstance(node, A.CharSet | A.Dot):
        return (1, 1) if not getattr(node, "strings", ()) else (0, None)
    if isinstance(node, A.Anchor | A.Look | A.Empty):
        return 0, 0
    if isinstance(node, A.Group):
        return width(node.body)
    if isinstance(node, A.Seq):
        lo = 0
        hi: int | None = 0
        for item in node.items:
            a, b = width(item)
            lo += a
            hi = None if hi is None or b is None else hi + b
        return lo, hi
    if isinstance(node, A.Alt):
        widths = [width(a) for a in node.alternatives]
        highs = [b for _a, b in widths if b is not None]
        return min(w[0] for w in widths), (max(highs) if len(highs) == len(widths) else None)
    if isinstance(node, A.Quant):
        a, b = width(node.body)
        return a * node.min, (None if node.max is None or b is None else b * node.max)
    return 0, None  # backreferences, unsupported constructs


def match_starts(root: A.Node, *, multiline: bool) -> MatchStarts | None:
    """Where matches of the parsed pattern ``root`` can start (module docstring), or None."""
    found = _node_anchors(root, 0, 0, multiline)
    if found is None:
        return None
    if isinstance(found, str):
        return MatchStarts(line_start=found)
    boundary = starts_at_boundary(root)
    if isinstance(found, tuple):
        kind, anchors = found
        return MatchStarts(anchors=tuple(anchors), line_start=kind, boundary=boundary)
    return MatchStarts(anchors=tuple(found), boundary=boundary)


def starts_at_boundary(root: A.Node) -> bool:
    """Whether a ``\\b`` is among the zero-width items the pattern starts with (so it is tested
    at the match start)."""
    items = root.items if isinstance(root, A.Seq) else [root]
    for item in items:
        if isinstance(item, A.Anchor) and item.kind == "b":
            return True
        if not isinstance(item, A.Anchor | A.Look | A.Empty):
            return False
    return False


def word_boundaries(units: str, positions: list[int]) -> list[int]:
    """The positions where JavaScript's non-``u`` ``\\b`` holds in ``units`` (``\\w`` is
    ``[A-Za-z0-9_]``; the edges of the text count as non-word)."""
    n, word = len(units), WORD
    return [p for p in positions if (p > 0 and units[p - 1] in word) != (p < n and units[p] in word)]


# ----------------------------------------------------------------------------- anchors

# what a walk finds: anchors, a start kind ("text"/"line"), or a start kind narrowed by anchors
_Found = list[StartAnchor] | str | tuple[str, list[StartAnchor]]


class _NoAnchors(Exception):
    pass


def _small_set(node: A.Node) -> list[str] | None:
    """The characters of a one-character class of at most ``MAX_SET`` BMP non-surrogate
    characters, else None."""
    if not isinstance(node, A.CharSet) or node.strings:
        return None
    chars: list[str] = []
    for lo, hi in node.ranges:
        if hi - lo + 1 + len(chars) > MAX_SET or hi >= 0xD800:
            return None
        chars.extend(chr(c) for c in range(lo, hi + 1))
    return chars or None


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


def _anchors(items: list[A.Node], lo: int, hi: int, multiline: bool) -> _Found:
    """The anchors of a sequence whose start lies ``lo..hi`` units after the match start: the
    first item that must consume a literal (or a ``^`` at offset 0); raises ``_NoAnchors``."""
    for i, item in enumerate(items):
        if isinstance(item, A.Anchor) and item.kind == "^" and lo == hi == 0:
            start = "line" if multiline else "text"
            try:  # literals right after ^ narrow the line starts down further
                rest = _anchors(items[i + 1:], 0, 0, multiline)
            except _NoAnchors:
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
        a, b = width(item)
        if b is None:
            raise _NoAnchors
        lo, hi = lo + a, hi + b
    raise _NoAnchors


def _node_anchors(node: A.Node, lo: int, hi: int, multiline: bool) -> _Found | None:
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
    except _NoAnchors:
        return None


# ----------------------------------------------------------------------------- merging


def merge_anchors(anchors: tuple[StartAnchor, ...]) -> tuple[StartAnchor, ...]:
    """Fewer literals to scan for, every match still covered: per offset range, drop a literal
    that extends another one (its occurrences are among the shorter one's) and replace literals
    sharing their first ``MERGE_PREFIX`` characters by their common prefix (a few more
    candidates, fewer scans), or all of them by a shared tail of at least ``MERGE_SUFFIX``
    characters that starts with punctuation (``://`` of ``http://``/``https://``: rare in prose,
    one search instead of one per literal; it sits further in, so the range shifts)."""
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
            shifts = [len(lit) - len(suffix) for lit in kept]
            out.append((frozenset({suffix}), lo + min(shifts), hi + max(shifts)))
            continue
        out.append((frozenset(kept), lo, hi))
    return tuple(out)


def _common_prefix(strings: list[str]) -> str:
    first, last = min(strings), max(strings)
    k = 0
    while k < len(first) and first[k] == last[k]:
        k += 1
    return first[:k]


def _common_suffix(strings: set[str]) -> str:
    return _common_prefix([s[::-1] for s in strings])[::-1]


__all__ = ["NOTHING_KNOWN", "MatchStarts", "StartAnchor", "StartFacts", "match_starts", "merge_anchors",
           "start_facts", "starts_at_boundary", "width", "word_boundaries"]
