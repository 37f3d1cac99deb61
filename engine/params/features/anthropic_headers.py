"""``anthropic-headers``: the param plugin setting the ``anthropic-beta`` header (spec §6.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params import ids
from engine.params.beta import anthropic_beta_flags
from engine.params.features.base import Decision, Feature, show

if TYPE_CHECKING:
    from engine.params.scope import RequestScope


class AnthropicHeadersFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        if not isinstance(scope.assistant, dict):
            return Decision(False, "no assistant")
        if not ids.is_anthropic(scope.model):
            return Decision(False, "not an Anthropic (Claude) model")
        if scope.endpoint_type != "anthropic-messages":
            return Decision(False, f"endpointType is {show(scope.endpoint_type)}, not "
                                   '"anthropic-messages"')
        if scope.ai_sdk_provider_id == "bedrock":
            return Decision(False, "Bedrock carries the flags in providerOptions instead")
        return Decision(True, "Claude model on an anthropic-messages endpoint (not Bedrock)")

    def details(self, scope: RequestScope) -> dict[str, Any]:
        flags = anthropic_beta_flags(scope.model, scope.assistant, scope.provider)
        return {"headers": {"anthropic-beta": ",".join(flags)}} if flags else {}

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        return {"headersAdded": self.details(scope).get("headers", {})}


FEATURE = AnthropicHeadersFeature("anthropic-headers", kind="param",
                                  summary="param plugin: anthropic-beta header")
