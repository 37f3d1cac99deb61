"""The strict profile's fixes of spec §13 (each test cites its quirk id)."""

from engine.params import build_params_report

from .payloads import THINKING, assistant, model, payload, provider


def both(data):
    return build_params_report(data), build_params_report(data, profile="strict")


def codes(report):
    return {d["code"] for d in report["diagnostics"]}


def test_ollama_identity_follows_the_builder():  # PAR-Q21
    prov = provider("ollama", endpoint=None, base_url="http://box:11434")
    ref, strict = both(payload(prov, model("ollama::llama3"), assistant()))
    assert ref["sdkConfig"]["providerId"] == "ollama"
    assert ref["scope"]["aiSdkProviderId"] == "openai-compatible"
    assert "reasoning-extraction" in ref["plugins"] and "PAR-Q21" in codes(ref)
    assert strict["scope"]["aiSdkProviderId"] == "ollama"
    assert "reasoning-extraction" not in strict["plugins"]
    assert list(strict["options"]["providerOptions"] or {}) in ([], ["ollama"])


def test_azure_claude_uses_the_anthropic_builders():  # PAR-Q22
    prov = provider("azure-openai", family="azure", auth="iam-azure", preset="azure-openai",
                    base_url="https://res.example.com/anthropic")
    mod = model("azure-openai::claude-opus-4-1", caps=("reasoning",), reasoning=THINKING)
    ref, strict = both(payload(prov, mod, assistant(reasoning_effort="low")))
    assert list(ref["options"]["providerOptions"]) == ["openai"] and "PAR-Q22" in codes(ref)
    assert strict["scope"]["aiSdkProviderId"] == "azure-anthropic"
    assert "thinking" in strict["options"]["providerOptions"]["anthropic"]


def test_hash_suffix_routes_the_endpoint():  # PAR-Q26
    prov = provider(base_url="http://localhost:8000/proxy#chat/completions")
    ref, strict = both(payload(prov, model("my-llm::m"), assistant()))
    assert ref["sdkConfig"]["endpoint"] == ""
    assert strict["sdkConfig"]["endpoint"] == "chat/completions"
    assert strict["sdkConfig"]["providerSettings"]["baseURL"] == "http://localhost:8000/proxy"


def test_one_web_search_mechanism_and_no_empty_configs():  # PAR-Q14
    anth = provider("anthropic", endpoint="anthropic-messages", family="anthropic")
    mod = model("anthropic::claude-haiku-4-5", caps=("function-call", "web-search"))
    ref, strict = both(payload(anth, mod, assistant(enableWebSearch=True)))
    assert "web__search" in ref["tools"]["active"] and "PAR-Q14" in codes(ref)
    assert strict["tools"]["active"] == [] and "webSearch" in strict["plugins"]
    plain = provider()
    ref, strict = both(payload(plain, model("my-llm::m", caps=("web-search",)),
                               assistant(enableWebSearch=True)))
    assert "webSearch" in ref["plugins"] and "webSearch" not in strict["plugins"]


def test_vertex_claude_gets_the_anthropic_config():  # PAR-Q29
    prov = provider("vertexai", endpoint="anthropic-messages", family="google-vertex-anthropic",
                    auth="iam-gcp", extra={"authConfig": {"type": "iam-gcp", "project": "p",
                                                          "location": "l"}})
    mod = model("vertexai::claude-sonnet-4-5", caps=("web-search",))
    ref, strict = both(payload(prov, mod, assistant(enableWebSearch=True)))
    assert ref["pluginDetails"]["webSearch"]["tools"]["webSearch"]["args"] == {}
    assert "PAR-Q29" in codes(ref)
    args = strict["pluginDetails"]["webSearch"]["tools"]["webSearch"]["args"]
    assert args["maxUses"] == 5
    assert "PAR-Q29" not in codes(strict)


def test_gateway_models_map_by_family():  # PAR-Q24
    prov = provider("gateway", family="gateway", base_url="https://gw.example.com/v1/ai")
    mod = model("gateway::anthropic/claude-sonnet-4", caps=("web-search",))
    ref, strict = both(payload(prov, mod, assistant(enableWebSearch=True)))
    assert ref["pluginDetails"]["webSearch"] == {"tools": {}} and "PAR-Q24" in codes(ref)
    assert strict["pluginDetails"]["webSearch"]["tools"]["webSearch"]["id"].startswith(
        "anthropic.web_search")


def test_strict_reports_schema_findings_but_still_builds():  # PAR-Q23
    data = payload(provider(), model("my-llm::m"), assistant(reasoning_effort="turbo",
                                                            maxToolCalls=0))
    strict = build_params_report(data, profile="strict")
    pointers = {d["pointer"] for d in strict["diagnostics"] if d["level"] == "warning"}
    assert pointers == {"/assistant/settings/maxToolCalls", "/assistant/settings/reasoning_effort"}
    assert strict["options"]["stopWhenStepCount"] == 1  # PAR-Q18 fix: clamped
    assert not any(d["code"].startswith("PAR-") for d in strict["diagnostics"])


def test_strict_emits_no_quirk_diagnostics_for_the_reference_case():
    anth = provider("anthropic", endpoint="anthropic-messages", family="anthropic")
    mod = model("anthropic::claude-haiku-4-5", caps=("reasoning",), reasoning=THINKING)
    ref, strict = both(payload(anth, mod, assistant(reasoning_effort="high")))
    assert "PAR-Q16" in codes(ref)
    assert codes(strict) == set()
