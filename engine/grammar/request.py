"""Conformance scenarios (spec §10.1) read the way the reference's JavaScript reads them.

Every optional field may be absent, ``null`` or of an unexpected type; none of that is an error.
JavaScript's ``??`` treats ``null`` like an absent key (role, content, settings), a stop reason is
kept whatever it is, a tool list that is not an array gives no tools, values the settings
migration does not accept fall back to its defaults, and text that is not a string is simply not
a text part. The message built here then goes through the normal decision unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.jsvalues import js_string


@dataclass
class Scenario:
    message: dict[str, Any]
    stored_settings: object  # what settings.json holds (None: missing or corrupt)
    model_id: str | None
    active_tools: list[Any] | None  # None: pi.getActiveTools() throws


def _spread(value: object) -> dict[str, Any]:
    """``{...value}``: own enumerable keys (a string or array spreads its indexes; others nothing)."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, str | list):
        return {str(i): v for i, v in enumerate(value)}
    return {}


def model_id_of(value: object) -> str | None:
    """The model id as the gate's ``RegExp.test`` sees it: ``String(value)``; absent/null is no model."""
    if value is None:
        return None
    return value if isinstance(value, str) else js_string(value)


def tool_list(value: object) -> list[Any]:
    """What ``getActiveTools()`` / ``knownTools`` contribute: an array's entries, else nothing."""
    return list(value) if isinstance(value, list) else []


def scenario(request: dict[str, Any]) -> Scenario:
    """The ``message_end`` scenario a handler request describes."""
    from engine.grammar.settings import settings_file_from_request

    content = request.get("content")
    if content is None:
        content = [{"type": "text", "text": request.get("text", "")}]
        calls = request.get("existingToolCalls")
        for call in calls if isinstance(calls, list) else []:
            part = {"type": "toolCall"}
            for key in ("id", "name", "arguments"):
                if isinstance(call, dict) and key in call:  # `call.id` of a non-object is undefined
                    part[key] = call[key]
            content.append(part)
    role = request.get("role")
    message: dict[str, Any] = {"role": "assistant" if role is None else role, "content": content}
    message.update(_spread(request.get("messageExtra")))
    if "stopReason" in request:
        message["stopReason"] = request["stopReason"]
    active = None if request.get("getActiveTools") == "throws" else tool_list(request.get("knownTools"))
    return Scenario(message, settings_file_from_request(request), model_id_of(request.get("modelId")), active)


def api_message(request: dict[str, Any]) -> dict[str, Any]:
    """The message of a ``recoverGrammarLeaks`` request: ``role || "assistant"``, one text part."""
    role = request.get("role")
    message: dict[str, Any] = {"role": role if _js_truthy(role) else "assistant",
                               "content": [{"type": "text", "text": request.get("text", "")}]}
    if "stopReason" in request:
        message["stopReason"] = request["stopReason"]
    return message


def grammar_list(value: object) -> list[Any] | None:
    """``grammars``: an array restricts the parsers (unknown names ignored); anything else = all ten."""
    return list(value) if isinstance(value, list) else None


def require_known(value: object) -> bool:
    """``requireKnownTool ?? true``, then used as a JavaScript condition."""
    return True if value is None else _js_truthy(value)


def _js_truthy(value: object) -> bool:
    if value is None or value is False:
        return False
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value == value and value != 0
    if isinstance(value, str):
        return value != ""
    return True
