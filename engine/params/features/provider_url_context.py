"""``provider-url-context``: the URL-context tool; never fires in the reference (PAR-Q9)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params.features.base import Decision, Feature

if TYPE_CHECKING:
    from engine.params.scope import RequestScope


class ProviderUrlContextFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        caps = scope.capabilities
        on = caps is not None and caps.enable_url_context
        return Decision(on, "capabilities.enableUrlContext is "
                            f"{'on' if on else 'off (hard-wired off, PAR-Q9)'}")

    def details(self, scope: RequestScope) -> dict[str, Any]:
        return {"tools": {"urlContext": {"type": "provider", "id": "google.url_context",
                                         "args": {}}}}


FEATURE = ProviderUrlContextFeature("provider-url-context", plugin_name="urlContext",
                                    kind="param", summary="param plugin: URL-context tool")
