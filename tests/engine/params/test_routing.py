"""Endpoint routing, provider ids, base-URL formatting and sdk builders (spec §4)."""

import pytest

from engine.params import ParamsError
from engine.params.jsv import UNDEFINED
from engine.params.routing import (
    build_sdk_config,
    effective_endpoint,
    format_ollama_url,
    format_url,
    formatted_base_url,
    resolve_options_provider_id,
    resolve_scope_provider_id,
)

from .payloads import model, provider


@pytest.mark.parametrize("url,version,expected", [
    ("https://api.example.com", "v1", "https://api.example.com/v1"),
    ("https://gw.example.com/compatible-mode/v1/", "v1", "https://gw.example.com/compatible-mode/v1"),
    ("http://localhost:8000/v3/", "v1", "http://localhost:8000/v3"),
    ("https://api.example.com/openai", "v1", "https://api.example.com/openai/v1"),
    ("https://edge.example.com/v1/ai", "v1", "https://edge.example.com/v1/ai"),
    ("https://x.example.com/v2beta", "v1", "https://x.example.com/v2beta"),
    ("https://proxy.example.com/g#", "v1beta", "https://proxy.example.com/g"),
    ("https://search.example.com/", None, "https://search.example.com"),
    ("   ", "v1", ""),
])
def test_format_url(url, version, expected):
    assert format_url(url, version) == expected


def test_ollama_form_strips_one_known_suffix_each():
    assert format_ollama_url("http://box:11434/") == "http://box:11434/api"
    assert format_ollama_url("http://box:11434/v1") == "http://box:11434/api"
    assert format_ollama_url("http://box:11434/chat") == "http://box:11434/api"


def test_formatter_choice_by_endpoint_and_provider():
    gemini = provider("gemini", endpoint="google-generate-content")
    assert formatted_base_url(gemini, "google-generate-content",
                              "https://g.example.com") == "https://g.example.com/v1beta"
    plex = provider("perplexity")
    assert formatted_base_url(plex, "openai-chat-completions",
                              "https://p.example.com/") == "https://p.example.com"


def test_endpoint_model_first_then_provider_default():
    prov = provider(endpoint="anthropic-messages")
    assert effective_endpoint(prov, model("p::m")) == "anthropic-messages"
    assert effective_endpoint(prov, model("p::m", extra={"endpointTypes": ["openai-responses"]})) \
        == "openai-responses"
    assert effective_endpoint(prov, model("p::m", extra={"endpointTypes": []})) \
        == "anthropic-messages"


@pytest.mark.parametrize("family,endpoint,expected", [
    ("openai", "openai-chat-completions", "openai-chat"),
    ("openai", "openai-responses", "openai"),
    ("azure", "openai-responses", "azure-responses"),
    ("cherryin", "openai-chat-completions", "cherryin-chat"),
    ("xai", "openai-responses", "xai-responses"),
    ("ollama", "ollama-chat", "ollama"),
    ("claude", "anthropic-messages", "anthropic"),
    ("grok", "openai-chat-completions", "xai"),
    ("no-such-family", "openai-chat-completions", "openai-compatible"),
    (None, "openai-chat-completions", "openai-compatible"),
])
def test_scope_provider_id(family, endpoint, expected):
    prov = provider(endpoint=endpoint, family=family)
    assert resolve_scope_provider_id(prov, endpoint) == expected


def test_options_id_treats_missing_endpoint_as_chat():  # PAR-Q4
    prov = provider("relay", endpoint=None, family="newapi")
    prov["endpointConfigs"] = {"openai-chat-completions": {"baseUrl": "http://r", "adapterFamily":
                                                           "new-api"}}
    assert resolve_scope_provider_id(prov, UNDEFINED) == "openai-compatible"
    assert resolve_options_provider_id(prov, UNDEFINED) == "newapi"


def _sdk(prov, mod):
    endpoint = effective_endpoint(prov, mod)
    return build_sdk_config(prov, mod, endpoint, resolve_scope_provider_id(prov, endpoint), None)


def test_ollama_builder_adds_bearer_only_with_a_key():
    with_key = _sdk(provider("ollama", endpoint=None, base_url="http://box:11434"), model("o::m"))
    assert with_key.provider_id == "ollama"
    assert with_key.provider_settings["headers"]["Authorization"] == "Bearer <apiKey>"
    assert with_key.provider_settings["baseURL"] == "http://box:11434/api"
    without = _sdk(provider("ollama", endpoint=None, keys=False), model("o::m"))
    assert "Authorization" not in without.provider_settings["headers"]
    assert without.to_report()["providerSettings"]["apiKey"] == ""


def test_openai_builder_adds_x_api_key_and_redacts():
    sdk = _sdk(provider("openai", endpoint="openai-responses", family="openai",
                        base_url="https://oa.example.com"), model("openai::gpt-4.1"))
    report = sdk.to_report()
    assert report["providerSettings"]["headers"]["X-Api-Key"] == "<apiKey>"
    assert report["providerSettings"]["apiKey"] == "<redacted>"
    assert report["providerSettings"]["baseURL"] == "https://oa.example.com/v1"


def test_extra_headers_override_app_headers():
    prov = provider(extra={"settings": {"extraHeaders": {"X-Title": "Mine", "X-Trace": "1"}}})
    headers = _sdk(prov, model("p::m")).provider_settings["headers"]
    assert headers == {"HTTP-Referer": "https://cherry-ai.com", "X-Title": "Mine", "X-Trace": "1"}


def test_azure_claude_goes_to_the_anthropic_builder():
    prov = provider("az", family="azure", auth="iam-azure",
                    base_url="https://res.example.com/anthropic/v1")
    sdk = _sdk(prov, model("az::claude-haiku-4-5"))
    assert sdk.provider_id == "azure-anthropic"
    assert sdk.provider_settings["baseURL"] == "https://res.example.com/anthropic"


def test_azure_chat_appends_openai_and_api_version():
    prov = provider("az", family="azure", auth="iam-azure", base_url="https://res.example.com",
                    extra={"settings": {"apiVersion": " 2025-01-01 "}})
    settings = _sdk(prov, model("az::gpt-4.1")).provider_settings
    assert settings["baseURL"] == "https://res.example.com/openai"
    assert settings["apiVersion"] == "2025-01-01"
    assert settings["useDeploymentBasedUrls"] is True


def test_vertex_without_iam_gcp_auth_is_rejected():
    prov = provider("vertexai", endpoint="google-generate-content", family="google-vertex",
                    auth="iam-gcp")
    with pytest.raises(ParamsError) as err:
        _sdk(prov, model("vertexai::gemini-2.5-pro"))
    assert str(err.value) == "VertexAI requires iam-gcp auth configuration."
    assert err.value.pointer == "/provider/authConfig"


def test_vertex_claude_custom_host_and_credentials_redacted():
    prov = provider("vertexai", endpoint="anthropic-messages", family="google-vertex-anthropic",
                    auth="iam-gcp", base_url="https://host.example.com/v1/projects/p",
                    extra={"authConfig": {"type": "iam-gcp", "project": "p", "location": "l",
                                          "credentials": {"privateKey": "k", "clientEmail": "e"}}})
    report = _sdk(prov, model("vertexai::claude-opus-4-1")).to_report()
    assert report["providerId"] == "google-vertex-anthropic"
    assert report["providerSettings"]["baseURL"].endswith("/v1/projects/p/publishers/anthropic/models")
    assert report["providerSettings"]["googleCredentials"] == "<redacted>"


def test_bedrock_region_is_trimmed_and_secrets_redacted():
    prov = provider("aws-bedrock", endpoint="anthropic-messages", family="bedrock",
                    auth="iam-aws", base_url="",
                    extra={"authConfig": {"type": "iam-aws", "region": " eu-west-1 ",
                                          "accessKeyId": "", "secretAccessKey": "s"}})
    prov["endpointConfigs"] = {"anthropic-messages": {"adapterFamily": "bedrock"}}
    report = _sdk(prov, model("aws-bedrock::anthropic.claude-3-haiku")).to_report()
    settings = report["providerSettings"]
    assert settings["region"] == "eu-west-1"
    assert settings["accessKeyId"] == "" and settings["secretAccessKey"] == "<redacted>"
    assert settings["baseURL"] is UNDEFINED
