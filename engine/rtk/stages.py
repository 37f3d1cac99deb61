"""One filter's line pipeline — OmniRoute's ``applyLineFilter`` (``rtk.md`` §4).

Stages run in a fixed order: strip ANSI, strip ``stderr:`` prefixes, replace, matchOutput
(short-circuit), drop, include, collapse, per-line truncation, dedup, line limits, onEmpty. Tags
``<filterId>:<stage>`` say which stages changed something. Invalid patterns are skipped as the
reference does (RTK-Q3/RTK-Q4, reported once per pattern); a regex that runs out of time leaves
the text whole and says so.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from functools import partial
from itertools import compress, filterfalse, repeat
from operator import ge, is_not, lt
from typing import Any

from engine.diagnostics import Diagnostic
from engine.jsregex import RegexTimeout
from engine.jsregex.budget import total_budget
from engine.jsvalues import js_trim
from engine.rtk.ansi import strip_csi_lines
from engine.rtk.dedup import deduplicate_lines, split_lines
from engine.rtk.heads import line_heads
from engine.rtk.linescan import LineScanner
from engine.rtk.model import RtkFilter
from engine.rtk.patterns import CompiledPattern, compile_cached, compile_list, tester
from engine.rtk.trace import MAX_EVENTS, LineEvent, StageTrace, Trace
from engine.rtk.truncate import TruncateResult, smart_truncate

_JS_WS = r"[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
_STDERR_PREFIX = re.compile(rf"^{_JS_WS}*(?:stderr|err){_JS_WS}*[|:]{_JS_WS}*", re.ASCII | re.IGNORECASE)


@dataclass
class FilterResult:
    """``{text, strippedLines, keptByRule, appliedRules}`` plus our diagnostics."""

    text: str
    stripped_lines: int
    kept_by_rule: bool
    applied_rules: list[str]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    timed_out: bool = False
    # Line texts whose verdict under the filter's preserve patterns (flags ``i``) the line limit
    # found out: whether any of them matches the line. A per-line test depends only on the text.
    preserve_verdicts: dict[str, bool] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "strippedLines": self.stripped_lines, "keptByRule": self.kept_by_rule,
                "appliedRules": list(self.applied_rules),
                "diagnostics": [d.to_dict() for d in self.diagnostics]}


class _LineView:
    """Pattern hits on the current lines, found once on the lines that entered the selection
    stages and carried along as lines are dropped or markers inserted: a per-line test does not
    depend on the other lines, so one scan of the text serves drop, include, collapse and the
    priority lines of truncation. Bookkeeping uses C-level list operations only."""

    def __init__(self, lines: list[str], scanner: LineScanner | None = None, blob: str | None = None,
                 heads: frozenset[str] | None = None) -> None:
        self._start(lines, scanner, blob, heads)

    def _start(self, lines: list[str], scanner: LineScanner | None = None, blob: str | None = None,
               heads: frozenset[str] | None = None) -> None:
        self.scanner = (scanner if scanner is not None and scanner.lines is lines
                        else LineScanner(lines, blob, heads))
        self.origin: list[int] | None = None  # scanner line of each current line (-1: new); None: same
        self._base: dict[tuple[tuple[str, str], ...], dict[int, CompiledPattern]] = {}

    def first_hits(self, patterns: list[CompiledPattern], lines: list[str]) -> dict[int, CompiledPattern]:
        if self.origin is not None and len(lines) * 4 < len(self.scanner.lines):
            # Most lines are gone: scanning what is left is cheaper than mapping the old hits.
            self._start(lines)
        key = tuple((p.source, p.regex.flags) for p in patterns)
        base = self._base.get(key)
        if base is None:
            base = {}
            for pattern in patterns:
                # A line an earlier pattern took keeps it (and need not be tested again). Many
                # new hits are merged in C, ``base`` winning; a few are added one by one.
                hits = self.scanner.hits(pattern, known=base)
                if len(hits) * 4 < len(base):
                    for index in hits:
                        base.setdefault(index, pattern)
                elif hits:
                    base = {**dict.fromkeys(hits, pattern), **base}
            self._base[key] = base
        origin = self.origin
        if origin is None:
            return base
        # Positions of the scanner's lines that are still here (increasing, so bisect finds them)
        # and of inserted marker lines, which are tested on their own (once per distinct text).
        kept = list(compress(range(len(origin)), map(ge, origin, repeat(0))))
        kept_origin = list(map(origin.__getitem__, kept))
        found: dict[int, CompiledPattern] = {}
        for o, hit in base.items():
            j = bisect_left(kept_origin, o)
            if j < len(kept_origin) and kept_origin[j] == o:
                found[kept[j]] = hit
        if len(kept) < len(origin):
            marker_hits: dict[str, CompiledPattern | None] = {}
            for j in compress(range(len(origin)), map(lt, origin, repeat(0))):
                text = lines[j]
                if text not in marker_hits:
                    marker_hits[text] = next((p for p in patterns if p.test(text)), None)
                marker = marker_hits[text]
                if marker is not None:
                    found[j] = marker
        return found

    def keep(self, positions: list[int]) -> None:
        origin = self.origin
        self.origin = positions if origin is None else list(map(origin.__getitem__, positions))

    def collapse(self, runs: list[tuple[int, int]], count: int) -> None:
        """Dedup output of ``count`` lines: each ``(start, length)`` run kept its first line, then
        two markers (-1) took the place of the rest. The origins are carried over in slices."""
        origin: list[int] | range = self.origin if self.origin is not None else range(count)
        out: list[int] = []
        position = 0
        for start, length in runs:
            out.extend(origin[position:start + 1])
            out.extend((-1, -1))
            position = start + length
        out.extend(origin[position:])
        self.origin = out


@dataclass
class _Run:
    """State shared by the stages of one run."""

    filter: RtkFilter
    profile: str
    trace: Trace | None
    tags: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    view: _LineView | None = None
    has_cr: bool = True  # the input holds a CR (only then can a line end in one)
    joined: tuple[list[str], str] | None = None  # some lines and their "\n"-joined text, when known
    # some lines and their heads (first one and two characters), when detection read them
    headed: tuple[list[str], frozenset[str]] | None = None
    preserve_verdicts: dict[str, bool] | None = None  # see FilterResult

    def blob_of(self, lines: list[str]) -> str | None:
        """``"\\n".join(lines)`` when a stage already has it (else None)."""
        return self.joined[1] if self.joined is not None and self.joined[0] is lines else None

    def heads_of(self, lines: list[str]) -> frozenset[str] | None:
        """The heads of ``lines`` when detection read them for this very list (else None)."""
        return self.headed[1] if self.headed is not None and self.headed[0] is lines else None

    def carry_heads(self, before: list[str], after: list[str]) -> None:
        """After a rewrite of some of ``before``'s lines: the heads known for them plus those of
        the rewritten lines serve ``after``. That may hold heads no line has any more, which a
        scanner only uses to rule a ``^literal`` pattern out: such a head costs that pattern its
        scan, never a hit."""
        known = self.heads_of(before)
        if known is None or after is before:
            return
        self.headed = (after, known | line_heads(compress(after, map(is_not, before, after))))

    def hits(self, patterns: list[CompiledPattern], lines: list[str]) -> dict[int, CompiledPattern]:
        """Line index -> the first pattern (in list order) that matches that line."""
        if not patterns or not lines:
            return {}
        if self.view is None:
            self.view = _LineView(lines, blob=self.blob_of(lines), heads=self.heads_of(lines))
        return self.view.first_hits(patterns, lines)

    def kept(self, positions: list[int]) -> None:
        if self.view is not None:
            self.view.keep(positions)

    @property
    def line_flags(self) -> str:
        """Flags of drop/include/collapse/preserve patterns: ``i`` (RTK-Q16: ``strict`` matches TOML
        filters case-sensitively, as rtk does)."""
        return "" if self.profile == "strict" and self.filter.is_toml else "i"

    def tag(self, stage: str) -> None:
        self.tags.append(f"{self.filter.id}:{stage}")

    def stage(self, name: str, lines_in: int) -> StageTrace | None:
        return self.trace.stage(name, lines_in) if self.trace is not None else None

    def compile(self, field_name: str, sources: tuple[str, ...], flags: str, what: str) -> list[CompiledPattern]:
        valid, invalid = compile_list(sources, flags)
        for index, source, error in invalid:
            self.invalid_pattern(what, source, error, self.filter.pointer_of(field_name, index))
        return valid

    def invalid_pattern(self, what: str, source: str, error: str, pointer: str | None, quirk: str = "RTK-Q3",
                        effect: str = "skipped") -> None:
        self.diagnostics.append(Diagnostic(
            f"{what} {source!r} is not a valid JavaScript regex ({error}); {effect}", "warning", quirk,
            path=self.filter.path, pointer=pointer, source="rtk",
            data={"filterId": self.filter.id}))


def apply_line_filter(
    text: str,
    flt: RtkFilter,
    *,
    max_lines: int | None = None,
    profile: str = "omniroute",
    trace: Trace | None = None,
    lines: list[str] | None = None,
    line_heads: frozenset[str] | None = None,
) -> FilterResult:
    """Run ``flt``'s pipeline on ``text``. ``max_lines`` overrides the filter's own (the engine
    passes its effective value; it also passes ``text`` already split, to save a pass, and the
    heads detection read from those ``lines``); a regex timeout returns the text unchanged with a
    diagnostic."""
    run = _Run(flt, profile, trace)
    if lines is not None and line_heads is not None:
        run.headed = (lines, line_heads)
    try:
        # one total regex deadline for the whole filter run (engine.jsregex.budget): per-line
        # budgets alone add up (0.17 s a line × 400 lines)
        with total_budget(what=f"filter {flt.id!r}"):
            return _pipeline(text, run, flt.max_lines if max_lines is None else max_lines, lines)
    except RegexTimeout as exc:
        shown = exc.source if len(exc.source) <= 200 else exc.source[:200] + "…"
        plain = getattr(exc, "total", None) is None and type(exc) is RegexTimeout
        why = f"ran out of time ({exc.timeout}s)" if plain else f"was stopped: {getattr(exc, 'total', None) or exc}"
        run.diagnostics.append(Diagnostic(
            f"pattern {shown!r} of filter {flt.id!r} {why}; output kept whole",
            "error", "RTK-TIMEOUT", path=flt.path, source="rtk", data={"filterId": flt.id}))
        return FilterResult(text, 0, bool(flt.keep_patterns), [], run.diagnostics, timed_out=True)


def _pipeline(text: str, run: _Run, max_lines: int, lines: list[str] | None) -> FilterResult:
    flt = run.filter
    if lines is None:
        lines = split_lines(text)
    run.has_cr = "\r" in text
    if flt.is_toml and lines and lines[-1] == "":
        lines = lines[:-1]
    elif not run.has_cr:
        run.joined = (lines, text)  # the lines are the text split at LF: joining them gives it back
    original = len(lines)

    if flt.strip_ansi:
        if "\x1b" in text:  # (the lines are the text split at line breaks: same characters)
            stripped = _map_lines(run, "strip-ansi", lines, whole=strip_csi_lines)
            run.carry_heads(lines, stripped)
            lines = stripped
        else:
            _map_lines(run, "strip-ansi", lines, only=())
    if flt.filter_stderr:
        lines = _map_lines(run, "filter-stderr", lines, lambda line: _STDERR_PREFIX.sub("", line, count=1))
    scanner: LineScanner | None = None  # the replace stage's, reused by the line view when unchanged
    for index, rule in enumerate(flt.replace):
        regex, error = compile_cached(rule.pattern, "g")
        if regex is None:
            run.invalid_pattern("replace.pattern", rule.pattern, error or "", rule.pointer and rule.pointer + "/pattern")
            continue
        if scanner is None or scanner.lines is not lines:
            scanner = LineScanner(lines, run.blob_of(lines), run.heads_of(lines))
        candidates = scanner.hits(CompiledPattern(index, rule.pattern, regex, tester(regex)), exact=False)
        lines = _map_lines(run, "replace", lines, partial(regex.replace, repl=rule.replacement),
                           pattern=rule.pattern, pointer=rule.pointer, note=f"rule {index}", only=candidates)

    if flt.match_output:
        short = _match_output(run, lines, original)
        if short is not None:
            return short

    if scanner is not None and scanner.lines is lines:
        run.view = _LineView(lines, scanner)
    if flt.strip_patterns:
        lines = _drop(run, lines, original)
    if flt.keep_patterns:
        lines = _include(run, lines)
    if flt.collapse_patterns:
        lines = _collapse(run, lines)
    if flt.truncate_line_at > 0:
        n = flt.truncate_line_at

        def cut(line: str) -> str:
            return line[: n - 3] + "..." if n > 3 else line[:n]

        before = lines
        lines = _map_lines(run, "truncate-line", lines, lambda line: cut(line) if len(line) > n else line)
        if lines != before:
            run.view = None  # changed lines: later stages scan the new text
    if flt.deduplicate:
        lines = _dedup(run, lines)
    if flt.is_toml:
        lines = _toml_limits(run, lines)
    else:
        lines = _smart_limit(run, lines, max_lines)

    output = "\n".join(lines)
    if flt.on_empty and not js_trim(output):
        stage = run.stage("on-empty", len(lines))
        if stage:
            stage.lines_out = 1
            stage.markers.append(flt.on_empty)
            stage.note = "the output was empty, so the filter's onEmpty message replaced it"
        output = flt.on_empty
    return FilterResult(output, max(0, original - len(split_lines(output))), bool(flt.keep_patterns),
                        run.tags, run.diagnostics, preserve_verdicts=run.preserve_verdicts)


def _no_rewrite(line: str) -> str:
    """Stands in for a missing ``fn``: called only if a line was to be rewritten without one."""
    raise TypeError("_map_lines needs fn (or whole) to rewrite a line")


def _map_lines(run: _Run, name: str, lines: list[str], fn: Callable[[str], str] | None = None, *,
               pattern: str | None = None, pointer: str | None = None, note: str = "",
               only: Iterable[int] | None = None, whole: Callable[[list[str]], list[str]] | None = None
               ) -> list[str]:
    """Apply a per-line rewrite: ``fn`` on every line, or only on the lines ``only`` lists, or
    ``whole`` on the list of lines at once (it returns ``lines`` itself when no line changed)."""
    stage = run.stage(name, len(lines))
    if whole is not None:
        out = whole(lines)
        changed = out is not lines
    elif only is not None:
        # Only the listed lines can change: compare those, and hand back ``lines`` itself when
        # none did (a later stage may then reuse what was prepared for them).
        rewrite = fn if fn is not None else _no_rewrite
        rewritten = {i: rewrite(lines[i]) for i in only}
        changed_at = [i for i, text in rewritten.items() if text != lines[i]]
        changed = bool(changed_at)
        out = lines
        if changed:
            out = list(lines)
            for i in changed_at:
                out[i] = rewritten[i]
    else:
        rewrite = fn if fn is not None else _no_rewrite
        out = [rewrite(line) for line in lines]
        changed = out != lines
        if not changed:
            out = lines  # (what was prepared for these lines stays valid)
    if changed:
        run.tag(name)
    if stage:
        stage.lines_out = len(out)
        stage.note = note
        stage.tag = f"{run.filter.id}:{name}" if changed else None
        for i, (before, after) in enumerate(zip(lines, out)):
            if before != after:
                stage.add(LineEvent(i, "changed", before, pattern, pointer, after))
    return out


def _match_output(run: _Run, lines: list[str], original: int) -> FilterResult | None:
    flt = run.filter
    blob = "\n".join(lines)
    stage = run.stage("match-output", len(lines))
    for rule in flt.match_output:
        regex, error = compile_cached(rule.pattern, "im")
        if regex is None:
            run.invalid_pattern("matchOutput.pattern", rule.pattern, error or "",
                                rule.pointer and rule.pointer + "/pattern")
            continue
        if regex.search(blob) is None:
            continue
        if rule.unless is not None:
            unless, unless_error = compile_cached(rule.unless, "im")
            if unless is None:
                if run.profile == "strict":
                    run.invalid_pattern("unless", rule.unless, unless_error or "",
                                        rule.pointer and rule.pointer + "/unless", "RTK-Q4", "rule skipped")
                    continue
                run.invalid_pattern("unless", rule.unless, unless_error or "",
                                    rule.pointer and rule.pointer + "/unless", "RTK-Q4",
                                    "treated as absent, so the rule fired")
            elif unless.search(blob) is not None:
                continue
        run.tag("match-output")
        if stage:
            stage.lines_out = 1
            stage.tag = f"{flt.id}:match-output"
            stage.markers.append(rule.message)
            stage.note = f"pattern {rule.pattern!r} matched: the whole output became the rule's message"
        return FilterResult(rule.message, max(0, original - 1), False, run.tags, run.diagnostics)
    if stage:
        stage.lines_out = len(lines)
    return None


def _drop(run: _Run, lines: list[str], original: int) -> list[str]:
    flt = run.filter
    patterns = run.compile("strip_patterns", flt.strip_patterns, run.line_flags, "dropPatterns")
    stage = run.stage("strip", len(lines))
    hits = run.hits(patterns, lines)
    out = lines
    if hits:
        positions = list(filterfalse(hits.__contains__, range(len(lines))))
        out = list(map(lines.__getitem__, positions))
        run.kept(positions)
    if len(out) != original:
        run.tag("strip")
    if stage:
        stage.lines_out = len(out)
        stage.tag = f"{flt.id}:strip" if len(out) != original else None
        for i in sorted(hits):
            hit = hits[i]
            stage.add(LineEvent(i, "dropped", lines[i], hit.source, flt.pointer_of("strip_patterns", hit.index)))
    return out


def _include(run: _Run, lines: list[str]) -> list[str]:
    flt = run.filter
    patterns = run.compile("keep_patterns", flt.keep_patterns, run.line_flags, "includePatterns")
    stage = run.stage("keep", len(lines))
    hits = run.hits(patterns, lines)
    out = lines
    if hits:
        positions = sorted(hits)
        out = list(map(lines.__getitem__, positions))
        run.kept(positions)
        run.tag("keep")
    if stage:
        stage.lines_out = len(out)
        stage.tag = f"{flt.id}:keep" if hits else None
        if not hits:
            stage.note = "no line matched an include pattern, so every line was kept"
        else:
            for i, line in enumerate(lines):
                hit = hits.get(i)
                if hit is not None:
                    stage.add(LineEvent(i, "kept", line, hit.source, flt.pointer_of("keep_patterns", hit.index)))
                else:
                    stage.add(LineEvent(i, "dropped", line))
    return out


def _collapse(run: _Run, lines: list[str]) -> list[str]:
    flt = run.filter
    patterns = run.compile("collapse_patterns", flt.collapse_patterns, run.line_flags, "collapsePatterns")
    if not patterns:
        return lines
    stage = run.stage("collapse", len(lines))
    hits = run.hits(patterns, lines)
    seen: set[str] = set()
    gone: list[int] = []
    for i in sorted(hits):
        key = js_trim(lines[i])
        if key in seen:
            gone.append(i)
            if stage:
                hit = hits[i]
                stage.add(LineEvent(i, "collapsed", lines[i], hit.source, flt.pointer_of("collapse_patterns", hit.index)))
        else:
            seen.add(key)
    out = lines
    if gone:
        positions = list(filterfalse(set(gone).__contains__, range(len(lines))))
        out = list(map(lines.__getitem__, positions))
        run.kept(positions)
    run.tag("collapse")
    if stage:
        stage.lines_out = len(out)
        stage.tag = f"{flt.id}:collapse"
    return out


def _dedup(run: _Run, lines: list[str]) -> list[str]:
    stage = run.stage("deduplicate", len(lines))
    result = deduplicate_lines(lines, 3, profile=run.profile)
    if result.quirk_grew and run.profile != "strict":
        run.diagnostics.append(Diagnostic(
            "dedup markers made a short run of repeated lines longer", "info", "RTK-Q12", source="rtk",
            data={"filterId": run.filter.id}))
    if result.collapsed <= 0:
        if stage:
            stage.lines_out = len(lines)
        return lines
    run.tag("deduplicate")
    # The reference re-splits the joined text on /\r?\n/: identical to the lines unless one ends in CR.
    if run.has_cr and any(line.endswith("\r") for line in result.lines):
        out = split_lines(result.text)
        run.view = None
    else:
        out = result.lines
        if run.view is not None:
            run.view.collapse(result.runs, len(lines))
    if stage:
        stage.lines_out = len(out)
        stage.tag = f"{run.filter.id}:deduplicate"
        for start, length in result.runs:
            stage.markers.extend([f"[line repeated {length - 1}x]", f"[rtk:dropped {length - 1} repeated lines]"])
            for i in range(start + 1, start + length):
                stage.add(LineEvent(i, "collapsed", lines[i]))
    return out


def _smart_limit(run: _Run, lines: list[str], max_lines: int) -> list[str]:
    flt = run.filter
    if max_lines <= 0:
        return lines
    stage = run.stage("truncate", len(lines))

    found: list[Collection[int]] = []

    def priority_lines() -> Collection[int]:
        # Compiled only when the limit cuts: an output within it never needs them (nor does the
        # reference, so an invalid one changes nothing and is reported only then: RTK-Q3).
        patterns = run.compile("priority_patterns", flt.priority_patterns, run.line_flags, "preserve pattern")
        found.append(run.hits(patterns, lines).keys())
        return found[0]

    # (no character limit here: the text is only needed joined when the limit does not cut)
    result = smart_truncate(None, max_lines=max_lines, preserve_head=flt.preserve_head,
                            preserve_tail=flt.preserve_tail, profile=run.profile, lines=lines,
                            priority_lines=priority_lines)
    if not result.truncated:
        if stage:
            stage.lines_out = len(lines)
        return lines
    run.tag("truncate")
    run.diagnostics.extend(result.diagnostics)
    if found and run.line_flags == "i":
        # What the preserve patterns said about each kept line: the engine's final cap asks the
        # same patterns (flags ``i``) about these lines again, and a verdict depends on the text only.
        matched = found[0]
        run.preserve_verdicts = {lines[i]: i in matched for i in (*result.head, *result.priority, *result.tail)}
    out = split_lines(result.text)
    if stage:
        describe_truncation(stage, lines, result, f"{flt.id}:truncate", len(out))
    return out


def describe_truncation(stage: StageTrace, lines: list[str], result: TruncateResult, tag: str, lines_out: int) -> None:
    stage.tag = tag
    stage.lines_out = lines_out
    stage.markers.append(f"[rtk:truncated {result.dropped_lines} lines]")
    kept_prio = set(result.priority)
    kept = set(result.head) | kept_prio | set(result.tail)
    events = stage.events
    for i, line in enumerate(lines):
        if i in kept_prio:
            action = "priority"
        elif i not in kept:
            action = "dropped"
        else:
            continue
        if len(events) >= MAX_EVENTS:
            stage.events_truncated = True  # the rest would only be counted as left out
            break
        events.append(LineEvent(i, action, line))


def _toml_limits(run: _Run, lines: list[str]) -> list[str]:
    """rtk's own head/tail/max_lines semantics for TOML filters (``filter.maxLines`` ignored)."""
    flt = run.filter
    head, tail, cap = flt.rtk_toml_head_lines, flt.rtk_toml_tail_lines, flt.rtk_toml_max_lines
    total = len(lines)
    stage = run.stage("rtk-limits", total)
    if head is not None and tail is not None:
        if total > head + tail:
            omitted = total - head - tail
            lines = lines[:head] + [f"... ({omitted} lines omitted)"] + (lines[total - tail:] if tail > 0 else [])
            run.tag("rtk-head-tail")
    elif head is not None:
        if total > head:
            lines = [*lines[:head], f"... ({total - head} lines omitted)"]
            run.tag("rtk-head")
    elif tail is not None:
        if total > tail:
            lines = [f"... ({total - tail} lines omitted)"] + (lines[total - tail:] if tail > 0 else [])
            run.tag("rtk-tail")
    if cap is not None and len(lines) > cap:
        lines = [*lines[:cap], f"... ({len(lines) - cap} lines truncated)"]
        run.tag("rtk-max-lines")
    if stage:
        stage.lines_out = len(lines)
        stage.markers.extend(line for line in lines if line.startswith("... (") and line.endswith(")"))
    return lines

