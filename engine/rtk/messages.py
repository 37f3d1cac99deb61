"""RTK over a chat request body — OmniRoute's ``applyRtkCompression`` (``rtk.md`` §8).

Tool results (OpenAI ``role: "tool"`` messages and Anthropic ``tool_result`` blocks), and on
request assistant messages or fenced code blocks, go through ``process_rtk_text``. The command
comes from the assistant tool call that produced the result; outputs of tools that are not shells
skip the filters (dedup and the final cap still run). Blocks carrying ``cache_control`` are left
byte for byte, so prompt caches stay valid. A text is replaced only when its token estimate went
down.
"""

from __future__ import annotations

import copy
import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.bodies import adapt_body
from engine.diagnostics import Diagnostic
from engine.jsvalues import JsonObject
from engine.o200k import estimate_body_tokens
from engine.rtk.engine import RtkConfig, RtkResult, process_rtk_text
from engine.rtk.model import RtkFilter

SHELL_WORDS = ("bash", "shell", "terminal", "run_command", "execute_command", "exec", "command")
# ASCII \b around the shell words, as the reference tests the lower-cased tool name (RTK-Q11).
_SHELL_NAME = re.compile(r"\b(?:" + "|".join(SHELL_WORDS) + r")\b", re.ASCII)
_STRICT_TOKENS = re.compile(r"[_\-.\s]+")
_FENCE = re.compile(r"```[\s\S]*?```")
_TEXT_TYPES = (None, "text", "input_text")


@dataclass
class ToolMeta:
    command: str | None
    skip_filters: bool
    tool_name: str | None = None
    quirk_q11: bool = False  # a shell tool by its name's tokens, not by the reference's \b test


@dataclass
class BodyResult:
    body: Any
    compressed: bool
    stats: dict[str, Any] | None
    results: list[dict[str, Any]] = field(default_factory=list)  # one per processed text, for the IDE
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"body": self.body, "compressed": self.compressed, "stats": self.stats,
                "results": self.results, "diagnostics": [d.to_dict() for d in self.diagnostics]}


def resolve_config(config: Mapping[str, Any] | None, step_config: Mapping[str, Any] | None,
                   *, profile: str = "omniroute") -> tuple[RtkConfig, list[Diagnostic]]:
    """§8.1: which config the body step runs with, and whether RTK-Q13 switched it off."""
    notes: list[Diagnostic] = []
    if step_config is not None:
        step = {"enabled": True, **step_config}  # a step config without `enabled` gets `enabled: true`
        merged = {**(config or {}), **step}
    elif not config:
        merged = {"enabled": True}
    else:
        merged = dict(config)
        if "enabled" not in merged:
            if profile == "strict":
                merged["enabled"] = True
            else:
                notes.append(Diagnostic("a config without `enabled` (and no step config) leaves RTK disabled",
                                        "info", "RTK-Q13", source="rtk"))
    return RtkConfig.from_dict(merged), notes


def _tool_index(messages: Sequence[Any]) -> dict[str, tuple[str, str | None]]:
    """``toolCallId → (toolName, command)`` from every assistant message (both wire shapes)."""
    index: dict[str, tuple[str, str | None]] = {}
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        for call in message.get("tool_calls") or []:
            if not isinstance(call, dict) or not isinstance(call.get("id"), str):
                continue
            function = call.get("function")
            if not isinstance(function, dict):
                continue
            name = function.get("name")
            index[call["id"]] = (name if isinstance(name, str) else "", _command_from_arguments(function.get("arguments")))
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                if isinstance(part, dict) and part.get("type") == "tool_use" and isinstance(part.get("id"), str):
                    given = part.get("input")
                    args = given if isinstance(given, dict) else {}
                    command = args.get("command")
                    if not isinstance(command, str):
                        cmd = args.get("cmd")
                        command = cmd if isinstance(cmd, str) else None
                    tool = part.get("name")
                    index[part["id"]] = (tool if isinstance(tool, str) else "", command)
    return index


def _command_from_arguments(arguments: Any) -> str | None:
    if not isinstance(arguments, str):
        return None
    try:
        parsed = json.loads(arguments)
    except (ValueError, RecursionError):
        return None
    if not isinstance(parsed, dict):
        return None
    command, cmd = parsed.get("command"), parsed.get("cmd")
    if isinstance(command, str):
        return command
    return cmd if isinstance(cmd, str) else None


def is_shell_tool(name: str, *, profile: str = "omniroute") -> bool:
    """RTK-Q11: ``run_shell_command`` is no shell for the reference (``_`` is a word character);
    ``strict`` compares the name's ``_``/``-``/``.`` separated tokens instead."""
    lowered = name.lower()
    if profile == "strict":
        tokens = set(_STRICT_TOKENS.split(lowered))
        return bool(tokens & set(SHELL_WORDS)) or _SHELL_NAME.search(lowered) is not None
    return _SHELL_NAME.search(lowered) is not None


def resolve_tool_meta(tool_id: Any, index: Mapping[str, tuple[str, str | None]], *,
                      profile: str = "omniroute") -> ToolMeta:
    if not isinstance(tool_id, str) or tool_id not in index:
        return ToolMeta(None, False)
    name, command = index[tool_id]
    if is_shell_tool(name, profile=profile):
        return ToolMeta(command, False, name)
    return ToolMeta(None, True, name, quirk_q11=is_shell_tool(name, profile="strict"))


def _has_fence(content: Any) -> bool:
    if isinstance(content, str):
        return "```" in content
    if isinstance(content, list):
        return any(isinstance(p, dict) and isinstance(p.get("text"), str) and "```" in p["text"] for p in content)
    return False


def apply_rtk_compression(
    body: Any,
    config: Mapping[str, Any] | None = None,
    step_config: Mapping[str, Any] | None = None,
    filters: Sequence[RtkFilter] = (),
    *,
    profile: str = "omniroute",
) -> BodyResult:
    """RTK over every eligible message of ``body`` (a new body; the input is not modified)."""
    started = time.perf_counter()
    cfg, notes = resolve_config(config, step_config, profile=profile)
    if not cfg.enabled:
        return BodyResult(body, False, None, diagnostics=notes)
    adapted = adapt_body(body, profile=profile)  # Responses `input` and Kiro bodies (§8.6)
    work = adapted.body
    messages = work.get("messages") if isinstance(work, dict) else None
    if not isinstance(messages, list) or not messages:
        return BodyResult(body, False, None, diagnostics=notes)
    notes = notes + adapted.diagnostics

    out_body = copy.deepcopy(work)
    out_messages = out_body["messages"]
    index = _tool_index(messages)
    if profile == "strict":
        index.update({k: v for k, v in adapted.tool_calls.items() if k not in index})  # RTK-Q35 fix
    elif adapted.adapted and any(isinstance(m, dict) and m.get("role") == "tool" for m in messages):
        notes.append(Diagnostic(
            f"{adapted.shape} tool outputs carry no tool id: each runs with the command detected from its text and "
            "with filters on, whatever tool produced it", "info", "RTK-Q35", source="rtk"))
    state = _BodyState(cfg, filters, profile, notes)
    code_blocks_only = cfg.apply_to_code_blocks and not cfg.apply_to_tool_results \
        and not cfg.apply_to_assistant_messages

    for position, message in enumerate(out_messages):
        if not isinstance(message, dict):
            continue
        role, content = message.get("role"), message.get("content")
        if cfg.apply_to_tool_results and isinstance(content, list) and any(
                isinstance(p, dict) and p.get("type") == "tool_result" for p in content):
            for part in content:
                if isinstance(part, dict) and part.get("type") == "tool_result":
                    state.tool_result_block(part, resolve_tool_meta(part.get("tool_use_id"), index, profile=profile),
                                            position)
            continue
        if role == "tool":
            if not (cfg.apply_to_tool_results or (cfg.apply_to_code_blocks and _has_fence(content))):
                continue
            meta = resolve_tool_meta(message.get("tool_call_id"), index, profile=profile)
        elif role == "assistant":
            if not (cfg.apply_to_assistant_messages or (cfg.apply_to_code_blocks and _has_fence(content))):
                continue
            meta = ToolMeta(None, False)
        else:
            continue
        state.message(message, meta, position, code_blocks_only)

    techniques = list(dict.fromkeys(state.techniques))
    rules = list(dict.fromkeys(state.rules))
    before, after = estimate_body_tokens(work), estimate_body_tokens(out_body)
    stats = {
        "engine": "rtk", "originalTokens": before, "compressedTokens": after,
        "savingsPercent": round((before - after) / before * 100, 2) if before else 0,
        "techniquesUsed": techniques, "rulesApplied": rules or None,
        "durationMs": round((time.perf_counter() - started) * 1000, 3),
    }
    if adapted.adapted:
        result_body = adapted.restore(out_body)  # every exposed item is rebuilt (CAV-Q18, CAV-Q19)
    else:
        result_body = out_body if state.changed else body
    return BodyResult(result_body, after < before, stats, state.results, state.diagnostics)


class _BodyState:
    def __init__(self, cfg: RtkConfig, filters: Sequence[RtkFilter], profile: str, notes: list[Diagnostic]):
        self.cfg, self.filters, self.profile = cfg, filters, profile
        self.techniques: list[str] = []
        self.rules: list[str] = []
        self.results: list[dict[str, Any]] = []
        self.diagnostics: list[Diagnostic] = list(notes)
        self.changed = False

    def process(self, text: str, meta: ToolMeta, where: str) -> str | None:
        """The compressed text, or ``None`` to keep the original."""
        if not text:
            return None
        result: RtkResult = process_rtk_text(text, meta.command, self.cfg, self.filters,
                                             skip_filters=meta.skip_filters, profile=self.profile)
        self.diagnostics.extend(d.with_location(pointer=where) for d in result.diagnostics)
        if meta.quirk_q11:
            self.diagnostics.append(Diagnostic(
                f"tool {meta.tool_name!r} is treated as a non-shell tool (its shell word is joined by `_`), "
                "so no filter ran", "info", "RTK-Q11", pointer=where, source="rtk"))
        summary = {"pointer": where, "compressed": result.compressed, "filterId": result.filter.id if result.filter else None,
                   "originalTokens": result.original_tokens, "compressedTokens": result.compressed_tokens,
                   "rulesApplied": result.rules_applied, "toolName": meta.tool_name, "command": meta.command,
                   "skipFilters": meta.skip_filters}
        self.results.append(summary)
        self.techniques.extend(result.techniques_used)  # every call counts, replaced or not (§8.5)
        self.rules.extend(result.rules_applied)
        if not result.compressed:
            return None
        self.changed = True
        return result.text

    def tool_result_block(self, part: JsonObject, meta: ToolMeta, position: int) -> None:
        where = f"/messages/{position}"
        if part.get("cache_control") is not None:
            return  # kept byte for byte: a cache breakpoint must not move
        inner = part.get("content")
        if isinstance(inner, str):
            new = self.process(inner, meta, where)
            if new is not None:
                part["content"] = new
        elif isinstance(inner, list):
            for sub in inner:
                if not isinstance(sub, dict) or sub.get("type") not in _TEXT_TYPES:
                    continue
                text = sub.get("text")
                if sub.get("cache_control") is not None or not isinstance(text, str):
                    continue
                new = self.process(text, meta, where)
                if new is not None:
                    sub["text"] = new

    def message(self, message: JsonObject, meta: ToolMeta, position: int, code_blocks_only: bool) -> None:
        where = f"/messages/{position}"
        content = message.get("content")
        if isinstance(content, str):
            new = self.fenced(content, meta, where) if code_blocks_only else self.process(content, meta, where)
            if new is not None:
                message["content"] = new
        elif isinstance(content, list):
            for part in content:
                if not isinstance(part, dict) or part.get("type") not in _TEXT_TYPES:
                    continue
                text = part.get("text")
                if not isinstance(text, str) or not text:
                    continue
                new = self.fenced(text, meta, where) if code_blocks_only else self.process(text, meta, where)
                if new is not None:
                    part["text"] = new

    def fenced(self, text: str, meta: ToolMeta, where: str) -> str | None:
        changed = False

        def replace(match: re.Match[str]) -> str:
            nonlocal changed
            new = self.process(match.group(0), meta, where)
            if new is None:
                return match.group(0)
            changed = True
            return new

        out = _FENCE.sub(replace, text)
        return out if changed else None
