"""The pi extension's ``message_end`` hook as one decision (spec §6 and §10).

``message_end`` takes the message and the extension's state (settings, current model, active
tools, clock) and returns the full decision record: gates, what was detected where, what was
stripped and promoted, the final message, the notes a later tool result would carry, session
entries and telemetry, and why nothing was promoted when nothing was.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from engine.diagnostics import Diagnostic
from engine.grammar.candidates import QuirkHit
from engine.grammar.detect import Detection, detect
from engine.grammar.model_gate import model_leaks_grammar
from engine.grammar.quirks import STRICT_FIXED
from engine.grammar.recover import RecoveryResult, is_tool_call_part, part_text, recover_grammar_leaks
from engine.grammar.reporting import CandidateReport, quirk_diagnostic
from engine.grammar.settings import GrammarSettings
from engine.grammar.stopreason import ABSENT, stop_reason_label

STAGES = ["grammar"]
# One text or thinking part of a message and what the detectors found in it: (index, text, detection).
PartDetection = tuple[int, str, Detection]


def recovery_note(grammar: str, name: str) -> str:
    """The note pi prepends to the promoted call's tool result (§6.4)."""
    return (
        f'Recovered a leaked {grammar} tool call for "{name}" that the model printed as text instead of '
        "emitting a real tool call. Emit a proper tool call next time."
    )


def tool_result_with_note(content: list[Any], note: str) -> list[Any]:
    """The tool result pi returns for a promoted call once the note is attached (§6.4).

    ``<repair_note>NOTE</repair_note>`` and a newline go in front of the first text part, or in a
    new leading text part when there is none; a result that already holds the tagged note is
    returned as it is. The input list is not changed.
    """
    tagged = f"<repair_note>{note}</repair_note>"
    if any(isinstance(p, dict) and p.get("type") == "text" and tagged in str(p.get("text", "")) for p in content):
        return list(content)
    for index, part in enumerate(content):
        if isinstance(part, dict) and part.get("type") == "text":
            out = list(content)
            out[index] = {**part, "text": f"{tagged}\n{part.get('text', '')}"}
            return out
    return [{"type": "text", "text": tagged}, *content]


@dataclass
class HookState:
    """What the extension knows when ``message_end`` fires."""

    settings: GrammarSettings
    model_id: str | None
    active_tools: list[str] | None  # None: pi.getActiveTools() threw or is missing
    now_ms: int
    strict: bool = False


def _unique(items: list[Any]) -> list[Any]:
    """``[...new Set(items)]``: repeated strings/numbers collapse, every object or array stays."""
    seen: set[Any] = set()
    out = []
    for item in items:
        key = (type(item).__name__, item) if isinstance(item, str | int | float | bool) or item is None else None
        if key is None or key not in seen:
            out.append(item)
            if key is not None:
                seen.add(key)
    return out


def known_tool_set(state: HookState) -> tuple[list[str], list[Diagnostic]]:
    """§6.2 step 4: the allowed list replaces the active tools (GRM-Q24); strict intersects."""
    allowed = list(state.settings.allowed_tools)
    active = state.active_tools or []
    diagnostics: list[Diagnostic] = []
    if not allowed:
        return _unique(active), diagnostics
    outside = [t for t in allowed if t not in active]
    if outside and state.active_tools is not None:
        diagnostics.append(quirk_diagnostic(QuirkHit(
            "GRM-Q24", f"grammarAllowedTools admits tools that are not active: {', '.join(outside)}"),
            level="warning"))
        if state.strict:
            return _unique([t for t in allowed if t in active]), diagnostics
    return _unique(allowed), diagnostics


def _scan_parts(message: dict[str, Any], *, strict: bool) -> list[PartDetection]:
    """``(part index, text, detection)`` for every text or thinking part, all grammars, no gates."""
    content = message.get("content")
    if not isinstance(content, list):
        return []
    scans: list[PartDetection] = []
    for index, part in enumerate(content):
        text = part_text(part)
        if text is not None:
            scans.append((index, text, detect(text, strict=strict)))
    return scans


def pure_calls(scans: list[PartDetection], known: set[str]) -> list[dict[str, Any]]:
    """Every call a pure parse finds, in content order (§10 ``calls``)."""
    return [
        {"name": c.name, "arguments": c.arguments, "grammar": c.grammar, "part": index, "knownTool": c.name in known}
        for index, _, found in scans
        for c in found.calls
    ]


def message_end(message: dict[str, Any], state: HookState) -> dict[str, Any]:
    """Run the hook on ``message`` (never mutated) and return the decision record."""
    snapshot = copy.deepcopy(message)
    settings = state.settings
    strict = state.strict
    model_gate = model_leaks_grammar(state.model_id, strict=strict)
    if not strict and model_gate != model_leaks_grammar(state.model_id, strict=True):
        gate_note = [quirk_diagnostic(QuirkHit(
            "GRM-Q15", f"the substring model gate {'admits' if model_gate else 'rejects'} `{state.model_id}`"))]
    else:
        gate_note = []
    known_list, diagnostics = known_tool_set(state)
    known = {t for t in known_list if isinstance(t, str)}  # only a string can equal a tool name
    diagnostics = gate_note + diagnostics
    scans = _scan_parts(message, strict=strict)

    skipped_by = None
    if settings.mode == "off":
        skipped_by = "grammar-mode-off"
    elif message.get("role") != "assistant":
        skipped_by = "not-assistant-role"
    elif not model_gate:
        skipped_by = "model-not-on-leak-list"

    record: dict[str, Any] = {
        "settings": settings.to_dict(),
        "modelGate": model_gate,
        "knownTools": known_list,
        "handled": skipped_by is None,
        "skippedBy": skipped_by,
        "calls": pure_calls(scans, known),
    }
    final = message
    result = None
    if skipped_by is None:
        result = recover_grammar_leaks(
            message, mode=settings.mode, known_tools=known, require_known_tool=True,
            unknown_tool_text=settings.unknown_grammar_text, now_ms=state.now_ms, strict=strict,
        )
        diagnostics += result.diagnostics
        if result.changed:
            final = result.message

    detected = result.detected_grammars if result else []
    record.update({
        "detectedGrammar": detected[0] if detected else None,
        "detectedGrammars": detected,
        "detectedRanges": result.detected_ranges if result else 0,
        "messageReplaced": bool(result and result.changed),
        "changed": bool(result and result.changed),
        "observed": bool(result and result.observed),
        "strippedGrammars": result.stripped_grammars if result else [],
        "strippedRanges": result.stripped_ranges if result else 0,
        "promoted": bool(result and result.promoted),
    })
    promoted_calls = []
    if result and result.promoted:
        for call_id, call in zip(result.promoted_call_ids, result.recovered_calls):
            promoted_calls.append({"id": call_id, "name": call["name"], "arguments": call["arguments"]})
    content = final.get("content")
    first_text = next(
        (p for p in content if isinstance(p, dict) and p.get("type") == "text"), None
    ) if isinstance(content, list) else None
    record.update({
        "promotedCalls": promoted_calls,
        "stopReason": final.get("stopReason"),
        "strippedText": first_text.get("text") if first_text else None,
        "content": content,
        "messageKeys": list(final.keys()),
        "inputMutated": message != snapshot,
    })
    telemetry, entries, notes = _side_effects(result, state, diagnostics)
    record.update({
        "notes": notes,
        "entries": entries,
        "telemetry": telemetry,
        "observations": [t for t in telemetry if t.get("observation") is True],
    })
    reasons = _reasons_not_promoted(skipped_by, settings.mode, result, message, known, strict)
    record["reasonNotPromoted"] = reasons[0] if reasons else None
    record["reasonsNotPromoted"] = reasons
    if result is not None:
        record["candidates"] = [c.to_dict() for c in result.candidates]
    else:  # skipped by a gate: still show where the leaks are, and which gate left them alone
        record["candidates"] = [
            CandidateReport.of(c, index, text, c.name in known, skipped_by or "").to_dict()
            for index, text, found in scans
            for c in found.kept
        ]
    if strict:
        diagnostics = [d for d in diagnostics if d.code not in STRICT_FIXED]
    record["diagnostics"] = [d.to_dict() for d in diagnostics]
    return record


def _side_effects(result: RecoveryResult | None, state: HookState, diagnostics: list[Diagnostic],
                  ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    """Telemetry records (without ``ts``), session entries and notes (§6.3, §6.4)."""
    telemetry: list[dict[str, Any]] = []
    entries: list[dict[str, Any]] = []
    notes: list[str] = []
    if result is None or (not result.changed and not result.observed):
        return telemetry, entries, notes
    profile = state.settings.profile
    model = state.model_id

    def with_model(record: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in record.items() if not (k == "model" and v is None)}

    if result.promoted:
        for call_id, call in zip(result.promoted_call_ids, result.recovered_calls):
            rules = [f"grammarRecovery:{call['grammar']}"]
            telemetry.append(with_model({"tool": call["name"], "model": model, "outcome": "recovered",
                                         "rules": rules, "grammar": call["grammar"], "profile": profile,
                                         "stages": list(STAGES)}))
            notes.append(recovery_note(call["grammar"], call["name"]))
            entries.append({"customType": "tool-repair", "data": with_model({
                "toolCallId": call_id, "tool": call["name"], "rules": rules, "stages": list(STAGES),
                "profile": profile, "model": model, "outcome": "recovered"})})
    elif result.changed:
        telemetry.append(with_model({"model": model, "outcome": "stripped", "rules": ["grammarStrip"],
                                     "channel": "message", "grammar": ",".join(result.stripped_grammars),
                                     "profile": profile, "stages": list(STAGES)}))
    else:
        preserved = state.settings.mode in ("strip", "recover")
        if preserved and not state.strict:
            diagnostics.append(quirk_diagnostic(QuirkHit(
                "GRM-Q20", "preserved unknown-tool text was recorded as an observation")))
        strict_preserved = preserved and state.strict
        telemetry.append(with_model({
            "model": model, "outcome": "preserved" if strict_preserved else "observed",
            "rules": ["grammarPreserve" if strict_preserved else "grammarObserve"], "channel": "message",
            "grammar": ",".join(result.detected_grammars), "profile": profile, "stages": list(STAGES),
            "observation": True}))
    return telemetry, entries, notes


def _reasons_not_promoted(skipped_by: str | None, mode: str, result: RecoveryResult | None,
                          message: dict[str, Any], known: set[str], strict: bool) -> list[str]:
    """Why a message's leak was not promoted (the report's derived reasons, spec §10), checked in
    the hook's gate order: skipped, nothing detected, observe/strip mode; then every reason that
    holds of an existing tool call, markers only, an unknown tool, empty arguments and a stop
    reason other than ``stop``. Empty when a call was promoted."""
    if skipped_by:
        return [skipped_by]
    if result is None or result.detected_ranges == 0:
        return ["no-leak-detected"]
    if result.promoted:
        return []
    if mode in ("observe", "strip"):
        return [f"{mode}-mode"]
    reasons: list[str] = []
    content = message.get("content") or []
    if any(is_tool_call_part(p, strict=strict) for p in content):
        reasons.append("existing-tool-call")
    cands = result.candidates
    calls = [c for c in cands if not c.strip_only]
    if cands and not calls:
        reasons.append("dangling-markers-only")
    eligible = [c for c in calls if c.known and c.arguments]
    if not eligible and any(not c.known for c in calls):
        reasons.append("unknown-tool")
    if not eligible and any(c.known and not c.arguments for c in calls):
        reasons.append("empty-arguments")
    stop = message.get("stopReason", ABSENT)
    if stop != "stop":
        reasons.append(stop_reason_label(stop))
    return reasons
