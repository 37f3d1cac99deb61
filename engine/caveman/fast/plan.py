"""Where a Caveman pattern's matches can start, as ``engine.caveman.fast.regex`` searches for
them: the regex layer's start facts (``engine.jsregex.starts``: literal anchors with the offsets
at which they sit from the match start, or a start kind; the minimum match width; the literals
every match holds), turned into a ``Plan`` for the subjects the fast path runs on.

This module decides only what Caveman does with those facts: ``y``, ``u`` and ``v`` patterns
get no plan (a sticky match starts at ``lastIndex`` only; a ``u``/``v`` pattern's offsets are
code points, not the UTF-16 units the fast path searches) and, through
``engine.caveman.required``, no required literals; anchors are merged into fewer literals to
search for (``engine.jsregex.starts.merge_anchors``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import memo
from engine.caveman.required import applies_to
from engine.jsregex.starts import WORD, MatchStarts, StartAnchor, merge_anchors, start_facts
from engine.jsregex.starts import word_boundaries as at_boundaries

__all__ = ["WORD", "Plan", "StartAnchor", "analyse", "at_boundaries", "literals_of", "pattern_facts", "plan_for"]


@dataclass(frozen=True)
class Plan:
    """Where matches can start: ``anchors`` ((literals, lo, hi), …) or a start kind."""

    anchors: tuple[StartAnchor, ...] = ()
    start: str = ""  # "text": only at 0; "line": at 0 and after each line terminator
    ignore_case: bool = False
    boundary: bool = False  # every match starts with ``\\b`` (a word boundary at the start)


def analyse(source: str, flags: str) -> tuple[Plan | None, int | None]:
    """``(start plan or None, minimum match width or None)`` of a JS pattern."""
    return pattern_facts(source, flags)[:2]


@memo.lru(maxsize=memo.PATTERN_MEMO_SIZE)
def pattern_facts(source: str, flags: str) -> tuple[Plan | None, int | None, frozenset[str] | None]:
    """``analyse``, and the literals every match holds (``engine.caveman.required``), all from
    the pattern's one parse (``engine.jsregex.starts.start_facts``)."""
    facts = start_facts(source, flags)
    required = facts.required_any if applies_to(flags) else None
    return _plan(facts.starts, flags), facts.min_width, required


def _plan(starts: MatchStarts | None, flags: str) -> Plan | None:
    if starts is None or not applies_to(flags):
        return None
    if not starts.anchors:  # only a start kind: "text" or "line"
        return Plan(start=starts.line_start)
    return Plan(anchors=merge_anchors(starts.anchors), start=starts.line_start, ignore_case="i" in flags,
                boundary=starts.boundary)


def plan_for(source: str, flags: str) -> Plan | None:
    """The start plan of a JS pattern, or None (use a full scan)."""
    return analyse(source, flags)[0]


def literals_of(plan: Plan) -> list[str]:
    return [lit for literals, _lo, _hi in plan.anchors for lit in literals]
