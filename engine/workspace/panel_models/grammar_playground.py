"""The leaked tool-call grammar playground's view-model: the ``message_end`` decision for one
pasted message, with highlight spans and a one-line verdict."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

GRAMMAR_POLICIES = ("conservative", "adaptive", "recover")
GRAMMAR_MODES = ("", "off", "observe", "strip", "recover")  # "" = the policy's mode
PI_TOOLS = ("read", "bash", "edit", "write", "grep", "find", "ls")


@dataclass
class GrammarRequest:
    text: str
    model_id: str = ""
    policy: str = "adaptive"
    mode: str = ""
    allowed_tools: tuple[str, ...] = ()
    active_tools: tuple[str, ...] = PI_TOOLS
    unknown_text: str = "preserve"
    stop_reason: str = "stop"
    profile: str = "pi-repair-layer"
    now_ms: int | None = None


@dataclass(frozen=True)
class Highlight:
    start: int  # UTF-16 offsets in the text
    end: int
    kind: str  # promoted | stripped | kept
    label: str


@dataclass
class GrammarView:
    record: dict[str, Any]
    highlights: list[Highlight]
    final_text: str
    verdict: str


def run_grammar_view(req: GrammarRequest) -> GrammarView:
    """The ``message_end`` decision for one pasted message, with highlight spans for the text."""
    from engine.grammar import HookState, message_end, migrate

    stored: dict[str, Any] = {"policyProfile": req.policy, "unknownGrammarText": req.unknown_text,
                              "grammarAllowedTools": list(req.allowed_tools)}
    if req.mode:
        stored["grammarRecovery"] = req.mode
    now = req.now_ms if req.now_ms is not None else int(time.time() * 1000)
    state = HookState(migrate(stored), req.model_id.strip() or None, list(req.active_tools), now,
                      req.profile == "strict")
    message: dict[str, Any] = {"role": "assistant", "content": [{"type": "text", "text": req.text}]}
    if req.stop_reason:
        message["stopReason"] = req.stop_reason
    record = message_end(message, state)
    highlights = []
    for cand in record.get("candidates", []):
        if cand.get("part") != 0:
            continue
        kind = "promoted" if cand.get("promoted") else "stripped" if cand.get("stripped") else "kept"
        what = "dangling markers" if cand.get("stripOnly") else f"{cand.get('name')}()"
        highlights.append(Highlight(cand["span"][0], cand["span"][1], kind,
                                    f"{cand.get('grammar')}: {what} — {kind}"
                                    + (f" ({cand['reason']})" if cand.get("reason") not in (None, "", kind) else "")))
    final_text = record.get("strippedText")
    if final_text is None:
        final_text = req.text
    return GrammarView(record, highlights, final_text, grammar_verdict(record))


def grammar_verdict(record: dict[str, Any]) -> str:
    """One line: what happened to the message and, when nothing was promoted, why."""
    if record.get("skippedBy"):
        return f"untouched: {record['skippedBy']}"
    if record.get("promoted"):
        names = ", ".join(c["name"] for c in record.get("promotedCalls", []))
        return f"promoted {len(record.get('promotedCalls', []))} call(s): {names}"
    reasons = ", ".join(record.get("reasonsNotPromoted") or []) or "—"
    if record.get("changed"):
        return f"stripped {record.get('strippedRanges', 0)} range(s); not promoted: {reasons}"
    if record.get("observed"):
        return f"observed only; not promoted: {reasons}"
    return f"nothing to do: {reasons}"
