"""``qwen-thinking``: ``/think`` or ``/no_think`` suffixes for Qwen on non-enable_thinking hosts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params import ids
from engine.params.features.base import Decision, Feature, show
from engine.params.features.no_think import PROBE, append_suffix
from engine.params.generic_reasoning import is_enable_thinking_provider, is_thinking_token_qwen
from engine.params.jsv import UNDEFINED, get
from engine.params.routing import is_ollama_provider

if TYPE_CHECKING:
    from engine.params.scope import RequestScope


def suffix_for(scope: RequestScope) -> str:
    """PAR-Q2: the reference only tests that the effort is defined; strict honours ``none``."""
    effort = ids.effort_of(scope.assistant)
    if effort is UNDEFINED:
        return "/no_think"
    if scope.strict and effort in ("none", "default"):
        return "/no_think"
    if effort in ("none", "default"):
        scope.quirk("PAR-Q2", f"effort {show(effort)} still appends /think (only 'undefined' "
                              "gives /no_think)")
    return "/think"


class QwenThinkingFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        if not isinstance(scope.assistant, dict):
            return Decision(False, "no assistant")
        if is_ollama_provider(scope.provider):
            return Decision(False, "Ollama provider")
        if not is_thinking_token_qwen(scope.model):
            return Decision(False, "not a thinking-token Qwen model")
        if ids.is_qwen35_plus_id(ids.base_id(scope.model)):
            return Decision(False, "Qwen 3.5–3.9 uses chat_template_kwargs instead")
        if is_enable_thinking_provider(scope.provider):
            return Decision(False, f"provider {show(get(scope.provider, 'id'))} takes enable_thinking")
        return Decision(True, f"thinking-token Qwen on {show(get(scope.provider, 'id'))} (no "
                              "enable_thinking option)")

    def details(self, scope: RequestScope) -> dict[str, Any]:
        return {"probeUserText": append_suffix(PROBE, suffix_for(scope),
                                               skip=("/think", "/no_think"))}

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        return {"sampleUserText": PROBE, "after": self.details(scope)["probeUserText"]}


FEATURE = QwenThinkingFeature("qwen-thinking", summary="middleware: /think or /no_think suffix")
