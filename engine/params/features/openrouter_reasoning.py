"""``openrouter-reasoning``: removes OpenRouter's ``[REDACTED]`` marker from reasoning."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.params.features.base import Decision, Feature, show
from engine.params.jsv import get

if TYPE_CHECKING:
    from engine.params.scope import RequestScope

MARKER = "[REDACTED]"


def strip_redacted(text: str, *, all_occurrences: bool = False) -> str:
    """The reference removes only the first marker (PAR-Q13); strict removes every one."""
    return text.replace(MARKER, "") if all_occurrences else text.replace(MARKER, "", 1)


class OpenrouterReasoningFeature(Feature):
    def decide(self, scope: RequestScope) -> Decision:
        pid = get(scope.provider, "id")
        if pid == "openrouter":
            return Decision(True, 'provider.id is "openrouter"')
        if get(scope.provider, "presetProviderId") == "openrouter":
            if scope.strict:
                return Decision(True, "presetProviderId is 'openrouter' (strict, PAR-Q13)")
            scope.quirk("PAR-Q13", f"provider {show(pid)} is an OpenRouter preset but the feature "
                                   "tests the literal id")
        return Decision(False, f'provider.id is {show(pid)}, not "openrouter"')

    def demo(self, scope: RequestScope) -> dict[str, Any]:
        sample = "[REDACTED] Thinking about it. [REDACTED]"
        return {"sampleReasoning": sample,
                "after": strip_redacted(sample, all_occurrences=scope.strict)}


FEATURE = OpenrouterReasoningFeature("openrouter-reasoning",
                                     summary="middleware: strip [REDACTED] from reasoning")
