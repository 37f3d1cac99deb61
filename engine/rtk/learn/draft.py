"""Learn a filter from samples: propose patterns, compose the filter, prove it, repair it.

``learn(samples, command)`` reads the samples once and proposes every pattern with its reason
(``Proposal``); ``compose(draft)`` turns the *accepted* proposals into a canonical filter
object — line limits from what the drops leave, ``tests[]`` from the samples — and proves it
(``proof.prove``). A proposal the proof blames (a drop pattern that removed a protected line, a
pattern that is not linear or matches everything) is refused with the reason and the filter is
composed again, so what ``compose`` returns always passes, or says plainly what failed. The IDE
toggles ``Proposal.accepted`` and calls ``compose`` again.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.jsvalues import JsonObject
from engine.rtk.learn import keep, shape
from engine.rtk.learn.command import CommandShape, command_shape
from engine.rtk.learn.noise import (
    Proposal,
    SampleLine,
    discover_noise,
    matches_of,
    needed_samples,
    read_lines,
    unit_pattern,
)
from engine.rtk.learn.normalise import Template, head_length, literal_words, starts_with_value
from engine.rtk.learn.proof import Proof, prove
from engine.rtk.signal import ANSI, normal

if TYPE_CHECKING:
    import os

    from engine.rtk.model import FilterObject, RtkFilter

SCHEMA_ID = "https://rulewright.dev/schemas/rtk-filter.schema.json"
MAX_MATCH_PATTERNS = 2
MAX_SUMMARY_PATTERNS = 6
MAX_REPAIRS = 8
FIELD_ORDER = ("match.commands", "match.patterns", "rules.dropPatterns", "rules.collapsePatterns",
               "preserve.errorPatterns", "preserve.summaryPatterns")


@dataclass
class Draft:
    command: str
    shape: CommandShape
    filter_id: str
    samples: list[str]  # as given
    lines: list[list[str]]  # split as the engine splits, ANSI codes removed
    sample_lines: list[SampleLine]
    proposals: list[Proposal]
    protected: list[list[str]]  # per sample, normalised protected lines
    strip_ansi: bool
    deduplicate: bool
    pool: list[RtkFilter] | None = None  # other filters the activation check selects among
    # the filters of the workspace the filter is saved into (its files, its project's .rtk): one
    # that is chosen instead for the command is named, not held against the filter
    neighbours: list[RtkFilter] | None = None


@dataclass
class LearnResult:
    filter: dict[str, Any]
    proposals: list[Proposal]
    refused: list[tuple[Proposal, str]]
    savings: list[float]
    limits: shape.Limits
    proof: Proof
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> JsonObject:
        return {"filter": self.filter, "proposals": [p.to_dict() for p in self.proposals],
                "refused": [{**p.to_dict(), "why": why} for p, why in self.refused],
                "savingsPercent": [round(s, 2) for s in self.savings],
                "limits": {"maxLines": self.limits.max_lines, "headLines": self.limits.head_lines,
                           "tailLines": self.limits.tail_lines, "reason": self.limits.reason},
                "proof": self.proof.to_dict(), "notes": list(self.notes)}


def schema_ref(folder: str | os.PathLike[str] | None) -> str:
    """``$schema`` for a filter written into ``folder``: a relative path to our schema when the
    folder is inside this project (editors and ``rulewright validate`` follow it), else its id."""
    import os
    from pathlib import Path

    from engine.paths import schemas_dir

    schema = schemas_dir() / "rtk-filter.schema.json"
    if folder is None:
        return SCHEMA_ID
    try:
        here = Path(folder).resolve()
        root = schema.resolve().parents[2]
        if here == root or root in here.parents:
            return Path(os.path.relpath(schema.resolve(), here)).as_posix()
    except (OSError, ValueError):
        pass
    return SCHEMA_ID


def split_lines(text: str) -> list[str]:
    """As the engine splits (``\\r?\\n``), ANSI colour codes removed."""
    from engine.rtk.dedup import split_lines as engine_split

    return [ANSI.sub("", ln) for ln in engine_split(text)]


def learn(samples: list[str], command: str, *, filter_id: str | None = None, pool: list[RtkFilter] | None = None,
          neighbours: list[RtkFilter] | None = None) -> Draft:
    """Read the samples and propose patterns (nothing is composed yet)."""
    if not samples:
        raise ValueError("give at least one sample output")
    shape_ = command_shape(command)
    lines = [split_lines(s) for s in samples]
    sample_lines = read_lines(lines)
    drops, protected_keys = discover_noise(sample_lines, len(samples))
    guard = [ln for ln in sample_lines if (ln.sample, ln.index) in protected_keys]
    proposals: list[Proposal] = [Proposal("match.commands", shape_.pattern,
                                          f"the program and subcommand of {command!r}", " ".join(shape_.words))]
    proposals += _match_patterns(sample_lines, len(samples))
    proposals += drops
    proposals += shape.collapse_proposals(sample_lines, [p.pattern for p in drops], guard)
    proposals += _priority_patterns(sample_lines, guard, protected_keys)
    protected = [[normal(ln.text) for ln in guard if ln.sample == i and normal(ln.text)] for i in range(len(samples))]
    draft = Draft(command, shape_, filter_id or shape_.filter_id, list(samples), lines, sample_lines, proposals,
                  protected, any(ANSI.search(s) for s in samples), shape.has_bursts(lines), pool, neighbours)
    for p in proposals:
        refresh_matches(draft, p)
    return draft


def refresh_matches(draft: Draft, proposal: Proposal) -> None:
    """The sample lines a proposal's pattern matches (``match.commands``: none, it reads the command)."""
    if proposal.field == "match.commands":
        proposal.matches = []
        return
    proposal.matches = [(ln.sample, ln.index + 1, ln.text) for ln in matches_of(proposal.pattern, draft.sample_lines)]


def _match_patterns(lines: list[SampleLine], n: int) -> list[Proposal]:
    """Lines that say "this is that tool's output": a kind of line in (nearly) every sample,
    led by a real word, earliest first."""
    groups: dict[Template, list[SampleLine]] = defaultdict(list)
    for ln in lines:
        if not ln.blank and not starts_with_value(ln.tpl) and literal_words(ln.tpl[:head_length(ln.tpl)]):
            groups[ln.tpl[:head_length(ln.tpl)]].append(ln)
    need = n if n <= 2 else needed_samples(n)
    ranked = sorted((g for g in groups.values() if len({ln.sample for ln in g}) >= need),
                    key=lambda g: (-len({ln.sample for ln in g}), min(ln.index for ln in g)))
    out: list[Proposal] = []
    from engine.rtk.risk import matches_every_line

    for members in ranked:
        pattern = unit_pattern(members, [])
        if pattern is None or matches_every_line(pattern, "im") or any(p.pattern == pattern for p in out):
            continue
        if max(len(w) for w in literal_words(members[0].tpl[:head_length(members[0].tpl)])) < 4:
            continue
        present = len({ln.sample for ln in members})
        out.append(Proposal("match.patterns", pattern, f"a line of this tool's output in {present}/{n} samples"))
        if len(out) == MAX_MATCH_PATTERNS:
            break
    return out


def _priority_patterns(lines: list[SampleLine], guard: list[SampleLine], protected: set[tuple[int, int]]
                       ) -> list[Proposal]:
    out: list[Proposal] = []
    covered: set[tuple[int, int]] = set()
    for prio in keep.GENERIC:
        hits = matches_of(prio.pattern, guard)
        if prio.always or hits:
            why = "always kept: " + prio.reason if prio.always and not hits else f"{prio.reason} in the samples"
            out.append(Proposal(prio.field, prio.pattern, why))
            covered |= {(ln.sample, ln.index) for ln in hits}
    # tool-specific outcome lines the generic ones miss (``Finished …``, ``Successfully installed``)
    groups: dict[Template, list[SampleLine]] = defaultdict(list)
    for ln in guard:
        if (ln.sample, ln.index) not in covered:
            groups[ln.tpl[:head_length(ln.tpl)]].append(ln)
    for members in sorted(groups.values(), key=lambda g: -len(g))[:MAX_SUMMARY_PATTERNS]:
        if not literal_words(members[0].tpl[:head_length(members[0].tpl)]):
            continue
        pattern = unit_pattern(members, [])
        if pattern is not None and all(p.pattern != pattern for p in out):
            out.append(Proposal("preserve.summaryPatterns", pattern, "how these runs report their outcome"))
    return out


def _base(draft: Draft, accepted: list[Proposal], limits: shape.Limits) -> dict[str, Any]:
    by_field: dict[str, list[str]] = defaultdict(list)
    for p in accepted:
        if p.pattern not in by_field[p.field]:
            by_field[p.field].append(p.pattern)
    n = len(draft.samples)
    return {
        "$schema": SCHEMA_ID,
        "id": draft.filter_id,
        "label": draft.shape.label,
        "description": f"Learned from {n} sample output(s) of `{draft.command}`: recurring noise dropped, "
                       "errors, warnings, locations and summaries kept.",
        "category": draft.shape.category,
        "priority": 60,
        "match": {"commands": by_field["match.commands"], "outputTypes": [], "patterns": by_field["match.patterns"]},
        "rules": {
            "stripAnsi": draft.strip_ansi,
            "includePatterns": [],
            "dropPatterns": by_field["rules.dropPatterns"],
            "collapsePatterns": by_field["rules.collapsePatterns"],
            "deduplicate": draft.deduplicate,
            "maxLines": limits.max_lines,
            "headLines": limits.head_lines,
            "tailLines": limits.tail_lines,
        },
        "preserve": {"errorPatterns": by_field["preserve.errorPatterns"],
                     "summaryPatterns": by_field["preserve.summaryPatterns"]},
        "tests": [],
    }


def _parsed(obj: FilterObject) -> RtkFilter | None:
    from engine.rtk.model import parse_filter

    flt, _ = parse_filter(obj, source="project")
    return flt


def compose(draft: Draft) -> LearnResult:
    """The filter from the accepted proposals, with its limits, tests and proof (see module doc)."""
    from engine.rtk.stages import apply_line_filter
    from engine.rtk.verify import savings_percent

    refused: list[tuple[Proposal, str]] = []
    notes: list[str] = []
    no_cut = False
    for _ in range(MAX_REPAIRS):
        accepted = [p for p in draft.proposals if p.accepted and all(p is not r for r, _ in refused)]
        unlimited = shape.Limits(0, 20, 20, "")
        flt = _parsed(_base(draft, accepted, unlimited))
        kept = [len(apply_line_filter(s, flt, max_lines=0).text.split("\n")) if flt else 0 for s in draft.samples]
        limits = shape.Limits(0, 20, 20, "a line limit lost protected lines: none of the filter's own") \
            if no_cut else shape.choose_limits(kept)
        obj = _base(draft, accepted, limits)
        proof = prove(obj, draft.samples, draft.command, draft.protected, draft.pool, draft.neighbours)
        blamed = _blame(accepted, proof)
        if not blamed:
            if proof.lost and not no_cut and limits.max_lines:
                no_cut = True
                notes.append("the line limit cut protected lines, so the filter sets none of its own")
                continue
            break
        refused += blamed
    flt = _parsed(obj)
    savings = []
    tests = []
    for i, text in enumerate(draft.samples):
        out = apply_line_filter(text, flt).text if flt else text
        savings.append(savings_percent(text, out))
        tests.append({"name": _test_name(i, text), "command": draft.command, "input": text, "expected": out})
    obj["tests"] = tests
    return LearnResult(obj, accepted, refused, savings, limits, proof, notes)


def _blame(accepted: list[Proposal], proof: Proof) -> list[tuple[Proposal, str]]:
    out: list[tuple[Proposal, str]] = []
    for dotted, pattern, why in proof.bad_patterns:
        out += [(p, why) for p in accepted if p.field == dotted and p.pattern == pattern]
    for lost in proof.lost:
        for dotted, pattern in lost.culprits:
            out += [(p, f"removed a protected line of sample {lost.sample + 1}: {lost.line!r}")
                    for p in accepted if p.field == dotted and p.pattern == pattern]
    seen: set[int] = set()
    unique = []
    for p, why in out:
        if id(p) not in seen and p.field != "match.commands":
            seen.add(id(p))
            unique.append((p, why))
    return unique


def _test_name(i: int, text: str) -> str:
    from engine.rtk.signal import ERROR_WORDS

    failing = any(ERROR_WORDS.search(normal(ln)) for ln in text.splitlines())
    return f"sample {i + 1} ({'a failing run' if failing else 'a clean run'})"


def learn_filter(samples: list[str], command: str, *, filter_id: str | None = None,
                 pool: list[RtkFilter] | None = None) -> LearnResult:
    """``learn`` then ``compose``: the draft filter with its evidence and proof."""
    return compose(learn(samples, command, filter_id=filter_id, pool=pool))
