"""``model-params``: the param plugin setting temperature, topP and maxOutputTokens (§6.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params.features.base import Decision, Feature
from engine.params.model_params import model_params_details

if TYPE_CHECKING:
    from engine.params.scope import RequestScope


class ModelParamsFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        has = isinstance(scope.assistant, dict)
        return Decision(has, "an assistant is present" if has else "no assistant")

    def details(self, scope: RequestScope) -> dict[str, Any]:
        return model_params_details(scope.model, scope.provider, scope.assistant,
                                    scope.diagnostics, strict=scope.strict)

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        sample = {"temperature": 0.3, "topP": 0.9, "maxOutputTokens": 1000}
        return {"sampleParams": sample, "after": {**sample, **self.details(scope)}}


FEATURE = ModelParamsFeature("model-params", kind="param",
                             summary="param plugin: temperature / topP / maxOutputTokens")
