"""The RTK engine around one filter — OmniRoute's ``processRtkText`` (``rtk.md`` §7).

detect → (unless a document read) select and run the filter with the effective line limit →
engine dedup → (unless a document read) final cap with priority lines → token counts. Each quirk
that changed a result leaves a diagnostic (RTK-Q5, Q6, Q7, Q8, Q9, Q10, Q12); ``strict`` fixes
them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from typing import Any

from engine.diagnostics import Diagnostic
from engine.jsregex import RegexTimeout
from engine.jsvalues import math_round
from engine.rtk.codestrip import strip_code_blocks
from engine.rtk.dedup import deduplicate_lines, split_lines
from engine.rtk.detect import Detection, detect_command_type
from engine.rtk.grouping import group_similar_lines, grouping_threshold
from engine.rtk.linescan import LineScanner
from engine.rtk.memo import active_memo
from engine.rtk.model import RtkFilter
from engine.rtk.patterns import compile_list
from engine.rtk.priority import DEFAULT_PRIORITY as DEFAULT_PRIORITY  # (re-exported: the previews use it)
from engine.rtk.priority import default_priority_lines
from engine.rtk.renderers import UNSET, js_truthy, render
from engine.rtk.select import Selection, select_filter
from engine.rtk.stages import apply_line_filter, describe_truncation
from engine.rtk.tokens import estimate_tokens
from engine.rtk.trace import LineEvent, SelectionTrace, Trace
from engine.rtk.truncate import smart_truncate

INTENSITIES = ("minimal", "standard", "aggressive")
INTENSITY_FACTORS = {"aggressive": 0.5, "minimal": 1.5, "standard": 1}
ERROR_MARKERS = ("Error:", "Exception:", "Traceback (most recent call last):")


@dataclass
class RtkConfig:
    """``RtkConfig`` after OmniRoute's normalisation (``rtk.md`` §7.1): an unknown intensity becomes
    ``minimal``; the numeric limits are rounded down and raised to a minimum, with the default for a
    missing or non-numeric value; filter lists keep only their strings; the custom/trust switches
    are taken only when they are booleans; ``enabled``, the ``applyTo…`` switches and the opt-in
    stage options are kept as given (read later with JavaScript truthiness)."""

    enabled: bool = False
    intensity: str = "minimal"
    apply_to_tool_results: bool = True
    apply_to_code_blocks: bool = False
    apply_to_assistant_messages: bool = False
    enabled_filters: list[str] = field(default_factory=list)
    disabled_filters: list[str] = field(default_factory=list)
    max_lines_per_result: int = 120
    max_chars_per_result: int = 12000
    deduplicate_threshold: int = 3
    custom_filters_enabled: bool = True
    trust_project_filters: bool = False
    raw_output_retention: str = "never"
    raw_output_max_bytes: int = 1048576
    # Opt-in stages (§7.3–7.5): raw JSON values, read with JavaScript semantics where they are used.
    enable_renderers: Any = False
    renderers: Any = UNSET
    strip_code_comments: Any = False
    preserve_docstrings: Any = True
    enable_grouping: Any = False
    grouping_threshold: Any = UNSET

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any] | None) -> RtkConfig:
        raw = raw if isinstance(raw, Mapping) else {}
        cfg = cls()
        if "enabled" in raw:
            cfg.enabled = raw["enabled"]  # not normalised by the reference
        intensity = raw.get("intensity")
        cfg.intensity = intensity if isinstance(intensity, str) and intensity in INTENSITIES else "minimal"
        for key, attr in (("applyToToolResults", "apply_to_tool_results"),
                          ("applyToCodeBlocks", "apply_to_code_blocks"),
                          ("applyToAssistantMessages", "apply_to_assistant_messages")):
            if key in raw:
                setattr(cfg, attr, raw[key])
        cfg.enabled_filters = _strings(raw.get("enabledFilters"))
        cfg.disabled_filters = _strings(raw.get("disabledFilters"))
        cfg.max_lines_per_result = _floored(raw.get("maxLinesPerResult"), 0, 120)
        cfg.max_chars_per_result = _floored(raw.get("maxCharsPerResult"), 0, 12000)
        cfg.deduplicate_threshold = _floored(raw.get("deduplicateThreshold"), 2, 3)
        for key, attr in (("customFiltersEnabled", "custom_filters_enabled"),
                          ("trustProjectFilters", "trust_project_filters")):
            if isinstance(raw.get(key), bool):
                setattr(cfg, attr, raw[key])
        if raw.get("rawOutputRetention") in ("never", "failures", "always"):
            cfg.raw_output_retention = raw["rawOutputRetention"]
        cfg.raw_output_max_bytes = _floored(raw.get("rawOutputMaxBytes"), 1024, 1048576)
        for key, attr in _RAW_KEYS:
            if key in raw:
                setattr(cfg, attr, raw[key])
        return cfg

    def to_dict(self) -> dict[str, Any]:
        return {
            "enabled": self.enabled, "intensity": self.intensity,
            "applyToToolResults": self.apply_to_tool_results, "applyToCodeBlocks": self.apply_to_code_blocks,
            "applyToAssistantMessages": self.apply_to_assistant_messages,
            "enabledFilters": list(self.enabled_filters), "disabledFilters": list(self.disabled_filters),
            "maxLinesPerResult": self.max_lines_per_result, "maxCharsPerResult": self.max_chars_per_result,
            "deduplicateThreshold": self.deduplicate_threshold,
            "customFiltersEnabled": self.custom_filters_enabled,
            "trustProjectFilters": self.trust_project_filters,
            "rawOutputRetention": self.raw_output_retention, "rawOutputMaxBytes": self.raw_output_max_bytes,
            **{key: getattr(self, attr) for key, attr in _RAW_KEYS if getattr(self, attr) is not UNSET},
        }


# Config keys kept as given (the reference does not normalise them; RTK-Q19, RTK-Q26).
_RAW_KEYS = (("enableRenderers", "enable_renderers"), ("renderers", "renderers"),
             ("stripCodeComments", "strip_code_comments"), ("preserveDocstrings", "preserve_docstrings"),
             ("enableGrouping", "enable_grouping"), ("groupingThreshold", "grouping_threshold"))


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _floored(value: Any, minimum: int, default: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return default
    return max(minimum, math.floor(value))


def effective_max_lines(base: int, intensity: str, *, profile: str = "omniroute") -> int:
    """``max(1, round(base × factor))``; RTK-Q8: ``strict`` keeps 0 as "no limit"."""
    if profile == "strict" and base <= 0:
        return 0
    return max(1, int(math_round(base * INTENSITY_FACTORS.get(intensity, 1.5))))


@dataclass
class RtkResult:
    text: str
    compressed: bool
    original_tokens: int
    compressed_tokens: int
    techniques_used: list[str]
    rules_applied: list[str]
    detection: Detection
    filter: RtkFilter | None = None
    selection: Selection | None = None
    document_read: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    trace: Trace | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
            "text": self.text, "compressed": self.compressed, "originalTokens": self.original_tokens,
            "compressedTokens": self.compressed_tokens, "techniquesUsed": list(self.techniques_used),
            "rulesApplied": list(self.rules_applied), "detectedType": self.detection.type,
            "confidence": self.detection.confidence, "detectedCommand": self.detection.command,
            "filterId": self.filter.id if self.filter else None,
            "filterSource": self.filter.source if self.filter else None,
            "documentRead": self.document_read,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
        }
        if self.trace is not None:
            out["trace"] = self.trace.to_dict()
        return out


def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def process_rtk_text(
    text: str,
    command: str | None = None,
    config: RtkConfig | Mapping[str, Any] | None = None,
    filters: Sequence[RtkFilter] = (),
    *,
    skip_filters: bool = False,
    profile: str = "omniroute",
    trace: Trace | None = None,
) -> RtkResult:
    """Filter one tool output as OmniRoute does (see the module docstring)."""
    cfg = config if isinstance(config, RtkConfig) else RtkConfig.from_dict(config)
    diagnostics: list[Diagnostic] = []
    techniques: list[str] = []
    rules: list[str] = []
    original_tokens = estimate_tokens(text)
    lines = split_lines(text)
    memo = active_memo()
    if memo is None:
        detection = detect_command_type(text, command, profile=profile, lines=lines)
    else:
        detection = memo.detection(text, command, profile,
                                   lambda: detect_command_type(text, command, profile=profile, lines=lines))
    if trace is not None:
        trace.detection = detection.to_dict()

    if detection.command_source == "output":
        diagnostics.append(Diagnostic(
            f"the command {detection.command!r} was taken from an output line without a `$ ` prompt "
            "(a line that merely starts with a tool name counts)", "info", "RTK-Q14", source="rtk"))
    document_read = (detection.type == "unknown" and not detection.command
                     and not any(marker in text for marker in ERROR_MARKERS))
    if skip_filters and not document_read:
        if profile == "strict":
            document_read = True  # RTK-Q10 fix: a non-shell tool's output is a document
        else:
            diagnostics.append(Diagnostic(
                f"output of a non-shell tool was typed {detection.type!r} rather than treated as a document "
                "read, so the final cap still applies", "info", "RTK-Q10", source="rtk"))
    elif not skip_filters and not document_read and detection.type in ("shell-find", "json-output") \
            and not detection.command:
        diagnostics.append(Diagnostic(
            f"no command was given and the output was typed {detection.type!r} from incidental content, so it "
            "was filtered and capped instead of being treated as a document read", "info", "RTK-Q10",
            source="rtk"))

    result = text
    chosen: RtkFilter | None = None
    selection: Selection | None = None
    extra_priority: tuple[str, ...] = ()
    known_priority: dict[str, bool] | None = None
    if not skip_filters and not document_read:
        candidates = [f for f in filters if cfg.custom_filters_enabled or f.source == "builtin"]
        selection = select_filter(text, detection.command, candidates, detection=detection,
                                  enabled=cfg.enabled_filters, disabled=cfg.disabled_filters, profile=profile)
        diagnostics.extend(selection.diagnostics)
        if trace is not None:
            trace.selection = _selection_trace(selection)
        chosen = selection.filter
        if chosen is not None:
            base = chosen.max_lines or cfg.max_lines_per_result
            if profile == "strict" and chosen.max_lines == 0:
                base = 0  # RTK-Q8 fix: a filter maxLines of 0 means no filter-level limit
            limit = effective_max_lines(base, cfg.intensity, profile=profile)
            filtered = apply_line_filter(text, chosen, max_lines=limit, profile=profile, trace=trace, lines=lines,
                                         line_heads=detection.line_heads)
            diagnostics.extend(filtered.diagnostics)
            if chosen.max_lines == 0 and profile != "strict" and f"{chosen.id}:truncate" in filtered.applied_rules:
                diagnostics.append(Diagnostic(f"filter maxLines 0 meant the engine default ({limit} lines), so the "
                                              "filter cut the output", "info", "RTK-Q8", source="rtk"))
            result = filtered.text
            if filtered.applied_rules:
                techniques.append("rtk-filter")
                rules.extend(filtered.applied_rules)
            extra_priority = chosen.priority_patterns
            known_priority = filtered.preserve_verdicts
    elif trace is not None:
        trace.selection = SelectionTrace(None, detected_command=detection.command or "",
                                         detected_type=detection.type,
                                         note="document read: no filter and no final cap" if document_read
                                         else "filters skipped for this tool")

    result = _render_step(result, detection.type, cfg, profile, techniques, rules, diagnostics, trace)
    result = _code_strip_step(result, cfg, profile, techniques, rules, diagnostics, trace)

    # Engine dedup (runs even for document reads: RTK-Q9).
    if document_read and profile == "strict":
        pass  # RTK-Q9 fix
    else:
        lines = split_lines(result) if result is not text else lines
        dedup = deduplicate_lines(lines, cfg.deduplicate_threshold, profile=profile)
        if dedup.collapsed > 0:
            if document_read:
                diagnostics.append(Diagnostic(
                    "a document read got dedup markers (the bypass does not cover engine dedup)", "info",
                    "RTK-Q9", source="rtk"))
            if dedup.quirk_grew:
                diagnostics.append(Diagnostic("dedup markers made a short run of repeated lines longer",
                                              "info", "RTK-Q12", source="rtk"))
            if trace is not None:
                step = trace.step("rtk:dedup", len(lines))
                step.tag = "rtk:dedup"
                for start, length in dedup.runs:
                    step.markers.extend([f"[line repeated {length - 1}x]",
                                         f"[rtk:dropped {length - 1} repeated lines]"])
                    for i in range(start + 1, start + length):
                        step.add(LineEvent(i, "collapsed", lines[i]))
            result = dedup.text
            if trace is not None:
                trace.steps[-1].lines_out = len(dedup.lines)
            techniques.append("rtk-dedup")
            rules.append("rtk:dedup")

    result = _grouping_step(result, cfg, profile, document_read, techniques, rules, diagnostics, trace)

    if not document_read:
        result = _final_cap(result, cfg, extra_priority, profile, techniques, rules, diagnostics, trace,
                            known_priority)

    compressed_tokens = estimate_tokens(result)
    return RtkResult(result, compressed_tokens < original_tokens, original_tokens, compressed_tokens,
                     _unique(techniques), _unique(rules), detection, chosen, selection, document_read,
                     diagnostics, trace)


def _render_step(result: str, detected: str, cfg: RtkConfig, profile: str, techniques: list[str], rules: list[str],
                 diagnostics: list[Diagnostic], trace: Trace | None) -> str:
    """Step 5 (§7.3): the renderer of the original detection type, when ``enableRenderers``."""
    if not js_truthy(cfg.enable_renderers):
        return result
    rendering = render(result, detected, cfg.enable_renderers, cfg.renderers, profile=profile)
    diagnostics.extend(rendering.diagnostics)
    if trace is not None and rendering.considered:
        step = trace.step(f"rtk:render:{rendering.considered}", len(split_lines(result)))
        step.lines_out = len(split_lines(rendering.text))
        step.note = f"rendered as {rendering.renderer}" if rendering.renderer else rendering.skipped
        if rendering.renderer:
            step.tag = f"rtk:render:{rendering.renderer}"
    if rendering.renderer is None:
        return result
    techniques.append(f"rtk-render:{rendering.renderer}")
    rules.append(f"rtk:render:{rendering.renderer}")
    return rendering.text


def _code_strip_step(result: str, cfg: RtkConfig, profile: str, techniques: list[str], rules: list[str],
                     diagnostics: list[Diagnostic], trace: Trace | None) -> str:
    """Step 6 (§7.4): fenced code blocks lose blank lines, trailing blanks and (js/ts) comments."""
    if not js_truthy(cfg.apply_to_code_blocks):
        return result
    stripped = strip_code_blocks(result, strip_comments=cfg.strip_code_comments,
                                 preserve_docstrings=cfg.preserve_docstrings, profile=profile)
    diagnostics.extend(stripped.diagnostics)
    if trace is not None:
        step = trace.step("rtk:code-strip", len(split_lines(result)))
        step.lines_out = len(split_lines(stripped.text))
        removed = sum(b.comments_removed for b in stripped.blocks)
        step.note = (f"{len(stripped.blocks)} code block(s) rewritten, {removed} comment(s) removed"
                     if stripped.changed else "no code block changed")
        if stripped.changed:
            step.tag = "rtk:code-strip"
    if not stripped.changed:
        return result
    techniques.append("rtk-code-strip")
    rules.append("rtk:code-strip")
    return stripped.text


def _grouping_step(result: str, cfg: RtkConfig, profile: str, document_read: bool, techniques: list[str],
                   rules: list[str], diagnostics: list[Diagnostic], trace: Trace | None) -> str:
    """Step 8 (§7.5): runs of similar lines fold into their first line, when ``enableGrouping``."""
    if not js_truthy(cfg.enable_grouping):
        return result
    if document_read and profile == "strict":
        return result  # RTK-Q18 fix
    raw = cfg.grouping_threshold
    threshold = grouping_threshold(raw, absent=raw is UNSET, profile=profile)
    grouping = group_similar_lines(result, threshold, profile=profile)
    diagnostics.extend(grouping.diagnostics)
    if profile != "strict" and raw is not UNSET and raw is not None:
        normalised = grouping_threshold(raw, profile="strict")
        if normalised != threshold and group_similar_lines(result, normalised).text != grouping.text:
            diagnostics.append(Diagnostic(
                f"groupingThreshold {raw!r} was read as {threshold} (JavaScript conversion, no normalisation)",
                "info", "RTK-Q19", source="rtk"))
    if trace is not None:
        lines = split_lines(result)
        step = trace.step("rtk:grouping", len(lines))
        step.note = f"threshold {threshold}: {len(grouping.runs)} run(s) grouped"
        for start, length in grouping.runs:
            step.markers.append(f"[rtk:grouped \u00d7{length}]")
            for i in range(start + 1, start + length):
                step.add(LineEvent(i, "collapsed", lines[i]))
        step.lines_out = len(split_lines(grouping.text))
        if grouping.grouped:
            step.tag = "rtk:grouping"
    if grouping.grouped == 0:
        return result
    if document_read:
        diagnostics.append(Diagnostic("a document read was grouped (the bypass does not cover grouping)", "info",
                                      "RTK-Q18", source="rtk"))
    techniques.append("rtk-grouping")
    rules.append("rtk:grouping")
    return grouping.text


def _final_cap(result: str, cfg: RtkConfig, extra_priority: tuple[str, ...], profile: str, techniques: list[str],
               rules: list[str], diagnostics: list[Diagnostic], trace: Trace | None,
               known_priority: dict[str, bool] | None = None) -> str:
    """``known_priority``: line texts whose verdict under ``extra_priority`` (flags ``i``) the
    filter's own line limit already found (a per-line test depends on the text only)."""
    keep = 16 if cfg.intensity == "aggressive" else 24
    max_lines = effective_max_lines(cfg.max_lines_per_result, cfg.intensity, profile=profile)
    lines = split_lines(result)

    def priority_lines() -> set[int]:
        # The default pattern cannot match a line break, so one scan of the text finds its lines.
        hits: set[int] = set()
        if not lines:
            return hits
        hits = set(default_priority_lines(lines))
        # The filter's preserve patterns, compiled only now that the cap cuts (invalid ones are
        # skipped; the filter stage has reported them), asked only about lines of unknown verdict.
        patterns = compile_list(extra_priority, "i")[0]
        if not patterns:
            return hits
        unknown = list(range(len(lines)))
        if known_priority:
            verdicts = list(map(known_priority.get, lines))
            hits.update(compress(unknown, verdicts))
            unknown = [i for i, verdict in enumerate(verdicts) if verdict is None]
        scanner = LineScanner(lines if len(unknown) == len(lines) else list(map(lines.__getitem__, unknown)))
        for pattern in patterns:
            hits.update(map(unknown.__getitem__, scanner.hits(pattern)))
        return hits

    try:
        cut = smart_truncate(result, max_lines=max_lines, max_chars=cfg.max_chars_per_result,
                             preserve_head=keep, preserve_tail=keep, profile=profile, lines=lines,
                             priority_lines=priority_lines)
    except RegexTimeout as exc:
        diagnostics.append(Diagnostic(f"priority pattern {exc.source!r} ran out of time; final cap skipped",
                                      "error", "RTK-TIMEOUT", source="rtk"))
        return result
    if not cut.truncated:
        return result
    diagnostics.extend(cut.diagnostics)
    if cfg.max_lines_per_result == 0 and profile != "strict" and len(lines) > 1:
        diagnostics.append(Diagnostic("maxLinesPerResult 0 became a 1-line limit, so the output was cut",
                                      "info", "RTK-Q8", source="rtk"))
    techniques.append("rtk-truncate")
    rules.append("rtk:truncate")
    if trace is not None:
        step = trace.step("rtk:truncate", len(lines))
        describe_truncation(step, lines, cut, "rtk:truncate", len(split_lines(cut.text)))
    return cut.text


def _selection_trace(selection: Selection) -> SelectionTrace:
    flt = selection.filter or selection.disabled
    note = ""
    if selection.disabled is not None:
        note = "chosen, but switched off by the enabled/disabled lists: no filter ran"
    elif flt is None:
        note = "no filter matched and there is no generic-output fallback"
    return SelectionTrace(
        flt.id if flt else None, selection.scope, selection.criterion, selection.pattern, selection.pointer,
        selection.detection.command or "", selection.detection.type, disabled=selection.disabled is not None,
        note=note)
