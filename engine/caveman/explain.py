"""Explanations for the IDE, computed by the engine (the app only draws them).

For one text: the protected regions (kind, UTF-16 span), each rule in order with whether it was
attempted, what it matched (spans in the text it ran on and, mapped back, in the input), the text
before and after it, tokens before/after, and the quirks that changed the result. ``only_rule``
runs one rule alone through the same flow.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from itertools import accumulate, repeat
from operator import add, le, sub
from typing import Any

from engine.caveman.apply import RuleRun
from engine.caveman.compress import Compressor, PartOutcome, estimate_tokens
from engine.caveman.config import CavemanConfig
from engine.caveman.fast.texts import RELEASE_MIN
from engine.caveman.packs import PackSource, Rule
from engine.caveman.preservation import Extraction
from engine.gcpause import gc_paused


@dataclass
class MatchExplanation:
    start: int  # UTF-16 span in the text the rule ran on
    end: int
    match: str
    replacement: str
    input_start: int | None = None  # the same span mapped back to the input
    input_end: int | None = None


@dataclass
class RuleExplanation:
    name: str
    source: str
    category: str
    context: str
    min_intensity: str
    attempted: bool
    skipped: str
    changed: bool
    before: str
    after: str
    matches: list[MatchExplanation] = field(default_factory=list)


@dataclass
class RegionExplanation:
    n: int
    kind: str
    start: int
    end: int
    content: str


@dataclass
class Explanation:
    input: str
    output: str
    profile: str
    role: str
    intensity: str
    language: str
    gated: str
    protected: list[RegionExplanation]
    placeholder_text: str
    rules: list[RuleExplanation]
    rules_applied: list[str]
    tokens_before: int
    tokens_after: int
    fallback_applied: bool
    validation_errors: list[str]
    validation_warnings: list[str]
    quirks: list[dict[str, Any]]
    diagnostics: list[dict[str, Any]]
    selection_from_fallback: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _edits(run: RuleRun) -> list[tuple[int, int, int]]:
    """(old start, old end, new length) per replaced match, UTF-16, in order."""
    from engine.jsvalues import utf16_len

    return [(m.start, m.end, len(m.replacement) if m.replacement.isascii() else utf16_len(m.replacement))
            for m in run.matches]


class EditMap:
    """Maps positions in an edited text back to the text before the edits (``edits``: sorted
    (old start, old end, new length)); a position inside a replacement maps to the start (or,
    for an end, the end) of what it replaced. A start where text was deleted maps past it (the
    character there followed the deleted text), an end there before it: a later rule's match
    right after an earlier rule's deletion is not drawn over what was deleted. Prefix sums and
    a bisection per position.

    Explaining a whole pack maps every match of every rule back through every earlier rule's
    edits; the linear walk made that quadratic on long samples.
    """

    __slots__ = ("_deltas", "_new_ends", "_new_starts", "_old")

    def __init__(self, edits: list[tuple[int, int, int]]) -> None:
        # (in C-level walks: a MB of prose makes ~50,000 edits, mapped once per explanation)
        old_starts, old_ends, new_lens = (list(column) for column in zip(*edits)) if edits else ([], [], [])
        self._old = list(zip(old_starts, old_ends))
        # what the edits up to each one changed in length, and where each replacement now stands
        self._deltas = list(accumulate(map(sub, new_lens, map(sub, old_ends, old_starts))))
        self._new_starts = list(map(add, old_starts, [0, *self._deltas[:-1]]))
        self._new_ends = list(map(add, self._new_starts, new_lens))

    def back(self, pos: int, *, is_end: bool) -> int:
        return self.back_all([pos], is_end=is_end)[0]

    def back_all(self, positions: list[int], *, is_end: bool) -> list[int]:
        """``[back(p) for p in positions]`` in one loop (a whole pack's explanation maps
        thousands of positions through a dozen maps: a call per position was most of it).
        Many ascending positions through fewer edits (a rule's matches, through an earlier
        rule's map) go edit by edit instead: the positions between two edits shift alike."""
        if not self._new_starts:
            return positions
        if len(positions) > GROUPED_RATIO * len(self._new_starts) and all(map(le, positions, positions[1:])):
            return self._back_ascending(positions, is_end=is_end)
        ends, deltas, side = self._new_ends, self._deltas, 1 if is_end else 0
        old = self._old
        out: list[int] = []
        append = out.append
        # the last edit starting before an end, or at or before a start (past a deletion there)
        last = bisect_left if is_end else bisect_right
        for pos, i in zip(positions, map(last, repeat(self._new_starts), positions)):
            i -= 1
            if i < 0:
                append(pos)
            elif pos < ends[i]:
                append(old[i][side])
            else:
                append(pos - deltas[i])
        return out

    def _back_ascending(self, positions: list[int], *, is_end: bool) -> list[int]:
        """``back_all`` of ascending ``positions``, a loop over the edits: those up to an edit's
        start shift by what the edits before it changed, those inside its replacement map to
        what it replaced (a start at a deletion goes with the positions after it). (A MB of
        prose: the articles rule's 34,500 matches, mapped through the maps of the ten rules
        before it, were most of the ~0.35 s that mapping every rule's matches took a position
        at a time.)"""
        out: list[int] = []
        extend = out.extend
        side = 1 if is_end else 0
        before_edit = bisect_right if is_end else bisect_left  # (the positions that go before it)
        at, delta = 0, 0
        for start, end, old, after in zip(self._new_starts, self._new_ends, self._old, self._deltas):
            upto = before_edit(positions, start, at)
            if upto > at:
                extend(map(sub, positions[at:upto], repeat(delta)) if delta else positions[at:upto])
            inside = bisect_left(positions, end, upto)
            if inside > upto:
                extend(repeat(old[side], inside - upto))
            at, delta = inside, after
        extend(map(sub, positions[at:], repeat(delta)) if delta else positions[at:])
        return out


GROUPED_RATIO = 3  # back_all goes edit by edit past this many positions an edit


def _placeholder_map(ex: Extraction | None) -> EditMap:
    """Placeholder text → original part (placeholders are ASCII + NUL, so lengths are UTF-16;
    a part gated before extraction has none)."""
    return EditMap(sorted((b.start, b.end, len(b.placeholder)) for b in (ex.blocks if ex else ())))


def _explain_rules(o: PartOutcome, progress: Callable[[float, str], None] | None = None) -> list[RuleExplanation]:
    out: list[RuleExplanation] = []
    history: list[EditMap] = []
    to_input = _placeholder_map(o.extraction)
    for k, run in enumerate(o.runs):
        if progress is not None:
            progress(k / max(1, len(o.runs)), f"mapping rule {run.rule.name}")
        starts = [m.start for m in run.matches]
        ends = [m.end for m in run.matches]
        for edits in (*reversed(history), to_input):
            starts = edits.back_all(starts, is_end=False)
            ends = edits.back_all(ends, is_end=True)
        matches = [MatchExplanation(m.start, m.end, m.match, m.replacement, s, e)
                   for m, s, e in zip(run.matches, starts, ends)]
        rule: Rule = run.rule
        out.append(RuleExplanation(rule.name, rule.source, rule.category, rule.context, rule.min_intensity,
                                   run.attempted, run.skipped, run.changed, run.before, run.after, matches))
        if run.changed:
            history.append(EditMap(_edits(run)))
    return out


def explain(text: str, packs: PackSource, options: CavemanConfig | dict[str, Any] | None = None,
            only_rule: str | None = None, *, role: str = "user", profile: str = "omniroute",
            fallback_rules: list[Rule] | None = None, timeout: float | None = None,
            progress: Callable[[float, str], None] | None = None) -> Explanation:
    """Run ``text`` as one ``role`` message and explain every step (``only_rule``: that rule alone).
    ``progress(fraction, stage)`` is called along the way (it may raise to cancel the run).

    A large text is explained with the garbage collector paused throughout, as its run is
    (``engine.gcpause``): the explanation then makes an object per match, and collections that
    walked every match the run had recorded took 40 % of explaining 1 MB of short lines."""
    with gc_paused(len(text) >= RELEASE_MIN):
        return _explain(text, packs, options, only_rule, role=role, profile=profile, fallback_rules=fallback_rules,
                        timeout=timeout, progress=progress)


def _explain(text: str, packs: PackSource, options: CavemanConfig | dict[str, Any] | None, only_rule: str | None,
             *, role: str, profile: str, fallback_rules: list[Rule] | None, timeout: float | None,
             progress: Callable[[float, str], None] | None) -> Explanation:
    if isinstance(options, CavemanConfig):
        config = options
    else:
        data = {"enabled": True, "minMessageLength": 0, "compressRoles": [role], "intensity": "full"}
        data.update(options or {})
        config = CavemanConfig.from_dict(data)
    if role not in config.compress_roles:
        config = CavemanConfig.from_dict({**config.to_dict(), "compressRoles": [*config.compress_roles, role]})
    run_progress = None if progress is None else (lambda f, stage: progress(0.85 * f, stage))
    compressor = Compressor(packs, config, profile=profile, fallback_rules=fallback_rules, timeout=timeout,
                            record=True, only_rule=only_rule, progress=run_progress)
    result = compressor.compress_body({"messages": [{"role": role, "content": text}]})
    output = result.body["messages"][0]["content"]
    o = result.parts[0] if result.parts else PartOutcome(0, None, role, text, text, gated="short")
    ex = o.extraction
    regions = [RegionExplanation(b.n, b.kind, b.start, b.end, b.content) for b in ex.blocks] if ex else []
    diags = [d.to_dict() for d in result.diagnostics]
    return Explanation(
        input=text, output=output, profile=profile, role=role, intensity=config.intensity,
        language=o.language, gated=o.gated, protected=regions, placeholder_text=ex.text if ex else text,
        rules=_explain_rules(o, None if progress is None else (lambda f, stage: progress(0.85 + 0.15 * f, stage)))
        if ex else [], rules_applied=result.rules_applied,
        tokens_before=estimate_tokens(text), tokens_after=estimate_tokens(output),
        fallback_applied=bool(result.stats.get("fallbackApplied")),
        validation_errors=list(result.stats.get("validationErrors", [])),
        validation_warnings=list(result.stats.get("validationWarnings", [])),
        quirks=[d for d in diags if d.get("code", "").startswith("CAV-Q")], diagnostics=diags,
        selection_from_fallback=bool(o.selection and o.selection.from_fallback),
    )
