"""``FastRegex``: a JavaScript regex with the same ``replace``/``search`` results as
``engine.jsregex``, faster on large texts.

A full regex scan per rule costs tens of milliseconds per MB; the packs have dozens of rules.
Most patterns, though, can only *start* near a literal (``engine.caveman.fast.plan``). Their
occurrences are found (``engine.caveman.fast.literals``) and the real JavaScript regex is tried
*anchored* (sticky) at those positions only, left to right, with JavaScript's ``replace`` loop.
Every position where a match could start is tried, in order, so the result is the same as a
full scan. Patterns without anchors, ``y``/``u``/``v`` patterns, texts with astral characters
(UTF-16 offsets ≠ indices) or texts where candidates are too dense use the plain full scan;
which of the two is cheaper is measured (``engine.caveman.fast.strategy``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from itertools import accumulate, compress
from operator import add, sub
from typing import Any

from engine.caveman.fast import strategy
from engine.caveman.fast.literals import (
    LiteralIndex,
    ascii_starts_with_anchor,
    candidates,
    starts_with_anchor,
)
from engine.caveman.fast.plan import at_boundaries, literals_of, pattern_facts
from engine.caveman.fast.texts import (
    RELEASE_MIN,
    as_units,
    bmp_only,
    canonical,
    carry_canonical,
    holds_text,
    remember_units,
    units_of,
)
from engine.caveman.fences import contains
from engine.jsregex import JSMatch, JSRegExp, RegexTimeout, compile_js, get_default_timeout
from engine.jsregex.anchored import anchored_spans
from engine.jsregex.backtracking import linear_attempts, linear_scan
from engine.jsregex.budget import clip as clip_to_total
from engine.jsregex.pcre_twin import pcre_twin, substitute_ascii
from engine.jsregex.twin import re_twin
from engine.jsvalues import from_utf16_units, utf16_len

_TIMED_CALLS: tuple[bool, None, None] = (False, None, None)


class _Work:
    """A text as engine.jsregex sees it: ``units`` (UTF-16 units; the text itself unless it has
    astral characters) and ``target`` (what the translated pattern runs on: ``units``, or its
    canonical case form under ``i``, made when first needed: a rule that turns out to have no
    candidate never folds the text). Offsets into both are JavaScript offsets."""

    __slots__ = ("_target", "canonical", "expanded", "fold", "text", "units")

    def __init__(self, text: str, units: str, expanded: bool, fold: str, canonical: bool) -> None:
        self.text = text
        self.units = units
        self.expanded = expanded
        # "": none; "canonical": ``canonical`` (non-u ``i``, and u/v ``i`` on ASCII text, where
        # both foldings are upper case); "unicode": u/v ``i``
        self.fold = fold
        self.canonical = canonical  # the target is the non-u canonical form (carried over)
        self._target: str | None = None

    @property
    def target(self) -> str:
        if self._target is None:
            if self.fold == "canonical":
                self._target = canonical(self.units)
            elif self.fold == "unicode":
                from engine.jsregex.unicode_data import canon_table

                self._target = self.units.translate(canon_table(True))
            else:
                self._target = self.units
        return self._target


class FastRegex:
    """A JS regex with the same ``replace``/``search`` results, faster on large texts.

    The translated pattern is run directly on the subject engine.jsregex would build (the
    UTF-16 units of the text, case-canonicalised under ``i``): anchored at the planned
    candidates, or with ``finditer`` for patterns that cannot match empty (Python's iteration is
    then JavaScript's). A ``JSMatch`` is only built, through engine.jsregex, for matches whose
    replacement needs it. ``u``/``v`` patterns on texts with astral characters, sticky patterns
    and unsupported constructs go through engine.jsregex unchanged.

    Calls of a pattern that cannot stall (``engine.jsregex.backtracking``) run without
    ``regex``'s per-call timer, on the ``re`` twin of the translation when there is one
    (``engine.jsregex.twin``); the loop still keeps one budget (``engine.jsregex.anchored``).
    """

    MIN_LENGTH = 4096  # below this a full scan is as cheap as planning

    def __init__(self, source: str, flags: str, timeout: float | None = None,
                 extra: Callable[[str], list[int] | None] | None = None) -> None:
        self.rx: JSRegExp = compile_js(source, flags, timeout)
        self.plan, self.min_width, required = pattern_facts(source, flags)
        # literals every match holds (engine.caveman.required), looked for when the start plan
        # does not already search exactly those, nor tries the text's start alone (one attempt
        # there costs less than a search of the text per literal: ~0.5-1 ms per MB for each of
        # the default ``^\s*(Error|…):`` pattern's, which OmniRoute compiles without ``m``)
        plan = self.plan
        anchored = frozenset(literals_of(plan)) if plan is not None and not plan.start else frozenset()
        at_start_only = plan is not None and plan.start == "text"
        self.required = None if required is None or required <= anchored or at_start_only else required
        self.extra = extra
        self.timeout = timeout
        self.index: LiteralIndex | None = None  # shared by the rules of one run (see LiteralIndex)
        self._sticky: JSRegExp | None = None
        self._last: tuple[str, list[int] | None] | None = None
        self._work: _Work | None = None
        self._cost = strategy.costs_for((source, flags))
        self._untimed: tuple[bool, re.Pattern[str] | None, re.Pattern[str] | None] | None = None
        self._pcre: Any = None  # the PCRE2 twin (False: none), built when first needed

    def _untimed_calls(self) -> tuple[bool, re.Pattern[str] | None, re.Pattern[str] | None]:
        """Where no call can stall, calls run untimed, on the ``re`` twin when there is one:
        ``(anchored calls may run untimed, twin for anchored calls, twin for whole scans)``.
        Worked out when first needed (most rules never get that far on a given text), and only
        for a pattern that has met ``UNTIMED_MIN_UNITS`` of text (until then: all timed)."""
        if self._untimed is None:
            if not strategy.untimed_ready(self.rx.source, self.rx.flags):
                return _TIMED_CALLS
            source, flags = self.rx.source, self.rx.flags
            linear = linear_attempts(source, flags)
            t = self.rx.translation
            twin = None if t.unsupported or t.too_large else re_twin(t.emitted)
            self._untimed = (linear, twin if twin is not None and linear else None,
                             twin if twin is not None and linear_scan(source, flags) else None)
        return self._untimed

    linear = property(lambda self: self._untimed_calls()[0])
    _matcher = property(lambda self: self._untimed_calls()[1])

    def _whole_scanner(self, target: str) -> re.Pattern[str] | None:
        """The ``re`` twin whole scans run on (None: the ``regex`` translation, timed; see
        ``strategy.whole_scanner``)."""
        plain = self._untimed_calls()[2]
        if plain is None:
            return None
        return strategy.whole_scanner(self.rx.source, self.rx.flags, self.rx.translation.emitted, plain, target)

    source = property(lambda self: self.rx.source)
    flags = property(lambda self: self.rx.flags)
    sticky = property(lambda self: self.rx.sticky)
    is_global = property(lambda self: self.rx.is_global)
    group_names = property(lambda self: self.rx.group_names)
    group_count = property(lambda self: self.rx.group_count)

    def _anchored(self) -> JSRegExp:
        if self._sticky is None:
            self._sticky = compile_js(self.rx.source, self.rx.flags.replace("g", "") + "y", self.timeout)
        return self._sticky

    def _prepare(self, text: str) -> _Work | None:
        cached = self._work
        if cached is not None and cached.text is text:
            return cached
        t = self.rx.translation
        if self.rx.sticky or t.unsupported:
            return None
        fold = ("unicode" if t.unicode else "canonical") if t.ignore_case else ""
        if text.isascii():
            units = text
            fold = "canonical" if t.ignore_case else ""
        elif t.unicode:
            if not bmp_only(text):
                return None
            units = text
        else:
            units = text if bmp_only(text) else units_of(text)
        self._work = _Work(text, units, units is not text, fold, t.ignore_case and not t.unicode)
        strategy.meet(self.rx.source, self.rx.flags, len(units))
        if len(units) >= RELEASE_MIN:
            holds_text(self)
        return self._work

    def forget(self) -> None:
        """Drop the memos of the last text (see ``release_texts``)."""
        self._work = None
        self._last = None

    def _positions(self, units: str, substitute: object = None) -> list[int] | None:
        """The candidate starts of a match in ``units`` for the anchored loop, ``[]`` when there
        is none, or None for a full scan: where there is no plan, or where one is expected to be
        cheaper than an anchored call per candidate (``substitute``: the PCRE2 twin a full scan
        would substitute with, whose cost is measured apart from ``re``'s scans)."""
        found = self._candidates(units)
        if found and self.min_width:
            slot = strategy.SUBSTITUTE if substitute is not None else strategy.FULL
            # (a PCRE2 substitution is measured even for sparse candidates: it often costs less
            # than their anchored calls, ~0.3 ms per MB where a rare literal leads the pattern)
            dense = substitute is not None or len(found) * strategy.EXPLORE > len(units)
            if self._cost[slot] == 0.0 and dense and len(units) > 2 * strategy.SAMPLE_UNITS:
                self._measure_sample(units, substitute)  # rather than a whole full scan to learn its cost
            guess = strategy.UNTIMED_GUESS if self._matcher is not None else strategy.ANCHORED_GUESS
            if strategy.prefer_full_scan(self._cost, len(units), len(found), guess, slot):
                return None  # a full scan (the same matches: the pattern cannot match empty)
        return found

    def _candidates(self, units: str) -> list[int] | None:
        """Where a match could start in ``units`` (None: no plan), kept for the last text."""
        last = self._last
        if last is not None and last[0] is units:
            return last[1]
        found: list[int] | None
        if len(units) < self.MIN_LENGTH or self.rx.sticky:
            found = None
        elif self.required is not None and self._lacks_required(units, self.required):
            found = []  # (before a candidate finder too: a search per literal costs less than it)
        elif self.extra is not None:
            found = self.extra(units)
        elif self.plan is None:
            found = None
        elif self.index is not None and self.plan.ignore_case and self.plan.start != "text":
            found = candidates(self.plan, units, absent=self.index.absent(units))
        else:
            found = candidates(self.plan, units)
        if found and self.extra is None and self.plan is not None and self.plan.boundary:
            found = at_boundaries(units, found)  # the plan is never made for u/v patterns
        self._last = (units, found)
        return found

    def _lacks_required(self, units: str, required: frozenset[str]) -> bool:
        """Whether the text holds none of the literals every match holds (the shared literal
        index knows it for large texts under ``i``; otherwise one search per literal)."""
        folded = self.rx.translation.ignore_case
        if folded and self.index is not None:
            absent = self.index.known_absent(units)
            if absent is not None:
                return required <= absent
        hay = canonical(units) if folded else units
        if len(hay) != len(units):
            return False  # (never: the canonical form maps character by character)
        probed: dict[str, bool] = {}  # (``http://`` and ``https://`` share ``://``)
        for lit in required:  # (whether one occurs, not where)
            probe = _punctuation_tail(lit)
            if probe is None:
                if lit in hay:
                    return False
                continue
            found = probed.get(probe)
            if found is None:
                found = probed[probe] = contains(hay, probe)
            if found and (probe == lit or lit in hay):  # (an absent tail: the literal is absent too)
                return False
        return True

    def _measure_sample(self, units: str, substitute: object = None) -> None:
        """Time a full scan of the first ``strategy.SAMPLE_UNITS`` of the text, the way a full scan would
        run (``substitute``: a PCRE2 substitution with it), and record its cost per unit (a
        pattern that overruns its budget there is recorded as too costly to scan)."""
        work = self._work
        if work is None or work.units is not units:
            return
        if substitute is not None:  # (on the units themselves, even for an ``i`` pattern: see pcre_twin)
            sample = units[:strategy.SAMPLE_UNITS]
            started = time.perf_counter()
            if substitute_ascii(substitute, "", sample) is not None:
                strategy.record(self._cost, strategy.SUBSTITUTE, time.perf_counter() - started, len(sample))
            return
        sample = work.target[:strategy.SAMPLE_UNITS]
        budget = self._budget(None)
        scanner = self._whole_scanner(work.target)  # (its one-off set-up is no part of a scan's cost)
        started = time.perf_counter()
        try:
            if scanner is not None:
                for _m in scanner.finditer(sample):
                    pass
            else:
                for _m in self.rx.translation.compiled.finditer(sample, timeout=budget):
                    pass
        except TimeoutError:
            pass
        strategy.record(self._cost, strategy.FULL, time.perf_counter() - started, len(sample))

    def _substituter(self, units: str) -> Any:
        """The PCRE2 twin (``engine.jsregex.pcre_twin``) a global constant replacement of
        ``units`` runs on, in C and faster than ``re``'s: for ASCII text (the rules' stand-in
        text mostly is), where the ``re`` twin may scan untimed. None: ``re``'s ``subn``."""
        t = self.rx.translation
        if not self.rx.is_global or not units.isascii() or (t.ignore_case and t.unicode) \
                or self._untimed_calls()[2] is None:
            return None
        if self._pcre is None:
            self._pcre = pcre_twin(t.emitted, caseless=t.ignore_case) or False
        return self._pcre or None

    def cannot_match(self, text: str) -> bool:
        """Cheap certainty that the pattern has no match in ``text`` (no candidate position)."""
        work = self._prepare(text)
        return work is not None and self._positions(work.units) == []

    def misses(self, text: str) -> bool:
        """Certainty that the pattern has no match in the short ASCII ``text``, from one scan:
        the untimed ``re`` twin where no scan can stall, else the timed translation (False: not
        known, or out of time; take the usual path). A part of a few hundred characters goes
        through a pack's ~40 rules and ~20 region patterns, nearly all of which match nothing
        there: the usual path's set-up per pattern (its subject, candidates, budget) was most
        of a short message's time, ~0.9 ms against OmniRoute's 0.04–0.07."""
        if len(text) >= self.MIN_LENGTH or not text.isascii() or self.rx.sticky:
            return False
        t = self.rx.translation
        if t.unsupported or t.too_large:
            return False
        # (on ASCII text both case foldings, JavaScript's Canonicalize and u's simple case
        # folding as engine.jsregex applies it, are the upper case: see ``_prepare``)
        # (a match only at the text's start, ``^`` without ``m``: one attempt there, not a scan,
        # and none where the text does not start with one of the plan's literals)
        plan = self.plan
        at_start = plan is not None and plan.start == "text"
        if at_start and plan is not None and plan.anchors and not starts_with_anchor(plan, text):
            return True
        target = canonical(text) if t.ignore_case else text
        scanner = self._untimed_calls()[2]  # (a pattern that cannot stall, once it has met enough text)
        if scanner is not None:
            return (scanner.match(target) if at_start else scanner.search(target)) is None
        strategy.meet(self.rx.source, self.rx.flags, len(text))  # (as ``_prepare`` counts what it meets)
        try:
            if at_start:
                return t.compiled.match(target, timeout=self._budget(None)) is None
            return t.compiled.search(target, timeout=self._budget(None)) is None
        except TimeoutError:
            return False

    def misses_at_start(self, texts: list[str]) -> list[bool] | None:
        """``misses`` of each text, for a pattern that matches only at a text's start (``^``
        without ``m``) and has anchor literals: whether a text certainly does not start with
        one (its head test alone; a text ``misses`` would not answer for counts as not
        missed). None for any other pattern. A body's ~1,250 messages each went through
        ``misses`` for each of a pack's six such rules, ~2 µs a time, mostly the calls."""
        plan = self.plan
        if plan is None or plan.start != "text" or not plan.anchors or self.rx.sticky:
            return None
        t = self.rx.translation
        if t.unsupported or t.too_large:
            return None
        least = self.MIN_LENGTH
        asked = [len(text) < least and text.isascii() for text in texts]  # (those ``misses`` answers for)
        starting = iter(ascii_starts_with_anchor(plan, list(compress(texts, asked))))
        return [ask and not next(starting) for ask in asked]

    def _budget(self, timeout: float | None) -> float | None:
        """The call's own budget cut to what the run's total budget has left: an untimed call
        (``strategy.within``) answers for both, so many linear rules cannot outrun the total."""
        own = timeout if timeout is not None else self.timeout if self.timeout is not None \
            else get_default_timeout()
        return clip_to_total(own)

    def _timeout_error(self, timeout: float | None) -> RegexTimeout:
        return RegexTimeout(self.rx.source, self.rx.flags, self._budget(timeout) or 0.0)

    def _spans(self, work: _Work, first_only: bool, timeout: float | None) -> list[tuple[int, int]] | None:
        """JS offsets of the matches JavaScript's loop finds, or None when only a plain
        engine.jsregex call can tell."""
        positions = self._positions(work.units)
        if positions is None and not self.min_width:
            return None
        translation = self.rx.translation  # (its `regex` pattern compiled only where used: an
        # ``re`` scanner or matcher does the work of most rules, and each compile costs ~1 ms)
        target = work.target
        budget = self._budget(timeout)
        try:
            if positions is None:
                scanner = self._whole_scanner(target)  # (its one-off set-up is no part of a scan's cost)
                started = time.perf_counter()
                if first_only:
                    m = scanner.search(target) if scanner else translation.compiled.search(target, timeout=budget)
                    strategy.within(budget, started)
                    return [] if m is None else [m.span()]
                matches = scanner.finditer(target) if scanner else translation.compiled.finditer(target, timeout=budget)
                spans = [m.span() for m in matches]
                strategy.within(budget, started)
                if len(target) >= self.MIN_LENGTH:
                    strategy.record(self._cost, strategy.FULL, time.perf_counter() - started, len(target))
                return spans
            started = time.perf_counter()
            out = anchored_spans(self._matcher or translation.compiled, target, positions, budget, linear=self.linear,
                                 first_only=first_only)
            if not first_only and budget is not None and len(positions) >= strategy.MEASURE_MIN:
                strategy.record(self._cost, strategy.ANCHORED, time.perf_counter() - started, len(positions))
            return out
        except TimeoutError:
            raise self._timeout_error(timeout) from None

    def _match(self, text: str, start: int, timeout: float | None) -> JSMatch:
        """The match at ``start``, a span start the translated pattern matched at."""
        found = self._anchored().search(text, start, timeout)
        assert found is not None, "the sticky regex matches where its translation did"
        return found

    def _assemble(self, work: _Work, spans: list[tuple[int, int]], values: str | list[str],
                  keep_units: bool = False) -> str:
        """The units with each span replaced by its value (``values``: one per span, or one
        string for all), built with slices and joins rather than a loop per span.

        What the next rule needs of the result is known here without another pass over it: its
        UTF-16 units (the joined units, when the text has astral characters), its case-canonical
        form (the canonical gaps joined with the canonical values, under ``i``) and which anchor
        literals it lacks (``LiteralIndex.rewritten``). ``keep_units``: return the UTF-16 units
        themselves (the same JavaScript string; see ``replace``)."""
        units = work.units
        if isinstance(values, str):
            values = as_units(values) if keep_units else values
        elif keep_units and not all(map(str.isascii, values)):  # (ASCII values, extraction's placeholders, are units)
            values = [as_units(v) for v in values]
        starts, ends = zip(*spans)  # (callers return early when there is no span)
        _within_output_cap(self.rx, units, sum(ends) - sum(starts), len(spans), values)
        cuts = (0, *ends), (*starts, len(units))  # the gaps' starts and ends
        gaps = list(map(units.__getitem__, map(slice, *cuts)))
        if isinstance(values, str):
            out = values.join(gaps)
        else:
            pieces = [""] * (2 * len(gaps) - 1)
            pieces[0::2] = gaps
            pieces[1::2] = values
            out = "".join(pieces)
        next_units: str | None
        if out.isascii():  # (an ASCII upper() is as cheap as carrying the canonical form over)
            result = next_units = out
        else:
            if keep_units:
                # (values as units: all BMP, so ``out`` comes back, never None)
                result = out
                next_units = remember_units(out, out, True)
            else:
                result = from_utf16_units(out)  # as engine.jsregex's replace does
                added = values if isinstance(values, str) else "".join(values)
                next_units = remember_units(result, out, utf16_len(added) == len(added))
            if next_units is not None and work.canonical:
                carry_canonical(next_units, list(map(work.target.__getitem__, map(slice, *cuts))), values)
        if next_units is None or self.index is None:
            return result
        sizes = [len(values)] * len(spans) if isinstance(values, str) else list(map(len, values))
        # each replacement lands at its span's start moved by what the earlier ones added
        landed = list(map(add, starts, accumulate(map(sub, sizes, map(sub, ends, starts)), initial=0)))
        self.index.rewritten(units, next_units, list(zip(landed, map(add, landed, sizes))))
        return result

    def _substitute(self, work: _Work, twin: Any, repl: str, timeout: float | None, keep_units: bool) -> str | None:
        """Every match of the (ASCII) units replaced by the constant ``repl``, by the PCRE2 twin
        (caseless for an ``i`` pattern: the units keep their case; see ``pcre_twin``). Returns
        ``work.units`` itself when nothing matched, None when PCRE2 stopped on one of its limits
        (the caller then takes another path to the same result)."""
        started = time.perf_counter()
        done = substitute_ascii(twin, as_units(repl) if keep_units else repl, work.units)
        if done is None:
            return None
        try:
            strategy.within(self._budget(timeout), started)
        except TimeoutError:
            raise self._timeout_error(timeout) from None
        if len(work.units) >= self.MIN_LENGTH:
            strategy.record(self._cost, strategy.SUBSTITUTE, time.perf_counter() - started, len(work.units))
        out, count = done
        if not count:
            return work.units
        return out if out.isascii() or keep_units else from_utf16_units(out)

    def replace(self, text: str, repl: str | Callable[[JSMatch], str], timeout: float | None = None, *,
                keep_units: bool = False) -> str:
        """``text.replace(regex, repl)``. ``keep_units``: the result is given as its UTF-16 units
        (astral characters as surrogate pairs, one Python character per unit) — the same
        JavaScript string, which the next rule matches without converting it again; callers
        that chain rules this way turn the final text back with ``from_utf16_units``."""
        work = self._prepare(text)
        constant = work is not None and isinstance(repl, str) and "$" not in repl and self.min_width
        if constant and work is not None and isinstance(repl, str):
            substitute = self._substituter(work.units)
            if substitute is not None and self._positions(work.units, substitute) is None:
                done = self._substitute(work, substitute, repl, timeout, keep_units)
                if done is not None:
                    return text if done is work.units else done
        if constant and work is not None and isinstance(repl, str) and not self.rx.translation.ignore_case \
                and self._positions(work.units) is None:
            # a constant replacement on a full scan: the translated pattern substitutes in C
            # (no empty matches, so Python's iteration is JavaScript's; the subject is the units)
            started = time.perf_counter()
            template = (as_units(repl) if keep_units else repl).replace("\\", "\\\\")
            count = 0 if self.rx.is_global else 1
            budget = self._budget(timeout)
            try:
                scanner = self._whole_scanner(work.units)
                if scanner is not None:
                    out, count = scanner.subn(template, work.units, count=count)
                    strategy.within(budget, started)
                else:
                    out, count = self.rx.translation.compiled.subn(template, work.units, count=count, timeout=budget)
            except TimeoutError:
                raise self._timeout_error(timeout) from None
            if self.rx.is_global and len(work.units) >= self.MIN_LENGTH:
                strategy.record(self._cost, strategy.FULL, time.perf_counter() - started, len(work.units))
            if not count:
                return text
            return out if out.isascii() or keep_units else from_utf16_units(out)
        spans = None if work is None else self._spans(work, not self.rx.is_global, timeout)
        if work is None or spans is None:
            result = self.rx.replace(text, repl, timeout)
            return as_units(result) if keep_units else result
        if not spans:
            return text
        if isinstance(repl, str) and "$" in repl and len(repl) > 64:
            # a long template (``$&`` × 100,000) expands through the regex layer, which stops at
            # its output cap before building the text (engine.jsregex.budget)
            result = self.rx.replace(text, repl, timeout)
            return as_units(result) if keep_units else result
        if isinstance(repl, str) and "$" in repl:
            from engine.jsregex.template import expand_template

            template = repl
            repl = lambda m: expand_template(template, m, text, self.rx)  # noqa: E731
        if isinstance(repl, str):
            return self._assemble(work, spans, repl, keep_units)
        fn = repl
        return self._assemble(work, spans, [fn(self._match(text, s, timeout)) for s, _e in spans], keep_units)

    def replace_matched(self, text: str, fn: Callable[[str], str], timeout: float | None = None, *,
                        keep_units: bool = False) -> str:
        """``replace`` with a function of the matched text only (no JSMatch is built); ``fn``
        always gets the matched text as a Python string (surrogate pairs joined)."""
        return self._replace_each(text, lambda _at, matched: list(map(fn, matched)), timeout, keep_units)

    def replace_all_matched(self, text: str, fn: Callable[[list[str]], list[str]], timeout: float | None = None, *,
                            keep_units: bool = False) -> str:
        """``replace_matched`` with one call of ``fn`` for every match at once (their matched
        texts, left to right, in; their values, in order, out): extraction wraps thousands of
        regions a MB, and a Python call per region was most of what each cost."""
        return self._replace_each(text, lambda _at, matched: fn(matched), timeout, keep_units)

    def replace_all_spans(self, text: str, fn: Callable[[list[int], list[str]], list[str]],
                          timeout: float | None = None, *, keep_units: bool = False) -> str:
        """``replace_spans`` with one call of ``fn`` for every match at once (their JavaScript
        offsets and matched texts, left to right, in; their values, in order, out)."""
        return self._replace_each(text, fn, timeout, keep_units, offsets=True)

    def replace_spans(self, text: str, fn: Callable[[int, str], str], timeout: float | None = None) -> str:
        """``replace`` with a function of each match's JavaScript offset and matched text (a
        Python string) only, called left to right: no JSMatch is built (an explanation records
        every match of every rule; building them was a third of its cost)."""
        return self._replace_each(text, lambda at, matched: list(map(fn, at, matched)), timeout, False, offsets=True)

    def match_all(self, text: str, timeout: float | None = None, *, keep_units: bool = False
                  ) -> tuple[list[int], list[str]]:
        """The JavaScript offsets and matched texts of the matches ``replace_all_spans`` would
        replace (with the same ``keep_units``), without making the replaced text: CAV-Q17's line
        search of a body's parts made a copy of the joined parts to drop it."""
        work = self._prepare(text)
        spans = None if work is None else self._spans(work, not self.rx.is_global, timeout)
        if work is None or spans is None:
            offsets: list[int] = []
            matched: list[str] = []

            def record(at: list[int], texts: list[str]) -> list[str]:
                offsets.extend(at)
                matched.extend(texts)
                return texts

            self.replace_all_spans(text, record, timeout, keep_units=keep_units)
            return offsets, matched
        units = work.units
        if work.expanded or keep_units:
            return [s for s, _e in spans], [from_utf16_units(units[s:e]) for s, e in spans]
        return [s for s, _e in spans], [units[s:e] for s, e in spans]

    def _replace_each(self, text: str, values_of: Callable[[list[int], list[str]], list[str]],
                      timeout: float | None, keep_units: bool, *, offsets: bool = False) -> str:
        """The four ``replace_*`` with a function of the matched texts: ``values_of(offsets,
        matched)`` gives every match's value at once (the JavaScript offsets when ``offsets``,
        else an empty list; where engine.jsregex finds the matches, one call per match)."""
        work = self._prepare(text)
        spans = None if work is None else self._spans(work, not self.rx.is_global, timeout)
        if work is None or spans is None:
            result = self.rx.replace(text, lambda m: values_of([m.index], [from_utf16_units(m.match)])[0], timeout)
            return as_units(result) if keep_units else result
        if not spans:
            return text
        units = work.units
        if work.expanded or keep_units:
            matched = [from_utf16_units(units[s:e]) for s, e in spans]
        else:
            matched = [units[s:e] for s, e in spans]
        values = values_of([s for s, _e in spans] if offsets else [], matched)
        return self._assemble(work, spans, values, keep_units)

    def search(self, text: str, timeout: float | None = None) -> JSMatch | None:
        """First match anywhere (stateless)."""
        work = self._prepare(text)
        spans = None if work is None else self._spans(work, True, timeout)
        if spans is None:
            return self.rx.search(text, 0, timeout)
        return self._match(text, spans[0][0], timeout) if spans else None


def _punctuation_tail(literal: str) -> str | None:
    """The part of ``literal`` from its first punctuation on, when that is three characters or
    more (``://`` of ``https://``, ``#set`` whole): ``re`` skips from one such character to
    the next, where ``str``'s search of the whole literal stalls on every letter it shares
    with prose (~0.35 against ~1 ms per MB for an absent ``http://``)."""
    for k, c in enumerate(literal):
        if not c.isalnum():
            return literal[k:] if len(literal) - k >= 3 and not c.isspace() else None
    return None


def _within_output_cap(rx: JSRegExp, units: str, removed: int, count: int, values: str | list[str]) -> None:
    """Refuse a result longer than the regex layer's output cap before joining it (``removed``:
    the units the ``count`` matches cover; the values of a replacement map are shared strings:
    summing their lengths costs no memory)."""
    from engine.jsregex.budget import ReplacementTooLarge, output_cap

    added = len(values) * count if isinstance(values, str) else sum(map(len, values))
    cap = output_cap(len(units))
    if len(units) - removed + added > cap:
        raise ReplacementTooLarge(rx.source, rx.flags, cap)
