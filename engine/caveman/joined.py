"""One rule (or protected-region pattern) over many short parts at once: their texts joined
by a separator, one scan.

A chat body of ~1,250 messages of ~800 characters took ~540 µs a message in the rules alone:
each of a pack's ~40 rules scanned each message by itself. On the same messages joined, the
large-text path (``engine.caveman.fast``: one literal index, anchored attempts at candidates)
runs all the rules in ~50 ms, not ~700.

Joining is exact on a separator ``separators_for`` gives for a pattern, because the pattern sees
that one character as it sees a text's edge:

- ``\\b``/``\\B`` treat it as the edge (neither separator is a word character);
- ``^``/``$`` are allowed with ``m`` and a line break between the parts, a line's edge as the
  text's edge is; without ``m`` they hold at the joined text's ends alone, so such a pattern is
  not joined — except a leading ``(?:^|\\s)``, whose class takes the separator where the ``^``
  would have held;
- no lookaround body can match the separator, so a lookaround reading into it fails there as
  it fails at the text's edge (a line break suits most patterns; NUL one like
  ``(?<!make\\s)``, whose body takes a blank);
- a path that consumes the separator is the one thing left. It fails where the part alone would
  have ended (the same backtracking after it), or it succeeds: then its match holds a separator,
  and ``replace_joined`` says which parts such a match touched (``Step.crossed``). Their result
  is not taken from the joined run: the caller runs the pattern on each of them alone.

Every other match lies inside one part and is the match that part alone has there, in the same
order, so each part's text after the pattern is its slice of the joined result. A rule's
replacement must not see past the match (no ``$``-template: `````$` ````` and ``$'`` read the
whole subject); the pattern needs ``g`` without ``y``, ``u`` or ``v``: a global scan, no state,
units one a character.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate
from operator import add, sub

from engine import memo
from engine.caveman.fast import FastRegex
from engine.caveman.packs import Rule
from engine.jsregex import ast as A
from engine.jsregex.charset import contains
from engine.jsregex.facts import pattern_facts
from engine.jsregex.translate import parsed_root
from engine.jsvalues import utf16_len

# the separators tried, in order: a line break is a line's edge for ``^``/``$`` under ``m``; NUL is
# what a lookaround whose body takes a blank (``(?<!make\s)``) cannot read
SEPARATORS = ("\n", "\x00", "\x1e")
# the record separator, where no part holds it (no stand-in and no placeholder does): the rule's
# own result on the joined text, split at it, gives each part's (``replace_split``)
SPLIT = SEPARATORS[2]


def joinable(rule: Rule) -> tuple[str, ...]:
    """The separators that let ``rule`` give each part, in a joined text, what it gives the part
    alone, in ``SEPARATORS``' order (none: not joinable; the module docstring says why these
    conditions are enough)."""
    if rule.replacement is not None and "$" in rule.replacement:
        return ()  # (a template: `$`` and `$'` read the whole subject; a map's miss may expand one)
    return separators_for(rule.pattern, rule.flags)


def choose(accepted: tuple[str, ...], current: str) -> str | None:
    """The separator to join on for a pattern that ``accepted`` these: the current one where it
    may (a text joined anew loses what the rules carry from one to the next: its canonical form,
    the literal index's view), else its first; None: the pattern runs on each part alone."""
    if current in accepted:
        return current
    return accepted[0] if accepted else None


@memo.lru(maxsize=4096)
def separators_for(pattern: str, flags: str) -> tuple[str, ...]:
    """The separators (of ``SEPARATORS``) with which ``/pattern/flags`` finds in a joined text,
    inside each part, the matches it finds in the part alone (or a match holding a separator:
    ``Step.crossed``)."""
    if "g" not in flags or any(f in flags for f in "yuv"):
        return ()
    try:
        facts = pattern_facts(pattern, flags)
        root = parsed_root(pattern, flags)
    except Exception:  # (an invalid or refused pattern: the rule is reported where it runs alone)
        return ()
    looks = [node.body for node in A.walk(root) if isinstance(node, A.Look)]
    accepted = []
    for separator in SEPARATORS:
        if any(_may_take(body, separator, "s" in flags) for body in looks):
            continue  # (a lookaround would read the separator where the part alone has its edge)
        covered = None if facts.has_backreference else _covered_start(root, separator)  # (a group's "" against it)
        if _has_line_anchor(root, covered) and not ("m" in flags and separator == "\n"):
            continue
        accepted.append(separator)
    return tuple(accepted)


@memo.lru(maxsize=1024)
def start_twin(pattern: str, flags: str) -> str | None:
    """The flags of the ``m`` twin of a pattern that matches only at a text's start (a leading
    ``^`` without ``m``, no other line anchor), where that twin joins on a line break: there
    its match at a part's start is the pattern's match at the start of the part alone (``^``
    holds after the line break as at a text's start; the rest reads the same text). Its other
    matches, at lines inside the parts, are not the pattern's: the caller leaves them as they
    are. None: no such twin."""
    if "m" in flags or "g" not in flags or any(f in flags for f in "yuv"):
        return None
    try:
        facts = pattern_facts(pattern, flags)
        root = parsed_root(pattern, flags)
    except Exception:  # (an invalid or refused pattern: reported where it runs alone)
        return None
    first = root.items[0] if isinstance(root, A.Seq) and root.items else root
    if not facts.line_anchored or not isinstance(first, A.Anchor) or _has_line_anchor(root, first):
        return None
    twin = flags + "m"
    return twin if "\n" in separators_for(pattern, twin) else None


def _may_take(node: A.Node, separator: str, dot_all: bool) -> bool:
    """Whether some match of ``node`` can hold ``separator`` (a back-reference, or a node this
    module does not know, may)."""
    for n in A.walk(node):
        if isinstance(n, A.CharSet):
            if contains(n.ranges, ord(separator)) or any(separator in s for s in n.strings):
                return True
        elif isinstance(n, A.Dot):
            if dot_all or separator not in "\n\r\u2028\u2029":
                return True
        elif not isinstance(n, A.Seq | A.Alt | A.Group | A.Look | A.Quant | A.Anchor | A.Empty):
            return True
    return False


def _covered_start(root: A.Node, separator: str) -> A.Anchor | None:
    """The ``^`` of a pattern that starts ``(?:^|\\s)``: where it holds at a part's start alone,
    the class takes the separator before it in the joined text (a match holding the separator:
    the part runs alone), so that ``^`` without ``m`` misses nothing."""
    first = root.items[0] if isinstance(root, A.Seq) and root.items else root
    if isinstance(first, A.Group):  # ((?:…) parses to its body)
        first = first.body
    if not isinstance(first, A.Alt):
        return None
    anchor = next((a for a in first.alternatives if isinstance(a, A.Anchor) and a.kind == "^"), None)
    takes_separator = any(isinstance(a, A.CharSet) and contains(a.ranges, ord(separator)) for a in first.alternatives)
    return anchor if takes_separator else None


def _has_line_anchor(root: A.Node, covered: A.Anchor | None = None) -> bool:
    for node in A.walk(root):
        if isinstance(node, A.Anchor) and node.kind in "^$" and node is not covered:
            return True
        if not isinstance(node, A.Seq | A.Alt | A.Group | A.Look | A.Quant | A.CharSet | A.Dot | A.Empty
                          | A.Backref | A.Anchor):
            return True  # (a node this module does not know: no claim)
    return False


@dataclass
class Step:
    """What one rule did to the joined parts."""

    joined: str  # the joined text after the rule
    pieces: dict[int, str] = field(default_factory=dict)  # part → its text after the rule (matched, not crossed)
    crossed: set[int] = field(default_factory=set)  # parts a match ran into or out of (run them alone)


def join(texts: list[str], separator: str = SEPARATORS[0]) -> tuple[str, list[int]]:
    """The texts joined by ``separator``, and where each starts."""
    return separator.join(texts), starts_of(texts)


def starts_of(texts: list[str]) -> list[int]:
    """Where each of the texts starts in their join."""
    return list(accumulate((len(t) + 1 for t in texts[:-1]), initial=0))


def replace_joined(rx: FastRegex, joined: str, starts: list[int],
                   values_of: Callable[[list[int], list[str]], list[str]], budget: float | None) -> Step:
    """``rx`` (a joinable pattern's regex) over ``joined`` (UTF-16 units, parts starting at
    ``starts``), each match replaced by its value (``values_of``: the matches' offsets in
    ``joined`` and matched texts in, their values out). Raises what the regex raises
    (``RegexTimeout``…)."""
    offsets: list[int] = []
    matched: list[str] = []
    values: list[str] = []

    def record(at: list[int], texts: list[str]) -> list[str]:
        # (one call for every match, or one per match where engine.jsregex finds them)
        out = values_of(at, texts)
        offsets.extend(at)
        matched.extend(texts)
        values.extend(out)
        return out

    after = rx.replace_all_spans(joined, record, budget, keep_units=True)
    step = Step(after)
    if not offsets:
        return step
    lengths = _units_lengths(matched)
    ends = list(map(add, offsets, lengths))
    # before[i]: how much longer the text before span i became (in C: ~30,000 matches a MB)
    before = list(accumulate(map(sub, _units_lengths(values), lengths), initial=0))
    groups, step.crossed = _by_part(offsets, ends, starts, len(joined))
    for k, first, past, edge in groups:
        if k not in step.crossed:
            step.pieces[k] = after[starts[k] + before[first]:edge + before[past]]
    return step


def replace_split(replace: Callable[[str], str], joined: str, count: int) -> Step | None:
    """``replace``'s result on ``joined`` (``count`` parts joined by ``SPLIT``, which none holds)
    as each part's text: that result split at ``SPLIT``. ``replace`` must put a constant that
    lacks ``SPLIT`` in each match's place, so that a match holding a separator leaves one fewer
    (None: such a match; ``replace_joined`` then says whose). The rule's whole result takes its
    fastest way (a substitution in C, ~8 ms per MB for the articles rule, ~28 from its spans)."""
    after = replace(joined)
    pieces = after.split(SPLIT)
    if len(pieces) != count:
        return None
    return Step(after, dict(enumerate(pieces)))


def matches_joined(rx: FastRegex, joined: str, starts: list[int], budget: float | None
                   ) -> tuple[dict[int, list[tuple[int, str]]], set[int]]:
    """Every match of ``rx`` (a joinable pattern's regex) in ``joined``, by part: each part's
    matches (offset in the part, matched text), and the parts a match holding a separator
    touched (their matches are not given: find them alone). Raises what the regex raises."""
    offsets: list[int] = []
    matched: list[str] = []

    def record(at: list[int], texts: list[str]) -> list[str]:
        offsets.extend(at)
        matched.extend(texts)
        return texts

    rx.replace_all_spans(joined, record, budget, keep_units=True)
    ends = list(map(add, offsets, _units_lengths(matched)))
    groups, crossed = _by_part(offsets, ends, starts, len(joined))
    found = {k: [(offsets[j] - starts[k], matched[j]) for j in range(first, past)]
             for k, first, past, _edge in groups if k not in crossed}
    return found, crossed


def _by_part(offsets: list[int], ends: list[int], starts: list[int], length: int
             ) -> tuple[list[tuple[int, int, int, int]], set[int]]:
    """The matches (their offsets and ends, in order) by part: ``(part, its first match, past
    its last, where the part ends)`` for each part with one, and the parts a match holding a
    separator touched."""
    groups: list[tuple[int, int, int, int]] = []
    crossed: set[int] = set()
    count = len(starts)
    i, n = 0, len(offsets)
    while i < n:  # (a turn per part with a match, not per match)
        k = bisect_right(starts, offsets[i]) - 1
        edge = starts[k + 1] - 1 if k + 1 < count else length  # the separator after part k
        past = bisect_right(offsets, edge, i)
        # (matches do not overlap: only a part's last one can reach past its separator)
        if ends[past - 1] > edge:
            crossed.update(range(k, bisect_right(starts, ends[past - 1])))
        groups.append((k, i, past, edge))
        i = past
    return groups, crossed


def _units_lengths(texts: list[str]) -> list[int]:
    """The UTF-16 lengths of ``texts`` (their lengths, in C, when none holds an astral character)."""
    lengths = list(map(len, texts))
    if all(map(str.isascii, texts)):
        return lengths
    return [utf16_len(t) for t in texts]
