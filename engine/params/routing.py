"""Endpoint routing, provider-id resolution, base-URL formatting and the sdk builders (spec §4)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from engine.jsvalues import Undefined
from engine.params.errors import ParamsError
from engine.params.ids import unique_id
from engine.params.jsv import UNDEFINED, get, get_path, is_nullish

REGISTERED_IDS = (
    "anthropic", "azure", "azure-responses", "azure-anthropic", "cherryin", "cherryin-chat",
    "deepseek", "google", "openai-compatible", "openai", "openai-chat", "openrouter", "xai",
    "xai-responses", "google-vertex", "google-vertex-anthropic",
    "github-copilot-openai-compatible", "bedrock", "perplexity", "mistral", "huggingface",
    "gateway", "cerebras", "groq", "ollama", "aihubmix", "newapi", "togetherai", "ppio", "dmxapi",
    "silicon", "zhipu", "ovms", "modelscope", "dashscope", "voyage",
)
ALIASES = {
    "claude": "anthropic", "azure-openai": "azure", "google-ai": "google", "gemini": "google",
    "google-gemini": "google", "openai-response": "openai", "grok": "xai",
    "vertexai": "google-vertex", "vertexai-anthropic": "google-vertex-anthropic",
    "copilot": "github-copilot-openai-compatible",
    "github-copilot": "github-copilot-openai-compatible", "aws-bedrock": "bedrock",
    "hf": "huggingface", "hugging-face": "huggingface", "ai-gateway": "gateway",
    "new-api": "newapi", "o3": "newapi", "together": "togetherai", "bailian": "dashscope",
    "voyageai": "voyage",
}
BASE_URL_FALLBACK_ORDER = ("openai-chat-completions", "anthropic-messages", "openai-responses",
                           "google-generate-content", "ollama-chat")
APP_HEADERS = {"HTTP-Referer": "https://cherry-ai.com", "X-Title": "Cherry Studio"}
COPILOT_HEADERS = {
    "Copilot-Integration-Id": "vscode-chat",
    "User-Agent": "GitHubCopilotChat/0.26.7",
    "Editor-Version": "vscode/1.104.1",
    "Editor-Plugin-Version": "copilot-chat/0.26.7",
    "editor-version": "vscode/1.104.1",
    "editor-plugin-version": "copilot-chat/0.26.7",
    "copilot-vision-request": "true",
}
API_KEY_SENTINEL = "<apiKey>"
REDACTED = "<redacted>"
SECRET_KEYS = ("apiKey", "accessKeyId", "secretAccessKey", "googleCredentials", "sessionToken")
NO_VERSION_PROVIDERS = ("copilot", "github", "cherryai", "perplexity", "newapi", "new-api",
                        "azure-openai")


# ------------------------------------------------------------------ endpoint


def effective_endpoint(provider: dict[str, Any], model: dict[str, Any]) -> Any:
    """``model.endpointTypes[0]``, else ``provider.defaultChatEndpoint`` (may be ``UNDEFINED``)."""
    types = get(model, "endpointTypes")
    if isinstance(types, list) and types and not is_nullish(types[0]):
        return types[0]
    default = get(provider, "defaultChatEndpoint")
    return UNDEFINED if default is None else default


def model_endpoint(model: dict[str, Any]) -> Any:
    types = get(model, "endpointTypes")
    if isinstance(types, list) and types and not is_nullish(types[0]):
        return types[0]
    return UNDEFINED


def _configs(provider: dict[str, Any]) -> dict[str, Any]:
    configs = get(provider, "endpointConfigs")
    return configs if isinstance(configs, dict) else {}


def _config_base(provider: dict[str, Any], endpoint: object) -> str | None:
    if not isinstance(endpoint, str):
        return None
    url = get_path(_configs(provider), endpoint, "baseUrl")
    return url if isinstance(url, str) and url else None


def raw_base_url(provider: dict[str, Any], endpoint: object) -> str:
    """The unformatted base URL (spec §4.1): the first non-empty one of the request's endpoint, the
    provider's default chat endpoint, the fixed fallback endpoints in ``BASE_URL_FALLBACK_ORDER``,
    then every other endpoint config the provider declares; ``""`` when none has one."""
    for candidate in (endpoint, get(provider, "defaultChatEndpoint")):
        url = _config_base(provider, candidate)
        if url:
            return url
    for candidate in BASE_URL_FALLBACK_ORDER:
        url = _config_base(provider, candidate)
        if url:
            return url
    for candidate in _configs(provider):
        url = _config_base(provider, candidate)
        if url:
            return url
    return ""


# ------------------------------------------------------------------ provider ids


def canonical_family(family: object) -> str | None:
    if not isinstance(family, str):
        return None
    if family in REGISTERED_IDS:
        return family
    return ALIASES.get(family)


def _with_variant(base: str, endpoint: object) -> str:
    if endpoint in ("openai-chat-completions", "ollama-chat") and f"{base}-chat" in REGISTERED_IDS:
        return f"{base}-chat"
    if endpoint == "openai-responses" and f"{base}-responses" in REGISTERED_IDS:
        return f"{base}-responses"
    return base


def resolve_scope_provider_id(provider: dict[str, Any], endpoint: object) -> str:
    """§4.2 ``resolveAiSdkProviderId``: one signal, the endpoint's ``adapterFamily``."""
    if not isinstance(endpoint, str):
        return "openai-compatible"
    family = canonical_family(get_path(_configs(provider), endpoint, "adapterFamily"))
    if family is None:
        return "openai-compatible"
    return _with_variant(family, endpoint)


def resolve_options_provider_id(provider: dict[str, Any], endpoint: object) -> str:
    """§4.3 ``getAiSdkProviderId``: as §4.2, but no endpoint means chat-completions (PAR-Q4)."""
    return resolve_scope_provider_id(
        provider, endpoint if isinstance(endpoint, str) else "openai-chat-completions")


# ------------------------------------------------------------------ provider tests


def is_ollama_provider(provider: dict[str, Any]) -> bool:
    return bool(get(provider, "id") == "ollama" or get(provider, "presetProviderId") == "ollama"
                or get(provider, "defaultChatEndpoint") == "ollama-chat")


def is_gemini_provider(provider: dict[str, Any]) -> bool:
    return bool((get(provider, "id") in ("google", "gemini")
                 or get(provider, "presetProviderId") == "gemini"
                 or get(provider, "defaultChatEndpoint") == "google-generate-content")
                and get(provider, "authType") != "iam-gcp")


def api_key(provider: dict[str, Any]) -> str:
    """The key store's rotated key: the sentinel when any key is enabled, else ``""``."""
    keys = get(provider, "apiKeys")
    if isinstance(keys, list) and any(isinstance(k, dict) and k.get("isEnabled") is True
                                      for k in keys):
        return API_KEY_SENTINEL
    return ""


# ------------------------------------------------------------------ base-URL formatting

_VERSION_SEGMENT = re.compile(r"/v\d+(?:alpha|beta)?(?:/|$)")


def _has_version(url: str) -> bool:
    try:
        path = urlsplit(url).path if "://" in url else url
    except ValueError:
        path = url
    return _VERSION_SEGMENT.search(path) is not None


def format_url(url: str, version: str | None) -> str:
    """A base URL ready for the SDK (spec §4.5): trimmed, one trailing ``/`` dropped; a trailing
    ``#`` means "use as is" (the ``#`` is removed); otherwise ``/version`` is appended unless the
    path already holds a version segment. ``version=None`` suppresses the version."""
    text = url.strip()
    if text.endswith("/"):
        text = text[:-1]
    if not text:
        return ""
    if text.endswith("#") or version is None or _has_version(text):
        if text.endswith("#"):
            text = text[:-1]
    else:
        text = f"{text}/{version}"
    return text.rstrip("/")


def format_ollama_url(url: str) -> str:
    text = url.strip()
    if text.endswith("/"):
        text = text[:-1]
    for suffix in ("/v1", "/api", "/chat"):
        if text.endswith(suffix):
            text = text[: -len(suffix)]
    if not text:
        return ""
    return f"{text}/api"


def formatted_base_url(provider: dict[str, Any], endpoint: object, url: str) -> str:
    if endpoint in ("ollama-chat", "ollama-generate"):
        return format_ollama_url(url)
    if endpoint == "google-generate-content":
        return format_url(url, "v1beta")
    if is_ollama_provider(provider):
        return format_ollama_url(url)
    if is_gemini_provider(provider):
        return format_url(url, "v1beta")
    if (get(provider, "id") in NO_VERSION_PROVIDERS
            or get(provider, "presetProviderId") in NO_VERSION_PROVIDERS):
        return format_url(url, None)
    return format_url(url, "v1")


# ------------------------------------------------------------------ sdk builders


@dataclass
class SdkConfig:
    provider_id: str
    model_id: Any
    provider_settings: dict[str, Any]
    builder: str
    endpoint: str = ""
    notes: list[str] = field(default_factory=list)

    def to_report(self) -> dict[str, Any]:
        return {"providerId": self.provider_id, "modelId": self.model_id,
                "endpoint": self.endpoint, "providerSettings": redact(self.provider_settings)}


def redact(settings: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in settings.items():
        if key in SECRET_KEYS and value is not UNDEFINED:
            out[key] = "" if value == "" else REDACTED
        elif key == "fetch":
            out[key] = "<function>"
        else:
            out[key] = value
    return out


def _extra_headers(provider: dict[str, Any]) -> dict[str, Any]:
    extra = get_path(provider, "settings", "extraHeaders")
    return dict(extra) if isinstance(extra, dict) else {}


def app_headers(provider: dict[str, Any]) -> dict[str, Any]:
    return {**APP_HEADERS, **_extra_headers(provider)}


def wire_id(model: dict[str, Any]) -> str:
    api = get(model, "apiModelId")
    return api if isinstance(api, str) and api else unique_id(model)


def cherryin_endpoint_type(endpoint: object) -> Any:
    if is_nullish(endpoint):
        return UNDEFINED
    return {
        "anthropic-messages": "anthropic",
        "google-generate-content": "gemini",
        "openai-chat-completions": "openai",
        "ollama-chat": "openai",
        "openai-responses": "openai-response",
        "jina-rerank": "jina-rerank",
    }.get(endpoint, "openai") if isinstance(endpoint, str) else "openai"


def _strip_suffix_once(text: str, suffix: str) -> str:
    return text[: -len(suffix)] if text.endswith(suffix) else text


def sdk_model_id(model: dict[str, Any]) -> Any:
    """``apiModelId``, else the unique id (PAR-Q12 — the strict profile strips the prefix)."""
    api = get(model, "apiModelId")
    return model.get("id", UNDEFINED) if is_nullish(api) else api


def build_sdk_config(provider: dict[str, Any], model: dict[str, Any], endpoint: object, scope_id: str,
                     cherryin_provider: object) -> SdkConfig:
    """§4.4: the first matching builder wins."""
    key = api_key(provider)
    pid = get(provider, "id")
    url = formatted_base_url(provider, endpoint, raw_base_url(provider, endpoint))
    model_id = sdk_model_id(model)

    if pid == "copilot":
        return SdkConfig("github-copilot-openai-compatible", model_id, {
            "baseURL": url, "apiKey": "<copilot token>",
            "headers": {**COPILOT_HEADERS, **_extra_headers(provider)}, "name": pid,
        }, "copilot")
    if pid == "cherryai":
        return SdkConfig("openai-compatible", model_id, {
            "baseURL": url, "apiKey": key, "name": pid,
            "includeUsage": get_path(provider, "apiFeatures", "streamOptions"),
            "headers": app_headers(provider), "fetch": "<function>",
        }, "cherryai")
    if is_ollama_provider(provider):
        headers = app_headers(provider)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return SdkConfig("ollama", model_id, {"baseURL": url, "apiKey": key, "headers": headers},
                         "ollama")
    if get(provider, "authType") == "iam-azure":
        return _azure_config(provider, model, scope_id, url, key, model_id)
    if scope_id == "bedrock":
        return _bedrock_config(provider, url, key, model_id)
    if scope_id in ("google-vertex", "google-vertex-anthropic"):
        return _vertex_config(provider, model, scope_id, url, key, model_id)
    if pid == "cherryin":
        return SdkConfig(scope_id, model_id, {
            "baseURL": url, "apiKey": key,
            "endpointType": cherryin_endpoint_type(model_endpoint(model)),
            "anthropicBaseURL": _cherryin_url(cherryin_provider, "anthropic-messages", "v1"),
            "geminiBaseURL": _cherryin_url(cherryin_provider, "google-generate-content", "v1beta"),
            "headers": app_headers(provider),
        }, "cherryin")
    if scope_id == "newapi":
        mep = model_endpoint(model)
        version = {"google-generate-content": "v1beta", "anthropic-messages": None}.get(mep, "v1") \
            if isinstance(mep, str) else "v1"
        return SdkConfig("newapi", model_id, {
            "baseURL": format_url(url, version), "apiKey": key,
            "endpointType": cherryin_endpoint_type(mep), "headers": app_headers(provider),
        }, "newapi")
    if scope_id == "aihubmix":
        return SdkConfig("aihubmix", model_id, {
            "baseURL": url, "apiKey": key, "headers": app_headers(provider)}, "aihubmix")
    if scope_id in REGISTERED_IDS and scope_id != "openai-compatible":
        headers = app_headers(provider)
        if scope_id == "openai":
            headers["X-Api-Key"] = key
        return SdkConfig(scope_id, model_id, {"baseURL": url, "apiKey": key, "headers": headers},
                         "registered")
    return SdkConfig("openai-compatible", model_id, {
        "baseURL": url, "apiKey": key, "headers": app_headers(provider), "name": pid,
        "includeUsage": get_path(provider, "apiFeatures", "streamOptions"),
    }, "openai-compatible")


def _azure_config(provider: dict[str, Any], model: dict[str, Any], scope_id: str, url: str, key: str,
                  model_id: object) -> SdkConfig:
    stripped = _strip_suffix_once(_strip_suffix_once(url, "/v1"), "/openai")
    headers = app_headers(provider)
    endpoint_types = get(model, "endpointTypes")
    first = endpoint_types[0] if isinstance(endpoint_types, list) and endpoint_types else None
    if wire_id(model).lower().startswith("claude") or first == "anthropic-messages":
        return SdkConfig("azure-anthropic", model_id,
                         {"baseURL": stripped, "apiKey": key, "headers": headers}, "azure")
    sdk_id = "azure-responses" if scope_id == "azure-responses" else "azure"
    settings: dict[str, Any] = {"baseURL": f"{stripped}/openai", "apiKey": key, "headers": headers}
    version = get_path(provider, "settings", "apiVersion")
    if isinstance(version, str) and version.strip():
        settings["apiVersion"] = version.strip()
        if sdk_id == "azure":
            settings["useDeploymentBasedUrls"] = True
    return SdkConfig(sdk_id, model_id, settings, "azure")


def _bedrock_config(provider: dict[str, Any], url: str, key: str, model_id: object) -> SdkConfig:
    settings: dict[str, Any] = {"baseURL": url if url else UNDEFINED, "apiKey": key}
    auth = get(provider, "authConfig")
    if isinstance(auth, dict) and auth.get("type") == "iam-aws":
        region = auth.get("region")
        region = region.strip() if isinstance(region, str) else ""
        settings["region"] = region if region else UNDEFINED
        for secret in ("accessKeyId", "secretAccessKey"):
            if secret in auth and not is_nullish(auth[secret]):
                settings[secret] = auth[secret]
    return SdkConfig("bedrock", model_id, settings, "bedrock")


def _vertex_config(provider: dict[str, Any], model: dict[str, Any], scope_id: str, url: str, key: str,
                   model_id: object) -> SdkConfig:
    auth = get(provider, "authConfig")
    if not (isinstance(auth, dict) and auth.get("type") == "iam-gcp"):
        raise ParamsError("VertexAI requires iam-gcp auth configuration.", "/provider/authConfig")
    claude = scope_id == "google-vertex-anthropic" or wire_id(model).lower().startswith("claude")
    sdk_id = "google-vertex-anthropic" if claude else "google-vertex"
    base: str | Undefined = UNDEFINED
    if url:
        base = url + ("/publishers/anthropic/models" if claude else "/publishers/google")
    settings = {"baseURL": base, "apiKey": key, "project": get(auth, "project"),
                "location": get(auth, "location")}
    credentials = get(auth, "credentials")
    if isinstance(credentials, dict):
        settings["googleCredentials"] = {
            "privateKey": credentials.get("private_key", credentials.get("privateKey")),
            "clientEmail": credentials.get("client_email", credentials.get("clientEmail")),
        }
    return SdkConfig(sdk_id, model_id, settings, "vertex")


def _cherryin_url(row: object, endpoint: str, version: str) -> Any:
    """A base URL of the system CherryIN row (``undefined`` without the row)."""
    if not isinstance(row, dict):
        return UNDEFINED
    if endpoint == "anthropic-messages":
        url = get_path(row, "endpointConfigs", endpoint, "baseUrl")
        url = url if isinstance(url, str) else ""
    else:
        url = raw_base_url(row, endpoint)
    return format_url(url, version)
