"""The explain section: feature verdicts and plugin effects on sample requests."""

from engine.params import build_params_report
from engine.params.features.anthropic_cache import CACHE_MARKER, place_cache_markers
from engine.params.features.gateway_usage_normalize import normalize_usage
from engine.params.features.no_think import append_suffix
from engine.params.features.openrouter_reasoning import strip_redacted
from engine.params.features.reasoning_extraction import extract_reasoning, tag_for
from engine.params.features.skip_gemini_thought_signature import SKIP_VALUE, mark_tool_call

from .payloads import THINKING, assistant, model, payload, provider


def explain(report, name):
    return next(f for f in report["explain"]["features"] if f["name"] == name)


def test_cache_markers_system_message_and_last_parts():
    messages = [{"role": "system", "content": "s" * 400},
                {"role": "user", "content": "u" * 400},
                {"role": "assistant", "content": [{"type": "text", "text": "a"},
                                                  {"type": "text", "text": "b"}]},
                {"role": "user", "content": ""}]
    out = place_cache_markers(messages, {"tokenThreshold": 100, "cacheSystemMessage": True,
                                         "cacheLastNMessages": 2})
    assert out[0]["providerOptions"] == CACHE_MARKER
    assert out[1]["content"][-1]["providerOptions"] == CACHE_MARKER
    assert out[2]["content"][-1]["providerOptions"] == CACHE_MARKER
    assert "providerOptions" not in out[2]["content"][0]
    assert out[3]["content"] == ""  # empty content is skipped
    assert "providerOptions" not in messages[1]  # inputs are not mutated


def test_reasoning_extraction_and_tags():
    assert tag_for("p::gpt-oss-20b") == "reasoning"
    assert tag_for("p::seed-oss-36b") == "seed:think"
    assert extract_reasoning("<think>why</think>answer", "think") == {"reasoning": "why",
                                                                      "text": "answer"}
    assert extract_reasoning("no tags", "think") == {"reasoning": "", "text": "no tags"}


def test_small_middleware_effects():
    assert append_suffix("hi", "/no_think", skip=("/no_think",)) == "hi /no_think"
    assert append_suffix("hi /think", "/think", skip=("/think", "/no_think")) == "hi /think"
    assert strip_redacted("[REDACTED] a [REDACTED]") == " a [REDACTED]"
    assert strip_redacted("[REDACTED] a [REDACTED]", all_occurrences=True) == " a "
    part = mark_tool_call({"type": "tool-call", "providerOptions": {
        "openaiCompatible": {"keep": 1, "extra_content": {"old": True}}}})
    assert part["providerOptions"]["openaiCompatible"] == {
        "keep": 1, "extra_content": {"google": {"thought_signature": SKIP_VALUE}}}
    assert normalize_usage({"inputTokens": 10, "outputTokens": 2, "cachedInputTokens": 4,
                            "reasoningTokens": 1}) == {
        "inputTokens": {"total": 10, "cacheRead": 4}, "outputTokens": {"total": 2, "reasoning": 1}}


def test_explain_shows_effects_for_applied_features():
    prov = provider("lmstudio", endpoint=None)
    mod = model("lmstudio::qwen3-8b", caps=("reasoning",), reasoning=THINKING)
    report = build_params_report(payload(prov, mod, assistant(reasoning_effort="low")))
    qwen = explain(report, "qwen-thinking")
    assert qwen["applied"] and "lmstudio" in qwen["why"]
    assert qwen["plugins"][0]["effect"] == {"sampleUserText": "hello", "after": "hello /think"}
    extraction = explain(report, "reasoning-extraction")["plugins"][0]["effect"]
    assert extraction["after"]["reasoning"] and "<think>" not in extraction["after"]["text"]
    assert explain(report, "anthropic-cache")["applied"] is False
    assert report["explain"]["routing"]["sdkBuilder"] == "openai-compatible"
