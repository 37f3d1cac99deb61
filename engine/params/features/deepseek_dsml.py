"""``deepseek-dsml-parser``: turns DeepSeek DSML tool-call markup in text into tool calls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params import ids
from engine.params.features.base import Decision, Feature
from engine.params.jsv import get

if TYPE_CHECKING:
    from engine.params.scope import RequestScope


class DeepseekDsmlFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        model = scope.model
        if "deepseek" in ids.base_id(model):
            return Decision(True, "base id contains 'deepseek'")
        if get(model, "providerId") == "deepseek":
            return Decision(True, "model.providerId is 'deepseek'")
        name = get(model, "name")
        if isinstance(name, str) and "deepseek" in name.lower():
            return Decision(True, "model.name contains 'deepseek'")
        return Decision(False, "not a DeepSeek model (base id, providerId, name)")

    def details(self, scope: RequestScope) -> None:
        if not scope.strict:
            scope.quirk("PAR-Q15", "deepseek-dsml-parser applied: the design doc's feature list "
                                   "omits it (the code has 15 features)")
        return None

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        return {"effect": "DSML tool-call blocks in text become tool-call events; finish reason "
                          "'stop' becomes 'tool-calls' when calls are produced; unparseable "
                          "blocks stay text"}


FEATURE = DeepseekDsmlFeature("deepseek-dsml-parser", plugin_name="deepseekDsmlParser",
                              summary="middleware: DSML markup → tool calls (PAR-Q15)")
