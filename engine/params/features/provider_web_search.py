"""``provider-web-search``: the provider's own web-search tool as a param plugin (spec §6.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params.capabilities import strict_config_family
from engine.params.features.base import Decision, Feature
from engine.params.jsv import UNDEFINED
from engine.params.web_search import web_search_details

if TYPE_CHECKING:
    from engine.params.scope import RequestScope


def provider_tool_details(scope: RequestScope) -> dict[str, Any]:
    family = (strict_config_family(scope.model, scope.options_provider_id)
              if scope.strict else None)
    caps = scope.capabilities
    if caps is None:  # unreachable: decide() turns the feature off without capabilities
        raise ValueError("provider web search needs the resolved capabilities")
    return web_search_details(scope.sdk_config.provider_id,
                              caps.web_search_plugin_config,
                              scope.diagnostics, strict=scope.strict, gateway_family=family)


class ProviderWebSearchFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        caps = scope.capabilities
        if caps is None or not caps.enable_web_search:
            return Decision(False, "capabilities.enableWebSearch is off")
        config = caps.web_search_plugin_config
        if config is UNDEFINED or config is None:
            return Decision(False, "no web-search plugin config")
        if config == {}:
            if scope.strict:
                return Decision(False, "empty web-search config (strict skips it, PAR-Q14)")
            scope.quirk("PAR-Q14", "the web-search plugin is listed with an empty config")
        return Decision(True, "web search on with a plugin config")

    def details(self, scope: RequestScope) -> dict[str, Any]:
        return provider_tool_details(scope)

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        details = self.details(scope)
        return {"toolsAdded": sorted(details.get("tools", {})),
                "providerOptionsAdded": details.get("providerOptions"),
                "error": details.get("error")}


FEATURE = ProviderWebSearchFeature("provider-web-search", plugin_name="webSearch", kind="param",
                                   summary="param plugin: provider web-search tool")
