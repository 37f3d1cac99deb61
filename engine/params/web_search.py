"""``providerToolPlugin('webSearch', config)``: what the provider tool would be (spec §6.4)."""

from __future__ import annotations

from typing import Any

from engine.jsvalues import as_object
from engine.params.jsv import get
from engine.params.options_context import QuirkNote


def _tool(tool_id: str, args: object) -> dict[str, Any]:
    return {"type": "provider", "id": tool_id, "args": args}


def web_search_details(sdk_provider_id: str, config: object, quirks: list[QuirkNote], *,
                       strict: bool = False, gateway_family: str | None = None) -> dict[str, Any]:
    """``gateway_family``: strict only, the family an AI Gateway model maps to (PAR-Q24 fix)."""
    config = config if isinstance(config, dict) else {}
    if strict and sdk_provider_id == "gateway" and gateway_family:
        sdk_provider_id = {"xai": "xai-responses"}.get(gateway_family, gateway_family)
    if sdk_provider_id == "anthropic":
        return {"tools": {"webSearch": _tool("anthropic.web_search_20260209",
                                             get(config, "anthropic"))}}
    if sdk_provider_id == "openai":
        return {"tools": {"webSearch": _tool("openai.web_search", get(config, "openai"))}}
    if sdk_provider_id in ("google", "google-vertex"):
        return {"tools": {"webSearch": _tool("google.google_search", {})}}
    if sdk_provider_id == "google-vertex-anthropic":
        args = get(config, "anthropic") if strict else config.get(sdk_provider_id, {})
        if not strict:
            quirks.append({"code": "PAR-Q29", "message": "Vertex Claude web search gets an "
                                                         "empty config"})
        return {"tools": {"webSearch": _tool("anthropic.web_search_20250305", args)}}
    if sdk_provider_id == "xai-responses":
        entry = as_object(config.get("xai-responses"))
        return {"tools": {"webSearch": _tool("xai.web_search", get(entry, "webSearch")),
                          "xSearch": _tool("xai.x_search", get(entry, "xSearch"))}}
    if sdk_provider_id == "openrouter":
        return {"tools": {}, "providerOptions": {"openrouter": get(config, "openrouter")}}
    if sdk_provider_id == "azure":
        if strict:  # PAR-Q19 fix: the Azure provider's own preview tool
            return {"tools": {"webSearch": _tool("openai.web_search_preview",
                                                 config.get("openai", {}))}}
        quirks.append({"code": "PAR-Q19", "message": "the web-search tool factory throws on "
                                                     "the Azure chat wrapper"})
        return {"error": "Cannot read properties of undefined (reading 'webSearchPreview')"}
    if sdk_provider_id in ("openai-chat", "azure-responses"):
        return {"tools": {"webSearch": _tool("openai.web_search_preview",
                                             config.get(sdk_provider_id, {}))}}
    if sdk_provider_id in ("bedrock", "azure-anthropic"):
        return {"tools": {"webSearch": _tool("anthropic.web_search_20260209",
                                             config.get(sdk_provider_id, {}))}}
    return {"tools": {}}
