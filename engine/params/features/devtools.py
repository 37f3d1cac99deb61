"""``ai-sdk-devtools``: records params and outputs for the devtools UI when developer mode is on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params.features.base import Decision, Feature, show

if TYPE_CHECKING:
    from engine.params.scope import RequestScope


class DevtoolsFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        on = scope.prefs.get("app.developer_mode.enabled") is True
        return Decision(on, f"pref app.developer_mode.enabled is {show(on)}")

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        return {"effect": "request unchanged; params and outputs are recorded for devtools"}


FEATURE = DevtoolsFeature("ai-sdk-devtools", summary="devtools recording middleware")
