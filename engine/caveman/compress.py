"""The Caveman flow: chat body → messages → text parts → protected regions, rules, cleanup,
restore, validation and fallback, with the reference's stats (spec §2, §13).

``profile="omniroute"`` reproduces OmniRoute v3.8.49 including its quirks and adds a diagnostic
(code ``CAV-Qn``) each time a quirk changed the result; ``profile="strict"`` applies the fixes.

Where the time of a large part goes (CPU ms for 1 MB, English packs at ``full``, the best of
five runs measured by stage on this 2-core machine at load 0.7, 2026-12-06's tenth session; the
machine's speed varies by up to 2× from hour to hour, so only figures of one run compare;
``bench/bench_caveman.py`` has the corpora; the conformance-derived text is 4 MB, shown per MB):

============================  =====  =====  ==========  ==========  ===========
stage                         prose  mixed  agent       agent       conformance
                                            (omniroute) (strict)    (omniroute)
============================  =====  =====  ==========  ==========  ===========
rules (``_run_rules``)        52     49     34          30          39
protected regions (extract)   15     37     44          52          76
validation (+ explanation)    5      15     41 (11)     6           33 (3)
cleanup, restore, the rest    13     24     28          17          37
total                         85     124    147         104         184
============================  =====  =====  ==========  ==========  ===========

The agent sessions and the conformance-derived text fall back as a whole (CAV-Q1), so their
omniroute runs validate twice and explain. What is left is spread thin: each rule that rewrites
the text costs 2–6 ms (its literal searches, the join, the canonical case carried over); each
protected kind 2–6 ms; ~5,000 blocks and as many validation items per MB of agent text cost a
few ms in every stage that walks them. The articles rule alone is a full ``re`` scan of ~12 ms
per MB (a match every ~30 characters: no literal to plan on).

A body of many short messages cost per message, not per MB: each of a pack's ~40 rules and
~20 region patterns cost a scan of each message and the set-up around it, ~900 µs for a message
of ~800 characters (nineteenth session: 1 MB of agent sessions as ~1,250 messages took ~1.1 s,
OmniRoute 0.25 s on the same body; ``bench_caveman.py`` measures it). Since the twentieth
session a body's short parts go through the regex-heavy stages together
(``_compress_joined``): each region pattern, each rule, CAV-Q17's line search and validation's
scanners run once over their texts joined, where ``engine.caveman.joined`` proves that exact,
and each part takes its slice (~335 ms for that body: extraction ~60 µs a message, the rules
~80, and the stages after them — cleanup, restore, the rest of validation — ~80, which stay
per part). A short ASCII part still skips a pattern with no match in it after one scan
(``FastRegex.misses``).

The largest single factor is the text not being ASCII: whole-text copies are 2 or 4 bytes a
character, ``str.upper``, ``encode`` and ``re`` leave their ASCII fast paths, and literal
searches read a UTF-16 view (the third session: agent sessions with their 344 emoji per MB
replaced by ``x`` took 122 ms instead of 181, the conformance-derived text with every non-ASCII
character replaced 627 ms instead of 868). Keeping views of one byte a character carried
through the rewrites (``needles``' ASCII view, upper-cased for ``i``) was measured: 7–8 % fewer
instructions, no less time (the views' joins cost what the encodes did). What did pay: a part
whose few distinct non-ASCII units can stand in for ASCII control characters exactly is
extracted, rewritten by the rules and cleaned on that ASCII text, and turned back once
(``engine.caveman.standins``; mixed prose, three distinct units: 180 → 133 ms over two sessions;
agent sessions 199 → 156). The conformance-derived text (559 distinct characters) cannot.
Since the fifteenth session an omniroute part whose original has a view on the rules' stand-ins
is also restored, cleaned a second time and validated on them (``Compressor._original_view``:
agent sessions ~8 ms per MB less, their 16 MB peak 570 → 430 MB).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from operator import attrgetter, is_not, le
from typing import Any

from engine.caveman.apply import RuleRun, RuleRunner, Selection, budget_for, select_rules, timeout_diagnostic
from engine.caveman.cleanup import clean_restored, cleanup, cleanup_both, recapitalize, untouched
from engine.caveman.config import CavemanConfig
from engine.caveman.fast import RELEASE_MIN, FastRegex, LiteralIndex, release_texts
from engine.caveman.fences import fence_count_of_blocks, fence_spans_each
from engine.caveman.joined import SPLIT, Step, choose, joinable, matches_joined, replace_joined, replace_split
from engine.caveman.joined_extraction import extract_joined
from engine.caveman.language import Detection, choose_language, detect_language
from engine.caveman.needles import counts, occurring, occurring_in_any, present
from engine.caveman.packs import PackSource, Rule
from engine.caveman.prefilter import ASCII_KEYWORDS, Prefilter
from engine.caveman.preservation import (
    DEFAULT_PRESERVE_PATTERNS,
    Extraction,
    choose_seed,
    extract,
    has_structure,
    preserve_regex,
    restore_with_spans,
)
from engine.caveman.quirks import check_profile
from engine.caveman.spans import join, starts_of
from engine.caveman.standins import StandIns, fits, fits_patterns, stand_ins, view_of
from engine.caveman.validation import (
    ItemsInside,
    Scans,
    scan_items,
    scan_items_joined,
    scan_view,
    validate_blocks,
    validate_compression,
    validation_fails,
)
from engine.diagnostics import Diagnostic, Level
from engine.gcpause import gc_paused
from engine.heapreuse import heap_reused
from engine.jsregex import JSSyntaxError, JSUnsupportedError, RegexTimeout
from engine.jsregex.budget import total_budget
from engine.jsregex.edges import SEPARATORS, separators_for
from engine.jsvalues import (
    bmp_only,
    from_utf16_units,
    js_trim,
    length_kept,
    math_round,
    to_utf16_units,
    utf16_len,
)
from engine.o200k import estimate_body_tokens

TEXT_PART_TYPES = (None, "text", "input_text")
_IDENT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")
_DOTTED = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+")
MAX_DOTTED = 200
SHORT_TEXT = 16_384  # CAV-Q12's check searches a text up to this long once per token
# parts from this many characters up reuse the heap for their big strings: their copies reach
# glibc's 32 MB cap on the mmap threshold (a 4-byte-a-character text of 8 M; its UTF-16 views at
# 16 M), past which every copy is a fresh mapping; below it the dynamic threshold keeps them on
# the heap already, and the mappings' own release keeps the peak RSS lower (mixed prose, 1 MB:
# 61-64 MB above the baseline as it is, 64-70 MB with the heap reused)
HEAP_REUSE_MIN = 8_000_000
# parts shorter than this go through the rules together (``Compressor._compress_joined``), up
# to this many characters at once; a longer part has the large-text path to itself
JOINED_PART_MAX = RELEASE_MIN
JOINED_TOTAL_MAX = 4_000_000


_DOT_IDENT = re.compile(r"\.[A-Za-z_$]")  # a dot before an identifier start (led by the dot: quick to find)


def _joining_dots(text: str) -> Iterator[int]:
    """Indices of the dots with an identifier character before and an identifier start after
    (a dot-led ``re`` search, on any text: its classes are ASCII)."""
    for m in _DOT_IDENT.finditer(text):
        i = m.start()
        if i > 0 and text[i - 1] in _IDENT_CHARS:
            yield i


def _dotted_tokens(text: str) -> list[str]:
    """Distinct ``a.b(.c)*`` tokens (first ``MAX_DOTTED``), found from the dots (prose has few)."""
    seen: dict[str, None] = {}
    resume = 0  # after a token, the search goes on past the character that ends it
    for i in _joining_dots(text):
        if len(seen) >= MAX_DOTTED:
            break
        if i < resume:
            continue
        start = i - 1
        while start > 0 and text[start - 1] in _IDENT_CHARS:
            start -= 1
        m = _DOTTED.match(text, start)
        if m and (start == 0 or text[start - 1] not in _IDENT_CHARS):
            seen.setdefault(m.group(0), None)
            resume = m.end() + 1
    return list(seen)


def estimate_tokens(text: str) -> int:
    """``ceil(length / 4)`` over UTF-16 units."""
    return math.ceil(utf16_len(text) / 4)


def content_string(content: Any) -> str:
    """The text a message is measured by: the string, or every string ``text`` part joined by ``\\n``."""
    if isinstance(content, str):
        return content
    return "\n".join(p["text"] for p in content
                     if isinstance(p, dict) and isinstance(p.get("text"), str) and p["text"])


@dataclass
class PartOutcome:
    """Everything that happened to one text part (the explanation is built from it)."""

    message_index: int
    part_index: int | None
    role: str
    original: str
    text: str
    gated: str = ""  # why the part was left alone: "empty", "short"
    extraction: Extraction | None = None
    should_preserve: bool = False
    language: str = ""
    detection: Detection | None = None
    selection: Selection | None = None
    runs: list[RuleRun] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)
    # the rules' output: the text, or its UTF-16 units on ASCII stand-ins (``after_rules`` turns
    # it into the text when asked: the flow cleans the stand-in text and turns that back instead)
    rules_output: tuple[str, StandIns | None] = ("", None)
    # the text after the cleanup and the restored text: themselves, or (with the stand-ins) their
    # UTF-16 units on them, where the flow restored and validated on stand-ins (``after_cleanup``
    # and ``restored`` give the texts)
    tail: tuple[str, str, StandIns | None] = ("", "", None)
    fallback: bool = False
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def after_rules(self) -> str:
        """The text after the rules, before the cleanup."""
        return _as_text(*self.rules_output)

    @property
    def after_cleanup(self) -> str:
        """The text after the cleanup and recapitalisation, placeholders in it."""
        text, _restored, stand = self.tail
        return _as_text(text, stand)

    @property
    def restored(self) -> str:
        """The text with its protected regions back, after the second cleanup (omniroute)."""
        _cleaned, text, stand = self.tail
        return _as_text(text, stand)


def _as_text(text: str, stand: StandIns | None) -> str:
    """A text of the flow as the string it is: itself, or the string its units on ``stand`` stand for."""
    return text if stand is None else stand.string(text)


@dataclass
class CompressResult:
    body: Any
    compressed: bool
    stats: dict[str, Any]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    parts: list[PartOutcome] = field(default_factory=list)

    @property
    def rules_applied(self) -> list[str]:
        return list(self.stats.get("rulesApplied", []))


class Compressor:
    """One ``cavemanCompress`` run: packs, config and profile fixed; rules compiled once."""

    use_stand_ins = True  # the plain path's rules on ASCII stand-ins where exact (tests compare both)
    use_joined = True  # short parts' rules over their texts joined where exact (tests compare both)

    def __init__(self, packs: PackSource, config: CavemanConfig | dict[str, Any] | None = None, *,
                 profile: str = "omniroute", fallback_rules: list[Rule] | None = None,
                 timeout: float | None = None, record: bool = False, only_rule: str | None = None,
                 diagnose: bool = True, progress: Callable[[float, str], None] | None = None) -> None:
        self.packs = packs
        self.config = config if isinstance(config, CavemanConfig) else CavemanConfig.from_dict(config)
        self.profile = check_profile(profile)
        self.strict = profile == "strict"
        self.fallback_rules = fallback_rules
        self.timeout = timeout
        self.record = record
        self.only_rule = only_rule
        self.diagnose = diagnose
        # progress(fraction of the body done, by characters, stage): called between stages and rules
        # (an explanation of a large paste streams its progress to the IDE, the CLI draws a bar;
        # the callback may raise to cancel)
        self.progress = progress
        self._share: tuple[float, float] | None = (0.0, 1.0)  # the running part's (start, width) of the body
        # the explanation records texts as they are; the plain path chains rules on UTF-16 units
        self.runner = RuleRunner(profile=profile, timeout=timeout, keep_units=not record)
        self.custom: list[FastRegex] = []
        self._patterns_compiled = False
        self.pattern_warnings: list[str] = []
        self.timed_out: dict[int, Rule] = {}  # id → the rule itself (kept alive: the id stays its own)
        self.notes: list[Diagnostic] = []  # body-level quirk notes of the current run (CAV-Q24)
        self._line_start_defaults: list[FastRegex] | None = None  # (CAV-Q17's check, built when first needed)
        self._later_found: dict[int, list[str]] = {}  # id(part) → ``_later_lines``, found for many at once
        self._selected: dict[tuple[str, object], Selection] = {}  # (language, role) → ``select_rules``
        self._scans_found: dict[int, Scans] = {}  # id(part) → ``scan_items`` of its original, found for many at once

    # ------------------------------------------------------------ body level

    def compile_patterns(self) -> None:
        """The config's preserve patterns, compiled once (the config is fixed): a Compressor
        reused for body after body compiled them again for each, and extraction then ran every
        copy (the 300th body of a few words took 20 ms)."""
        if self._patterns_compiled:
            return
        self._patterns_compiled = True
        flags = "gm" if self.strict and self.config.uses_default_patterns else "g"  # CAV-Q17 fix
        for source in self.config.patterns():
            if not isinstance(source, str):
                continue
            try:
                self.custom.append(preserve_regex(source, flags))
            except JSSyntaxError as exc:
                self.pattern_warnings.append(f"Invalid preservePatterns regex ignored: {source} ({exc})")

    def compress_body(self, body: Any) -> CompressResult:
        # one total regex deadline for the whole body (issue 23): per-call budgets alone add up
        # (100 catastrophic rules × 250 ms); once spent, each remaining rule is skipped with its
        # CAV-timeout diagnostic and the text it would have changed is kept
        with total_budget(what="the Caveman rules on this body"):
            return self._compress_body(body)

    def _compress_body(self, body: Any) -> CompressResult:
        started = time.perf_counter()
        messages = body.get("messages") if isinstance(body, dict) else None
        if not self.config.enabled or not isinstance(messages, list) or not messages:
            return self._disabled(body)
        self.compile_patterns()
        self.notes = []
        self.timed_out = {}  # (a rule that ran out of time on an earlier body gets its chance again)
        original_tokens = 0
        # the parts to compress, in order, first: short ones go through the rules together
        # (``_compress_parts``); then the messages are put back together from their outcomes
        jobs: list[_Job] = []
        kept: list[tuple[Any, int, list[int]]] = []  # (message, its tokens, its parts' jobs; -1: as it is)
        for mi, msg in enumerate(messages):
            content = msg.get("content") if isinstance(msg, dict) else None
            if not isinstance(content, str | list):
                kept.append((msg, -1, []))
                continue
            measured = content_string(content)
            tokens = estimate_tokens(measured)
            original_tokens += tokens
            role = msg.get("role")
            if not measured or utf16_len(measured) < self.config.min_message_length \
                    or role not in self.config.compress_roles:
                kept.append((msg, tokens, []))
                continue
            if isinstance(content, str):
                kept.append((msg, tokens, [len(jobs)]))
                jobs.append((content, role, mi, None))
                continue
            numbers = []
            for pi, part in enumerate(content):
                if isinstance(part, dict) and isinstance(part.get("text"), str) \
                        and (part.get("type") in TEXT_PART_TYPES or self._output_text(part, role, mi, pi)):
                    numbers.append(len(jobs))
                    jobs.append((part["text"], role, mi, pi))
                else:
                    numbers.append(-1)
            kept.append((msg, tokens, numbers))
        outcomes = self._compress_parts(jobs)
        compressed_tokens = 0
        new_messages = []
        for msg, tokens, numbers in kept:
            if tokens < 0:
                new_messages.append(msg)
                continue
            content = msg["content"]
            if not numbers:
                new_msg = msg
            elif isinstance(content, str):
                new_msg = {**msg, "content": outcomes[numbers[0]].text}
            else:
                parts = []
                changed = False
                for part, number in zip(content, numbers):
                    if number >= 0 and outcomes[number].text != part["text"]:
                        part = {**part, "text": outcomes[number].text}
                        changed = True
                    parts.append(part)
                new_msg = {**msg, "content": parts} if changed else msg
            # (content left as it was, a part that fell back: its tokens are counted already, where
            # measuring the text again cost ~7.5 ms for the 4 MB conformance-derived text)
            compressed_tokens += tokens if new_msg["content"] is content \
                else estimate_tokens(content_string(new_msg["content"]))
            new_messages.append(new_msg)
        stats, diags = self._stats(outcomes, original_tokens, compressed_tokens, started)
        diags = [*self.notes, *diags]
        return CompressResult({**body, "messages": new_messages}, compressed_tokens < original_tokens,
                              stats, diags, outcomes)

    def _compress_parts(self, jobs: list[_Job]) -> list[PartOutcome]:
        """Each ``(text, role, message index, part index)`` compressed, in order. Runs of short
        parts go through the rules together (``_compress_joined``); a long part goes alone."""
        shares = _Shares(jobs)
        if not self.use_joined or self.record or not self.runner.keep_units or len(jobs) < 2:
            return [self._alone(job, shares) for job in jobs]
        outcomes: list[PartOutcome] = []
        batch: list[_Job] = []
        size = 0
        for job in jobs:
            if len(job[0]) >= JOINED_PART_MAX:
                outcomes += self._compress_joined(batch, shares)
                batch, size = [], 0
                outcomes.append(self._alone(job, shares))
                continue
            batch.append(job)
            size += len(job[0])
            if size >= JOINED_TOTAL_MAX:  # (what a batch holds at once stays bounded)
                outcomes += self._compress_joined(batch, shares)
                batch, size = [], 0
        return outcomes + self._compress_joined(batch, shares)

    def _alone(self, job: _Job, shares: _Shares) -> PartOutcome:
        """One part through ``compress_part``, its progress reported as its share of the body."""
        self._share = shares.take([job])
        try:
            return self.compress_part(*job)
        finally:
            self._share = (0.0, 1.0)

    def _compress_joined(self, jobs: list[_Job], shares: _Shares) -> list[PartOutcome]:
        """Short parts, each through ``_compress_part``'s steps, but stage by stage over all of
        them: extraction, the rules, CAV-Q17's line search and validation's scanners each run
        their patterns once over the parts' texts joined (``joined_extraction``,
        ``_rules_joined``, ``_later_lines_joined``, ``_scans_joined``); the rest stays per part.
        A chat body of ~1,250 messages had spent ~900 µs a message, a scan per pattern and
        message. A part's outcome is what ``compress_part`` gives it (tests compare both ways);
        only which part a timed-out rule stops on first may differ, with the order of the work."""
        if len(jobs) < 2:
            return [self._alone(job, shares) for job in jobs]
        start, width = shares.take(jobs)
        tick = self._batch_ticker(start, width)
        self._share = None  # (the parts' own ticks would go back and forth: the batch ticks for them)
        outcomes = [PartOutcome(mi, pi, role, text, text) for text, role, mi, pi in jobs]
        large = sum(len(job[0]) for job in jobs) >= RELEASE_MIN
        with gc_paused(large):
            try:
                live = [o for o in outcomes if self._gated(o)]
                found = iter(extract_joined([o.original for o in live if o.should_preserve], self.custom,
                                            profile=self.profile, timeout=self.timeout,
                                            use_stand_ins=self.use_stand_ins))
                tick(0.2, "protected regions")
                ready = []
                for o in live:
                    ex = next(found) if o.should_preserve else self._nothing_protected(o)
                    if isinstance(ex, RegexTimeout):
                        _left_unchanged(o, "protected-region pattern", ex)
                    elif self._extracted(o, ex):
                        ready.append(o)
                groups: dict[tuple[int, ...], list[PartOutcome]] = {}
                for o in ready:
                    assert o.selection is not None
                    groups.setdefault(tuple(map(id, o.selection.rules)), []).append(o)
                for members in groups.values():
                    assert members[0].selection is not None
                    self._rules_joined(members, members[0].selection.rules, tick)
                if not self.strict and self.diagnose and self.config.uses_default_patterns:
                    self._later_lines_joined(ready)
                if not self.strict:
                    self._scans_joined(ready)
                restored = []
                for done, o in enumerate(ready):
                    tick(0.7 + 0.1 * done / len(ready), "cleanup")
                    restored.append(self._restored(o))
                counts = self._fence_counts(restored)
                for done, (r, fences, scans) in enumerate(zip(restored, counts, self._view_scans(restored))):
                    tick(0.8 + 0.2 * done / len(ready), "validation")
                    self._checked(r, fences, scans)
                restored.clear()  # (let go while collections are paused: the first one after walked them all)
                tick(1.0, "validation")
            finally:
                self._share = (0.0, 1.0)
                self._later_found, self._scans_found = {}, {}
                if large:
                    release_texts()
        return outcomes

    def _batch_ticker(self, start: float, width: float) -> Callable[[float, str], None]:
        """``_tick`` for a batch of parts: its fraction done, as its share of the body."""
        progress = self.progress
        if progress is None:
            return lambda _fraction, _stage: None
        return lambda fraction, stage: progress(start + width * fraction, stage)

    def _rules_joined(self, members: list[PartOutcome], rules: list[Rule],
                      tick: Callable[[float, str], None] = lambda _f, _s: None) -> None:
        """The rules of parts that share them, rule by rule: a ``joinable`` rule once over the
        parts' texts joined, any other on each part alone. Each part gets ``rules_output`` and
        reports what ``_run_rules`` would have (a part on pooled stand-ins runs alone)."""
        runs: list[_RulesRun] = []
        for o in members:
            assert o.extraction is not None
            run = self._rules_start(o, o.extraction, rules, True)
            if run.pooled:  # (a rule may send it back to its real text: see ``_run_rules``)
                o.rules_output = self._run_rules(o, o.extraction, rules)
            else:
                runs.append(run)
        texts = [run.text for run in runs]
        split = not any(SPLIT in text for text in texts)  # (``replace_split`` may cut the result)
        separator = SPLIT if split else SEPARATORS[0]
        joined, starts = join(texts, separator)
        for done, rule in enumerate(rules):
            tick(0.2 + 0.5 * done / max(1, len(rules)), f"rule {rule.name}")
            if self.timed_out.get(id(rule)) is rule:
                continue
            rx = self.runner.regexp(rule)
            step: Step | None = None
            accepted = joinable(rule) if len(runs) > 1 else ()
            # (``replace_split`` where it may: it pays for joining the texts anew)
            splits = split and SPLIT in accepted and _constant(rule)
            wanted = SPLIT if splits else choose(accepted, separator)
            if wanted is not None and wanted != separator:
                separator = wanted
                joined, starts = join(texts, separator)
            before = list(texts)
            try:
                if wanted is not None:
                    try:
                        if splits:
                            step = replace_split(partial(self._after_rule, rule, rx), joined, starts, texts)
                        if step is None:
                            step = replace_joined(rx, joined, starts, self.runner.values_of(rule),
                                                  self.runner.budget(joined))
                    except (RegexTimeout, JSUnsupportedError):
                        step = None  # (each part alone, below, says so where it happens)
                if step is None or step.crossed:
                    # each part alone, in order, as ``_run_rules`` does (a rule that stops on one
                    # is skipped on the parts after it); with a step, only the parts a match
                    # crossed into or out of
                    missed = rx.misses_at_start(texts) if step is None else None
                    for k in range(len(runs)) if step is None else sorted(step.crossed):
                        run = runs[k]
                        if missed is not None and missed[k]:
                            continue  # (``_run_rule`` would have returned its text: ``misses``)
                        if self.timed_out.get(id(rule)) is not rule:
                            run.text = texts[k] = self._run_rule(run.o, rule, rx, run.text, run.prefilter, run.q4)
                kept = step is not None and self._take_step(runs, texts, rule, step)
            finally:
                rx.forget()
            if kept and step is not None:
                joined, starts = step.joined, starts_of(texts)
            elif any(map(is_not, before, texts)):  # (joined anew only where a part's text moved on)
                joined, starts = join(texts, separator)
        for run in runs:
            run.o.rules_output = self._rules_end(run)

    def _after_rule(self, rule: Rule, rx: FastRegex, text: str) -> str:
        """``text`` after ``rule`` (run on its regex ``rx``), nothing recorded."""
        return self.runner.apply(rule, text, rx=rx).after

    def _take_step(self, runs: list[_RulesRun], texts: list[str], rule: Rule, step: Step) -> bool:
        """Each part's text after ``rule`` from the joined run (``step``), reported as
        ``_run_rule`` reports it. Returns whether the joined result is the parts' texts joined."""
        whole = not step.crossed
        for k, piece in step.pieces.items():
            run = runs[k]
            if piece == run.text:
                continue
            if run.prefilter is not None and not run.prefilter.attempt(rule.name):
                if self.diagnose:
                    run.q4.append(rule.name)
                whole = False  # (the joined result holds the change the prefilter kept out)
                continue
            run.o.applied.append(rule.name)
            run.text = texts[k] = piece
        return whole

    def _output_text(self, part: dict[str, Any], role: str, mi: int, pi: int) -> bool:
        """CAV-Q24: a Responses assistant's ``output_text`` part is never compressed (``strict`` does)."""
        if part.get("type") != "output_text" or not part["text"]:
            return False
        if self.strict:
            return True
        self.notes.append(Diagnostic(f"message {mi} part {pi} is an `output_text` part: counted, never compressed",
                                     "info", "CAV-Q24", source="caveman"))
        return False

    def _disabled(self, body: Any) -> CompressResult:
        tokens = estimate_body_tokens(body)  # over the JSON body; o200k tokens for Codex bodies (§13.2)
        stats = {"originalTokens": tokens, "compressedTokens": tokens, "savingsPercent": 0,
                 "techniquesUsed": [], "mode": "standard", "timestamp": int(time.time() * 1000)}
        diags = [Diagnostic("compression did not run (disabled or no messages); OmniRoute measures tokens "
                            "over the JSON body here, not over message text", "info", "CAV-Q15",
                            source="caveman")] if not self.strict else []
        if self.strict:
            messages = body.get("messages") if isinstance(body, dict) else None
            texts = [content_string(m["content"]) for m in messages or []
                     if isinstance(m, dict) and isinstance(m.get("content"), str | list)]
            tokens = sum(estimate_tokens(t) for t in texts)
            stats.update(originalTokens=tokens, compressedTokens=tokens)
        return CompressResult(body, False, stats, diags, [])

    def _stats(self, outcomes: list[PartOutcome], original: int, compressed: int, started: float
               ) -> tuple[dict[str, Any], list[Diagnostic]]:
        applied: list[str] = []
        errors: list[str] = []
        warnings: list[str] = list(self.pattern_warnings)
        diags: list[Diagnostic] = []
        fallback = False
        blocks = 0
        for o in outcomes:
            diags.extend(o.diagnostics)
            blocks += len(o.extraction.blocks) if o.extraction else 0
            fallback = fallback or o.fallback
            if not (o.fallback and self.strict):  # CAV-Q2 fix drops a fallen-back part's rules
                applied.extend(o.applied)
            errors.extend(o.errors)
            warnings.extend(o.warnings)
        applied, errors, warnings = _unique(applied), _unique(errors), _unique(warnings)
        stats: dict[str, Any] = {
            "originalTokens": original, "compressedTokens": compressed,
            "savingsPercent": math_round((original - compressed) / original * 10000) / 100 if original else 0,
            "techniquesUsed": ["caveman-rules"] if applied else [], "mode": "standard",
            "timestamp": int(time.time() * 1000),
        }
        if applied:
            stats["rulesApplied"] = applied
        stats["durationMs"] = math_round((time.perf_counter() - started) * 1000 * 100) / 100
        if warnings:
            stats["validationWarnings"] = warnings
        if errors:
            stats["validationErrors"] = errors
        if fallback:
            stats["fallbackApplied"] = True
        if blocks:
            stats["preservedBlockCount"] = blocks
        return stats, diags

    # ------------------------------------------------------------ part level

    def _diag(self, o: PartOutcome, code: str, message: str, level: Level = "info", **data: Any) -> None:
        where = {"messageIndex": o.message_index}
        if o.part_index is not None:
            where["partIndex"] = o.part_index
        o.diagnostics.append(Diagnostic(message, level, code, source="caveman", data={**where, **data}))

    def compress_part(self, text: str, role: str, mi: int = 0, pi: int | None = None) -> PartOutcome:
        large = len(text) >= RELEASE_MIN
        # a large part: no garbage collections while it runs (engine.gcpause says why), and the
        # memos of its texts are let go of afterwards (fast.texts.release_texts); a huge one
        # takes its big strings from the reused heap rather than fresh mappings (engine.heapreuse)
        # and its UTF-16 length is kept across the stages' releases (validation measures it again)
        with gc_paused(large), heap_reused(len(text) >= HEAP_REUSE_MIN), length_kept(text):
            try:
                return self._compress_part(text, role, mi, pi)
            finally:
                if large:
                    release_texts()

    def _compress_part(self, text: str, role: str, mi: int, pi: int | None) -> PartOutcome:
        o = PartOutcome(mi, pi, role, text, text)
        if self._before_rules(o):
            assert o.extraction is not None and o.selection is not None
            o.rules_output = self._run_rules(o, o.extraction, o.selection.rules)
            self._after_rules(o)
        return o

    def _before_rules(self, o: PartOutcome) -> bool:
        """Steps 1–5 of a part: its protected regions, language and rules. False: the part is
        done (empty, short, or a pattern ran out of time)."""
        if not self._gated(o):
            return False
        if not o.should_preserve:
            return self._extracted(o, self._nothing_protected(o))
        try:
            ex = extract(o.original, self.custom, profile=self.profile, timeout=self.timeout,
                         use_stand_ins=self.use_stand_ins)
        except RegexTimeout as exc:
            _left_unchanged(o, "protected-region pattern", exc)
            return False
        return self._extracted(o, ex)

    def _gated(self, o: PartOutcome) -> bool:
        """Step 1–2: whether the part is compressed at all, and whether it has regions to protect."""
        text = o.original
        least = self.config.min_message_length  # (a text has at least as many UTF-16 units as characters)
        if not text or (len(text) < least and utf16_len(text) < least):
            o.gated = "empty" if not text else "short"
            return False
        o.should_preserve = bool(self.custom) or has_structure(text)
        return True

    @staticmethod
    def _nothing_protected(o: PartOutcome) -> Extraction:
        return Extraction(o.original, o.original, [], choose_seed(o.original))

    def _extracted(self, o: PartOutcome, ex: Extraction) -> bool:
        """Steps 3–5 from the part's protected regions (``ex``): its notes, language and rules."""
        o.extraction = ex
        text = o.original
        self._tick(0.2, "protected regions")
        for quirk, message, block in ex.notes:
            span = [block.start, block.end] if block else None
            self._diag(o, quirk, message, "info", **({"span": span} if span else {}))
        # 4–5. language and rules
        try:
            o.language, o.detection = choose_language(text, _config_view(self.config), profile=self.profile,
                                                      timeout=self.timeout)
        except RegexTimeout as exc:
            _left_unchanged(o, "language detection pattern", exc)
            return False
        if o.detection is not None and not self.strict and self.diagnose:
            try:
                unicode_pick = detect_language(text, profile="strict", timeout=self.timeout)
            except RegexTimeout:
                unicode_pick = o.detection  # (CAV-Q6 is a note: none where its check ran out of time)
            if unicode_pick.language != o.detection.language:
                self._diag(o, "CAV-Q6", f"language detected as {o.detection.language}; with Unicode word "
                           f"edges for hint words it would be {unicode_pick.language}", "warning")
        o.selection = self._select(o, o.role)
        _between_stages(text)  # (what extraction made and no longer needs, before the rules' copies)
        return True

    def _after_rules(self, o: PartOutcome) -> None:
        """Steps 7–9 of a part, after its rules (``o.rules_output``): cleanup, restore, validation."""
        self._checked(self._restored(o))

    def _restored(self, o: PartOutcome) -> _Restored:
        """Steps 7–8 of a part: cleanup and restore (``_after_rules``)."""
        text, ex = o.original, o.extraction
        assert ex is not None
        ex.ascii_view = None  # (a copy of the part the later stages do not read)
        work, stand = o.rules_output
        _between_stages(text)
        self._tick(0.7, "cleanup")
        # 7. first cleanup and recapitalisation (on the rules' stand-in text, if any: every step
        # acts on ASCII blanks, punctuation, line breaks and letters alone, and no stand-in is
        # one of those, nor a unit it stands for, so cleaning commutes with turning it back)
        if self.diagnose and not self.strict and "\r\n" in work:
            cleaned, with_crlf = cleanup_both(work)
        else:
            cleaned = with_crlf = cleanup(work, crlf=self.strict)
        if cleaned != with_crlf:
            self._diag(o, "CAV-Q14", "cleanup treated '\\r' as an ordinary character (CRLF line ends keep "
                       "trailing blanks / blank lines)")
        work = recapitalize(cleaned)
        # 8–9 on the stand-ins too, where the original has a view on them: restoring, the second
        # cleanup and validation act on ASCII blanks, punctuation and fences and compare texts,
        # which the views do as the texts do (``_original_view``); the output is turned back once
        view = self._original_view(o, ex, stand) if stand is not None else None
        contents: list[str] | None = None
        if view is not None:
            contents = [view[b.start:b.end] for b in ex.blocks]  # (each block's units in the original)
        elif stand is not None:
            work = stand.string(work)
            stand = None
        # 8. restore and second cleanup
        # The pieces put together are what strict restores (CAV-Q1 fixed: only the unprotected
        # pieces cleaned, which leaves them as they are: cut at placeholders from a cleaned text,
        # they are the cleanup's fixed points; a test checks ``cleanup_segments`` is their join)
        # and what a fallen-back part's explanation checks.
        joined, spans, numbers = restore_with_spans(work, ex, contents)
        restored = joined
        changed: list[tuple[int, int]] | None = []  # (the stretches the second cleanup cleaned)
        if not self.strict and ex.blocks:  # (the first cleanup ran with crlf=False: see cleanup_restored)
            restored, changed = clean_restored(joined, spans)
        o.tail = (work, restored, stand)
        return _Restored(o, ex, view, restored, joined, _PutBack(numbers, spans, changed))

    def _checked(self, r: _Restored, fences: int | None = None, view_scans: Scans | None = None) -> None:
        """Step 9 of a part: validation and fallback (``fences``: the count of the restored
        text's fence spans; ``view_scans``: what validation looks for in the original's view;
        each where it was found already)."""
        self._tick(0.8, "validation")
        self._validate(r.o, r.ex, r.view, r.restored, r.joined, r.put_back, fences, view_scans)
        r.ex.ascii_original = None  # (read by the validation's checks alone)
        self._tick(1.0, "validation")

    def _tick(self, fraction: float, stage: str) -> None:
        """Progress within the running part (``fraction`` of it), as its share of the body."""
        if self.progress is not None and self._share is not None:
            start, width = self._share
            self.progress(start + width * fraction, stage)

    def _select(self, o: PartOutcome, role: str) -> Selection:
        # (the same language and role select the same rules: a body's ~1,250 messages filtered
        # a pack's rules ~1,250 times, ~10 µs each)
        chosen = self._selected.get((o.language, role))
        if chosen is None:
            file_rules = self.packs.rules_for(o.language)
            chosen = self._selected[(o.language, role)] = select_rules(
                file_rules, self.fallback_rules, role, self.config.intensity, profile=self.profile)
        sel = replace(chosen, rules=list(chosen.rules))
        if sel.from_fallback:
            if sel.fallback_available:
                self._diag(o, "CAV-Q3", f"no {o.language} rules for {self.config.intensity}/{role}: OmniRoute "
                           "applies its built-in English rules", "warning")
            else:
                self._diag(o, "CAV-Q3", f"no {o.language} rules for {self.config.intensity}/{role}: OmniRoute "
                           "would apply its built-in English rules here (not loaded: pass fallbackRules)",
                           "warning")
        elif self.strict and not sel.rules:
            self._diag(o, "CAV-rules", f"no rules for {o.language} at {self.config.intensity}/{role}", "warning")
        skip = set(self.config.skip_rules or [])
        sel.rules = [r for r in sel.rules if r.name not in skip]
        if self.only_rule is not None:
            sel.rules = [r for r in sel.rules if r.name == self.only_rule]
        return sel

    def _run_rules(self, o: PartOutcome, ex: Extraction, rules: list[Rule], *,
                   pool: bool = True) -> tuple[str, StandIns | None]:
        """The rules on ``ex.text`` (or on ``ex.ascii_view``, it on extraction's stand-ins, where
        those hold for the rules: ``ex.text`` is then not made unless the rules change nothing).
        Returns the text after them, or, when they ran on stand-ins and changed it, its UTF-16
        units on those stand-ins and the stand-ins (``PartOutcome.rules_output``)."""
        run = self._rules_start(o, ex, rules, pool)
        count = len(rules)
        for done, rule in enumerate(rules):
            self._tick(0.2 + 0.5 * done / max(1, count), f"rule {rule.name}")
            if self.timed_out.get(id(rule)) is rule:
                continue
            rx = self.runner.regexp(rule)
            try:
                after = self._run_rule(o, rule, rx, run.text, run.prefilter, run.q4)
            finally:
                rx.forget()  # (the memos of a text the next rules do not run on: a copy per rule)
            if run.pooled and after is not run.text and after.count(run.pooled) != run.marks:
                applied, diagnostics, runs, self.timed_out = run.reported
                del o.applied[applied:], o.diagnostics[diagnostics:], o.runs[runs:]
                return self._run_rules(o, ex, rules, pool=False)
            run.text = after
        return self._rules_end(run)

    def _rules_start(self, o: PartOutcome, ex: Extraction, rules: list[Rule], pool: bool) -> _RulesRun:
        """What the rules of one part start from: the text (its units, or on stand-ins) and the
        reference's keyword prefilter (``_run_rules``)."""
        stand: StandIns | None = None
        view = ex.ascii_view
        if self.runner.keep_units and self.use_stand_ins and view is not None and (pool or not view[0].pool_mark) \
                and fits(view[0], rules):
            stand, text = view  # (extraction's stand-ins hold for the rules too)
        else:
            # rules see (and, with keep_units, return) the UTF-16 units of the text: one
            # conversion for a text with astral characters, and one back at the end
            text = to_utf16_units(ex.text) if self.runner.keep_units else ex.text
            # and, where that is exact, on pure ASCII: a few distinct non-ASCII units stood in
            # for (engine.caveman.standins; an explanation records the real text)
            stand = stand_ins(text, rules) if self.runner.keep_units and self.use_stand_ins else None
            if stand is not None:
                text = stand.to_ascii(text)
        index = self.runner.share_index(rules)
        prefilter = None
        if not self.strict:  # (the index's pass over the text also rules out absent keywords)
            absent: Callable[[], frozenset[str]] | frozenset[str] = \
                partial(index.absent_keys, text) if index is not None and text.isascii() else frozenset()
            # (on the stand-ins where there are: an ASCII text, see prefilter.ASCII_KEYWORDS)
            prefilter = Prefilter(text if stand is not None and ASCII_KEYWORDS else ex.text, absent,
                                  LiteralIndex.KEY)
        # pooled stand-ins hold while no rule changes how many pooled marks there are (a rule's
        # replacement copies none: ``standins.fits``); one that does sends the rules back to the
        # real text, from the start, with what they had reported let go of
        pooled = stand.pool_mark if stand is not None and stand.pool_mark else ""
        return _RulesRun(o, ex, stand, text, text, prefilter, pooled, text.count(pooled) if pooled else 0,
                         (len(o.applied), len(o.diagnostics), len(o.runs), dict(self.timed_out)))

    def _rules_end(self, run: _RulesRun) -> tuple[str, StandIns | None]:
        """``_run_rules``' result from where the rules left ``run``: CAV-Q4 and CAV-Q12 said."""
        o, ex, text, stand = run.o, run.ex, run.text, run.stand
        if run.q4:
            self._diag(o, "CAV-Q4", "skipped by OmniRoute's keyword prefilter although they would change the "
                       f"text: {', '.join(run.q4)}", "warning", rules=run.q4)
        if text is run.start:
            return ex.text, None
        if stand is None:
            text = from_utf16_units(text)
        if self.diagnose and not self.strict:  # (its tokens are ASCII: they read the stand-ins alike)
            self._check_dotted(o, ex.text if stand is None else run.start, text)
        return text, stand

    def _run_rule(self, o: PartOutcome, rule: Rule, rx: FastRegex, text: str, prefilter: Prefilter | None,
                  q4: list[str]) -> str:
        """One rule of ``_run_rules`` on ``text``; returns the text after it."""
        if not self.record and rx.misses(text):
            return text  # (a short text it has no match in: nothing to change, report or attempt)
        if rx.cannot_match(text):
            # no position where it could match: the outcome is the same whether or not the
            # reference's prefilter would have attempted it, so skip the (costly) keyword test
            if self.record:
                gated = prefilter is not None and not prefilter.attempt(rule.name)
                o.runs.append(RuleRun(rule, text, text, attempted=not gated,
                                      skipped="prefilter" if gated else ""))
            return text
        if prefilter is not None and not prefilter.attempt(rule.name):
            if self.record:
                o.runs.append(RuleRun(rule, text, text, attempted=False, skipped="prefilter"))
            if self.diagnose:
                try:
                    if self.runner.would_change(rule, text, rx):
                        q4.append(rule.name)
                except RegexTimeout:
                    pass
            return text
        try:
            run = self.runner.apply(rule, text, record=self.record)
        except JSUnsupportedError as exc:
            # valid JavaScript the regex layer will not run (JSR-Q12, or over its compile
            # limits: 32,000 groups, nesting, length): the rule is skipped, said once
            self.timed_out[id(rule)] = rule
            o.diagnostics.append(Diagnostic(
                f"rule {rule.name} skipped: {exc}", "error", "CAV-unsupported", source="caveman",
                data={"rule": rule.name, "messageIndex": o.message_index}))
            if self.record:
                o.runs.append(RuleRun(rule, text, text, attempted=False, skipped="unsupported"))
            return text
        except RegexTimeout as exc:
            self.timed_out[id(rule)] = rule
            diag = timeout_diagnostic(rule, exc, _where(o))
            o.diagnostics.append(diag.with_location(data={**diag.data, "messageIndex": o.message_index}))
            if self.record:
                o.runs.append(RuleRun(rule, text, text, attempted=False, skipped="timeout"))
            return text
        if self.record:
            o.runs.append(run)
        if run.q5_literal:
            self._diag(o, "CAV-Q5", f"rule {rule.name}: a replacementMap miss inserted its replacement "
                       f"{rule.replacement!r} verbatim ($-patterns not expanded)", "warning", rule=rule.name)
        if run.changed:
            o.applied.append(rule.name)
            text = run.after
        return text

    def _check_dotted(self, o: PartOutcome, before: str, after: str) -> None:
        """CAV-Q12: an unprotected ``a.b`` token (no following ``(``) that the rules rewrote."""
        if before == after:
            return
        tokens = _dotted_tokens(before)
        if len(after) <= SHORT_TEXT:  # (a search per token: an automaton for a message's few cost more)
            kept = {token for token in tokens if token in after}  # (ASCII tokens: as their units do)
        else:
            # (which occur, not where: most do, and early — ``present`` stops looking for those)
            found = present(after, frozenset(tokens)) if tokens else set()
            kept = occurring(after, tokens) if found is None else found
        hit = [t for t in tokens if t not in kept]
        if hit:
            self._diag(o, "CAV-Q12", f"dotted names without '(' are not protected and were rewritten: "
                       f"{', '.join(hit[:5])}", "warning")

    def _original_view(self, o: PartOutcome, ex: Extraction, stand: StandIns) -> str | None:
        """The original's UTF-16 units on the stand-ins the rules ran on, when it has such a view
        (extraction's, or one made here: a part whose fenced blocks came out first), and the
        blocks' spans say where each block stands in it. On agent sessions (an emoji: text and
        copies 4 bytes a character) validation and the fallback's explanation took 45–48 ms per
        MB on the texts, 35–37 on the views, which cost ~2.5 ms to make here."""
        if self.strict or not self.runner.keep_units or stand.pool_mark:
            return None  # (strict validates the blocks alone: a view made for it cost more than it saved)
        held = ex.ascii_original
        if held is not None and held[0] is stand:
            return held[1]
        return view_of(stand, o.original)

    def _validate(self, o: PartOutcome, ex: Extraction, view: str | None, restored: str, joined: str,
                  put_back: _PutBack, fences: int | None = None, view_scans: Scans | None = None) -> None:
        """Validation and fallback; with ``view`` (the original's, ``_original_view``) ``restored``
        and ``joined`` are views on the stand-ins of ``o.tail`` too, else the texts themselves."""
        stand = o.tail[2]
        original = o.original if view is None else view
        scans: Scans | None = None  # (what validation looked for: the fallback's explanation looks again)
        if self.strict:  # (no second cleanup: every block put back is there as it was)
            kept = {ex.blocks[n].content for n in put_back.numbers}
            errors, warnings = validate_blocks(original, restored, ex.blocks, kept)  # (never on views)
            missing: list[str] = []
        elif o.should_preserve or ex.blocks:
            if view is None or stand is None:
                scans = self._scans_found.pop(id(o), None)  # (found for many parts at once)
                if scans is None:
                    scans = scan_items(original, ex.ascii_original)
                real = None
            else:
                scans = view_scans if view_scans is not None else scan_view(original, _fenced_spans(ex))
                real = stand.real
            # (the blocks' spans are UTF-16 offsets: as a view's, or a text's without astral characters)
            starts, ends, alone = put_back.in_original(ex)
            if starts and (view is not None or bmp_only(original)):
                put_back.inside = ItemsInside(scans, starts, ends)
            inside = put_back.inside
            errors, warnings, missing = validate_compression(original, restored, scans, real=real,
                                                             present=inside.present(alone) if inside else (),
                                                             fences=fences)
        else:
            errors, warnings, missing = [], [], []
            if self.diagnose and original and not js_trim(restored):
                self._diag(o, "CAV-Q7", "the rules emptied this part and nothing checked it (preservation off)",
                           "warning")
        o.warnings = warnings
        if errors:
            o.errors = errors
            o.fallback = True
            o.text = o.original
            if not self.strict and self.diagnose:
                self._explain_fallback(o, ex, original, missing, scans, joined, put_back)
            return
        if view is not None:
            restored = o.restored
        o.text = restored
        if not self.strict and self.diagnose and self.config.uses_default_patterns:
            self._check_line_start_defaults(o, restored)
        if not self.strict and self.diagnose and ex.blocks:
            survived = set(map(int, ex.placeholder_re.findall(o.tail[0])))  # (placeholders read alike in a view)
            gone = [b for b in ex.blocks if b.n not in survived]
            found = occurring(restored, [b.content for b in gone])
            lost = [b for b in gone if b.content not in found]
            if lost:
                kinds = ", ".join(_unique([b.kind for b in lost]))
                self._diag(o, "CAV-Q8", f"protected content ({kinds}) is missing from the output and "
                           "OmniRoute does not validate it", "warning",
                           spans=[[b.start, b.end] for b in lost])

    def _line_start_patterns(self) -> list[FastRegex]:
        """The default error and stack-line patterns with ``m`` (CAV-Q17's check), made once."""
        if self._line_start_defaults is None:
            self._line_start_defaults = [preserve_regex(source, "gm") for source in DEFAULT_PRESERVE_PATTERNS[4:]]
        return self._line_start_defaults

    def _later_lines(self, o: PartOutcome) -> list[str] | None:
        """The error and stack lines of the part's original past its start (what ``m`` would
        have protected), in order; None where a pattern ran out of time."""
        found = self._later_found.pop(id(o), None)
        if found is not None:
            return found
        later: list[str] = []
        subject, stand = o.original, None
        patterns = self._line_start_patterns()
        view = o.extraction.ascii_original if o.extraction is not None else None
        if view is not None and fits_patterns(view[0], [(rx.rx.source, rx.rx.flags) for rx in patterns]):
            stand, subject = view  # (the original on ASCII stand-ins: no UTF-16 units made of it)
        for rx in patterns:
            try:
                offsets, matched = rx.match_all(subject, self.timeout)
            except RegexTimeout:
                return None
            # (at 0, ^ holds without m too: that match was protected)
            later += [line for at, line in zip(offsets, matched) if at > 0]
        return later if stand is None else [stand.real(m) for m in later]

    def _later_lines_joined(self, parts: list[PartOutcome]) -> None:
        """``_later_lines`` of many parts, each pattern once over their originals joined (the
        parts a match ran across, or all where a pattern ran out of time, are left to
        ``_later_lines``): ~30 µs of every short message, for two scans of a few hundred
        characters each."""
        units = [to_utf16_units(o.original) for o in parts]
        found: list[list[tuple[int, int, str]]] = [[] for _ in parts]  # (pattern, offset, line) per part
        left: set[int] = set()
        for number, rx in enumerate(self._line_start_patterns()):
            separator = choose(separators_for(rx.rx.source, rx.rx.flags), SEPARATORS[0])
            if separator is None:
                return
            joined, starts = join(units, separator)
            try:
                matches, crossed = matches_joined(rx, joined, starts, budget_for(joined, self.timeout))
            except RegexTimeout:
                return
            left |= crossed
            for k, spans in matches.items():
                found[k] += [(number, at, matched) for at, matched in spans if at > 0]
        for k, o in enumerate(parts):
            if k not in left:
                self._later_found[id(o)] = [matched for _n, _at, matched in found[k]]

    def _scans_joined(self, parts: list[PartOutcome]) -> None:
        """What validation looks for in the originals of many parts at once, where ``_validate``
        would scan the original itself (no ASCII view of it, no astral character): each scanner
        once over them joined (``validation.scan_items_joined``), ~20 µs of every short message."""
        chosen = [o for o in parts if (o.should_preserve or (o.extraction and o.extraction.blocks))
                  and (o.extraction is None or o.extraction.ascii_original is None
                       or o.extraction.ascii_original[0].pool_mark)
                  and bmp_only(o.original)]
        if len(chosen) < 2:
            return
        for o, scans in zip(chosen, scan_items_joined([o.original for o in chosen])):
            if scans is not None:
                self._scans_found[id(o)] = scans

    def _fence_counts(self, restored: list[_Restored]) -> list[int | None]:
        """The count of each restored text's fence spans that validation will ask for (a part
        whose original had fenced blocks), from one scan of those texts joined; None for the
        others (validation scans one itself where it needs it). Strict's validation of the
        blocks counts none."""
        out: list[int | None] = [None] * len(restored)
        if self.strict:
            return out
        chosen = [k for k, r in enumerate(restored) if any(b.kind == "fenced_code" for b in r.ex.blocks)]
        for k, spans in zip(chosen, fence_spans_each([restored[k].restored for k in chosen])):
            out[k] = len(spans)
        return out

    def _view_scans(self, restored: list[_Restored]) -> list[Scans | None]:
        """What validation looks for in the views of the originals of these parts (those it
        validates on views: ``_validate``), each scanner once over them joined: ~6 µs of every
        short message on a view (``scan_items_joined``; None where that did not answer)."""
        out: list[Scans | None] = [None] * len(restored)
        if self.strict:
            return out
        chosen = [k for k, r in enumerate(restored) if r.view is not None and r.o.tail[2] is not None
                  and (r.o.should_preserve or r.ex.blocks)]
        if len(chosen) > 1:
            for k, scans in zip(chosen, scan_items_joined([restored[k].view or "" for k in chosen])):
                out[k] = scans
        return out

    def _check_line_start_defaults(self, o: PartOutcome, restored: str) -> None:
        """CAV-Q17: the default error and stack-line patterns begin with ``^`` but are compiled
        without ``m``, so they protect only a match at the very start of the text. When such a
        line further down (what ``m`` would have protected) did not survive the rules, say so."""
        later = self._later_lines(o)
        if not later:
            return
        # (each distinct line once, all of them in one pass per text: a count per line was quadratic)
        after, before = counts(restored, later), counts(o.original, later)
        lost = sorted(m for m in after if after[m] < before[m])
        if lost:
            shown = ", ".join(repr(m.strip() or m) for m in lost[:3])
            self._diag(o, "CAV-Q17", f"error or stack-trace lines after the first line ({shown}) were not "
                       "protected: OmniRoute compiles its default line-start patterns without the m flag, "
                       "so they only match at the start of the text (strict protects every such line)",
                       "warning")

    def _explain_fallback(self, o: PartOutcome, ex: Extraction, original: str, missing: list[str],
                          scans: Scans | None, joined: str, put_back: _PutBack) -> None:
        """CAV-Q2, Q1 and Q13 for a part that fell back. ``joined``: the cleaned text with its
        blocks put back, before the second cleanup; it, ``original`` and ``scans`` are views on
        stand-ins where validation read those (``missing`` holds the items themselves)."""
        if o.applied:
            self._diag(o, "CAV-Q2", f"the part fell back but rulesApplied still lists {', '.join(o.applied)}")
        if ex.blocks:
            # CAV-Q1: would the part have passed with its protected pieces left as they were?
            # That text is ``cleanup_segments`` of the pieces, which is ``joined`` itself: the
            # unprotected pieces are cut from a cleaned text at placeholders (characters no
            # cleanup step acts on or next to), and the cleanup leaves its own output unchanged
            # (a test checks the identity; cleaning the pieces again cost ~8 ms per MB)
            # (every block put back is in ``joined`` as it was, and what lies inside one with it;
            # its fenced blocks may be all its fences)
            inside = put_back.inside
            fences = fence_count_of_blocks(joined, [span for span, n in zip(put_back.spans, put_back.numbers)
                                                    if ex.blocks[n].kind == "fenced_code"])
            if not validation_fails(original, joined, scans, inside.present() if inside else (), fences):
                self._diag(o, "CAV-Q1", "the second cleanup altered protected text (indentation, spaces before "
                           "punctuation, '...', trailing blanks…), so the whole part fell back", "warning")
        in_blocks = occurring_in_any([b.content for b in ex.blocks], missing)
        stray = [m for m in missing if m not in in_blocks]
        if stray:
            self._diag(o, "CAV-Q13", "validation failed on text that was never protected: "
                       + "; ".join(s[:60] for s in stray[:3]), "warning")


class _Shares:
    """Which share of a body's characters each run of parts is, in order (progress by characters:
    an empty part counts as one)."""

    def __init__(self, jobs: list[_Job]) -> None:
        self.total = sum(max(1, len(job[0])) for job in jobs) or 1
        self.done = 0

    def take(self, jobs: list[_Job]) -> tuple[float, float]:
        """The (start, width) of these next parts, as fractions of the body."""
        size = sum(max(1, len(job[0])) for job in jobs)
        start, self.done = self.done, self.done + size
        return start / self.total, size / self.total


@dataclass
class _Restored:
    """A part between restore and validation (``Compressor._restored``, ``_checked``)."""

    o: PartOutcome
    ex: Extraction
    view: str | None  # the original's view on the stand-ins, where validation reads views
    restored: str  # the text after the second cleanup (a view, with ``view``)
    joined: str  # the text before it
    put_back: _PutBack


@dataclass
class _PutBack:
    """Where the restored texts hold protected blocks as they were: validation need not search
    for what lies inside them (``validation.ItemsInside``)."""

    numbers: list[int]  # the blocks put back into the joined text, in order
    spans: list[tuple[int, int]]  # where each stands there
    cleaned: list[tuple[int, int]] | None  # the stretches the second cleanup changed (None: all of it)
    inside: ItemsInside | None = None  # where validation's items lie in these blocks (in the original)

    def in_original(self, ex: Extraction) -> tuple[list[int], list[int], list[bool]]:
        """The UTF-16 spans of these blocks in the original part (sorted, each once: their starts
        and ends), and whether the second cleanup left each alone (its text after it holds the
        block as it was)."""
        alone = untouched(self.spans, self.cleaned)
        blocks = list(map(ex.blocks.__getitem__, self.numbers))
        starts = list(map(_START, blocks))
        ends = list(map(_END, blocks))
        if all(map(le, ends[:-1], starts[1:])) and (not starts or starts[0] >= 0):
            return starts, ends, alone
        # (a rule moved or repeated a placeholder: a block left alone once is there as it was)
        merged: dict[tuple[int, int], bool] = {}
        for span, kept in zip(zip(starts, ends), alone):
            if span[0] >= 0:
                merged[span] = merged.get(span, False) or kept
        ordered = sorted(merged)
        return [a for a, _b in ordered], [b for _a, b in ordered], [merged[span] for span in ordered]


_START, _END = attrgetter("start"), attrgetter("end")
_Job = tuple[str, str, int, int | None]  # a part to compress: (text, role, message index, part index)


def _constant(rule: Rule) -> bool:
    """A rule that puts one constant, which holds no ``SPLIT``, in each match's place."""
    return rule.replacement_map is None and "$" not in (rule.replacement or "") and SPLIT not in (rule.replacement or "")


@dataclass
class _RulesRun:
    """One part's rules under way: the text they have come to, and what they report."""

    o: PartOutcome
    ex: Extraction
    stand: StandIns | None  # the stand-ins ``text`` is on (None: the text's own units, or itself)
    start: str  # the text the rules started from
    text: str  # the text after the rules so far
    prefilter: Prefilter | None
    pooled: str  # the pooled stand-ins' mark ("": none)
    marks: int  # how many of it ``start`` holds
    reported: tuple[int, int, int, dict[int, Rule]]  # what had been reported before the rules
    q4: list[str] = field(default_factory=list)  # rules the prefilter skipped that would change the text


def _fenced_spans(ex: Extraction) -> list[tuple[int, int]] | None:
    """The fence spans of the part, in UTF-16 units, from its fenced blocks: extraction scanned
    the part itself for them, unless a frontmatter block came out first (then None). A view of
    the part on stand-ins has the same spans: no stand-in, nor a unit it stands for, is a blank
    or a line break, and a part holding a non-ASCII blank has no view (``standins.view_of``)."""
    if any(b.kind == "frontmatter" for b in ex.blocks):
        return None
    return [(b.start, b.end) for b in ex.blocks if b.kind == "fenced_code"]


def _between_stages(part: str) -> None:
    """After a stage of a large part: the memos of its texts let go of (each stage works on
    texts the one before never saw: extraction's last versions, their views and canonical
    forms were ~10 MB per MB of mixed prose still held while the rules ran). The freed heap
    stays for the next stage (``engine.heapreuse`` says why)."""
    if len(part) >= RELEASE_MIN:
        release_texts()


def _left_unchanged(o: PartOutcome, what: str, exc: RegexTimeout) -> PartOutcome:
    """A part one of whose patterns ran out of time (``what`` says which kind) is left as it
    was, with a CAV-timeout error naming the pattern."""
    o.gated = "timeout"
    why = f"was stopped ({exc.total})" if getattr(exc, "total", None) else "timed out"
    o.diagnostics.append(Diagnostic(
        f"{what} /{exc.source}/{exc.flags} {why} on {_where(o)}; the part was left unchanged", "error",
        "CAV-timeout", source="caveman", data={"messageIndex": o.message_index, "pattern": exc.source}))
    return o


def _where(o: PartOutcome) -> str:
    return f"message {o.message_index}" + (f" part {o.part_index}" if o.part_index is not None else "")


def _config_view(config: CavemanConfig) -> dict[str, Any]:
    return {"language": config.language, "autoDetectLanguage": config.auto_detect_language,
            "enabledLanguagePacks": config.enabled_language_packs}


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def compress(body: Any, packs: PackSource, config: CavemanConfig | dict[str, Any] | None = None, *,
             profile: str = "omniroute", fallback_rules: list[Rule] | None = None,
             timeout: float | None = None) -> CompressResult:
    """``cavemanCompress(body, config)`` over a chat body."""
    return Compressor(packs, config, profile=profile, fallback_rules=fallback_rules,
                      timeout=timeout).compress_body(body)


def compress_text(text: str, packs: PackSource, config: CavemanConfig | dict[str, Any] | None = None, *,
                  role: str = "user", profile: str = "omniroute", fallback_rules: list[Rule] | None = None,
                  timeout: float | None = None) -> CompressResult:
    """One message ``{role, content: text}``; ``result.body["messages"][0]["content"]`` is the text."""
    return compress({"messages": [{"role": role, "content": text}]}, packs, config, profile=profile,
                    fallback_rules=fallback_rules, timeout=timeout)
