"""The internal features in the reference's order — plugin order is significant (spec §6.1)."""

from __future__ import annotations

from engine.params.features import (
                                    anthropic_cache,
                                    anthropic_headers,
                                    deepseek_dsml,
                                    devtools,
                                    gateway_usage_normalize,
                                    model_params,
                                    no_think,
                                    openrouter_reasoning,
                                    pdf_compatibility,
                                    provider_url_context,
                                    provider_web_search,
                                    qwen_thinking,
                                    reasoning_extraction,
                                    simulate_streaming,
                                    skip_gemini_thought_signature,
)

INTERNAL_FEATURES = (
    devtools.FEATURE,
    gateway_usage_normalize.FEATURE,
    model_params.FEATURE,
    pdf_compatibility.FEATURE,  # must run before anthropic-cache
    deepseek_dsml.FEATURE,
    reasoning_extraction.FEATURE,  # must run before simulate-streaming
    simulate_streaming.FEATURE,
    anthropic_cache.FEATURE,
    anthropic_headers.FEATURE,
    openrouter_reasoning.FEATURE,
    no_think.FEATURE,
    qwen_thinking.FEATURE,
    skip_gemini_thought_signature.FEATURE,
    provider_web_search.FEATURE,
    provider_url_context.FEATURE,
)
