"""One rule (or protected-region pattern) over many short parts at once: their texts joined
by a separator, one scan.

A chat body of ~1,250 messages of ~800 characters took ~540 µs a message in the rules alone:
each of a pack's ~40 rules scanned each message by itself. On the same messages joined, the
large-text path (``engine.caveman.fast``: one literal index, anchored attempts at candidates)
runs all the rules in ~50 ms, not ~700.

Joining is exact on a separator ``engine.jsregex.edges.separators_for`` gives for a pattern:
the pattern sees that one character as it sees a text's edge (that module says why), save for a
path that consumes it. Such a path fails where the part alone would have ended (the same
backtracking after it), or it succeeds: then its match holds a separator, and ``replace_joined``
says which parts it touched (``Step.crossed``). Their result is not taken from the joined run:
the caller runs the pattern on each of them alone.

Every other match lies inside one part and is the match that part alone has there, in the same
order, so each part's text after the pattern is its slice of the joined result. A rule's
replacement must not see past the match (no ``$``-template: `````$` ````` and ``$'`` read the
whole subject).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate, compress
from operator import add, ne, sub

from engine.caveman.fast import FastRegex
from engine.caveman.packs import Rule
from engine.jsregex.budget import output_cap
from engine.jsregex.edges import SEPARATORS, separators_for
from engine.jsvalues import utf16_len

# the record separator, where no part holds it (no stand-in and no placeholder does): the rule's
# own result on the joined text, split at it, gives each part's (``replace_split``)
SPLIT = SEPARATORS[2]


def joinable(rule: Rule) -> tuple[str, ...]:
    """The separators that let ``rule`` give each part, in a joined text, what it gives the part
    alone, in ``SEPARATORS``' order (none: not joinable)."""
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


@dataclass
class Step:
    """What one rule did to the joined parts."""

    joined: str  # the joined text after the rule
    pieces: dict[int, str] = field(default_factory=dict)  # part → its text after the rule (matched, not crossed)
    crossed: set[int] = field(default_factory=set)  # parts a match ran into or out of (run them alone)


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
    groups, step.crossed = by_part(offsets, ends, starts, len(joined))
    for k, first, past, edge in groups:
        if k not in step.crossed:
            step.pieces[k] = after[starts[k] + before[first]:edge + before[past]]
    _over_cap(step, [*starts, len(joined) + 1])
    return step


def _over_cap(step: Step, bounds: list[int]) -> None:
    """Parts whose text after the pattern is longer than the regex layer lets a replacement make
    that part (``budget.output_cap``) are left to run alone, where it stops them: the joined
    text's own cap is the larger (``bounds``: where each part starts, and one past the end)."""
    if len(step.joined) <= output_cap(0):
        return  # (no part's text is longer than the whole, nor any cap shorter than the floor)
    for k, piece in list(step.pieces.items()):
        if len(piece) > output_cap(bounds[k + 1] - 1 - bounds[k]):
            del step.pieces[k]
            step.crossed.add(k)


def replace_split(replace: Callable[[str], str], joined: str, starts: list[int], texts: list[str]) -> Step | None:
    """``replace``'s result on ``joined`` (the parts ``texts`` starting at ``starts``, joined by ``SPLIT``,
    which none holds) as each part's text: that result split at ``SPLIT``. ``replace`` must put a constant that
    lacks ``SPLIT`` in each match's place, so that a match holding a separator leaves one fewer
    (None: such a match; ``replace_joined`` then says whose). The rule's whole result takes its
    fastest way (a substitution in C, ~8 ms per MB for the articles rule, ~28 from its spans)."""
    after = replace(joined)
    if after is joined:
        return Step(after)
    pieces = after.split(SPLIT)
    if len(pieces) != len(starts):
        return None
    # (the parts it changed, found in C: a few of ~1,250 for most rules)
    changed = compress(range(len(pieces)), map(ne, pieces, texts))
    step = Step(after, {k: pieces[k] for k in changed})
    _over_cap(step, [*starts, len(joined) + 1])
    return step


def matches_joined(rx: FastRegex, joined: str, starts: list[int], budget: float | None
                   ) -> tuple[dict[int, list[tuple[int, str]]], set[int]]:
    """Every match of ``rx`` (a joinable pattern's regex) in ``joined``, by part: each part's
    matches (offset in the part, matched text), and the parts a match holding a separator
    touched (their matches are not given: find them alone). Raises what the regex raises."""
    offsets, matched = rx.match_all(joined, budget, keep_units=True)
    ends = list(map(add, offsets, _units_lengths(matched)))
    groups, crossed = by_part(offsets, ends, starts, len(joined))
    found = {k: [(offsets[j] - starts[k], matched[j]) for j in range(first, past)]
             for k, first, past, _edge in groups if k not in crossed}
    return found, crossed


def by_part(offsets: list[int], ends: list[int], starts: list[int], length: int
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
