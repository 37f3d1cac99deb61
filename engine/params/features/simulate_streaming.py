"""``simulate-streaming``: a non-streaming call replayed as a stream when streaming is off."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params.features.base import Decision, Feature

if TYPE_CHECKING:
    from engine.params.scope import RequestScope


class SimulateStreamingFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        caps = scope.capabilities
        off = caps is not None and caps.stream_output is False
        return Decision(off, "capabilities.streamOutput is false" if off
                        else "streaming is on (or no assistant)")

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        return {"effect": "the model is called once without streaming; the result is replayed "
                          "as stream chunks"}


FEATURE = SimulateStreamingFeature("simulate-streaming",
                                   summary="middleware: simulateStreamingMiddleware()")
