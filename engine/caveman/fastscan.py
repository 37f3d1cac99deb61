"""Exact, fast evaluation of rule and region patterns on large texts.

A full regex scan per rule costs tens of milliseconds per MB; the packs have dozens of rules.
Most patterns, though, can only *start* near a literal (``\\b(?:please|kindly)…`` starts at
"please" or "kindly"; ``(?:^|\\s)\\.{0,2}/…`` starts 0–3 units before a "/"). From the parsed
pattern we derive such anchors (literals and the range of offsets at which they sit from the
match start), find their occurrences (``needles``: on the text's bytes), and try the real
JavaScript regex *anchored* (sticky) at those positions only, left to right, with JavaScript's
``replace`` loop. Every position where a match could start is tried, in order, so the result is
the same as a full scan. Patterns without anchors, ``y``/``u``/``v`` patterns, texts with astral
characters (UTF-16 offsets ≠ indices) or texts where candidates are too dense use the plain
full scan.

Most anchor literals of a pack never occur in a given text. The rules of one run share a
``LiteralIndex``: one multi-needle pass finds which literals occur, and each rewrite only
re-examines short windows around its replacements, so a rule whose literals are all absent is
skipped without scanning the text once per literal.

The literals that do occur are searched for one by one (``needles.find_all``), when their rule
runs, on that rule's input: ~0.1–0.3 ms per MB each (``str.find`` took 0.6–1.2 ms). One pass
for all of them up front, with the hit positions carried through each rewrite (shifted past
it; re-searched in a window around each replacement), was measured and does not pay: carrying
~17 K positions through the 14 rewrites of 1 MB of English prose (numpy shifts plus window
searches) cost ~19 ms, more than all the searches. Each literal is searched for once per run,
so carrying positions lazily would save nothing.
"""

from __future__ import annotations

import re
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from operator import add, sub

from engine import memo
from engine.caveman.needles import find_all, forget_views, present
from engine.caveman.required import required_of
from engine.jsregex import JSMatch, JSRegExp, RegexTimeout, compile_js, get_default_timeout
from engine.jsregex.anchored import anchored_spans
from engine.jsregex.backtracking import linear_attempts, linear_scan, parse_root
from engine.jsregex.budget import clip as clip_to_total
from engine.jsregex.charset_led import charset_led_twin
from engine.jsregex.twin import re_twin
from engine.jsvalues import JS_WHITESPACE, from_utf16_units, to_utf16_units, utf16_len

MAX_STRINGS = 64
MAX_LITERAL = 32  # longer needles scan faster (str.count skips further)
MAX_SET = 16
DENSITY = 50  # fall back to a full scan when more than 1 position in DENSITY is a candidate
LINE_TERMINATORS = ("\n", "\r", "\u2028", "\u2029")
_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


@dataclass(frozen=True)
class Plan:
    """Where matches can start: ``anchors`` ((literals, lo, hi), …) or a start kind."""

    anchors: tuple[tuple[frozenset[str], int, int], ...] = ()
    start: str = ""  # "text": only at 0; "line": at 0 and after each line terminator
    ignore_case: bool = False
    boundary: bool = False  # every match starts with ``\\b`` (a word boundary at the start)


def _width(node) -> tuple[int, int | None]:
    from engine.jsregex import ast as A

    if isinstance(node, A.CharSet | A.Dot):
        return (1, 1) if not getattr(node, "strings", ()) else (0, None)
    if isinstance(node, A.Anchor | A.Look | A.Empty):
        return 0, 0
    if isinstance(node, A.Group):
        return _width(node.body)
    if isinstance(node, A.Seq):
        lo, hi = 0, 0
        for item in node.items:
            a, b = _width(item)
            lo += a
            hi = None if hi is None or b is None else hi + b
        return lo, hi
    if isinstance(node, A.Alt):
        widths = [_width(a) for a in node.alternatives]
        return min(w[0] for w in widths), (None if any(w[1] is None for w in widths)
                                          else max(w[1] for w in widths))
    if isinstance(node, A.Quant):
        a, b = _width(node.body)
        return a * node.min, (None if node.max is None or b is None else b * node.max)
    return 0, None  # backreferences, unsupported constructs


def _small_set(node) -> list[str] | None:
    from engine.jsregex import ast as A

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


def _extend(items: list, i: int, strings: list[str]) -> list[str]:
    """Grow literal strings through the following single-character items; an optional one
    (``x?``) keeps both variants. Every match starts with one of the returned strings."""
    from engine.jsregex import ast as A

    while i < len(items) and max(map(len, strings)) < MAX_LITERAL:
        item = items[i]
        chars = _small_set(item)
        if chars is not None:
            grown = [s + c for s in strings for c in chars]
        elif isinstance(item, A.Quant) and item.min == 0 and item.max == 1 and _small_set(item.body):
            grown = strings + [s + c for s in strings for c in _small_set(item.body)]
        else:
            break
        if len(grown) > MAX_STRINGS:
            break
        strings = grown
        i += 1
    return sorted(set(strings))


def _anchors(items: list, lo: int, hi: int, multiline: bool) -> list[tuple[frozenset[str], int, int]] | str:
    from engine.jsregex import ast as A

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


def _node_anchors(node, lo: int, hi: int, multiline: bool):
    """Anchors of ``node`` (list), a start kind (str) or None when it has none."""
    from engine.jsregex import ast as A

    if isinstance(node, A.Group):
        return _node_anchors(node.body, lo, hi, multiline)
    if isinstance(node, A.Alt):
        out: list = []
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


def _plan(root, flags: str) -> tuple[Plan | None, int | None]:
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


def _starts_at_boundary(root) -> bool:
    """Whether a ``\\b`` is among the zero-width items the pattern starts with (so it is tested
    at the match start)."""
    from engine.jsregex import ast as A

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
    n, word = len(units), _WORD
    return [p for p in positions if (p > 0 and units[p - 1] in word) != (p < n and units[p] in word)]


MERGE_PREFIX = 6


def _common_prefix(strings: list[str]) -> str:
    first, last = min(strings), max(strings)
    k = 0
    while k < len(first) and first[k] == last[k]:
        k += 1
    return first[:k]


def _merge(anchors: list[tuple[frozenset[str], int, int]]) -> tuple[tuple[frozenset[str], int, int], ...]:
    """Fewer literals to scan for: per offset range, drop a literal that extends another one (its
    occurrences are among the shorter one's) and replace literals sharing their first
    ``MERGE_PREFIX`` characters by their common prefix (a few more candidates, fewer scans), or
    all of them by a shared tail that starts with punctuation."""
    by_range: dict[tuple[int, int], set[str]] = {}
    for literals, lo, hi in anchors:
        by_range.setdefault((lo, hi), set()).update(literals)
    out = []
    for (lo, hi), literals in by_range.items():
        groups: dict[str, list[str]] = {}
        for lit in literals:
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


# One-entry caches keyed by the identity of the last text; each is a single tuple swapped
# atomically, so concurrent runs (GUI worker threads) never read a mismatched pair.
_BMP: tuple[tuple[str | None, bool], ...] = ((None, True), (None, True))  # the last two texts
_CANONICAL: tuple[str | None, str] = (None, "")
_UNITS: tuple[str | None, str] = (None, "")

# The memos above, and those of the regexes and literal indexes a run used, hold the texts of
# that run (every intermediate version, its units and canonical form): after an 8 MB run, 64 MB
# the next run cannot use. Holders of a text of at least RELEASE_MIN units register here, and
# ``release_texts`` (the end of a large part) lets go of them all.
RELEASE_MIN = 65_536
_HOLDING: weakref.WeakSet = weakref.WeakSet()
_HOLDING_LOCK = threading.Lock()  # (a WeakSet may not change while another thread iterates it)


def _holds_text(holder: FastRegex | LiteralIndex) -> None:
    with _HOLDING_LOCK:
        _HOLDING.add(holder)


def release_texts() -> None:
    """Forget every text memo (a later call recomputes what it needs: the memos are keyed by
    the identity of a text, so a run in another thread only loses its shortcuts)."""
    global _BMP, _CANONICAL, _UNITS
    with _HOLDING_LOCK:
        holders = list(_HOLDING)
        _HOLDING.clear()
    for holder in holders:
        holder.forget()
    _BMP = ((None, True), (None, True))
    _CANONICAL = (None, "")
    _UNITS = (None, "")
    forget_views()


def _bmp_only(text: str) -> bool:
    """No astral character (UTF-16 offsets are indices): one C-level UTF-16 encode, several
    times faster than a regex scan for the astral range."""
    global _BMP
    if text.isascii():
        return True
    last, before = _BMP
    if last[0] is text:
        return last[1]
    if before[0] is text:
        return before[1]
    result = utf16_len(text) == len(text)
    _BMP = ((text, result), last)
    return result


@memo.lru(maxsize=1)
def _same_length_mismatch() -> tuple[str, ...]:
    """BMP characters whose ``str.upper()`` is one character but not their Canonicalize image
    (non-``u``): ``ı``, ``ſ`` and a few Unicode-version differences. Every other character
    either upper-cases to its image or to several characters (``ß`` → ``SS``)."""
    from engine.jsregex.unicode_data import canon_table

    table = canon_table(False)
    out = []
    for c in range(0x10000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        upper = chr(c).upper()
        if len(upper) == 1 and ord(upper) != table.get(c, c):
            out.append(chr(c))
    return tuple(out)


def _canonical(text: str) -> str:
    """The subject engine.jsregex matches ``i`` patterns against (non-``u``): its Canonicalize
    table, which is ``str.upper()`` unless the text holds one of the ~110 characters where
    they differ (``ß``, ``ſ``, ``ı``…). Cached for the last text, which most rules leave alone."""
    global _CANONICAL
    cached = _CANONICAL
    if cached[0] is text:
        return cached[1]
    out = _canonical_uncached(text)
    _CANONICAL = (text, out)
    return out


def _canonical_uncached(text: str) -> str:
    """``_canonical`` without the cache. It maps character by character (same length), so the
    canonical form of a slice is the slice of the canonical form. ``str.upper()`` is the image
    unless it grew the text (some character upper-cases to several) or the text holds one of
    the few characters whose one-character upper case is not their image."""
    upper = text.upper()
    if text.isascii() or (len(upper) == len(text) and not any(c in text for c in _same_length_mismatch())):
        return upper
    from engine.jsregex.unicode_data import canon_table

    return text.translate(canon_table(False))


def candidates(plan: Plan, text: str, *, limit: int | None = None,
               absent: frozenset[str] | set[str] = frozenset()) -> list[int] | None:
    """Sorted positions where a match may start, or None when a full scan is cheaper.

    ``absent``: literals already known not to occur in the (case-canonical) text; they are not
    scanned for."""
    n = len(text)
    if limit is None:
        limit = max(64, n // DENSITY)
    if plan.start and not plan.anchors:
        return [0] if plan.start == "text" else _line_starts(text, limit)
    if absent and all(literals <= absent for literals, _lo, _hi in plan.anchors):
        return []  # (without case-folding a text no literal occurs in)
    if plan.start == "text":  # only a match at 0: look there instead of scanning
        reach = max(hi for _literals, _lo, hi in plan.anchors) + max(map(len, _literals_of(plan)))
        head = text[:reach]
        hay = _canonical_uncached(head) if plan.ignore_case else head  # (the mapping is per character)
        return [0] if any(hay.startswith(lit, k) for literals, lo, hi in plan.anchors
                          for lit in literals for k in range(lo, hi + 1)) else []
    hay = _canonical(text) if plan.ignore_case else text
    if len(hay) != n:
        return None
    # one- and two-character literals are the likely dense ones: count those first (cheaper
    # than listing their occurrences) and give up early when a full scan is cheaper
    short = [lit for literals, _lo, _hi in plan.anchors for lit in literals if len(lit) < 3 and lit not in absent]
    counted = 0
    for lit in short:  # (each count is a pass over the text: stop at the first that is enough)
        counted += hay.count(lit)
        if counted > limit:
            return None
    starts: list[int] = []
    for literals, lo, hi in plan.anchors:
        for lit in literals:
            if lit in absent:
                continue
            found = occurrences(hay, lit)
            if not found:
                continue
            if lo == hi:
                starts.extend(found if lo == 0 else [i - lo for i in found])
            else:
                for i in found:
                    starts.extend(range(max(0, i - hi), i - lo + 1))
            if len(starts) > limit:
                return None
    if plan.start == "line":
        return sorted({p for p in starts if p == 0 or (p <= n and text[p - 1] in LINE_TERMINATORS)})
    return sorted(set(starts))


def _literals_of(plan: Plan) -> list[str]:
    return [lit for literals, _lo, _hi in plan.anchors for lit in literals]


def _line_starts(text: str, limit: int) -> list[int] | None:
    out = [0]
    for term in LINE_TERMINATORS:
        found = occurrences(text, term)
        if len(out) + len(found) > limit:
            return None
        out.extend(i + 1 for i in found)
    return sorted(set(out))


def occurrences(hay: str, lit: str) -> list[int]:
    """Every start index of ``lit`` in ``hay``, overlapping ones included: on the text's bytes
    (``needles``), or with ``str.find`` for a text with astral characters, which has no byte
    view (the rules run on UTF-16 units, which always have one)."""
    found = find_all(hay, lit)
    if found is not None:
        return found
    out = []
    i = hay.find(lit)
    while i >= 0:
        out.append(i)
        i = hay.find(lit, i + 1)
    return out


class LiteralIndex:
    """Which anchor literals of a rule list a text lacks, carried along the chain of rewrites the
    rules make (most literals of a pack never occur in a given text: the rule can then be
    skipped without scanning the text once per literal).

    Each literal is tracked by its first ``KEY`` characters (a literal is absent when its key
    is). One multi-needle pass over the case-canonical text (``needles.present``) finds the keys
    that occur. When a rule rewrites the text, a key absent before can only occur afterwards
    where it overlaps a replacement (or the join a deletion leaves), so only those short windows
    are searched again. Only ``i`` plans are served (their haystack is the canonical text), only
    for texts without astral characters (offsets = indices).
    """

    KEY = 8
    MIN_LENGTH = 32768  # below this the per-literal scans are as cheap as one extra pass

    def __init__(self, literals: frozenset[str]) -> None:
        # literals holding the window separator cannot be tracked (never claimed absent)
        self.literals = frozenset(lit for lit in literals if lit and _SEPARATOR not in lit)
        self._by_key: dict[str, set[str]] = {}
        for lit in self.literals:
            self._by_key.setdefault(lit[:self.KEY], set()).add(lit)
        self._keys = frozenset(self._by_key)
        # (text, keys absent from it, literals absent from it)
        self._state: tuple[str, frozenset[str], frozenset[str]] | None = None

    @property
    def available(self) -> bool:
        return bool(self._keys)

    def _remember(self, text: str, keys: frozenset[str]) -> frozenset[str]:
        by_key = self._by_key  # few keys occur: subtract their literals from all
        literals = self.literals.difference(*(by_key[key] for key in self._keys - keys))
        self._state = (text, keys, literals)
        if len(text) >= RELEASE_MIN:
            _holds_text(self)
        return literals

    def forget(self) -> None:
        self._state = None

    def absent(self, text: str) -> frozenset[str]:
        """Literals known absent from the canonical form of ``text``."""
        if not self._keys:
            return frozenset()
        state = self._state
        if state is not None and state[0] is text:
            return state[2]
        if len(text) < self.MIN_LENGTH or not _bmp_only(text):
            return frozenset()
        found = present(_canonical(text), self._keys)
        if found is None:  # (no byte view: never claim a key absent without having searched)
            return frozenset()
        return self._remember(text, self._keys - found)

    def known_absent(self, text: str) -> frozenset[str] | None:
        """``absent(text)``, or None when the index does not serve this text (too short, astral
        characters): then nothing is known either way (``absent`` remembered nothing)."""
        absent = self.absent(text)
        state = self._state
        return absent if state is not None and state[0] is text else None

    def absent_keys(self, text: str) -> frozenset[str]:
        """The keys (first ``KEY`` characters of literals) known absent from the canonical form
        of ``text``: the index's one pass over it, made now if it was not yet."""
        self.absent(text)
        state = self._state
        return state[1] if state is not None and state[0] is text else frozenset()

    def rewritten(self, before: str, after: str, windows: list[tuple[int, int]]) -> None:
        """``after`` is ``before`` with the pieces at ``windows`` (start, end in ``after``, in
        order) replaced; carry the absent keys over by searching only around those pieces."""
        state = self._state
        if state is None or state[0] is not before:
            return
        self._state = None
        keys = state[1]
        if not keys or len(after) < self.MIN_LENGTH or not _bmp_only(after):
            return
        reach = max(map(len, keys)) - 1
        # overlapping windows repeat some text; the separator keeps matches inside one window
        hay = _canonical_uncached(_SEPARATOR.join([after[a - reach if a > reach else 0:b + reach]
                                                   for a, b in windows]))
        found = present(hay, keys)
        if found is None:
            return
        self._remember(after, keys - found if found else keys)


_SEPARATOR = "\x00"


def index_literals(plans: list[Plan | None], required: list[frozenset[str]] = ()) -> frozenset[str]:
    """The literals a ``LiteralIndex`` tracks: ``i`` plans' anchors, and the ``required``
    literals of ``i`` patterns (canonical, as the index's text is)."""
    return frozenset(lit for plan in plans if plan is not None and plan.ignore_case
                     for literals, _lo, _hi in plan.anchors for lit in literals).union(*required)


class _Work:
    """A text as engine.jsregex sees it: ``units`` (UTF-16 units; the text itself unless it has
    astral characters) and ``target`` (what the translated pattern runs on: ``units``, or its
    canonical case form under ``i``, made when first needed: a rule that turns out to have no
    candidate never folds the text). Offsets into both are JavaScript offsets."""

    __slots__ = ("_target", "canonical", "expanded", "fold", "text", "units")

    def __init__(self, text: str, units: str, expanded: bool, fold: str, canonical: bool) -> None:
        self.text = text
        self.units = units
        self.expanded = expanded
        # "": none; "canonical": ``_canonical`` (non-u ``i``, and u/v ``i`` on ASCII text, where
        # both foldings are upper case); "unicode": u/v ``i``
        self.fold = fold
        self.canonical = canonical  # the target is the non-u canonical form (carried over)
        self._target: str | None = None

    @property
    def target(self) -> str:
        if self._target is None:
            if self.fold == "canonical":
                self._target = _canonical(self.units)
            elif self.fold == "unicode":
                from engine.jsregex.unicode_data import canon_table

                self._target = self.units.translate(canon_table(True))
            else:
                self._target = self.units
        return self._target


def _units(text: str) -> str:
    global _UNITS
    cached = _UNITS
    if cached[0] is text:
        return cached[1]
    out = to_utf16_units(text)
    _UNITS = (text, out)
    return out


def _as_units(s: str) -> str:
    """``s`` as UTF-16 units (itself unless it holds an astral character)."""
    return s if s.isascii() else to_utf16_units(s)


def _remember_units(text: str, units: str, values_bmp: bool) -> str | None:
    """``units`` was joined from UTF-16 units and replacement values (``values_bmp``: none of
    them holds an astral character) and ``text`` is its string: note whether ``text`` is
    BMP-only and, if not, that ``units`` are its UTF-16 units. Returns what the next rule will
    match on (``text`` itself or ``units``), or None when that is not ``units`` unit for unit."""
    global _BMP, _UNITS
    if not values_bmp and utf16_len(text) != len(units):
        _BMP = ((text, utf16_len(text) == len(text)), _BMP[0])
        return None
    # ``units`` holds only UTF-16 units; ``text`` is shorter by one per pair it joined
    if len(text) == len(units):
        _BMP = ((text, True), _BMP[0])
        return text
    _BMP = ((text, False), (units, True))
    _UNITS = (text, units)
    return units


def _carry_canonical(units: str, canonical_gaps: list[str], values: str | list[str]) -> None:
    """Remember the canonical form of ``units``, which is ``canonical_gaps`` joined with the
    values (the mapping is character by character, so the canonical form of a join is the
    join of the canonical forms): no full ``upper()`` of the result, which on a text with
    non-ASCII characters costs ten times an ASCII one."""
    global _CANONICAL
    if isinstance(values, str):
        target = _canonical_uncached(values).join(canonical_gaps)
    else:
        pieces = [""] * (2 * len(canonical_gaps) - 1)
        pieces[0::2] = canonical_gaps
        pieces[1::2] = _canonical_pieces(values)
        target = "".join(pieces)
    if len(target) == len(units):
        _CANONICAL = (units, target)


def _canonical_pieces(values: list[str]) -> list[str]:
    """``[_canonical_uncached(v) for v in values]`` with one call on their join."""
    joined = _canonical_uncached("".join(values))
    ends = list(accumulate(map(len, values)))
    return [joined[a:b] for a, b in zip([0, *ends], ends)]


# Measured costs per pattern, shared by every run of the process: (source, flags) →
# [seconds per text unit of a full scan, seconds per candidate of the anchored loop] (0.0: not
# measured yet). Both paths give the same matches (every possible start is among the
# candidates); only the cheaper one is taken. A pattern whose first literal ``regex`` finds by
# itself (``,\\s*and also``, ``\\bdatabase\\b``) scans 1 MB in ~1 ms, less than a few thousand
# anchored calls (each ~1.5 µs timed, most of it ``regex`` handling the ``timeout=`` argument;
# ~0.5 µs untimed on the ``re`` twin). An unmeasured full scan is timed on a sample of the text.
MAX_COSTS = 4096
_COSTS: memo.MemoDict[tuple[str, str], list[float]] = memo.MemoDict(f"{__name__}._COSTS", MAX_COSTS)
ANCHORED_GUESS = 1.5e-6  # seconds per anchored call before one is measured
UNTIMED_GUESS = 0.5e-6  # the same, on the untimed ``re`` twin
SAMPLE_UNITS = 65_536  # a large text's unmeasured full-scan cost is learnt on this many units
EXPLORE = 2000  # more than one candidate per EXPLORE units: measure a full scan once
MEASURE_MIN = 64  # anchored loops with fewer candidates are too short to time

# (source, flags) → UTF-16 units of the texts a pattern has been run on (see
# FastRegex._untimed_calls): the untimed set-up (two linearity analyses of the parsed pattern
# and an ``re`` compile, ~1 ms for a long alternation) is made once the pattern has met this
# much text. Below that it does not repay itself — a live preview runs a rule whose pattern is
# being typed, a new pattern at each keystroke, on a 10 KB sample — and calls stay on the
# timed ``regex`` translation (the same matches).
_UNITS_MET: memo.MemoDict[tuple[str, str], int] = memo.MemoDict(f"{__name__}._UNITS_MET", MAX_COSTS)
UNTIMED_MIN_UNITS = 65_536
_TIMED_CALLS: tuple[bool, None, None] = (False, None, None)


def _costs(key: tuple[str, str]) -> list[float]:
    costs = _COSTS.get(key)
    if costs is None:
        costs = _COSTS.setdefault(key, [0.0, 0.0])
    return costs


def _record(costs: list[float], which: int, seconds: float, count: int) -> None:
    """Keep the lowest cost seen (the steadiest estimate on a busy machine)."""
    if count <= 0:
        return
    rate = seconds / count
    if costs[which] == 0.0 or rate < costs[which]:
        costs[which] = rate


def prefer_full_scan(costs: list[float], length: int, count: int, anchored_guess: float = ANCHORED_GUESS) -> bool:
    """Whether a full scan of ``length`` units is expected to be cheaper than ``count`` anchored
    calls (unmeasured full scans are tried once when the candidates are not sparse)."""
    if costs[0] == 0.0:
        return count * EXPLORE > length
    return costs[0] * length < (costs[1] or anchored_guess) * count


# (source, flags) → the ``re`` twin whole scans of that pattern run on (see FastRegex._whole_scanner)
_WHOLE_SCANNERS: memo.MemoDict[tuple[str, str], re.Pattern[str]] = memo.MemoDict(f"{__name__}._WHOLE_SCANNERS",
                                                                                  MAX_COSTS)


def _meet(source: str, flags: str, units: int) -> None:
    """Count ``units`` more of text met by ``/source/flags`` (up to ``UNTIMED_MIN_UNITS``).
    When the count gets there, the calls may turn untimed: the costs measured so far, of timed
    calls, are forgotten (kept, a dear full scan measured on ``regex`` would keep the anchored
    loop chosen although the ``re`` twin scans several times faster)."""
    key = (source, flags)
    met = _UNITS_MET.get(key, 0)
    if met < UNTIMED_MIN_UNITS:
        _UNITS_MET[key] = met + units
        costs = _COSTS.get(key)
        if met + units >= UNTIMED_MIN_UNITS and costs is not None:
            costs[0] = costs[1] = 0.0  # (in place: the pattern's FastRegex objects hold this list)


def _faster(plain: re.Pattern[str], led: re.Pattern[str], sample: str) -> re.Pattern[str]:
    """The one of two equivalent scanners that scans ``sample`` faster (best of two runs each,
    alternated: the steadiest comparison on a busy machine)."""
    best = {id(plain): float("inf"), id(led): float("inf")}
    for _round in range(2):
        for scanner in (plain, led):
            started = time.perf_counter()
            for _m in scanner.finditer(sample):
                pass
            best[id(scanner)] = min(best[id(scanner)], time.perf_counter() - started)
    return led if best[id(led)] < best[id(plain)] else plain


def _within(budget: float | None, started: float) -> None:
    """An untimed call (one that cannot stall) still answers for its budget afterwards."""
    if budget is not None and time.perf_counter() - started > budget:
        raise TimeoutError


class FastRegex:
    """A JS regex with the same ``replace``/``search`` results, faster on large texts.

    The translated pattern is run directly on the subject engine.jsregex would build (the
    UTF-16 units of the text, case-canonicalised under ``i``): anchored at the planned
    candidates, or with ``finditer`` for patterns that cannot match empty (Python's iteration is
    then JavaScript's). A ``JSMatch`` is only built, through engine.jsregex, for matches whose
    replacement needs it. ``u``/``v`` patterns on texts with astral characters, sticky patterns
    and unsupported constructs go through engine.jsregex unchanged.

    Calls of a pattern that cannot stall (``engine.jsregex.backtracking``) run without
    ``regex``'s per-call timer, on the ``re`` twin of the translation when there is one
    (``engine.jsregex.twin``); the loop still keeps one budget (``engine.jsregex.anchored``).
    """

    MIN_LENGTH = 4096  # below this a full scan is as cheap as planning

    def __init__(self, source: str, flags: str, timeout: float | None = None,
                 extra: Callable[[str], list[int] | None] | None = None) -> None:
        self.rx: JSRegExp = compile_js(source, flags, timeout)
        self.plan, self.min_width, required = pattern_facts(source, flags)
        # literals every match holds (engine.caveman.required), looked for when the start plan
        # does not already search exactly those
        anchored = frozenset(_literals_of(self.plan)) if self.plan is not None and not self.plan.start else frozenset()
        self.required = None if required is None or required <= anchored else required
        self.extra = extra
        self.timeout = timeout
        self.index: LiteralIndex | None = None  # shared by the rules of one run (see LiteralIndex)
        self._sticky: JSRegExp | None = None
        self._last: tuple[str, list[int] | None] | None = None
        self._work: _Work | None = None
        self._cost = _costs((source, flags))
        self._untimed: tuple[bool, re.Pattern[str] | None, re.Pattern[str] | None] | None = None

    def _untimed_calls(self) -> tuple[bool, re.Pattern[str] | None, re.Pattern[str] | None]:
        """Where no call can stall, calls run untimed, on the ``re`` twin when there is one:
        ``(anchored calls may run untimed, twin for anchored calls, twin for whole scans)``.
        Worked out when first needed (most rules never get that far on a given text), and only
        for a pattern that has met ``UNTIMED_MIN_UNITS`` of text (until then: all timed)."""
        if self._untimed is None:
            if _UNITS_MET.get((self.rx.source, self.rx.flags), 0) < UNTIMED_MIN_UNITS:
                return _TIMED_CALLS
            source, flags = self.rx.source, self.rx.flags
            linear = linear_attempts(source, flags)
            t = self.rx.translation
            twin = None if t.unsupported or t.too_large else re_twin(t.emitted)
            self._untimed = (linear, twin if twin is not None and linear else None,
                             twin if twin is not None and linear_scan(source, flags) else None)
        return self._untimed

    linear = property(lambda self: self._untimed_calls()[0])
    _matcher = property(lambda self: self._untimed_calls()[1])

    def _whole_scanner(self, target: str) -> re.Pattern[str] | None:
        """The ``re`` twin whole scans run on (None: the ``regex`` translation, timed): the
        plain twin, or its charset-led form (``engine.jsregex.charset_led``: same matches, but
        ``re`` skips to the characters a match can start with) when that is faster on this
        pattern's texts — which depends on how common those characters are, so the first text
        of at least ``2 * SAMPLE_UNITS`` decides, by timing both on its start. Shorter texts
        scan on the plain twin without building the other."""
        plain = self._untimed_calls()[2]
        if plain is None:
            return None
        key = (self.rx.source, self.rx.flags)
        chosen = _WHOLE_SCANNERS.get(key)
        if chosen is not None:
            return chosen
        if len(target) < 2 * SAMPLE_UNITS:
            # undecided: too short a text to time on, and to repay building the charset-led form
            # (~1 ms for a pattern edited at each keystroke of a live preview)
            return plain
        led = charset_led_twin(self.rx.source, self.rx.flags, self.rx.translation.emitted)
        chosen = plain if led is None else _faster(plain, led, target[:SAMPLE_UNITS])
        _WHOLE_SCANNERS[key] = chosen
        return chosen

    source = property(lambda self: self.rx.source)
    flags = property(lambda self: self.rx.flags)
    sticky = property(lambda self: self.rx.sticky)
    is_global = property(lambda self: self.rx.is_global)
    group_names = property(lambda self: self.rx.group_names)
    group_count = property(lambda self: self.rx.group_count)

    def _anchored(self) -> JSRegExp:
        if self._sticky is None:
            self._sticky = compile_js(self.rx.source, self.rx.flags.replace("g", "") + "y", self.timeout)
        return self._sticky

    def _prepare(self, text: str) -> _Work | None:
        cached = self._work
        if cached is not None and cached.text is text:
            return cached
        t = self.rx.translation
        if self.rx.sticky or t.unsupported:
            return None
        fold = ("unicode" if t.unicode else "canonical") if t.ignore_case else ""
        if text.isascii():
            units = text
            fold = "canonical" if t.ignore_case else ""
        elif t.unicode:
            if not _bmp_only(text):
                return None
            units = text
        else:
            units = text if _bmp_only(text) else _units(text)
        self._work = _Work(text, units, units is not text, fold, t.ignore_case and not t.unicode)
        _meet(self.rx.source, self.rx.flags, len(units))
        if len(units) >= RELEASE_MIN:
            _holds_text(self)
        return self._work

    def forget(self) -> None:
        """Drop the memos of the last text (see ``release_texts``)."""
        self._work = None
        self._last = None

    def _positions(self, units: str) -> list[int] | None:
        last = self._last
        if last is not None and last[0] is units:
            return last[1]
        if len(units) < self.MIN_LENGTH or self.rx.sticky:
            found = None
        elif self.extra is not None:
            found = self.extra(units)
        elif self.required is not None and self._lacks_required(units):
            found = []
        elif self.plan is None:
            found = None
        elif self.index is not None and self.plan.ignore_case and self.plan.start != "text":
            found = candidates(self.plan, units, absent=self.index.absent(units))
        else:
            found = candidates(self.plan, units)
        if found and self.extra is None and self.plan is not None and self.plan.boundary:
            found = at_boundaries(units, found)  # the plan is never made for u/v patterns
        if found and self.min_width:
            if self._cost[0] == 0.0 and len(found) * EXPLORE > len(units) > 2 * SAMPLE_UNITS:
                self._measure_sample(units)  # rather than a whole full scan to learn its cost
            guess = UNTIMED_GUESS if self._matcher is not None else ANCHORED_GUESS
            if prefer_full_scan(self._cost, len(units), len(found), guess):
                found = None  # a full scan (the same matches: the pattern cannot match empty)
        self._last = (units, found)
        return found

    def _lacks_required(self, units: str) -> bool:
        """Whether the text holds none of the literals every match holds (the shared literal
        index knows it for large texts under ``i``; otherwise one search per literal)."""
        folded = self.rx.translation.ignore_case
        if folded and self.index is not None:
            absent = self.index.known_absent(units)
            if absent is not None:
                return self.required <= absent
        hay = _canonical(units) if folded else units
        if len(hay) != len(units):
            return False  # (never: the canonical form maps character by character)
        return not any(occurrences(hay, lit) for lit in self.required)

    def _measure_sample(self, units: str) -> None:
        """Time a full scan of the first ``SAMPLE_UNITS`` of the text, the way a full scan would
        run, and record its cost per unit (a pattern that overruns its budget there is recorded
        as too costly to scan)."""
        work = self._work
        if work is None or work.units is not units:
            return
        sample = work.target[:SAMPLE_UNITS]
        budget = self._budget(None)
        scanner = self._whole_scanner(work.target)  # (its one-off set-up is no part of a scan's cost)
        started = time.perf_counter()
        try:
            if scanner is not None:
                for _m in scanner.finditer(sample):
                    pass
            else:
                for _m in self.rx.translation.compiled.finditer(sample, timeout=budget):
                    pass
        except TimeoutError:
            pass
        _record(self._cost, 0, time.perf_counter() - started, len(sample))

    def cannot_match(self, text: str) -> bool:
        """Cheap certainty that the pattern has no match in ``text`` (no candidate position)."""
        work = self._prepare(text)
        return work is not None and self._positions(work.units) == []

    def _budget(self, timeout: float | None) -> float | None:
        """The call's own budget cut to what the run's total budget has left: an untimed call
        (``_within``) answers for both, so many linear rules cannot outrun the total."""
        own = timeout if timeout is not None else self.timeout if self.timeout is not None \
            else get_default_timeout()
        return clip_to_total(own)

    def _timeout_error(self, timeout: float | None) -> RegexTimeout:
        return RegexTimeout(self.rx.source, self.rx.flags, self._budget(timeout) or 0.0)

    def _spans(self, work: _Work, first_only: bool, timeout: float | None) -> list[tuple[int, int]] | None:
        """JS offsets of the matches JavaScript's loop finds, or None when only a plain
        engine.jsregex call can tell."""
        positions = self._positions(work.units)
        if positions is None and not self.min_width:
            return None
        compiled = self.rx.translation.compiled
        target = work.target
        budget = self._budget(timeout)
        try:
            if positions is None:
                scanner = self._whole_scanner(target)  # (its one-off set-up is no part of a scan's cost)
                started = time.perf_counter()
                if first_only:
                    m = scanner.search(target) if scanner else compiled.search(target, timeout=budget)
                    _within(budget, started)
                    return [] if m is None else [m.span()]
                matches = scanner.finditer(target) if scanner else compiled.finditer(target, timeout=budget)
                spans = [m.span() for m in matches]
                _within(budget, started)
                if len(target) >= self.MIN_LENGTH:
                    _record(self._cost, 0, time.perf_counter() - started, len(target))
                return spans
            started = time.perf_counter()
            out = anchored_spans(self._matcher or compiled, target, positions, budget, linear=self.linear,
                                 first_only=first_only)
            if not first_only and budget is not None and len(positions) >= MEASURE_MIN:
                _record(self._cost, 1, time.perf_counter() - started, len(positions))
            return out
        except TimeoutError:
            raise self._timeout_error(timeout) from None

    def _match(self, text: str, start: int, timeout: float | None) -> JSMatch:
        return self._anchored().search(text, start, timeout)

    def _assemble(self, work: _Work, spans: list[tuple[int, int]], values: str | list[str],
                  keep_units: bool = False) -> str:
        """The units with each span replaced by its value (``values``: one per span, or one
        string for all), built with slices and joins rather than a loop per span.

        What the next rule needs of the result is known here without another pass over it: its
        UTF-16 units (the joined units, when the text has astral characters), its case-canonical
        form (the canonical gaps joined with the canonical values, under ``i``) and which anchor
        literals it lacks (``LiteralIndex.rewritten``). ``keep_units``: return the UTF-16 units
        themselves (the same JavaScript string; see ``replace``)."""
        units = work.units
        if keep_units:
            values = _as_units(values) if isinstance(values, str) else [_as_units(v) for v in values]
        starts, ends = zip(*spans)  # (callers return early when there is no span)
        _within_output_cap(self.rx, units, spans, values)
        cuts = (0, *ends), (*starts, len(units))  # the gaps' starts and ends
        gaps = list(map(units.__getitem__, map(slice, *cuts)))
        if isinstance(values, str):
            out = values.join(gaps)
        else:
            pieces = [""] * (2 * len(gaps) - 1)
            pieces[0::2] = gaps
            pieces[1::2] = values
            out = "".join(pieces)
        if out.isascii():  # (an ASCII upper() is as cheap as carrying the canonical form over)
            result = next_units = out
        else:
            if keep_units:
                result = next_units = _remember_units(out, out, True)
            else:
                result = from_utf16_units(out)  # as engine.jsregex's replace does
                added = values if isinstance(values, str) else "".join(values)
                next_units = _remember_units(result, out, utf16_len(added) == len(added))
            if next_units is not None and work.canonical:
                _carry_canonical(next_units, list(map(work.target.__getitem__, map(slice, *cuts))), values)
        if next_units is None or self.index is None:
            return result
        sizes = [len(values)] * len(spans) if isinstance(values, str) else list(map(len, values))
        # each replacement lands at its span's start moved by what the earlier ones added
        landed = list(map(add, starts, accumulate(map(sub, sizes, map(sub, ends, starts)), initial=0)))
        self.index.rewritten(units, next_units, list(zip(landed, map(add, landed, sizes))))
        return result

    def replace(self, text: str, repl: str | Callable[[JSMatch], str], timeout: float | None = None, *,
                keep_units: bool = False) -> str:
        """``text.replace(regex, repl)``. ``keep_units``: the result is given as its UTF-16 units
        (astral characters as surrogate pairs, one Python character per unit) — the same
        JavaScript string, which the next rule matches without converting it again; callers
        that chain rules this way turn the final text back with ``from_utf16_units``."""
        work = self._prepare(text)
        if work is not None and isinstance(repl, str) and "$" not in repl and self.min_width \
                and not self.rx.translation.ignore_case and self._positions(work.units) is None:
            # a constant replacement on a full scan: the translated pattern substitutes in C
            # (no empty matches, so Python's iteration is JavaScript's; the subject is the units)
            started = time.perf_counter()
            template = (_as_units(repl) if keep_units else repl).replace("\\", "\\\\")
            count = 0 if self.rx.is_global else 1
            budget = self._budget(timeout)
            try:
                scanner = self._whole_scanner(work.units)
                if scanner is not None:
                    out, count = scanner.subn(template, work.units, count=count)
                    _within(budget, started)
                else:
                    out, count = self.rx.translation.compiled.subn(template, work.units, count=count, timeout=budget)
            except TimeoutError:
                raise self._timeout_error(timeout) from None
            if self.rx.is_global and len(work.units) >= self.MIN_LENGTH:
                _record(self._cost, 0, time.perf_counter() - started, len(work.units))
            if not count:
                return text
            return out if out.isascii() or keep_units else from_utf16_units(out)
        spans = None if work is None else self._spans(work, not self.rx.is_global, timeout)
        if spans is None:
            result = self.rx.replace(text, repl, timeout)
            return _as_units(result) if keep_units else result
        if not spans:
            return text
        if isinstance(repl, str) and "$" in repl and len(repl) > 64:
            # a long template (``$&`` × 100,000) expands through the regex layer, which stops at
            # its output cap before building the text (engine.jsregex.budget)
            result = self.rx.replace(text, repl, timeout)
            return _as_units(result) if keep_units else result
        if isinstance(repl, str) and "$" in repl:
            from engine.jsregex.template import expand_template

            template = repl
            repl = lambda m: expand_template(template, m, text, self.rx)  # noqa: E731
        if isinstance(repl, str):
            return self._assemble(work, spans, repl, keep_units)
        fn = repl
        return self._assemble(work, spans, [fn(self._match(text, s, timeout)) for s, _e in spans], keep_units)

    def replace_matched(self, text: str, fn: Callable[[str], str], timeout: float | None = None, *,
                        keep_units: bool = False) -> str:
        """``replace`` with a function of the matched text only (no JSMatch is built); ``fn``
        always gets the matched text as a Python string (surrogate pairs joined)."""
        return self._replace_each(text, fn, timeout, keep_units, offsets=False)

    def replace_spans(self, text: str, fn: Callable[[int, str], str], timeout: float | None = None) -> str:
        """``replace`` with a function of each match's JavaScript offset and matched text (a
        Python string) only, called left to right: no JSMatch is built (an explanation records
        every match of every rule; building them was a third of its cost)."""
        return self._replace_each(text, fn, timeout, False, offsets=True)

    def _replace_each(self, text: str, fn: Callable[..., str], timeout: float | None, keep_units: bool, *,
                      offsets: bool) -> str:
        """``replace_matched`` (``fn(matched)``) or ``replace_spans`` (``fn(offset, matched)``)."""
        work = self._prepare(text)
        spans = None if work is None else self._spans(work, not self.rx.is_global, timeout)
        if spans is None:
            call = (lambda m: fn(m.index, from_utf16_units(m.match))) if offsets \
                else (lambda m: fn(from_utf16_units(m.match)))
            result = self.rx.replace(text, call, timeout)
            return _as_units(result) if keep_units else result
        if not spans:
            return text
        units = work.units
        if work.expanded or keep_units:
            matched = [from_utf16_units(units[s:e]) for s, e in spans]
        else:
            matched = [units[s:e] for s, e in spans]
        values = list(map(fn, [s for s, _e in spans], matched)) if offsets else list(map(fn, matched))
        return self._assemble(work, spans, values, keep_units)

    def search(self, text: str, timeout: float | None = None) -> JSMatch | None:
        """First match anywhere (stateless)."""
        work = self._prepare(text)
        spans = None if work is None else self._spans(work, True, timeout)
        if spans is None:
            return self.rx.search(text, 0, timeout)
        return self._match(text, spans[0][0], timeout) if spans else None



def back_run_candidates(literal: str, run_chars: frozenset[str], *, skip_ws: bool = False):
    """Candidates for patterns that start at a ``\\b`` and end their identifier-like run right
    before ``literal`` (``foo.bar(``, ``call (x)``, ``MAX_RETRY``): the word-boundary positions
    of the maximal run of ``run_chars`` (after skipping JS whitespace backwards when
    ``skip_ws``) before each occurrence of ``literal``. The runs are found by one ``re`` scan
    of the reversed text (the reversed literal, then the blanks, then the run)."""
    run_class = "[" + "".join(map(re.escape, sorted(run_chars))) + "]*"
    ws_class = "[" + "".join(map(re.escape, JS_WHITESPACE)) + "]*" if skip_ws else ""
    # a scan consumes the blanks and the run, so it would hide an occurrence of the literal
    # inside them: then each occurrence is measured on its own
    one_scan = len(literal) == 1 and literal not in run_chars and not (skip_ws and literal in JS_WHITESPACE)
    scan_rx = re.compile(re.escape(literal[::-1]) + ws_class + "(" + run_class + ")")
    ws_rx, run_rx = re.compile(ws_class), re.compile(run_class)
    nonword = tuple(run_chars - _WORD)  # without these in a run, its only boundary is at its start

    def runs(text: str, rev: str):
        """(k, j): each occurrence's run text[k:j]."""
        n = len(text)
        if one_scan:
            for m in scan_rx.finditer(rev):
                yield n - m.end(1), n - m.start(1)
            return
        for i in occurrences(text, literal):
            r = ws_rx.match(rev, n - i).end()
            yield n - run_rx.match(rev, r).end(), n - r

    def find(text: str) -> list[int] | None:
        limit = max(64, len(text) // DENSITY)
        if literal not in text:
            return []
        n, word = len(text), _WORD
        if one_scan:  # (k, j) of every non-empty run, from the match spans in the reversed text
            rev = text[::-1]  # rev[n - i] is text[i - 1]
            pairs = [(n - e, n - s) for s, e in (m.span(1) for m in scan_rx.finditer(rev)) if s != e]
        else:
            pairs = [(k, j) for k, j in runs(text, text[::-1]) if k != j]
        starts: set[int] = set()
        present = [c for c in nonword if c in text]  # (one memchr each: usually none occurs at all)
        if present:
            odd = [pair for pair in pairs if any(c in text[pair[0]:pair[1]] for c in present)]
            for k, j in odd:  # a run with a non-word character has a boundary inside it
                starts.update(p for p in range(k, j) if (p > 0 and text[p - 1] in word) != (text[p] in word))
            if odd:
                pairs = [pair for pair in pairs if not any(c in text[pair[0]:pair[1]] for c in present)]
        # otherwise the run's only possible boundary is at its start
        starts.update(k for k, _j in pairs if (k > 0 and text[k - 1] in word) != (text[k] in word))
        if len(starts) > limit:
            return None
        return sorted(starts)

    return find


_DOT_BEFORE_DIGIT = re.compile(r"\.(?=[0-9])")  # a literal first character: searched for, not tried everywhere
_DIGITS = frozenset("0123456789")


def digits_before_dot_digit(text: str) -> list[int]:
    """Every index of a digit followed by ``.<digit>`` (overlapping: ``1.2.3`` gives two), found
    from the ``.<digit>`` occurrences (a pattern that starts with a literal character is
    searched for quickly, on any text, instead of being tried at every position)."""
    if "." not in text:
        return []
    digits = _DIGITS
    return [i - 1 for i in (m.start() for m in _DOT_BEFORE_DIGIT.finditer(text)) if i and text[i - 1] in digits]


def digit_run_candidates(text: str) -> list[int] | None:
    """Candidates for ``\\b\\d+(?:\\.\\d+)…`` (versions): starts of the digit runs that are
    followed by ``.<digit>``, where a word boundary holds."""
    limit = max(64, len(text) // DENSITY)
    starts: set[int] = set()
    for k in digits_before_dot_digit(text):
        while k > 0 and text[k - 1] in _DIGITS:
            k -= 1
        if k == 0 or text[k - 1] not in _WORD:
            starts.add(k)
            if len(starts) > limit:
                return None
    return sorted(starts)


def _within_output_cap(rx: JSRegExp, units: str, spans: list[tuple[int, int]], values: str | list[str]) -> None:
    """Refuse a result longer than the regex layer's output cap before joining it (the values
    of a replacement map are shared strings: summing their lengths costs no memory)."""
    from engine.jsregex.budget import ReplacementTooLarge, output_cap

    added = len(values) * len(spans) if isinstance(values, str) else sum(map(len, values))
    removed = sum(end - start for start, end in spans)
    cap = output_cap(len(units))
    if len(units) - removed + added > cap:
        raise ReplacementTooLarge(rx.source, rx.flags, cap)
