"""The shared body adapter — OmniRoute's ``adaptBodyForCompression`` (``caveman.md`` §2.3).

Caveman and RTK work on chat ``messages``. OpenAI Responses bodies (``input``) and Kiro bodies
(``conversationState``) are turned into synthetic chat messages first and written back afterwards
with ``restore``. The reference's write-back quirks (CAV-Q18 … CAV-Q23) are reproduced under
``omniroute`` and reported; ``strict`` fixes them (and, for RTK-Q35, remembers which tool call
produced each output).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from engine.diagnostics import Diagnostic, Level
from engine.jsvalues import json_stringify

OUTPUT_TYPES = ("function_call_output", "custom_tool_call_output", "local_shell_call_output",
                "apply_patch_call_output")
_DATA_IMAGE = re.compile(r"data:image/[A-Za-z0-9.+-]+;base64,")


@dataclass
class AdaptedBody:
    """What the engine sees (``body``), how to put its result back (``restore``), and notes."""

    body: Any
    shape: str  # chat | responses | kiro | none
    restore: Callable[[Any], Any]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    tool_calls: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # strict: id → (name, command)

    @property
    def adapted(self) -> bool:
        return self.shape in ("responses", "kiro")


# A JSON object of a request body: keys are strings, values whatever the client sent.
Record = dict[str, Any]
# Where a Kiro text sits: (scope, history index, "assistant" | "user") or (scope, index, result, part).
KiroPath = tuple[str, int, str] | tuple[str, int, int, int]


def _record(value: object) -> TypeGuard[Record]:
    return isinstance(value, dict)


def _diag(code: str, message: str, level: Level = "info") -> Diagnostic:
    return Diagnostic(message, level, code, source="body-adapter")


def _identity(result: object) -> Any:
    return result


def adapt_body(body: object, *, profile: str = "omniroute") -> AdaptedBody:
    """Pick the body's shape (§2.3.1) and build the engine's view of it."""
    if not isinstance(body, dict) or isinstance(body.get("messages"), list):
        return AdaptedBody(body, "chat" if isinstance(body, dict) and isinstance(body.get("messages"), list)
                           else "none", _identity)
    if _record(body.get("conversationState")):
        kiro = _adapt_kiro(body, profile)
        if kiro is not None:
            return kiro
        if isinstance(body.get("input"), list | str):
            if profile != "strict":
                return AdaptedBody(body, "none", _identity, [_diag(
                    "CAV-Q23", "a `conversationState` without tool results hid the Responses `input`; nothing was "
                    "compressed")])
            responses = _adapt_responses(body, profile)  # CAV-Q23 fix
            if responses is not None:
                return responses
        return AdaptedBody(body, "none", _identity)
    if isinstance(body.get("input"), list | str):
        responses = _adapt_responses(body, profile)
        if responses is not None:
            return responses
    return AdaptedBody(body, "none", _identity)


# ----------------------------------------------------------------------------- Responses


def _has_inline_image(part: Record) -> bool:
    kind = part.get("type")

    def data_url(v: object) -> bool:
        return isinstance(v, str) and _DATA_IMAGE.match(v) is not None

    if kind == "input_image" and data_url(part.get("image_url")):
        return True
    if kind == "image_url":
        url = part.get("image_url")
        return data_url(url) or (_record(url) and data_url(url.get("url")))
    if kind == "image":
        source = part.get("source")
        return data_url(part.get("image")) or (_record(source) and source.get("type") == "base64"
                                               and isinstance(source.get("data"), str))
    inline = part.get("inlineData")
    if inline is None:
        inline = part.get("inline_data")
    return _record(inline) and isinstance(inline.get("data"), str)


def _keepable(content: object) -> bool:
    if isinstance(content, str):
        return content != ""
    if isinstance(content, list):
        return any(_record(p) and ((isinstance(p.get("text"), str) and p["text"] != "") or _has_inline_image(p))
                   for p in content)
    return False


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
    except (ValueError, RecursionError):
        return None


def _command_of(arguments: object) -> str | None:
    parsed = _parse_json(arguments) if isinstance(arguments, str) else arguments
    if not _record(parsed):
        return None
    for key in ("command", "cmd"):
        value = parsed.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return " ".join(value)
    return None


def _adapt_responses(body: Record, profile: str) -> AdaptedBody | None:
    raw_input = body["input"]
    items = raw_input if isinstance(raw_input, list) else [{"type": "message", "role": "user", "content": raw_input}]
    messages: list[Record] = []
    kept: list[int] = []
    exposed: list[Any] = []  # the content each kept message started with
    notes: list[Diagnostic] = []
    tool_calls: dict[str, tuple[str, str | None]] = {}
    for index, item in enumerate(items):
        if not _record(item):
            continue
        kind = item.get("type") if isinstance(item.get("type"), str) else "message"
        if kind in ("function_call", "custom_tool_call") and isinstance(item.get("call_id"), str):
            name = item["name"] if isinstance(item.get("name"), str) else ""
            tool_calls[item["call_id"]] = (name, _command_of(item.get("arguments", item.get("input"))))
        elif kind == "local_shell_call" and isinstance(item.get("call_id"), str):
            action = item.get("action") if _record(item.get("action")) else {}
            tool_calls[item["call_id"]] = ("local_shell", _command_of(action))
        if kind == "message":
            role = item.get("role") if isinstance(item.get("role"), str) and item.get("role") else "user"
            content = item["content"] if "content" in item else item.get("output")
            message: dict[str, Any] = {"role": role, "content": content}
        elif kind in OUTPUT_TYPES:
            raw = item.get("output")
            if raw is None:
                raw = item.get("content")
            if kind == "custom_tool_call_output":
                parsed = _parse_json(raw) if isinstance(raw, str) else raw
                content = parsed["output"] if _record(parsed) and isinstance(parsed.get("output"), str) else raw
            else:
                content = json_stringify(raw) if _record(raw) else raw
            message = {"role": "tool", "content": content}
            if profile == "strict" and isinstance(item.get("call_id"), str):
                message["tool_call_id"] = item["call_id"]  # RTK-Q35 fix
        else:
            continue
        if not _keepable(message["content"]):
            continue
        messages.append(message)
        kept.append(index)
        exposed.append(message["content"])
    if not messages:
        return None
    adapted = {k: v for k, v in body.items() if k != "input"}
    if "messages" in body and profile != "strict":
        notes.append(_diag("CAV-Q21", f"the body's non-array `messages` ({json.dumps(body['messages'])[:40]}) "
                                      "is overwritten by the adapter and dropped on restore"))
    adapted["messages"] = messages
    for index in kept if profile != "strict" else ():  # strict fixes CAV-Q18 … Q20 on restore
        item = items[index]
        kind = item.get("type") if isinstance(item.get("type"), str) else "message"
        if kind == "message" and "content" not in item:
            notes.append(_diag("CAV-Q20", f"input item {index} keeps its text in `output`; restore adds a "
                                          "`content` key"))
        if kind in ("function_call_output", "local_shell_call_output", "apply_patch_call_output") \
                and _record(item.get("output") if item.get("output") is not None else item.get("content")):
            notes.append(_diag("CAV-Q18", f"input item {index} has an object output; it comes back as JSON text"))
        if kind == "custom_tool_call_output":
            original = item.get("output") if item.get("output") is not None else item.get("content")
            parsed = _parse_json(original) if isinstance(original, str) else None
            if _record(parsed) and isinstance(parsed.get("output"), str) and json_stringify(parsed) != original:
                notes.append(_diag("CAV-Q19", f"input item {index}'s JSON output string is re-serialised on "
                                              "restore"))

    def restore(result: object) -> Any:
        new_messages = result.get("messages") if _record(result) else None
        rebuilt = list(items)
        for n, index in enumerate(kept):
            if not isinstance(new_messages, list) or n >= len(new_messages) or not _record(new_messages[n]):
                continue
            x = new_messages[n].get("content")
            if profile == "strict" and x == exposed[n]:
                continue  # CAV-Q18/Q19 fixes: an unchanged text puts the original item back
            rebuilt[index] = _rebuild_item(items[index], x, profile)
        out = {k: v for k, v in result.items() if k != "messages"} if _record(result) else {}
        if profile == "strict" and "messages" in body:
            out["messages"] = body["messages"]  # CAV-Q21 fix
        if isinstance(raw_input, list):
            out["input"] = rebuilt
        else:
            first = rebuilt[0] if rebuilt else None
            content = first.get("content") if _record(first) else None
            out["input"] = raw_input if content is None else content
        return out

    return AdaptedBody(adapted, "responses", restore, notes, tool_calls)


def _fill(x: object, original: object) -> Any:
    """F(X, original) of §2.3.4: a string written into the first text part of an array."""
    if isinstance(original, list) and isinstance(x, str):
        out, placed = [], False
        for part in original:
            if _record(part) and isinstance(part.get("text"), str):
                out.append({**part, "text": "" if placed else x})
                placed = True
            else:
                out.append(part)
        return out if placed else original
    return x


def _rebuild_item(item: Record, x: object, profile: str) -> Record:
    kind = item.get("type") if isinstance(item.get("type"), str) else "message"
    if kind == "message":
        if profile == "strict" and "content" not in item:
            return {**item, "output": _fill(x, item.get("output"))}  # CAV-Q20 fix
        return {**item, "content": _fill(x, item.get("content"))}
    target = "output" if item.get("output") is not None else "content"
    original = item.get(target)
    if kind == "custom_tool_call_output":
        parsed = _parse_json(original) if isinstance(original, str) else None
        if _record(parsed) and isinstance(parsed.get("output"), str):
            return {**item, target: json_stringify({**parsed, "output": x})}
        if _record(original) and isinstance(original.get("output"), str):
            return {**item, target: {**original, "output": x}}
    return {**item, target: _fill(x, original)}


# ----------------------------------------------------------------------------- Kiro


def _adapt_kiro(body: Record, profile: str) -> AdaptedBody | None:
    state = body["conversationState"]
    history = state.get("history") if isinstance(state.get("history"), list) else []
    current = state.get("currentMessage") if _record(state.get("currentMessage")) else None
    entries = [("history", i, e) for i, e in enumerate(history) if _record(e)]
    if current is not None:
        entries.append(("currentMessage", 0, current))
    messages: list[Record] = []
    paths: list[KiroPath] = []
    tool_calls: dict[str, tuple[str, str | None]] = {}
    prose = 0
    for scope, hi, entry in entries:
        reply = entry.get("assistantResponseMessage")
        if _record(reply):
            for use in reply.get("toolUses") or []:
                if _record(use) and isinstance(use.get("toolUseId"), str):
                    name = use["name"] if isinstance(use.get("name"), str) else ""
                    tool_calls[use["toolUseId"]] = (name, _command_of(use.get("input")))
            if isinstance(reply.get("content"), str) and reply["content"]:
                prose += 1
                if profile == "strict":  # CAV-Q22 fix
                    messages.append({"role": "assistant", "content": reply["content"]})
                    paths.append((scope, hi, "assistant"))
        user = entry.get("userInputMessage")
        if not _record(user):
            continue
        if isinstance(user.get("content"), str) and user["content"]:
            prose += 1
            if profile == "strict":
                messages.append({"role": "user", "content": user["content"]})
                paths.append((scope, hi, "user"))
        context = user.get("userInputMessageContext")
        results = context.get("toolResults") if _record(context) else None
        if not isinstance(results, list):
            continue
        for ti, result in enumerate(results):
            if not _record(result) or result.get("status") == "error" or not isinstance(result.get("content"), list):
                continue
            for pi, part in enumerate(result["content"]):
                if _record(part) and isinstance(part.get("text"), str) and part["text"]:
                    message: dict[str, Any] = {"role": "tool", "content": part["text"]}
                    if profile == "strict" and isinstance(result.get("toolUseId"), str):
                        message["tool_call_id"] = result["toolUseId"]  # RTK-Q35 fix
                    messages.append(message)
                    paths.append((scope, hi, ti, pi))
    if not messages:
        return None
    notes: list[Diagnostic] = []
    if prose and profile != "strict":
        notes.append(_diag("CAV-Q22", f"{prose} Kiro prompt(s)/reply(ies) are not exposed; only tool results are"))
    if "messages" in body and profile != "strict":
        notes.append(_diag("CAV-Q21", "the body's non-array `messages` is overwritten by the adapter and dropped "
                                      "on restore"))
    adapted = {**body, "messages": messages}

    def restore(result: object) -> Any:
        new_messages = result.get("messages") if _record(result) else None
        texts: dict[KiroPath, str] = {}
        for n, path in enumerate(paths):
            if not isinstance(new_messages, list) or n >= len(new_messages) or not _record(new_messages[n]):
                continue
            content = new_messages[n].get("content")
            if isinstance(content, list):
                content = next((p["text"] for p in content if _record(p) and isinstance(p.get("text"), str)), None)
            if isinstance(content, str):
                texts[path] = content
        new_state = dict(state)
        if isinstance(state.get("history"), list) and state["history"]:
            new_state["history"] = [_rewrite_entry(e, "history", i, texts) if _record(e) else e
                                    for i, e in enumerate(state["history"])]
        if _record(state.get("currentMessage")):
            new_state["currentMessage"] = _rewrite_entry(state["currentMessage"], "currentMessage", 0, texts)
        out = {k: v for k, v in result.items() if k != "messages"} if _record(result) else {}
        if profile == "strict" and "messages" in body:
            out["messages"] = body["messages"]  # CAV-Q21 fix
        out["conversationState"] = new_state
        return out

    return AdaptedBody(adapted, "kiro", restore, notes, tool_calls)


def _rewrite_entry(entry: Record, scope: str, hi: int, texts: dict[KiroPath, str]) -> Record:
    out = entry
    reply = entry.get("assistantResponseMessage")
    new = texts.get((scope, hi, "assistant"))
    if _record(reply) and new is not None and new != reply.get("content"):
        out = {**out, "assistantResponseMessage": {**reply, "content": new}}
    user = entry.get("userInputMessage")
    if not _record(user):
        return out
    new_user = user
    new = texts.get((scope, hi, "user"))
    if new is not None and new != user.get("content"):
        new_user = {**new_user, "content": new}
    context = user.get("userInputMessageContext")
    results = context.get("toolResults") if _record(context) else None
    if _record(context) and isinstance(results, list):  # a list only when the context is an object
        new_results, changed = [], False
        for ti, result in enumerate(results):
            if _record(result) and isinstance(result.get("content"), list):
                parts, part_changed = [], False
                for pi, part in enumerate(result["content"]):
                    text = texts.get((scope, hi, ti, pi))
                    if text is not None and _record(part) and text != part.get("text"):
                        part = {**part, "text": text}
                        part_changed = True
                    parts.append(part)
                if part_changed:
                    result = {**result, "content": parts}
                    changed = True
            new_results.append(result)
        if changed:
            new_user = {**new_user, "userInputMessageContext": {**context, "toolResults": new_results}}
    if new_user is not user:
        out = {**out, "userInputMessage": new_user}
    return out
