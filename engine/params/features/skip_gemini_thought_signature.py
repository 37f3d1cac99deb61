"""``skip-gemini-thought-signature``: marks assistant tool calls so Gemini 3 skips validation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params import ids
from engine.params.features.base import Decision, Feature, show

if TYPE_CHECKING:
    from engine.params.scope import RequestScope

SKIP_VALUE = "skip_thought_signature_validator"


def mark_tool_call(part: dict[str, Any]) -> dict[str, Any]:
    options = dict(part.get("providerOptions") or {})
    compatible = dict(options.get("openaiCompatible") or {})
    compatible["extra_content"] = {"google": {"thought_signature": SKIP_VALUE}}
    options["openaiCompatible"] = compatible
    return {**part, "providerOptions": options}


class SkipGeminiThoughtSignatureFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        base = ids.base_id(scope.model)
        ok = ids.is_gemini3_id(base)
        return Decision(ok, f"base id {show(base)} is {'' if ok else 'not '}Gemini 3")

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        part = {"type": "tool-call", "toolCallId": "call_1", "toolName": "search",
                "input": {"q": "x"}}
        return {"sampleAssistantPart": part, "after": mark_tool_call(part)}


FEATURE = SkipGeminiThoughtSignatureFeature(
    "skip-gemini-thought-signature", summary="middleware: skip thought-signature validation")
