"""Noise discovery: line kinds that recur across runs or repeat within one, as drop patterns.

Lines are grouped by their *head* (``normalise.head_length``: the template up to its first
literal word, ``  Compiling`` or ``=== RUN``). A group is noise when it appears in at least half
of the samples (two at least) or three times in one, holds no protected line (``keep``), and is
not a data row (a line that begins with a value). Its pattern is the group's generalised
template cut right after the first value that follows the head (``^\\s+Compiling \\S+ v?\\d``),
lengthened token by token while it still matches a protected line of any sample; a group that
holds protected lines is split into its exact templates first. Punctuation-led kinds with many
heads (``✓ adds an item``, ``✓ removes…``) merge into one pattern on the mark when no protected
line starts with it.
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import memo
from engine.jsregex import RegexTimeout
from engine.jsregex.backtracking import linear_attempts
from engine.jsvalues import JsonObject
from engine.rtk.learn import keep
from engine.rtk.learn.normalise import (
    PLACEHOLDERS,
    Template,
    Token,
    head_length,
    js_escape,
    pattern_for,
    starts_with_value,
    template,
    template_text,
    tokenize,
)
from engine.rtk.learn.regexes import search

if TYPE_CHECKING:
    from engine.rtk.linescan import LineScanner

BLANK_PATTERN = r"^\s*$"
REPEATS_IN_ONE = 3  # a kind of line seen this often in one run is progress, not news


@dataclass(frozen=True)
class SampleLine:
    sample: int
    index: int  # 0-based line number in its sample
    text: str
    tokens: tuple[Token, ...]
    tpl: Template
    hard: bool  # signal or warning
    soft: bool  # outcome-like or closing the run

    @property
    def blank(self) -> bool:
        return not self.text.strip()


@dataclass
class Proposal:
    """One proposed pattern, why, and the sample lines it matches (``(sample, line, text)``,
    1-based line numbers)."""

    field: str
    pattern: str
    reason: str
    template: str = ""
    matches: list[tuple[int, int, str]] = dataclasses.field(default_factory=list)  # (`field` above is an attribute)
    accepted: bool = True

    def to_dict(self) -> JsonObject:
        return {"field": self.field, "pattern": self.pattern, "reason": self.reason, "template": self.template,
                "accepted": self.accepted,
                "matches": [{"sample": s + 1, "line": n, "text": t} for s, n, t in self.matches]}


def read_lines(samples: list[list[str]]) -> list[SampleLine]:
    out: list[SampleLine] = []
    seen: dict[str, tuple[tuple[Token, ...], Template, bool, bool]] = {}  # logs repeat lines: read each distinct one once
    for s, lines in enumerate(samples):
        tail = keep.tail_indexes(lines)
        for i, text in enumerate(lines):
            known = seen.get(text)
            if known is None:
                tokens = tuple(tokenize(text))
                known = seen[text] = (tokens, template(list(tokens)), keep.hard_protected(text),
                                      bool(text.strip()) and keep.outcome_like(text))
            tokens, tpl, hard, outcome = known
            soft = not hard and bool(text.strip()) and (outcome or i in tail)
            out.append(SampleLine(s, i, text, tokens, tpl, hard, soft))
    return out


_SCANNERS: memo.MemoDict[int, tuple[list[SampleLine], LineScanner]] = memo.MemoDict(f"{__name__}._SCANNERS", 16)


def matches_of(pattern: str, lines: list[SampleLine]) -> list[SampleLine]:
    """The lines ``pattern`` (flag ``i``, as drop patterns run) matches. Many lines go through
    the engine's ``LineScanner`` (a few scans of the joined lines instead of a call per line; the
    same lists are asked about again and again, so their scanner is kept for the next pattern)."""
    from engine.rtk.linescan import LineScanner
    from engine.rtk.patterns import compile_list

    if len(lines) < LineScanner.min_scan_lines:
        return [ln for ln in lines if search(pattern, "i", ln.text)]
    compiled, _ = compile_list([pattern], "i")
    if not compiled:
        return []
    cached = _SCANNERS.get(id(lines))
    if cached is None or cached[0] is not lines:
        cached = (lines, LineScanner([ln.text for ln in lines]))
        _SCANNERS[id(lines)] = cached
    try:
        return [lines[i] for i in cached[1].hits(compiled[0])]
    except RegexTimeout:
        return [ln for ln in lines if search(pattern, "i", ln.text)]


def needed_samples(n: int) -> int:
    return max(2, math.ceil(n / 2))


def discover_noise(lines: list[SampleLine], n_samples: int) -> tuple[list[Proposal], set[tuple[int, int]]]:
    """Drop proposals, and the (sample, index) of the lines judged protected after repetition
    was taken into account (an outcome-like line that repeats in one run is not protected)."""
    groups: dict[Template, list[SampleLine]] = defaultdict(list)
    for ln in lines:
        if not ln.blank and not starts_with_value(ln.tpl):
            groups[ln.tpl[:head_length(ln.tpl)]].append(ln)
    protected = {(ln.sample, ln.index) for ln in lines if ln.hard}
    for members in groups.values():
        if _max_in_one(members) < REPEATS_IN_ONE:
            protected |= {(ln.sample, ln.index) for ln in members if ln.soft}
    guard = [ln for ln in lines if (ln.sample, ln.index) in protected]
    proposals: list[Proposal] = []
    last = _last_indexes(lines)
    blanks = [ln for ln in lines if ln.blank and ln.index < last.get(ln.sample, -1)]
    if blanks:
        proposals.append(Proposal("rules.dropPatterns", BLANK_PATTERN,
                                  f"blank lines ({len(blanks)} in {len({ln.sample for ln in blanks})} sample(s))",
                                  "<blank>"))
    noisy_heads: dict[Template, Proposal] = {}
    for head, members in groups.items():
        for unit, pattern in _units(members, protected, guard):
            reason = _noise_reason(unit, n_samples)
            if reason is None or pattern is None:
                continue
            proposal = Proposal("rules.dropPatterns", pattern, reason, template_text(_generalised(unit)[0]))
            proposals.append(proposal)
            if unit is members:
                noisy_heads[head] = proposal
    proposals = _merge_marks(proposals, noisy_heads, guard)
    seen: set[str] = set()
    unique = []
    for p in proposals:
        if p.pattern not in seen:
            seen.add(p.pattern)
            unique.append(p)
    return unique, protected


def _units(members: list[SampleLine], protected: set[tuple[int, int]],
           guard: list[SampleLine]) -> list[tuple[list[SampleLine], str | None]]:
    """The parts of a head group a pattern can drop, each with its pattern: the whole group when
    it holds no protected line; else its other lines together, if one pattern can tell them from
    the protected ones (``> Task :app:jar`` from ``> Task :app:compileJava FAILED``); else the
    other lines by shape (token count), then by shape and last word, then by exact template."""
    rest = [ln for ln in members if (ln.sample, ln.index) not in protected]
    if len(rest) == len(members):
        return [(members, unit_pattern(members, guard))]
    if not rest:
        return []
    whole = unit_pattern(rest, guard)
    if whole is not None:
        return [(rest, whole)]
    out: list[tuple[list[SampleLine], str | None]] = []
    by_shape: dict[tuple[int, tuple[str, ...]], list[SampleLine]] = defaultdict(list)
    for ln in rest:
        by_shape[(len(ln.tpl), tuple(k for k, _ in ln.tpl))].append(ln)
    for shaped in by_shape.values():
        pattern = unit_pattern(shaped, guard)
        if pattern is not None:
            out.append((shaped, pattern))
            continue
        # the last word often is the verdict (``UP-TO-DATE`` / ``FAILED``): keep it literal
        by_last: dict[str, list[SampleLine]] = defaultdict(list)
        for ln in shaped:
            by_last[next((t for k, t in reversed(ln.tpl) if k == "word"), "")].append(ln)
        for same_last in by_last.values():
            pattern = unit_pattern(same_last, guard)
            if pattern is not None:
                out.append((same_last, pattern))
                continue
            exact: dict[Template, list[SampleLine]] = defaultdict(list)
            for ln in same_last:
                exact[ln.tpl].append(ln)
            out += [(unit, unit_pattern(unit, guard)) for unit in exact.values()]
    return out


def _last_indexes(lines: list[SampleLine]) -> dict[int, int]:
    """Per sample, the index of its last non-blank line (blank lines after it are the end)."""
    out: dict[int, int] = {}
    for ln in lines:
        if not ln.blank:
            out[ln.sample] = max(out.get(ln.sample, -1), ln.index)
    return out


def _max_in_one(members: list[SampleLine]) -> int:
    counts: dict[int, int] = defaultdict(int)
    for ln in members:
        counts[ln.sample] += 1
    return max(counts.values(), default=0)


def _noise_reason(unit: list[SampleLine], n_samples: int) -> str | None:
    present = len({ln.sample for ln in unit})
    most = _max_in_one(unit)
    if most >= REPEATS_IN_ONE:
        return f"repeats {most}× in one sample" + (f", in {present}/{n_samples} samples" if n_samples > 1 else "")
    if n_samples >= 2 and present >= needed_samples(n_samples):
        return f"recurs in {present}/{n_samples} samples"
    return None


def _generalised(unit: list[SampleLine], loose: bool = False) -> tuple[Template, dict[int, str], bool]:
    """The unit's common template (differing values and words become ``var``; with ``loose``,
    every word after the leading one too), the blank positions that are one space in every
    line, and whether every line has exactly this length."""
    tpls = [ln.tpl for ln in unit]
    if loose:
        tpls = [tuple(("var", "") if k == "word" and i >= head_length(t) else (k, x) for i, (k, x) in enumerate(t))
                for t in tpls]
    length = min(len(t) for t in tpls)
    out: list[tuple[str, str]] = []
    spaces: dict[int, str] = {}
    for i in range(length):
        column = {t[i] for t in tpls}
        kinds = {k for k, _ in column}
        if len(column) == 1:
            out.append(tpls[0][i])
        elif kinds <= PLACEHOLDERS | {"word"}:
            out.append(("var", ""))
        else:
            break
        if out[-1][0] in ("space", "indent") and all(ln.tokens[i].text == " " for ln in unit):
            spaces[i] = " "
    whole = len(out) == length and all(len(t) == length for t in tpls)
    return tuple(out), spaces, whole


def unit_pattern(unit: list[SampleLine], guard: list[SampleLine], *, loose: bool = False) -> str | None:
    """The shortest cut of the unit's template that says what the line is and matches no
    protected line (and every line of the unit), proved linear. ``loose``: words after the
    leading one are values too (lines picked by hand stand for a kind, not for themselves)."""
    tpl, spaces, whole = _generalised(unit, loose)
    if not tpl:
        return None
    head = head_length(tpl)
    cut = len(tpl)
    for i in range(head, len(tpl)):
        if tpl[i][0] in PLACEHOLDERS:
            cut = i + 1
            break
    else:
        cut = min(len(tpl), head + 2)
    while True:
        end = whole and cut == len(tpl)
        pattern = pattern_for(tpl, cut, spaces=spaces, anchored_end=end)
        if (linear_attempts(pattern, "i") and not matches_of(pattern, guard)
                and len(matches_of(pattern, unit)) == len(unit)):
            return pattern
        if cut >= len(tpl):
            return None
        cut += 1


def _merge_marks(proposals: list[Proposal], noisy_heads: dict[Template, Proposal],
                 guard: list[SampleLine]) -> list[Proposal]:
    """``✓ adds an item`` and ``✓ removes an item`` are one kind of line: the mark says it."""
    by_mark: dict[tuple[bool, str], list[Template]] = defaultdict(list)
    for head in noisy_heads:
        body = [t for t in head if t[0] != "indent"]
        if len(body) >= 2 and body[0][0] == "punct" and body[1][0] == "space":
            by_mark[(head[0][0] == "indent", body[0][1])].append(head)
    for (indented, mark), heads in by_mark.items():
        if len(heads) < 3:
            continue
        pattern = ("^\\s+" if indented else "^") + js_escape(mark) + "\\s"
        if matches_of(pattern, guard) or not linear_attempts(pattern, "i"):
            continue
        merged = [noisy_heads[h] for h in heads]
        drop = {id(p) for p in merged}
        proposals = [p for p in proposals if id(p) not in drop]
        proposals.append(Proposal("rules.dropPatterns", pattern,
                                  f"{len(heads)} kinds of line led by {mark!r}, all noise", f"{mark} <line>"))
    return proposals
