"""Chat request bodies as recorded by gateways, turned into the ``{"messages": [...]}`` form
that Caveman compresses.

Three wire formats are recognised: OpenAI Chat Completions (``messages``), OpenAI Responses
(``input`` as a string or a list of items, plus ``instructions``) and Anthropic Messages
(``messages`` with content blocks, plus a top-level ``system``). Parts that are not text
(images, tool calls, tool results) are kept as they are; Caveman leaves them alone.
"""

from __future__ import annotations

from typing import Any


def body_format(body: Any) -> str | None:
    """``openai-chat``, ``openai-responses``, ``anthropic-messages``, or None when none fits."""
    if not isinstance(body, dict):
        return None
    if isinstance(body.get("messages"), list):
        return "anthropic-messages" if "system" in body or _has_anthropic_blocks(body["messages"]) else "openai-chat"
    if isinstance(body.get("input"), str | list):
        return "openai-responses"
    return None


_ANTHROPIC_BLOCKS = frozenset({"tool_use", "tool_result", "thinking", "redacted_thinking"})


def _has_anthropic_blocks(messages: list[Any]) -> bool:
    """Both formats share ``messages``; only Anthropic has these block types (and ``system``)."""
    return any(isinstance(m, dict) and isinstance(m.get("content"), list)
               and any(isinstance(b, dict) and b.get("type") in _ANTHROPIC_BLOCKS for b in m["content"])
               for m in messages)


def _system_message(system: Any) -> dict[str, Any] | None:
    if isinstance(system, str):
        return {"role": "system", "content": system}
    if isinstance(system, list):
        return {"role": "system", "content": [b for b in system if isinstance(b, dict)]}
    return None


def _responses_messages(body: dict[str, Any]) -> list[Any]:
    messages: list[Any] = []
    if isinstance(body.get("instructions"), str):
        messages.append({"role": "system", "content": body["instructions"]})
    items = body["input"]
    if isinstance(items, str):
        return [*messages, {"role": "user", "content": items}]
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("role"), str) \
                and isinstance(item.get("content"), str | list):
            messages.append({"role": item["role"], "content": item["content"]})
        else:  # function calls, their outputs, reasoning items: no prose for Caveman
            messages.append(item)
    return messages


def to_messages(body: Any) -> dict[str, Any] | None:
    """The body as ``{"messages": [...]}``, or None when it is no chat body."""
    kind = body_format(body)
    if kind is None:
        return None
    if kind == "openai-responses":
        return {"messages": _responses_messages(body)}
    messages = list(body["messages"])
    if kind == "anthropic-messages":
        system = _system_message(body.get("system"))
        if system is not None:
            messages.insert(0, system)
    return {"messages": messages}
