"""``resolveCapabilities`` and the web-search plugin config (spec §5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.params import ids
from engine.params.jsv import UNDEFINED, get, get_path, truthy
from engine.params.routing import model_endpoint

SEARCH_PREVIEW_IDS = ("gpt-4o-search-preview", "gpt-4o-mini-search-preview")


@dataclass
class Capabilities:
    enable_reasoning: bool
    enable_web_search: bool
    enable_url_context: bool
    enable_generate_image: bool
    is_supported_tool_use: bool
    stream_output: bool
    web_search_plugin_config: Any

    def to_report(self) -> dict[str, Any]:
        return {
            "enableReasoning": self.enable_reasoning,
            "enableWebSearch": self.enable_web_search,
            "enableUrlContext": self.enable_url_context,
            "enableGenerateImage": self.enable_generate_image,
            "isSupportedToolUse": self.is_supported_tool_use,
            "streamOutput": self.stream_output,
            "webSearchPluginConfig": self.web_search_plugin_config,
        }


def is_openrouter_search_model(model: dict[str, Any]) -> bool:
    base = ids.base_id(model)
    return get(model, "providerId") == "openrouter" and (
        any(s in base for s in SEARCH_PREVIEW_IDS) or "sonar" in base)


def reasoning_enabled(model: dict[str, Any], assistant: dict[str, Any]) -> bool:
    effort_defined = ids.effort_of(assistant) is not UNDEFINED
    return (((ids.has_thinking_limits(model) or ids.is_effort_model(model)) and effort_defined)
            or ids.is_fixed_reasoning(model))


def requested_url_context(model: dict[str, Any], assistant: dict[str, Any] | None) -> bool:
    """The condition the strict profile uses (PAR-Q9): the toggle on a Gemini model."""
    return get_path(assistant, "settings", "enableUrlContext") is True and ids.is_gemini(model)


def requested_image_generation(model: dict[str, Any], assistant: dict[str, Any] | None) -> bool:
    return (get_path(assistant, "settings", "enableGenerateImage") is True
            and ids.has_capability(model, "image-generation"))


def web_search_enabled(model: dict[str, Any], assistant: dict[str, Any]) -> bool:
    toggle = truthy(get_path(assistant, "settings", "enableWebSearch"))
    return ((toggle and ids.has_capability(model, "web-search"))
            or is_openrouter_search_model(model)
            or "sonar" in ids.unique_id(model))


def resolve_capabilities(model: dict[str, Any], provider: dict[str, Any], assistant: dict[str, Any], options_id: str,
                         prefs: dict[str, Any], *, strict: bool = False) -> Capabilities:
    web = web_search_enabled(model, assistant)
    stream = get_path(assistant, "settings", "streamOutput") is not False
    url_context, generate_image = requested_url_context(model, assistant), \
        requested_image_generation(model, assistant)
    if not strict:  # PAR-Q9: the reference hard-wires both off
        url_context = generate_image = False
    return Capabilities(
        enable_reasoning=reasoning_enabled(model, assistant),
        enable_web_search=web,
        enable_url_context=url_context,
        enable_generate_image=generate_image,
        is_supported_tool_use=ids.has_capability(model, "function-call"),
        stream_output=stream,
        web_search_plugin_config=(web_search_config(model, options_id, prefs, strict=strict)
                                  if web else UNDEFINED),
    )


def search_context_size(model: dict[str, Any], max_results: object) -> str:
    if ids.is_deep_research(model):
        return "medium"
    n = max_results if isinstance(max_results, (int, float)) else 0
    if n <= 33:
        return "low"
    if n <= 66:
        return "medium"
    return "high"


def web_search_config(model: dict[str, Any], options_id: str, prefs: dict[str, Any], *, strict: bool = False) -> dict[str, Any]:
    """Config keyed by the §4.3 id (PAR-Q24: the gateway family mapping is unreachable)."""
    max_results = prefs.get("chat.web_search.max_results")
    exclude = prefs.get("chat.web_search.exclude_domains")
    exclude = exclude if isinstance(exclude, list) else []
    if strict:
        family = strict_config_family(model, options_id)
        if family is not None:
            return _config_for(model, family, max_results, exclude)
    return _config_for(model, options_id, max_results, exclude)


def strict_config_family(model: dict[str, Any], options_id: str) -> str | None:
    """Strict fixes: Vertex Claude gets the Anthropic config (PAR-Q29), AI Gateway models are
    mapped by family (PAR-Q24)."""
    if options_id == "google-vertex-anthropic":
        return "anthropic"
    if options_id == "gateway":
        if ids.is_anthropic(model):
            return "anthropic"
        if ids.is_openai(model):
            return "openai"
        if ids.is_grok(model):
            return "xai"
    return None


def _config_for(model: dict[str, Any], key: str, max_results: object, exclude: list[Any]) -> dict[str, Any]:
    if key in ("openai", "azure-responses"):
        return {"openai": {"searchContextSize": search_context_size(model, max_results)}}
    if key == "openai-chat":
        return {"openai-chat": {"searchContextSize": search_context_size(model, max_results)}}
    if key == "anthropic":
        return {"anthropic": {"maxUses": max_results,
                              "blockedDomains": list(exclude) if exclude else UNDEFINED}}
    if key in ("xai", "xai-responses"):
        web: dict[str, Any] = {"enableImageUnderstanding": True}
        if exclude:
            web["excludedDomains"] = list(exclude[:5])
        return {"xai-responses": {"webSearch": web, "xSearch": {"enableImageUnderstanding": True}}}
    if key == "openrouter":
        return {"openrouter": {"plugins": [{"id": "web", "max_results": max_results}]}}
    if key == "cherryin":
        endpoint = model_endpoint(model)
        mapped = {"openai-responses": "openai", "openai-chat-completions": "openai-chat",
                  "anthropic-messages": "anthropic"}.get(endpoint) if isinstance(endpoint, str) \
            else None
        if mapped is None:
            return {}
        return _config_for(model, mapped, max_results, exclude)
    return {}
