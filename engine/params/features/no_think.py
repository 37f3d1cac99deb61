"""``no-think``: OVMS with MCP tools gets ``/no_think`` appended to user messages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params.features.base import Decision, Feature, show
from engine.params.jsv import get

if TYPE_CHECKING:
    from engine.params.scope import RequestScope

PROBE = "hello"


def append_suffix(text: str, suffix: str, *, skip: tuple[str, ...]) -> str:
    return text if text.endswith(skip) else f"{text} {suffix}"


class NoThinkFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        pid = get(scope.provider, "id")
        if pid != "ovms":
            return Decision(False, f'provider.id is {show(pid)}, not "ovms"')
        if not scope.mcp_tool_ids:
            return Decision(False, "OVMS but no MCP tool ids")
        return Decision(True, f"OVMS with {len(scope.mcp_tool_ids)} MCP tool id(s)")

    def details(self, scope: RequestScope) -> dict[str, Any]:
        return {"probeUserText": append_suffix(PROBE, "/no_think", skip=("/no_think",))}

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        return {"sampleUserText": PROBE, "after": self.details(scope)["probeUserText"]}


FEATURE = NoThinkFeature("no-think", summary="middleware: ' /no_think' on user messages")
