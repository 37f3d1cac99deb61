"""The whole report: shape, feature order, providerOptions, quirks, strict, extra features."""

import pytest

from engine.params import INTERNAL_FEATURES, REPORT_KEYS, Decision, Feature, ParamsError, build_params_report

from .payloads import THINKING, assistant, model, payload, provider

U = {"$undefined": True}


def anthropic_payload(**settings):
    prov = provider("anthropic", endpoint="anthropic-messages", family="anthropic",
                    base_url="https://claude.example.com", preset="anthropic")
    mod = model("anthropic::claude-haiku-4-5", caps=("function-call", "reasoning"),
                reasoning=THINKING)
    return payload(prov, mod, assistant(**settings))


def names(report):
    return [f["name"] for f in report["features"]]


def test_report_has_the_nine_keys_plus_extras():
    report = build_params_report(anthropic_payload())
    assert set(REPORT_KEYS) <= set(report)
    assert {"diagnostics", "explain", "profile"} <= set(report)
    assert report["hookPartsCount"] == 0
    assert report["plugins"] == [p for f in report["features"] for p in f["plugins"]]


def test_internal_feature_order():
    assert [f.name for f in INTERNAL_FEATURES] == [
        "ai-sdk-devtools", "gateway-usage-normalize", "model-params", "pdf-compatibility",
        "deepseek-dsml-parser", "reasoning-extraction", "simulate-streaming", "anthropic-cache",
        "anthropic-headers", "openrouter-reasoning", "no-think", "qwen-thinking",
        "skip-gemini-thought-signature", "provider-web-search", "provider-url-context"]


def test_anthropic_budget_is_capped_by_max_tokens_even_when_toggle_off():  # PAR-Q16
    report = build_params_report(anthropic_payload(reasoning_effort="high", maxTokens=3000))
    thinking = report["options"]["providerOptions"]["anthropic"]["thinking"]
    assert thinking == {"type": "enabled", "budgetTokens": 3000}
    assert "PAR-Q16" in {d["code"] for d in report["diagnostics"]}
    strict = build_params_report(anthropic_payload(reasoning_effort="high", maxTokens=3000),
                                 profile="strict")
    raw = int((64000 - 1024) * 0.8 + 1024)
    assert strict["options"]["providerOptions"]["anthropic"]["thinking"]["budgetTokens"] == raw


def test_budget_subtraction_can_reach_zero():  # PAR-Q11
    report = build_params_report(anthropic_payload(reasoning_effort="medium", maxTokens=5000,
                                                   enableMaxTokens=True))
    assert report["pluginDetails"]["model-params"] == {"maxOutputTokens": 0}
    assert "PAR-Q11" in {d["code"] for d in report["diagnostics"]}


def test_param_plugins_do_not_reach_options_unless_strict():  # PAR-Q1
    data = anthropic_payload(enableTemperature=True, temperature=0.4)
    report = build_params_report(data)
    assert report["pluginDetails"]["model-params"] == {"temperature": 0.4}
    assert report["pluginDetails"]["anthropic-headers"] == {
        "headers": {"anthropic-beta": "interleaved-thinking-2025-05-14"}}
    assert report["options"]["standardParams"] == {} and report["options"]["headers"] is None
    assert "PAR-Q1" in {d["code"] for d in report["diagnostics"]}
    strict = build_params_report(data, profile="strict")
    assert strict["options"]["standardParams"] == {"temperature": 0.4}
    assert strict["options"]["headers"] == {"anthropic-beta": "interleaved-thinking-2025-05-14"}


def test_empty_capability_options_are_kept():  # PAR-Q25
    report = build_params_report(anthropic_payload())
    assert report["options"]["providerOptions"] == {"anthropic": {}}
    assert build_params_report(anthropic_payload(), profile="strict")[
        "options"]["providerOptions"] is None


def qwen_payload(pid, **settings):
    prov = provider(pid, endpoint=None, base_url="http://127.0.0.1:1234")
    mod = model(f"{pid}::qwen3-14b", caps=("function-call", "reasoning"),
                reasoning={"type": "budget", "supportedEfforts": [],
                           "thinkingTokenLimits": {"min": 0, "max": 1}})
    return payload(prov, mod, assistant(**settings))


def test_qwen_thinking_suffix_follows_effort_definedness():  # PAR-Q2
    none = build_params_report(qwen_payload("lmstudio", reasoning_effort="none"))
    assert "qwen-thinking" in names(none)
    assert none["pluginDetails"]["qwen-thinking"] == {"probeUserText": "hello /think"}
    missing = qwen_payload("lmstudio")
    del missing["assistant"]["settings"]["reasoning_effort"]
    assert build_params_report(missing)["pluginDetails"]["qwen-thinking"] == {
        "probeUserText": "hello /no_think"}
    strict = build_params_report(qwen_payload("lmstudio", reasoning_effort="none"),
                                 profile="strict")
    assert strict["pluginDetails"]["qwen-thinking"] == {"probeUserText": "hello /no_think"}


def test_qwen_on_an_enable_thinking_provider_gets_options_not_suffixes():
    report = build_params_report(qwen_payload("siliconlike", reasoning_effort="high"))
    assert "qwen-thinking" not in names(report)
    options = report["options"]["providerOptions"]["openai-compatible"]
    budget = int((38912 - 1024) * 0.8 + 1024)
    assert options["enable_thinking"] is True and options["thinking_budget"] == budget


def test_reasoning_tag_uses_the_unique_id():  # PAR-Q3
    prov = provider("gemini-relay")
    report = build_params_report(payload(prov, model("gemini-relay::mistral-7b"), assistant()))
    assert report["pluginDetails"]["reasoning-extraction"] == {"tagName": "thought"}
    assert "PAR-Q3" in {d["code"] for d in report["diagnostics"]}
    strict = build_params_report(payload(prov, model("gemini-relay::mistral-7b"), assistant()),
                                 profile="strict")
    assert strict["pluginDetails"]["reasoning-extraction"] == {"tagName": "think"}


def test_openai_family_options_key_is_openai():  # PAR-Q5
    prov = provider("openai", endpoint="openai-chat-completions", family="openai")
    report = build_params_report(payload(prov, model("openai::gpt-4.1"), assistant()))
    assert report["scope"]["aiSdkProviderId"] == "openai-chat"
    assert list(report["options"]["providerOptions"]) == ["openai"]
    assert report["options"]["providerOptions"]["openai"]["store"] is False
    strict = build_params_report(payload(prov, model("openai::gpt-4.1"), assistant()),
                                 profile="strict")
    assert list(strict["options"]["providerOptions"]) == ["openai-chat"]


def test_gemini_budget_and_safety_settings():
    prov = provider("gemini", endpoint="google-generate-content", family="google",
                    base_url="https://gen.example.com")
    mod = model("gemini::gemini-2.5-flash", caps=("reasoning",), reasoning=THINKING)
    report = build_params_report(payload(prov, mod, assistant(reasoning_effort="medium")))
    google = report["options"]["providerOptions"]["google"]
    assert len(google["safetySettings"]) == 5
    assert google["thinkingConfig"] == {"includeThoughts": True, "thinkingBudget": 12288}
    assert report["sdkConfig"]["providerSettings"]["baseURL"] == "https://gen.example.com/v1beta"


def test_openrouter_reasoning_and_custom_parameters():
    prov = provider("openrouter", family="openrouter", base_url="https://or.example.com/api/v1")
    mod = model("openrouter::vendor/r-model", reasoning={"supportedEfforts": ["low", "high"]})
    custom = [{"name": "seed", "type": "number", "value": 3},
              {"name": "route", "type": "json", "value": '{"order": ["a"]}'}]
    report = build_params_report(payload(prov, mod, assistant(reasoning_effort="low",
                                                              customParameters=custom)))
    assert "openrouter-reasoning" in names(report)
    assert report["options"]["standardParams"] == {"seed": 3}
    opts = report["options"]["providerOptions"]["openrouter"]
    assert opts["reasoning"] == {"effort": "low"} and opts["route"] == {"order": ["a"]}
    assert opts["serviceTier"] == U


def test_web_search_plugin_and_builtin_tools():  # PAR-Q14
    prov = provider("anthropic", endpoint="anthropic-messages", family="anthropic",
                    preset="anthropic")
    mod = model("anthropic::claude-haiku-4-5", caps=("function-call", "web-search"))
    report = build_params_report(payload(prov, mod, assistant(enableWebSearch=True),
                                         env={"prefs": {"chat.web_search.max_results": 3}}))
    assert report["scope"]["capabilities"]["webSearchPluginConfig"] == {
        "anthropic": {"maxUses": 3, "blockedDomains": U}}
    tool = report["pluginDetails"]["webSearch"]["tools"]["webSearch"]
    assert tool["id"] == "anthropic.web_search_20260209" and tool["args"]["maxUses"] == 3
    assert report["tools"]["active"] == ["web__fetch", "web__search"]


def test_no_assistant_gives_minimal_report():
    prov = provider("anthropic", endpoint="anthropic-messages", family="anthropic")
    report = build_params_report(payload(prov, model("anthropic::claude-haiku-4-5"), None))
    assert names(report) == ["pdf-compatibility"]
    assert report["scope"]["capabilities"] is None
    assert report["options"]["providerOptions"] is None
    assert report["options"]["stopWhenStepCount"] is None


def test_telemetry_needs_chat_id_and_developer_mode():
    data = anthropic_payload()
    data["env"] = {"prefs": {"app.developer_mode.enabled": True}}
    report = build_params_report(data)
    assert names(report)[0] == "ai-sdk-devtools"
    telemetry = report["options"]["telemetry"]
    assert telemetry["functionId"] == "ai-request-req-9"
    assert telemetry["metadata"]["topicId"] == "chat-9"
    data["request"].pop("chatId")
    assert build_params_report(data)["options"]["telemetry"] is None


def test_request_options_are_copied():
    data = anthropic_payload()
    data["request"]["requestOptions"] = {"headers": {}, "maxRetries": None, "timeout": 5}
    options = build_params_report(data)["options"]
    assert options["headers"] == {} and options["maxRetries"] == 0


def test_missing_api_model_id_sends_the_unique_id():  # PAR-Q12
    data = payload(provider(), model("my-llm::local", api=None), assistant())
    assert build_params_report(data)["sdkConfig"]["modelId"] == "my-llm::local"
    assert build_params_report(data, profile="strict")["sdkConfig"]["modelId"] == "local"


class Counting(Feature):
    def decide(self, scope):
        return Decision(True, "test feature")


class Exploding:
    name = "exploding"

    def applies(self, scope):
        raise RuntimeError("boom")


class HookOnly:
    name = "hook-only"

    def contribute_hooks(self, scope):
        return {"onFinish": lambda: None}


def test_extra_features_run_after_the_internal_ones():
    report = build_params_report(anthropic_payload(),
                                 features=[Counting("extra"), Exploding(), HookOnly()])
    assert names(report)[-2:] == ["extra", "hook-only"]
    assert report["hookPartsCount"] == 1
    assert report["explain"]["hooks"] == ["onFinish"]
    exploded = next(f for f in report["explain"]["features"] if f["name"] == "exploding")
    assert exploded["applied"] is False and "boom" in exploded["warning"]


def test_explain_marks_param_plugins_and_shows_effects():
    report = build_params_report(anthropic_payload())
    by_name = {f["name"]: f for f in report["explain"]["features"]}
    assert by_name["openrouter-reasoning"]["applied"] is False
    assert "openrouter" in by_name["openrouter-reasoning"]["why"]
    headers = by_name["anthropic-headers"]["plugins"][0]
    assert headers["actsOnChatPath"] is False and "PAR-Q1" in headers["caveat"]
    assert by_name["pdf-compatibility"]["plugins"][0]["actsOnChatPath"] is True


@pytest.mark.parametrize("mutate,pointer", [
    (lambda d: d.pop("provider"), "/provider"),
    (lambda d: d.__setitem__("model", []), "/model"),
    (lambda d: d["model"].pop("id"), "/model/id"),
    (lambda d: d["model"].__setitem__("capabilities", "function-call"), "/model/capabilities"),
    (lambda d: d.__setitem__("assistant", "x"), "/assistant"),
    (lambda d: d.__setitem__("env", {"now": "yesterday"}), "/env/now"),
])
def test_bad_payloads_name_the_json_path(mutate, pointer):
    data = anthropic_payload()
    mutate(data)
    with pytest.raises(ParamsError) as err:
        build_params_report(data)
    assert err.value.pointer == pointer


def test_unknown_profile_is_rejected():
    with pytest.raises(ValueError):
        build_params_report(anthropic_payload(), profile="nope")
