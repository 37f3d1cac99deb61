"""``anthropic-cache``: prompt-cache markers on Anthropic messages (spec §6.5)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.params.features.base import Decision, Feature, show
from engine.params.jsv import get, get_path, truthy

if TYPE_CHECKING:
    from engine.params.scope import RequestScope

CACHE_MARKER = {"anthropic": {"cacheControl": {"type": "ephemeral"}}}


def estimate_tokens(content: object) -> int:
    """Approximation of ``tokenx`` (≈ 4 characters per token) over strings and text parts."""
    if isinstance(content, str):
        return math.ceil(len(content) / 4)
    if isinstance(content, list):
        return sum(estimate_tokens(p.get("text", "")) for p in content
                   if isinstance(p, dict) and p.get("type") == "text")
    return 0


def place_cache_markers(messages: list[dict[str, Any]], settings: dict[str, Any]) -> list[dict[str, Any]]:
    """Return copies of ``messages`` with the markers the middleware would add."""
    threshold = settings.get("tokenThreshold") or 0
    out = [dict(m) for m in messages]
    if settings.get("cacheSystemMessage"):
        for m in out:
            if m.get("role") == "system" and estimate_tokens(m.get("content")) >= threshold:
                m["providerOptions"] = CACHE_MARKER
                break
    n = settings.get("cacheLastNMessages") or 0
    if isinstance(n, (int, float)) and n > 0:
        sums, total = [], 0
        for m in out:
            total += estimate_tokens(m.get("content"))
            sums.append(total)
        marked = 0
        for i in range(len(out) - 1, -1, -1):
            if marked >= n:
                break
            m = out[i]
            content = m.get("content")
            if m.get("role") == "system" or sums[i] < threshold or not content:
                continue
            if isinstance(content, str):
                content = [{"type": "text", "text": content}]
            parts = [dict(p) for p in content]
            parts[-1]["providerOptions"] = CACHE_MARKER
            m["content"] = parts
            marked += 1
    return out


class AnthropicCacheFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        if scope.endpoint_type != "anthropic-messages":
            return Decision(False, f"endpointType is {show(scope.endpoint_type)}, not "
                                   '"anthropic-messages"')
        cache = get_path(scope.provider, "settings", "cacheControl")
        if not (isinstance(cache, dict) and truthy(cache.get("enabled"))):
            return Decision(False, "provider.settings.cacheControl.enabled is not set")
        if not truthy(cache.get("tokenThreshold")):
            return Decision(False, "cacheControl.tokenThreshold is 0 or missing")
        return Decision(True, "anthropic-messages endpoint with cacheControl enabled and a "
                              "token threshold")

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        cache = get_path(scope.provider, "settings", "cacheControl")
        settings = cache if isinstance(cache, dict) else {}
        threshold = get(settings, "tokenThreshold")
        filler = "x" * (4 * int(threshold if isinstance(threshold, (int, float)) else 0))
        sample = [{"role": "system", "content": "You are helpful. " + filler},
                  {"role": "user", "content": "First question. " + filler},
                  {"role": "assistant", "content": "First answer."},
                  {"role": "user", "content": "Second question."}]
        marked = place_cache_markers(sample, settings)
        rows, total = [], 0
        for before, after in zip(sample, marked):
            tokens = estimate_tokens(before["content"])
            total += tokens
            where = None
            if after.get("providerOptions"):
                where = "message"
            elif isinstance(after["content"], list) and after["content"][-1].get("providerOptions"):
                where = "last content part"
            rows.append({"role": before["role"], "tokens": tokens, "cumulativeTokens": total,
                         "marker": where})
        return {"settings": {k: settings.get(k) for k in (
                    "tokenThreshold", "cacheSystemMessage", "cacheLastNMessages")},
                "sampleMessages": rows, "marker": CACHE_MARKER,
                "note": "token counts approximated as ceil(chars / 4) (the reference uses tokenx)"}


FEATURE = AnthropicCacheFeature("anthropic-cache",
                                summary="middleware: cacheControl markers on messages")
