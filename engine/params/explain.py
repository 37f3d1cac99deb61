"""The ``explain`` section: why each feature applied or not and what its plugin does.

Outside the compared report fields. It turns plugin *names* into visible effects on a sample
request, and marks the plugins that never act on the chat path (spec §6.6, PAR-Q1).
"""

from __future__ import annotations

from typing import Any

from engine.params.features.collect import FeatureOutcome
from engine.params.tools import ToolsResult


def build_explain(scope: Any, outcomes: list[FeatureOutcome], tools: ToolsResult,
                  prompt_notes: list[str]) -> dict[str, Any]:
    features = []
    for outcome in outcomes:
        entry: dict[str, Any] = {"name": outcome.name, "applied": outcome.applied, "why": outcome.reason}
        if outcome.warning:
            entry["warning"] = outcome.warning
        plugins = []
        for plugin in outcome.plugins:
            plugins.append({
                "name": plugin.name,
                "kind": plugin.kind,
                "actsOnChatPath": plugin.acts_on_chat_path,
                "summary": plugin.summary,
                **({"caveat": "param plugin: transformParams never runs on the chat path, so "
                              "this effect does not reach the request (PAR-Q1)"}
                   if not plugin.acts_on_chat_path else {}),
                **({"effect": plugin.effect} if plugin.effect else {}),
            })
        if plugins:
            entry["plugins"] = plugins
        features.append(entry)
    routing = {
        "endpointType": scope.endpoint_type,
        "scopeProviderId": scope.ai_sdk_provider_id,
        "optionsProviderId": scope.options_provider_id,
        "sdkBuilder": scope.sdk_config.builder,
        "sdkProviderId": scope.sdk_config.provider_id,
    }
    tool_info: dict[str, Any] = {"skipped": tools.skipped,
                       "entries": [{"name": e.name, "why": e.why, "defer": e.defer}
                                   for e in tools.active]}
    for note in tools.notes:
        tool_info.update({k: v for k, v in note.items() if k != "code"})
    out = {"routing": routing, "features": features, "tools": tool_info}
    if prompt_notes:
        out["systemPrompt"] = prompt_notes
    return out
