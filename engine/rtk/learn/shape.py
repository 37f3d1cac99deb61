"""Stage shaping from the samples: dedup, collapse, and the line limits.

* ``deduplicate`` when a run holds three or more identical lines in a row (the engine's dedup
  threshold), so a burst becomes one line and a count.
* ``collapsePatterns`` for kinds of line whose exact text comes back later in the same run
  (``npm WARN deprecated x`` once per dependent): the first stays, the rest go.
* ``maxLines`` / ``headLines`` / ``tailLines``: what is left of the samples after dropping
  decides. Outputs that stay short get no cut of their own (``maxLines`` 0: the engine's
  default cap applies at run time); longer ones get room for half again their longest kept run,
  rounded up to 10, at least 60, with a head of 30 % and a tail of 40 % (the verdict is at the
  end) — the priority patterns keep every error line in between.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from dataclasses import dataclass

from engine.rtk.learn.noise import Proposal, SampleLine, matches_of, unit_pattern
from engine.rtk.learn.normalise import Template, head_length

SHORT_OUTPUT = 60  # kept lines below which a filter needs no cut of its own
MAX_LINES_CAP = 400


@dataclass(frozen=True)
class Limits:
    max_lines: int
    head_lines: int
    tail_lines: int
    reason: str


def has_bursts(samples: list[list[str]], threshold: int = 3) -> bool:
    for lines in samples:
        run = 1
        for a, b in itertools.pairwise(lines):
            run = run + 1 if a == b and a.strip() else 1
            if run >= threshold:
                return True
    return False


def collapse_proposals(lines: list[SampleLine], dropped: list[str], guard: list[SampleLine]) -> list[Proposal]:
    """Kinds of line (not already dropped) whose exact text repeats, apart, within one sample."""
    groups: dict[Template, list[SampleLine]] = defaultdict(list)
    for ln in lines:
        if ln.blank:
            continue
        groups[ln.tpl[:head_length(ln.tpl)]].append(ln)
    out: list[Proposal] = []
    dropped_set = set(dropped)
    for members in groups.values():
        repeats = Counter((ln.sample, ln.text.strip()) for ln in members)
        spread = [key for key, n in repeats.items() if n >= 2 and not _adjacent(members, key)]
        if not spread:
            continue
        own = {id(m) for m in members}
        pattern = unit_pattern(members, [g for g in guard if id(g) not in own])
        if pattern is None or pattern in dropped_set:
            continue
        from engine.rtk.learn.regexes import search

        if any(search(p, "i", members[0].text) for p in dropped):
            continue
        count = sum(repeats[key] - 1 for key in spread)
        out.append(Proposal("rules.collapsePatterns", pattern,
                            f"{count} exact repeat(s) of a line later in the same run", ""))
    return out


def _adjacent(members: list[SampleLine], key: tuple[int, str]) -> bool:
    idx = [ln.index for ln in members if (ln.sample, ln.text.strip()) == key]
    return all(b - a == 1 for a, b in itertools.pairwise(idx))


def choose_limits(kept_counts: list[int]) -> Limits:
    longest = max(kept_counts, default=0)
    if longest < SHORT_OUTPUT:
        return Limits(0, 20, 20, f"the samples keep at most {longest} lines: no cut of the filter's own")
    max_lines = min(MAX_LINES_CAP, max(SHORT_OUTPUT, math.ceil(longest * 1.5 / 10.0) * 10))
    head = math.ceil(max_lines * 0.3)
    tail = math.ceil(max_lines * 0.4)
    return Limits(max_lines, head, tail, f"longest kept sample: {longest} lines -> room for {max_lines}")


__all__ = ["Limits", "choose_limits", "collapse_proposals", "has_bursts", "matches_of"]
