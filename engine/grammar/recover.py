"""``recoverGrammarLeaks`` (spec §5): strip detected leaks from a message and promote calls.

The function never mutates its input. Besides the reference's result fields it reports, for each
detected candidate, its UTF-16 span and what happened to it and why, so the IDE can highlight
leaks and explain each decision.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.diagnostics import Diagnostic
from engine.grammar.candidates import Candidate, QuirkHit
from engine.grammar.detect import detect
from engine.grammar.quirks import STRICT_FIXED
from engine.grammar.reporting import (
    CandidateReport,
    PartScan,
    decision_notes,
    quirk_diagnostic,
    shared_range_notes,
    unique_diagnostics,
)
from engine.grammar.stopreason import ABSENT, stop_reason_label
from engine.grammar.stripping import remove_ranges, remove_ranges_locally, strip_range

MODES = ("off", "observe", "strip", "recover")


def to_base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if n == 0:
        return "0"
    sign = "-" if n < 0 else ""
    n = abs(n)
    out = ""
    while n:
        n, r = divmod(n, 36)
        out = digits[r] + out
    return sign + out


_STRICT_ID_SEQUENCE = [0]


def recovered_call_id(grammar: str, index: int, now_ms: int, *, strict: bool = False) -> str:
    """``tool_repair_<grammar>_<time36>_<n>`` (§9). Strict adds a process-wide sequence (GRM-Q16)."""
    base = f"tool_repair_{re.sub(r'[^A-Za-z0-9]', '_', grammar)}_{to_base36(int(now_ms))}_{index}"
    if not strict:
        return base
    _STRICT_ID_SEQUENCE[0] += 1
    return f"{base}_{to_base36(_STRICT_ID_SEQUENCE[0])}"


def part_text(part: object) -> str | None:
    if isinstance(part, dict):
        if part.get("type") == "text" and isinstance(text := part.get("text"), str):
            return text
        if part.get("type") == "thinking" and isinstance(thinking := part.get("thinking"), str):
            return thinking
    return None


def with_part_text(part: dict[str, Any], text: str) -> dict[str, Any]:
    key = "text" if part.get("type") == "text" else "thinking"
    return {**part, key: text}


def is_tool_call_part(part: object, *, strict: bool = False) -> bool:
    """A real toolCall part; one with a non-string name does not count (GRM-Q26)."""
    if not (isinstance(part, dict) and part.get("type") == "toolCall"):
        return False
    return strict or isinstance(part.get("name"), str)


@dataclass
class RecoveryResult:
    changed: bool
    recovered_calls: list[dict[str, Any]]
    stripped_grammars: list[str]
    stripped_ranges: int
    promoted: bool
    observed: bool
    detected_grammars: list[str]
    detected_ranges: int
    promoted_call_ids: list[str]
    message: dict[str, Any]
    same_message: bool
    candidates: list[CandidateReport] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "changed": self.changed,
            "recoveredCalls": self.recovered_calls,
            "strippedGrammars": self.stripped_grammars,
            "strippedRanges": self.stripped_ranges,
            "promoted": self.promoted,
            "observed": self.observed,
            "detectedGrammars": self.detected_grammars,
            "detectedRanges": self.detected_ranges,
            "promotedCallIds": self.promoted_call_ids,
            "sameMessageObject": self.same_message,
            "message": self.message,
            "candidates": [c.to_dict() for c in self.candidates],
            "diagnostics": [d.to_dict() for d in self.diagnostics],
        }


def _unchanged(message: dict[str, Any]) -> RecoveryResult:
    return RecoveryResult(False, [], [], 0, False, False, [], 0, [], message, True)


def _add_unique(items: list[str], value: str) -> None:
    if value not in items:
        items.append(value)


def recover_grammar_leaks(
    message: dict[str, Any],
    *,
    mode: str,
    known_tools: Iterable[str],
    grammars: Iterable[str] | None = None,
    require_known_tool: bool = True,
    unknown_tool_text: str = "preserve",
    now_ms: int = 0,
    strict: bool = False,
) -> RecoveryResult:
    """Detect, strip and (in recover mode) promote leaked tool calls in one assistant message."""
    content = message.get("content")
    if mode == "off" or message.get("role") != "assistant" or not isinstance(content, list):
        return _unchanged(message)
    known = {t for t in known_tools if isinstance(t, str)}  # only a string can equal a tool name
    grammar_list = list(grammars) if grammars is not None else None

    def allowed(name: str) -> bool:
        return (not require_known_tool) or (bool(known) and name in known)

    parts: list[PartScan] = []
    for index, part in enumerate(content):
        text = part_text(part)
        if text is None:
            continue
        found = detect(text, grammar_list, strict=strict)
        if found.kept or found.hits:
            parts.append(PartScan(index, text, found.kept, found.hits, part.get("type") == "thinking"))

    detected_grammars: list[str] = []
    detected_ranges = 0
    reports: dict[int, CandidateReport] = {}
    diagnostics: list[Diagnostic] = []
    for p in parts:
        detected_ranges += len(_count(p.kept, strict))
        for cand in p.kept:
            _add_unique(detected_grammars, cand.grammar)
            reports[id(cand)] = CandidateReport.of(cand, p.index, p.text, allowed(cand.name))

    existing = [pt for pt in content if is_tool_call_part(pt)]
    odd_existing = [pt for pt in content if is_tool_call_part(pt, strict=True) and not is_tool_call_part(pt)]
    stop_reason = message.get("stopReason", ABSENT)

    def eligible(cand: Candidate) -> bool:
        return not cand.strip_only and allowed(cand.name) and bool(cand.arguments)

    def observable(p: PartScan) -> bool:
        return not (strict and p.thinking)  # strict GRM-Q18: thinking is observe-only

    any_recoverable = any(eligible(c) for p in parts if observable(p) for c in p.kept)
    existing_blocks = bool(existing) or (strict and bool(odd_existing))
    will_promote = mode == "recover" and not existing_blocks and any_recoverable and stop_reason == "stop"

    chosen_by_part: dict[int, list[Candidate]] = {}
    if mode != "observe":
        for p in parts:
            chosen: list[Candidate] = []
            for cand in p.kept:
                report = reports[id(cand)]
                if not observable(p):
                    report.reason = "thinking-observe-only"
                    continue
                pick = cand.strip_only or allowed(cand.name) or unknown_tool_text == "strip"
                if (pick and strict and mode == "recover" and not cand.strip_only and allowed(cand.name)
                        and not (will_promote and eligible(cand))):
                    # Strict GRM-Q12/Q17/Q21: keep the text of a call that will not run.
                    report.reason = _not_promoted_reason(cand, allowed, existing_blocks, stop_reason, will_promote)
                    continue
                if pick:
                    chosen.append(cand)
                else:
                    report.reason = "unknown-tool-preserved"
            if chosen:
                chosen_by_part[p.index] = chosen

    stripped_grammars: list[str] = []
    stripped_ranges = 0
    recoverable: list[Candidate] = []
    next_content = list(content)
    for p in parts:
        chosen = chosen_by_part.get(p.index, [])
        if not chosen:
            continue
        stripped_ranges += len(_count(chosen, strict))
        for cand in chosen:
            _add_unique(stripped_grammars, cand.grammar)
            reports[id(cand)].stripped = True
            if eligible(cand):
                recoverable.append(cand)
        ranges = [strip_range(p.text, c, c.hits, strict=strict) for c in chosen]
        new_text = (remove_ranges_locally if strict else remove_ranges)(p.text, ranges)
        local = remove_ranges_locally(p.text, ranges)
        if not strict and local != new_text:
            diagnostics.append(quirk_diagnostic(
                QuirkHit("GRM-Q11", "stripping also re-spaced text away from the removed leaks"), part=p.index))
        next_content[p.index] = with_part_text(content[p.index], new_text)
        shared_range_notes(p, chosen, diagnostics)

    changed = bool(chosen_by_part)
    promote = will_promote and bool(recoverable)
    promoted_ids: list[str] = []
    recovered: list[dict[str, Any]] = []
    if promote:
        for i, cand in enumerate(recoverable):
            call_id = recovered_call_id(cand.grammar, i, now_ms, strict=strict)
            promoted_ids.append(call_id)
            recovered.append({"name": cand.name, "arguments": cand.arguments, "grammar": cand.grammar})
            next_content.append({"type": "toolCall", "id": call_id, "name": cand.name, "arguments": cand.arguments})
            report = reports[id(cand)]
            report.promoted, report.call_id, report.reason = True, call_id, "promoted"

    for p in parts:
        for cand in p.kept:
            report = reports[id(cand)]
            if report.reason:
                continue
            report.reason = _reason(cand, mode, report, allowed, existing_blocks, stop_reason)

    decision_notes(parts, reports, mode, promote, existing, odd_existing, stop_reason, diagnostics, strict)
    for p in parts:
        for hit in p.text_hits:
            if hit.quirk != "GRM-Q28" or mode in ("strip", "recover"):
                diagnostics.append(quirk_diagnostic(hit, part=p.index))

    diagnostics = unique_diagnostics(diagnostics)
    if strict:  # the fixed quirks no longer change anything; keep the ones strict leaves alone
        diagnostics = [d for d in diagnostics if d.code not in STRICT_FIXED]
    all_reports = [reports[id(c)] for p in parts for c in p.kept]
    if not changed and not promote:
        if detected_ranges == 0:
            result = _unchanged(message)
            result.diagnostics = diagnostics
            return result
        return RecoveryResult(False, [], [], 0, False, True, detected_grammars, detected_ranges, [],
                              message, True, all_reports, diagnostics)

    next_message = {**message, "content": next_content}
    if promote:
        next_message["stopReason"] = "toolUse"
    return RecoveryResult(
        True, recovered, stripped_grammars, stripped_ranges, promote, detected_ranges > 0,
        detected_grammars, detected_ranges, promoted_ids, next_message, False, all_reports, diagnostics,
    )


def _count(cands: list[Candidate], strict: bool) -> list[Any]:
    """Candidates as the reference counts them, or distinct ranges under strict (GRM-Q9)."""
    if not strict:
        return list(cands)
    return sorted({c.range for c in cands})


def _not_promoted_reason(cand: Candidate, allowed: Callable[[str], bool], existing_blocks: bool, stop_reason: object,
                         will_promote: bool) -> str:
    if not allowed(cand.name):
        return "unknown-tool"
    if not cand.arguments:
        return "empty-arguments"
    if existing_blocks:
        return "existing-tool-call"
    if stop_reason != "stop":
        return stop_reason_label(stop_reason)
    return "not-promoted"


def _reason(cand: Candidate, mode: str, report: CandidateReport, allowed: Callable[[str], bool],
            existing_blocks: bool, stop_reason: object) -> str:
    if cand.strip_only:
        return "dangling-marker" if report.stripped else "observe-mode"
    if mode == "observe":
        return "observe-mode"
    if mode == "strip":
        return "strip-mode" if report.stripped else "unknown-tool-preserved"
    return _not_promoted_reason(cand, allowed, existing_blocks, stop_reason, False)
