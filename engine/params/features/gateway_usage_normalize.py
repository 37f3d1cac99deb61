"""``gateway-usage-normalize``: rewrites the AI Gateway's flat usage on ``finish`` to the V3 shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params.features.base import Decision, Feature, show

if TYPE_CHECKING:
    from engine.params.scope import RequestScope


def normalize_usage(usage: dict[str, Any]) -> dict[str, Any]:
    """Flat numeric ``inputTokens`` → nested ``{inputTokens: {total, cacheRead}, outputTokens: …}``."""
    if not isinstance(usage.get("inputTokens"), (int, float)):
        return usage
    return {
        "inputTokens": {"total": usage.get("inputTokens"),
                        "cacheRead": usage.get("cachedInputTokens")},
        "outputTokens": {"total": usage.get("outputTokens"),
                         "reasoning": usage.get("reasoningTokens")},
    }


class GatewayUsageNormalizeFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        pid = scope.sdk_config.provider_id
        return Decision(pid == "gateway",
                        f'sdkConfig.providerId is {show(pid)} (needs "gateway")')

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        before: dict[str, Any] = {"type": "finish", "usage": {"inputTokens": 120, "outputTokens": 40,
                                              "cachedInputTokens": 100, "reasoningTokens": 8}}
        return {"sampleChunk": before,
                "after": {"type": "finish", "usage": normalize_usage(before["usage"])}}


FEATURE = GatewayUsageNormalizeFeature("gateway-usage-normalize",
                                       summary="stream middleware normalising usage")
