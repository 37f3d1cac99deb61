""""Drop lines like these" / "Keep lines like these": one pattern from a few selected lines.

The selected lines are generalised the way learned drop patterns are (``noise.unit_pattern``:
their common template, cut after the first value that follows the leading word), so the pattern
also takes the next run's lines of that kind. A *drop* pattern must not touch a protected line
(an error, warning, location or summary) of the current sample or of the other samples given; it
grows until it does not, or is refused with the line it would lose. A *keep* pattern becomes a
priority pattern (``preserve.errorPatterns`` when the lines carry signal, else
``summaryPatterns``), which the line limits never cut; drop patterns of the open filter that
would still remove those lines are named, since a drop runs before any limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.rtk.learn import keep
from engine.rtk.learn.noise import Proposal, SampleLine, matches_of, read_lines, unit_pattern
from engine.rtk.learn.regexes import search


@dataclass
class LinesLike:
    proposal: Proposal | None  # None: refused
    why_not: str = ""
    current: list[tuple[int, str]] = field(default_factory=list)  # (1-based line, text) in the current sample
    others: list[tuple[str, int, str]] = field(default_factory=list)  # (sample name, line, text)
    blocking_drops: list[str] = field(default_factory=list)  # keep: drop patterns that still remove them


def lines_like(selected: list[str], sample: str, kind: str, *, others: dict[str, str] | None = None,
               drop_patterns: list[str] | tuple[str, ...] = ()) -> LinesLike:
    """A pattern for lines like ``selected`` (lines of ``sample``), ``kind`` "drop" or "keep"."""
    from engine.rtk.learn.draft import split_lines

    chosen = [ln for ln in selected if ln.strip()]
    if not chosen:
        return LinesLike(None, "select one or more non-blank lines")
    names = list((others or {}).keys())
    texts = [sample, *(others or {}).values()]
    all_lines = read_lines([split_lines(t) for t in texts])
    picked = set(chosen)
    unit = [ln for ln in all_lines if ln.sample == 0 and ln.text in picked]
    if not unit:
        unit = read_lines([chosen])
    if kind == "drop":
        hard = [ln for ln in unit if ln.hard]
        if hard:
            return LinesLike(None, f"the selection holds a line that must not be dropped: {hard[0].text.strip()!r}")
        guard = [ln for ln in all_lines if ln.hard and ln.text not in picked]
        pattern = unit_pattern(unit, guard, loose=True) or unit_pattern(unit, guard)
        if pattern is None:
            return LinesLike(None, "no pattern matches these lines without also dropping an error, warning, "
                                   "location or summary line")
        proposal = Proposal("rules.dropPatterns", pattern, f"dropped like the {len(chosen)} selected line(s)")
    elif kind == "keep":
        pattern = unit_pattern(unit, [], loose=True)
        if pattern is None:
            return LinesLike(None, "no linear pattern matches every selected line")
        signal = any(keep.hard_protected(ln.text) for ln in unit)
        field_ = "preserve.errorPatterns" if signal else "preserve.summaryPatterns"
        proposal = Proposal(field_, pattern, f"kept like the {len(chosen)} selected line(s)")
    else:
        raise ValueError(f"kind must be 'drop' or 'keep', not {kind!r}")
    hits = matches_of(proposal.pattern, all_lines)
    proposal.matches = [(ln.sample, ln.index + 1, ln.text) for ln in hits]
    result = LinesLike(proposal)
    result.current = [(ln.index + 1, ln.text) for ln in hits if ln.sample == 0]
    result.others = [(names[ln.sample - 1], ln.index + 1, ln.text) for ln in hits if ln.sample > 0]
    if kind == "keep":
        result.blocking_drops = [p for p in drop_patterns if any(search(p, "i", ln.text) for ln in unit)]
    return result


__all__ = ["LinesLike", "SampleLine", "lines_like"]
