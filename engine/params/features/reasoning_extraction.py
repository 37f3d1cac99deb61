"""``reasoning-extraction``: ``extractReasoningMiddleware({tagName})`` on OpenAI-style adapters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params import ids
from engine.params.features.base import Decision, Feature, show

if TYPE_CHECKING:
    from engine.params.scope import RequestScope

OPENAI_STYLE_IDS = ("openai", "openai-chat", "openai-response", "openai-compatible", "azure",
                    "azure-responses")


def tag_for(model_id: str) -> str:
    lowered = model_id.lower()
    if "gpt-oss" in lowered:
        return "reasoning"
    if "gemini" in lowered:
        return "thought"
    if "seed-oss-36b" in lowered:
        return "seed:think"
    return "think"


def tag_name(scope: RequestScope) -> str:
    """From the lower-cased *unique* id (PAR-Q3); strict uses the raw model id."""
    unique_tag = tag_for(ids.unique_id(scope.model))
    raw_tag = tag_for(ids.raw_id(scope.model))
    if scope.strict:
        return raw_tag
    if unique_tag != raw_tag:
        scope.quirk("PAR-Q3", f"reasoning tag {show(unique_tag)} comes from the provider prefix of "
                              f"the unique id; the model id alone gives {show(raw_tag)}")
    return unique_tag


def extract_reasoning(text: str, tag: str) -> dict[str, Any]:
    """What the middleware makes of a generated text: reasoning parts and the remaining text."""
    opening, closing = f"<{tag}>", f"</{tag}>"
    reasoning: list[str] = []
    rest: list[str] = []
    pos = 0
    while True:
        start = text.find(opening, pos)
        end = text.find(closing, start + len(opening)) if start != -1 else -1
        if start == -1 or end == -1:
            rest.append(text[pos:])
            break
        rest.append(text[pos:start])
        reasoning.append(text[start + len(opening):end])
        pos = end + len(closing)
    return {"reasoning": "\n".join(reasoning), "text": "".join(rest)}


class ReasoningExtractionFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        pid = scope.ai_sdk_provider_id
        ok = pid in OPENAI_STYLE_IDS
        return Decision(ok, f"aiSdkProviderId {show(pid)} is {'' if ok else 'not '}an OpenAI-style "
                            "adapter")

    def details(self, scope: RequestScope) -> dict[str, Any]:
        return {"tagName": tag_name(scope)}

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        tag = tag_name(scope)
        sample = f"<{tag}>The user greets me.</{tag}>Hello! How can I help?"
        return {"sampleResponse": sample, "after": extract_reasoning(sample, tag)}


FEATURE = ReasoningExtractionFeature("reasoning-extraction",
                                     summary="middleware: <tag>…</tag> → reasoning parts")
