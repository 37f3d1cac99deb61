"""``ai-sdk-devtools``: records params and outputs for the devtools UI when developer mode is on."""

from __future__ import annotations

from engine.params.features.base import Decision, Feature, show


class DevtoolsFeature(Feature):
    def decide(self, scope) -> Decision:
        on = scope.prefs.get("app.developer_mode.enabled") is True
        return Decision(on, f"pref app.developer_mode.enabled is {show(on)}")

    def demo(self, scope) -> dict:
        return {"effect": "request unchanged; params and outputs are recorded for devtools"}


FEATURE = DevtoolsFeature("ai-sdk-devtools", summary="devtools recording middleware")
