"""Quirks no other test pinned: each runs under both profiles and checks the diagnostic id.

The default profile (``cherry-studio``) reproduces the quirk and names it; ``strict`` applies the
fix and stays silent about it (see docs/quirks/params.md).
"""

import pytest

from engine.params import build_params_report
from engine.params.features.openrouter_reasoning import strip_redacted
from engine.params.provider_options import OptionsContext, generic_options

from .payloads import THINKING, assistant, model, payload, provider


def both(data):
    return build_params_report(data), build_params_report(data, profile="strict")


def codes(report):
    return {d["code"] for d in report["diagnostics"]}


def feature_names(report):
    return [f["name"] for f in report["features"]]


def test_url_context_is_hard_wired_off():  # PAR-Q9
    gemini = provider("gemini", endpoint="google-generate-content", family="google",
                      base_url="https://gen.example.com")
    ref, strict = both(payload(gemini, model("gemini::gemini-2.5-pro"), assistant(enableUrlContext=True)))
    assert "provider-url-context" not in feature_names(ref) and "PAR-Q9" in codes(ref)
    assert "provider-url-context" in feature_names(strict) and "urlContext" in strict["plugins"]
    assert "PAR-Q9" not in codes(strict)


def _deep_research_without_effort():
    settings = assistant()
    del settings["settings"]["reasoning_effort"]  # effort key missing: enableReasoning is false
    effort_model = {"type": "effort", "supportedEfforts": ["low", "medium", "high"]}
    return provider("openai"), model("openai::o3-deep-research", caps=("reasoning",),
                                     reasoning=effort_model), settings


def test_generic_reasoning_params_ignore_enable_reasoning():  # PAR-Q10
    prov, mod, asst = _deep_research_without_effort()
    ref = build_params_report(payload(prov, mod, asst))
    assert ref["options"]["providerOptions"]["openai-compatible"]["reasoning_effort"] == "medium"
    assert "PAR-Q10" in codes(ref)
    reference_ctx = OptionsContext(prov, mod, asst, False, False, strict=False)
    assert generic_options(reference_ctx, tiers=False) == {"reasoning_effort": "medium"}
    assert [q["code"] for q in reference_ctx.quirks] == ["PAR-Q10"]
    strict_ctx = OptionsContext(prov, mod, asst, False, False, strict=True)
    assert generic_options(strict_ctx, tiers=False) == {}  # gated on enableReasoning
    assert strict_ctx.quirks == []


def test_openrouter_reasoning_tests_the_literal_provider_id():  # PAR-Q13
    cloned = provider("openrouter-2", preset="openrouter")
    ref, strict = both(payload(cloned, model("openrouter-2::x"), assistant()))
    assert "openrouter-reasoning" not in ref["plugins"] and "PAR-Q13" in codes(ref)
    assert "openrouter-reasoning" in strict["plugins"] and "PAR-Q13" not in codes(strict)
    assert strip_redacted("[REDACTED] a [REDACTED]") == " a [REDACTED]"  # only the first marker
    assert strip_redacted("[REDACTED] a [REDACTED]", all_occurrences=True) == " a "  # strict


def test_deepseek_dsml_feature_is_reported_as_undocumented():  # PAR-Q15
    ref, strict = both(payload(provider("deepseek"), model("deepseek::deepseek-chat"), assistant()))
    assert "deepseekDsmlParser" in ref["plugins"] and "PAR-Q15" in codes(ref)
    assert "deepseekDsmlParser" in strict["plugins"] and "PAR-Q15" not in codes(strict)


def test_web_search_on_azure_chat_throws():  # PAR-Q19
    azure = provider("azure-openai", family="azure", auth="iam-azure", preset="azure-openai",
                     base_url="https://res.example.com/openai")
    mod = model("azure-openai::gpt-4o", caps=("function-call", "web-search"))
    ref, strict = both(payload(azure, mod, assistant(enableWebSearch=True)))
    assert "webSearchPreview" in ref["pluginDetails"]["webSearch"]["error"]
    assert "PAR-Q19" in codes(ref)
    assert "error" not in (strict["pluginDetails"].get("webSearch") or {})
    assert "PAR-Q19" not in codes(strict)


def test_bedrock_beta_flags_are_computed_without_the_provider():  # PAR-Q28
    bedrock = provider("aws-bedrock", endpoint="anthropic-messages", family="bedrock", auth="iam-aws")
    bedrock["endpointConfigs"] = {"anthropic-messages": {"adapterFamily": "bedrock"}}
    mod = model("aws-bedrock::anthropic.claude-sonnet-4-5", caps=("reasoning",), reasoning=THINKING)
    ref, strict = both(payload(bedrock, mod, assistant(reasoning_effort="low")))
    assert ref["options"]["providerOptions"]["bedrock"]["anthropicBeta"] == [
        "interleaved-thinking-2025-05-14"]
    assert "PAR-Q28" in codes(ref)
    assert "anthropicBeta" not in strict["options"]["providerOptions"]["bedrock"]  # iam-aws: no flag
    assert "PAR-Q28" not in codes(strict)


# Quirks pinned elsewhere only by behaviour: these also assert the id is reported (and that
# strict, where it fixes the quirk, is silent about it).


def test_missing_endpoint_gives_two_provider_ids():  # PAR-Q4
    relay = provider("relay", endpoint=None, family="newapi")
    relay["endpointConfigs"] = {"openai-chat-completions": {"baseUrl": "http://r",
                                                            "adapterFamily": "new-api"}}
    mod = model("relay::o3", caps=("reasoning",), reasoning=THINKING)
    ref, strict = both(payload(relay, mod, assistant(reasoning_effort="high")))
    assert ref["scope"]["aiSdkProviderId"] == "openai-compatible"
    assert list(ref["options"]["providerOptions"]) == ["openai"]  # the aggregator route
    assert "PAR-Q4" in codes(ref)
    assert strict["options"]["providerOptions"] == {"openai-compatible": {"reasoningEffort": "high"}}
    assert "PAR-Q4" not in codes(strict)


def test_qwen_thinking_effort_none_still_thinks():  # PAR-Q2
    lmstudio = provider("lmstudio", endpoint=None, base_url="http://127.0.0.1:1234")
    mod = model("lmstudio::qwen3-14b", caps=("function-call", "reasoning"),
                reasoning={"type": "budget", "supportedEfforts": [],
                           "thinkingTokenLimits": {"min": 0, "max": 1}})
    ref, strict = both(payload(lmstudio, mod, assistant(reasoning_effort="none")))
    assert ref["pluginDetails"]["qwen-thinking"] == {"probeUserText": "hello /think"}
    assert "PAR-Q2" in codes(ref)
    assert strict["pluginDetails"]["qwen-thinking"] == {"probeUserText": "hello /no_think"}
    assert "PAR-Q2" not in codes(strict)


def test_openai_family_options_are_keyed_openai():  # PAR-Q5
    ref, strict = both(payload(provider("openai", family="openai"), model("openai::gpt-4.1"),
                               assistant()))
    assert list(ref["options"]["providerOptions"]) == ["openai"] and "PAR-Q5" in codes(ref)
    assert list(strict["options"]["providerOptions"]) == ["openai-chat"]
    assert "PAR-Q5" not in codes(strict)


def test_missing_api_model_id_is_reported():  # PAR-Q12
    ref, strict = both(payload(provider(), model("my-llm::local", api=None), assistant()))
    assert ref["sdkConfig"]["modelId"] == "my-llm::local" and "PAR-Q12" in codes(ref)
    assert strict["sdkConfig"]["modelId"] == "local" and "PAR-Q12" not in codes(strict)


def test_bedrock_cross_region_claude_gets_no_reasoning():  # PAR-Q17
    bedrock = provider("bedrock", family="bedrock", auth="iam-aws")
    mod = model("bedrock::us.anthropic.claude-3-7-sonnet", caps=("reasoning",), reasoning=THINKING)
    ref, strict = both(payload(bedrock, mod, assistant(reasoning_effort="high")))
    assert ref["options"]["providerOptions"] == {"bedrock": {}} and "PAR-Q17" in codes(ref)
    assert strict["options"]["providerOptions"]["bedrock"]["reasoningConfig"]["type"] == "enabled"
    assert "PAR-Q17" not in codes(strict)


@pytest.mark.parametrize("value,reference,fixed", [(2.5, None, 3), (3.4, None, 3), (101, 20, 100)])
def test_max_tool_calls_range_check(value, reference, fixed):  # PAR-Q18
    ref, strict = both(payload(provider(), model("my-llm::m"), assistant(maxToolCalls=value)))
    assert ref["options"]["stopWhenStepCount"] == reference and "PAR-Q18" in codes(ref)
    assert strict["options"]["stopWhenStepCount"] == fixed and "PAR-Q18" not in codes(strict)


def test_tool_order_uses_locale_collation():  # PAR-Q20
    servers = [{"id": sid, "name": name, "isActive": True, "tools": [
        {"name": tool, "description": "T.", "inputSchema": {"type": "object"}}]}
        for sid, name, tool in (("s1", "One", "ab"), ("s2", "One2", "ab"))]
    ref, strict = both(payload(provider(), model("p::m"), assistant(), mcpServers=servers))
    assert ref["tools"]["active"] == ["mcp__one__ab", "mcp__one2__ab"]  # '_' before digits
    assert "PAR-Q20" in codes(ref)
    assert strict["tools"]["active"] == ["mcp__one2__ab", "mcp__one__ab"]  # '2' < '_'
    assert "PAR-Q20" not in codes(strict)


def test_namespace_order_alone_is_not_reported_when_no_namespace_is_shown():  # PAR-Q20
    """Namespaces are ordered only in the deferred-tools list of the system prompt; servers whose
    names collate differently ("Ops Server" before or after "github") change nothing when their
    tools are all exposed, so nothing is reported."""
    servers = [{"id": sid, "name": name, "isActive": True, "tools": [
        {"name": tool, "description": "T.", "inputSchema": {"type": "object"}}]}
        for sid, name, tool in (("s1", "Ops Server", "alpha"), ("s2", "github", "beta"))]
    ref, strict = both(payload(provider(), model("p::m"), assistant(), mcpServers=servers))
    assert ref["tools"]["active"] == strict["tools"]["active"]
    assert "PAR-Q20" not in codes(ref)


def test_free_form_effort_is_accepted():  # PAR-Q23
    effort_model = {"type": "effort", "supportedEfforts": ["low", "medium", "high"]}
    mod = model("my-llm::o3", caps=("reasoning",), reasoning=effort_model)
    ref, strict = both(payload(provider(), mod, assistant(reasoning_effort="turbo")))
    assert ref["options"]["providerOptions"]["openai-compatible"]["reasoningEffort"] == "low"
    assert "PAR-Q23" in codes(ref)
    assert "schema:enum" in codes(strict)  # the fix: the effort enum flags it
    assert "PAR-Q23" not in codes(strict)


def test_empty_capability_options_are_reported():  # PAR-Q25
    anth = provider("anthropic", endpoint="anthropic-messages", family="anthropic")
    ref, strict = both(payload(anth, model("anthropic::claude-haiku-4-5"), assistant()))
    assert ref["options"]["providerOptions"] == {"anthropic": {}} and "PAR-Q25" in codes(ref)
    assert strict["options"]["providerOptions"] is None and "PAR-Q25" not in codes(strict)


def test_hash_endpoint_routing_is_dead():  # PAR-Q26
    prov = provider(base_url="http://localhost:8000/proxy#chat/completions")
    ref, strict = both(payload(prov, model("my-llm::m"), assistant()))
    assert ref["sdkConfig"]["endpoint"] == "" and "PAR-Q26" in codes(ref)
    assert strict["sdkConfig"]["endpoint"] == "chat/completions"
    assert "PAR-Q26" not in codes(strict)
