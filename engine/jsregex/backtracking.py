"""How much work one anchored attempt of a pattern can do: is it linear in the text it reads?

A backtracking matcher stalls (ReDoS) only through ambiguity that multiplies: nested unbounded
repeats (``(a+)+``), repeated alternatives that overlap (``(a|aa)+``), or two unbounded repeats
that can share characters (``\\s*\\s*``, quadratic). A pattern whose unbounded repeats all have a
single character (class) as body, and otherwise a bounded number of ways to go (alternatives ×
bounded repeat counts, lookarounds included) tries at most ``ways`` × (text read) steps from one
start position when it has one such repeat — or several that are *deterministic*: nothing that
may follow a repeat can begin with a character of its class, so when the repeat gives a
character back, what follows fails on that very character (``[a-z]*\\s*\\(`` is; ``\\s*[:.]?\\s*``
is not). A repeated *group* (``(?:_[A-Z0-9]+)+``, ``(?:\\.\\d+){1,3}``) is accepted on the same terms:
one way through its body, which cannot match empty, and whose first character can be neither
what may follow the repeat (when the count is not fixed) nor, inside the body, what an inner
repeat may give back to (the next iteration or what follows). Giving a character back then
fails at once, whichever iteration it belongs to. Such an attempt cannot stall by more than a
scan of the text, so a caller may run it
without ``regex``'s per-call timer and check its own deadline between attempts
(``engine.jsregex.anchored``).

A whole scan tries an attempt at every position. It stays linear when its one unbounded repeat
(over a class ``C``) can only start right after a consumed character outside ``C``: the repeat
then begins at the start of a maximal run of ``C``, and each run is read from at most ``ways``
start positions (``linear_scan``; ``\\b(?:an|the)\\s+`` is, ``\\s*x`` on a long run of blanks is
not). The answers are conservative: anything not understood is "not linear".
"""

from __future__ import annotations

from .. import memo
from . import ast as A
from .charset import ALL, Ranges, intersect, union
from .translate import parsed_root

MAX_WAYS = 4096  # bounded branching allowed per attempt (a few dozen alternatives × small repeats)


class _NotLinear(Exception):
    pass


@memo.lru(maxsize=2048)
def linear_attempts(source: str, flags: str) -> bool:
    """Whether every anchored attempt of ``/source/flags`` does work linear in the text it
    reads (unbounded repeats of single characters, one or all deterministic; bounded
    branching elsewhere)."""
    try:
        unicode = "u" in flags or "v" in flags
        root = parsed_root(source, flags)
        ways, unbounded = _measure(root)
        if ways > MAX_WAYS:
            return False
        if unbounded > 1:
            if unicode:  # (a class may stand for a surrogate pair there: not analysed)
                return False
            _check_deterministic(root, ())
    except _NotLinear:
        return False
    except Exception:  # a syntax error or a shape we do not know: never claim linearity
        return False
    return True


@memo.lru(maxsize=2048)
def linear_scan(source: str, flags: str) -> bool:
    """Whether a whole scan of ``/source/flags`` (an attempt at every position) does work
    linear in the text: ``linear_attempts``, and no unbounded repeat or one that only starts
    after a consumed character its class cannot match. ``u``/``v`` patterns: not claimed."""
    if "u" in flags or "v" in flags or not linear_attempts(source, flags):
        return False
    try:
        root = parsed_root(source, flags)
        return _measure(root)[1] <= 1 and _runs_start_after_other_characters(root)
    except Exception:  # a shape we do not know: never claim linearity
        return False


def _runs_start_after_other_characters(root: A.Node) -> bool:
    while isinstance(root, A.Group):
        root = root.body
    items = root.items if isinstance(root, A.Seq) else [root]
    for j, item in enumerate(items):
        if isinstance(item, A.Quant) and item.max is None:
            before = _last_consumed(items[:j])
            return before is not None and not intersect(before, _character_class(item.body))
    return _measure(root)[1] == 0  # the repeat is nested somewhere: only fine if there is none


def _character_class(node: A.Node) -> Ranges:
    while isinstance(node, A.Group):
        node = node.body
    return node.ranges if isinstance(node, A.CharSet) else ALL


def _last_consumed(items: list[A.Node]) -> Ranges | None:
    """The class of the last character every match of ``items`` consumes, or None when that
    is not one known, mandatory character."""
    for item in reversed(items):
        if isinstance(item, A.Anchor | A.Look | A.Empty):
            continue  # zero-width: the character before it is still the last one consumed
        return _last_of(item)
    return None


def _last_of(node: A.Node) -> Ranges | None:
    if isinstance(node, A.CharSet):
        return None if node.strings else node.ranges
    if isinstance(node, A.Group):
        return _last_of(node.body)
    if isinstance(node, A.Seq):
        return _last_consumed(node.items)
    if isinstance(node, A.Alt):
        classes = [_last_of(alt) for alt in node.alternatives]
        known = [c for c in classes if c is not None]
        return None if len(known) != len(classes) else union(*known)
    if isinstance(node, A.Quant) and node.min >= 1:
        return _last_of(node.body)
    return None  # the dot, optional items, backreferences: not known


def _check_deterministic(node: A.Node, follow: Ranges) -> None:
    """Raise ``_NotLinear`` unless every unbounded repeat in ``node`` is deterministic: its class
    is disjoint from what may come first after it (``follow``: what may follow ``node``; the
    end of the pattern adds nothing, a match simply ends there)."""
    if isinstance(node, A.Group):
        _check_deterministic(node.body, follow)
    elif isinstance(node, A.Seq):
        items = node.items
        for i, item in enumerate(items):
            first, nullable = _first_of_items(items[i + 1:])
            _check_deterministic(item, union(first, follow) if nullable else first)
    elif isinstance(node, A.Alt):
        for alt in node.alternatives:
            _check_deterministic(alt, follow)
    elif isinstance(node, A.Look):
        if _measure(node.body)[1]:
            raise _NotLinear  # a repeat evaluated again at every arrival
    elif isinstance(node, A.Quant) and _single_character(node.body):
        if node.max is None and intersect(_character_class(node.body), follow):
            raise _NotLinear
    elif isinstance(node, A.Quant) and _repeated_group(node):
        first, _nullable = _first(node.body)  # (never nullable: see _measure)
        if node.max != node.min and intersect(first, follow):
            raise _NotLinear  # "one more iteration" and "stop here" could both go on
        again = node.max is None or node.max > 1
        _check_deterministic(node.body, union(first, follow) if again else follow)
    # characters, anchors and bounded repeats of bounded bodies (see _measure)


def _repeated_group(node: A.Quant) -> bool:
    """Whether ``node`` repeats a body that is more than one character and holds or is an
    unbounded repeat (``_measure`` let it through only as a deterministic repeated group)."""
    return not _single_character(node.body) and (node.max is None or _measure(node.body)[1] > 0)


def _first(node: A.Node) -> tuple[Ranges, bool]:
    """``(characters a match of node may begin with, whether it may consume nothing)``."""
    if isinstance(node, A.CharSet):
        if node.strings:
            raise _NotLinear
        return node.ranges, False
    if isinstance(node, A.Dot):
        return ALL, False
    if isinstance(node, A.Anchor | A.Look | A.Empty):
        return (), True
    if isinstance(node, A.Group):
        return _first(node.body)
    if isinstance(node, A.Seq):
        return _first_of_items(node.items)
    if isinstance(node, A.Alt):
        firsts = [_first(alt) for alt in node.alternatives]
        return union(*(f for f, _n in firsts)), any(n for _f, n in firsts)
    if isinstance(node, A.Quant):
        first, nullable = _first(node.body)
        return first, nullable or node.min == 0
    raise _NotLinear


def _first_of_items(items: list[A.Node]) -> tuple[Ranges, bool]:
    firsts: list[Ranges] = []
    for item in items:
        first, nullable = _first(item)
        firsts.append(first)
        if not nullable:
            return union(*firsts), False
    return union(*firsts), True


def _single_character(node: A.Node) -> bool:
    while isinstance(node, A.Group):
        node = node.body
    return isinstance(node, A.Dot) or (isinstance(node, A.CharSet) and not node.strings)


def _measure(node: A.Node) -> tuple[int, int]:
    """``(ways, unbounded repeats)`` of ``node``; raises ``_NotLinear`` when it can multiply."""
    if isinstance(node, A.Dot | A.Anchor | A.Empty):
        return 1, 0
    if isinstance(node, A.CharSet):
        return (len(node.strings) + 1 if node.strings else 1), 0
    if isinstance(node, A.Group):
        return _measure(node.body)
    if isinstance(node, A.Look):
        return _measure(node.body)  # evaluated once per arrival: counted as if it branched
    if isinstance(node, A.Seq):
        ways, unbounded = 1, 0
        for item in node.items:
            w, u = _measure(item)
            ways, unbounded = _cap(ways * w), unbounded + u
        return ways, unbounded
    if isinstance(node, A.Alt):
        ways, unbounded = 0, 0
        for alt in node.alternatives:
            w, u = _measure(alt)
            ways, unbounded = _cap(ways + w), unbounded + u
        return ways, unbounded
    if isinstance(node, A.Quant):
        if node.max is None and _single_character(node.body):
            return 1, 1
        w, u = _measure(node.body)
        if node.max is None or u:
            # a repeated group that is or holds an unbounded repeat: linear only with one way
            # through a body that consumes something, and deterministic choices (counted as
            # two unbounded repeats so that _check_deterministic always looks at it)
            if w != 1 or _first(node.body)[1]:
                raise _NotLinear
            return 1, u + 2
        if w == 1:
            return _cap(node.max - node.min + 1), 0
        total = 0
        for k in range(node.min, node.max + 1):
            total = _cap(total + _cap(w ** min(k, 64)))
            if total > MAX_WAYS:
                break
        return total, 0
    raise _NotLinear  # backreferences, unsupported constructs


def _cap(n: int) -> int:
    if n > MAX_WAYS:
        raise _NotLinear
    return n
