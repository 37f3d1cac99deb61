"""``simulate-streaming``: a non-streaming call replayed as a stream when streaming is off."""

from __future__ import annotations

from engine.params.features.base import Decision, Feature


class SimulateStreamingFeature(Feature):
    def decide(self, scope) -> Decision:
        caps = scope.capabilities
        off = caps is not None and caps.stream_output is False
        return Decision(off, "capabilities.streamOutput is false" if off
                        else "streaming is on (or no assistant)")

    def demo(self, scope) -> dict:
        return {"effect": "the model is called once without streaming; the result is replayed "
                          "as stream chunks"}


FEATURE = SimulateStreamingFeature("simulate-streaming",
                                   summary="middleware: simulateStreamingMiddleware()")
