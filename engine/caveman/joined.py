"""One rule (or protected-region pattern) over many short parts at once: their texts joined
by a line break, one scan.

A chat body of ~1,250 messages of ~800 characters took ~540 µs a message in the rules alone:
each of a pack's ~40 rules scanned each message by itself. On the same messages joined, the
large-text path (``engine.caveman.fast``: one literal index, anchored attempts at candidates)
runs all the rules in ~50 ms, not ~700.

Joining is exact for a rule ``joinable`` says yes to, because the separator, one ``\\n``, is
seen by the pattern as a text edge is:

- ``\\b``/``\\B`` treat it as the edge (it is no word character);
- ``^``/``$`` are allowed only with ``m``, where a line break is a line's edge as the text's
  edge is; without ``m`` they hold at the joined text's ends alone, so such a rule is not
  joinable;
- no lookaround body can match a line break, so a lookaround reading into the separator fails
  there as it fails at the text's edge (``engine.jsregex.facts``' ``lookarounds_line_local``);
- a path that consumes the separator is the one thing left. It fails where the part alone would
  have ended (the same backtracking after it), or it succeeds: then its match holds a separator,
  and ``replace_joined`` says which parts such a match touched (``Step.crossed``). Their result
  is not taken from the joined run: the caller runs the rule on each of them alone.

Every other match lies inside one part and is the match that part alone has there, in the same
order, so each part's text after the rule is its slice of the joined result. The replacement
must not see past the match (no ``$``-template: `````$` ````` and ``$'`` read the whole
subject), and ``g`` without ``y``, ``u`` or ``v``: a global scan, no state, units one a
character.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate

from engine import memo
from engine.caveman.fast import FastRegex
from engine.caveman.packs import Rule
from engine.jsregex import ast as A
from engine.jsregex.charset import contains
from engine.jsregex.facts import pattern_facts
from engine.jsregex.translate import parsed_root
from engine.jsvalues import utf16_len

SEPARATOR = "\n"


def joinable(rule: Rule) -> bool:
    """Whether ``rule`` gives each part, in a joined text, what it gives the part alone (the
    module docstring says why these conditions are enough)."""
    return _joinable(rule.pattern, rule.flags, rule.replacement, rule.replacement_map is not None)


def _joinable(pattern: str, flags: str, replacement: str | None, mapped: bool) -> bool:
    if replacement is not None and "$" in replacement:
        return False  # (a template: `$`` and `$'` read the whole subject; a map's miss may expand one)
    return joinable_pattern(pattern, flags)


@memo.lru(maxsize=4096)
def joinable_pattern(pattern: str, flags: str) -> bool:
    """Whether ``/pattern/flags`` finds in a joined text, inside each part, the matches it finds
    in the part alone (or a match holding a separator: ``Step.crossed``)."""
    if "g" not in flags or any(f in flags for f in "yuv"):
        return False
    try:
        facts = pattern_facts(pattern, flags)
        root = parsed_root(pattern, flags)
    except Exception:  # (an invalid or refused pattern: the rule is reported where it runs alone)
        return False
    if facts.has_lookaround and not facts.lookarounds_line_local:
        return False
    covered = None if facts.has_backreference else _covered_start(root)  # (a group's "" against "\n")
    return "m" in flags or not _has_line_anchor(root, covered)


def _covered_start(root: A.Node) -> A.Anchor | None:
    """The ``^`` of a pattern that starts ``(?:^|\\s)``: where it holds at a part's start alone,
    the class takes the separator before it in the joined text (a match holding the separator:
    the part runs alone), so that ``^`` without ``m`` misses nothing."""
    first = root.items[0] if isinstance(root, A.Seq) and root.items else root
    if isinstance(first, A.Group):  # ((?:…) parses to its body)
        first = first.body
    if not isinstance(first, A.Alt):
        return None
    anchor = next((a for a in first.alternatives if isinstance(a, A.Anchor) and a.kind == "^"), None)
    takes_separator = any(isinstance(a, A.CharSet) and contains(a.ranges, ord(SEPARATOR)) for a in first.alternatives)
    return anchor if takes_separator else None


def _has_line_anchor(root: A.Node, covered: A.Anchor | None = None) -> bool:
    stack: list[A.Node] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, A.Anchor) and node.kind in "^$" and node is not covered:
            return True
        if isinstance(node, A.Seq):
            stack.extend(node.items)
        elif isinstance(node, A.Alt):
            stack.extend(node.alternatives)
        elif isinstance(node, A.Group | A.Look | A.Quant):
            stack.append(node.body)
        elif not isinstance(node, A.CharSet | A.Dot | A.Empty | A.Backref | A.Anchor):
            return True  # (a node this module does not know: no claim)
    return False


@dataclass
class Step:
    """What one rule did to the joined parts."""

    joined: str  # the joined text after the rule
    pieces: dict[int, str] = field(default_factory=dict)  # part → its text after the rule (matched, not crossed)
    crossed: set[int] = field(default_factory=set)  # parts a match ran into or out of (run them alone)


def join(texts: list[str]) -> tuple[str, list[int]]:
    """The texts joined by ``SEPARATOR``, and where each starts."""
    return SEPARATOR.join(texts), starts_of(texts)


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
    ends = [s + (len(m) if m.isascii() else utf16_len(m)) for s, m in zip(offsets, matched)]
    sizes = [len(v) if v.isascii() else utf16_len(v) for v in values]
    # before[i]: how much longer the text before span i became
    before = list(accumulate((size - (e - s) for s, e, size in zip(offsets, ends, sizes)), initial=0))
    count = len(starts)
    i, n = 0, len(offsets)
    while i < n:
        k = bisect_right(starts, offsets[i]) - 1
        edge = starts[k + 1] - 1 if k + 1 < count else len(joined)  # the separator after part k
        first = i
        while i < n and offsets[i] <= edge:
            if ends[i] > edge:  # (the match holds the separator)
                last = bisect_right(starts, ends[i]) - 1
                step.crossed.update(range(k, last + 1))
            i += 1
        if k in step.crossed:
            continue
        step.pieces[k] = after[starts[k] + before[first]:edge + before[i]]
    for k in step.crossed:
        step.pieces.pop(k, None)
    return step
