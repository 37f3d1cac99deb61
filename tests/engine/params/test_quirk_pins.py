"""Quirks no other test pinned: each runs under both profiles and checks the diagnostic id.

The default profile (``cherry-studio``) reproduces the quirk and names it; ``strict`` applies the
fix and stays silent about it (see docs/quirks/params.md).
"""

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
