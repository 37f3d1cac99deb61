"""Tool resolution: MCP wire ids, the registry's ``applies``, and defer exposition (spec §8)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from engine.jsvalues import as_array, as_object
from engine.params.collation import sort_names
from engine.params.jsv import get, get_path, is_nullish, json_compact, truthy, utf16_len
from engine.params.options_context import QuirkNote

META_TOOLS = ("tool_search", "tool_inspect", "tool_invoke")
DEFAULT_CONTEXT_WINDOW = 32000
META_TOOL_OVERHEAD_TOKENS = 500
MIN_DEFER_COUNT = 5

# The builtin tools' costs are fixed by the reference (name + description + schema JSON).
BUILTIN_TOOLS = (
    ("kb__list", "kb", 768, "knowledge"),
    ("kb__search", "kb", 1040, "knowledge"),
    ("web__fetch", "web", 1070, "web"),
    ("web__search", "web", 1054, "web"),
)


def camel(text: str) -> str:
    """MCP name → wire-id segment (``Ops Server`` → ``opsServer``, ``op_0`` → ``op0``)."""
    out = text.strip().lower()
    out = re.sub(r"[^a-z0-9]+(.)", lambda m: m.group(1).upper(), out)
    out = re.sub(r"[^a-zA-Z0-9]", "", out)
    if out[:1].isdigit():
        out = "_" + out
    return out


def wire_id(server_name: str, tool_name: str) -> str:
    return f"mcp__{camel(server_name)}__{camel(tool_name)}"


@dataclass
class ToolEntry:
    name: str
    namespace: str
    defer: str  # "auto" | "never" | "always"
    cost_chars: int
    source: str  # "knowledge" | "web" | "mcp"
    description: str = ""
    server: str | None = None
    why: str = ""


@dataclass
class ToolsResult:
    mcp_tool_ids: list[str] = field(default_factory=list)
    active: list[ToolEntry] = field(default_factory=list)
    exposed: list[str] | None = None
    deferred: list[str] = field(default_factory=list)
    defer_diagnostics: dict[str, Any] | None = None
    skipped: str | None = None
    notes: list[dict[str, Any]] = field(default_factory=list)
    quirks: list[QuirkNote] = field(default_factory=list)

    def to_report(self) -> dict[str, Any]:
        return {"exposed": self.exposed, "deferred": list(self.deferred),
                "active": [e.name for e in self.active],
                "deferDiagnostics": self.defer_diagnostics}


def _servers(payload: dict[str, Any]) -> list[dict[str, Any]]:
    servers = payload.get("mcpServers")
    return [s for s in servers if isinstance(s, dict)] if isinstance(servers, list) else []


def _server_active(server: dict[str, Any]) -> bool:
    return server.get("isActive", True) is not False


def _server_tools(server: dict[str, Any]) -> list[dict[str, Any]]:
    tools = server.get("tools")
    return [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else []


def _rule_matches(rules: object, server: dict[str, Any], tool: dict[str, Any], *, strict: bool) -> bool:
    if not isinstance(rules, list):
        return False
    name = str(tool.get("name", ""))
    s = camel(str(server.get("name", "")))
    candidates = {name, wire_id(str(server.get("name", "")), name), f"mcp__{s}__*"}
    if strict:  # PAR-Q27 fix: also accept ids built from the raw tool name
        candidates.add(f"mcp__{s}__{name}")
    return any(rule in candidates for rule in rules if isinstance(rule, str))


def is_disabled(server: dict[str, Any], tool: dict[str, Any], *, strict: bool = False) -> bool:
    return _rule_matches(server.get("disabledTools"), server, tool, strict=strict)


def is_force_prompt(server: dict[str, Any], tool: dict[str, Any], *, strict: bool = False) -> bool:
    if _rule_matches(server.get("disabledAutoApproveTools"), server, tool, strict=strict):
        return True
    return tool.get("name") == "execute" and server.get("name") == "@cherry/browser"


def quirk27_hits(server: dict[str, Any], tool: dict[str, Any]) -> bool:
    """True when only the strict matcher would see a source rule for this tool (PAR-Q27)."""
    for key in ("disabledTools", "disabledAutoApproveTools"):
        rules = server.get(key)
        if (not _rule_matches(rules, server, tool, strict=False)
                and _rule_matches(rules, server, tool, strict=True)):
            return True
    return False


def mcp_mode(assistant: dict[str, Any]) -> str:
    mode = get_path(assistant, "settings", "mcpMode")
    if isinstance(mode, str) and not is_nullish(mode):
        return mode
    servers = get(assistant, "mcpServerIds")
    return "manual" if isinstance(servers, list) and servers else "disabled"


def resolve_mcp_tool_ids(payload: dict[str, Any], *, strict: bool = False) -> tuple[list[str], str]:
    """§8.1: the request's MCP id set, plus a sentence saying where it came from."""
    request = as_object(payload.get("request"))
    assistant = payload.get("assistant")
    explicit = request.get("mcpToolIds")
    if not is_nullish(explicit) and isinstance(explicit, list):
        ids = [i for i in explicit if isinstance(i, str)]
        return list(dict.fromkeys(ids)), "request.mcpToolIds (explicit)"
    assistant_id = request.get("assistantId")
    if (is_nullish(assistant_id) or not isinstance(assistant, dict)
            or assistant.get("id") != assistant_id):
        return [], "no request.mcpToolIds and no assistant matching request.assistantId"
    mode = mcp_mode(assistant)
    if mode == "disabled":
        return [], "assistant mcpMode is disabled"
    linked = as_array(assistant.get("mcpServerIds"))
    out: list[str] = []
    for server in _servers(payload):
        if not _server_active(server):
            continue
        if mode == "manual" and server.get("id") not in linked:
            continue
        if mode not in ("auto", "manual"):
            continue
        for tool in _server_tools(server):
            if is_disabled(server, tool, strict=strict):
                continue
            out.append(wire_id(str(server.get("name", "")), str(tool.get("name", ""))))
    return list(dict.fromkeys(out)), f"derived from the assistant (mcpMode {mode})"


def mcp_cost_chars(name: str, tool: dict[str, Any]) -> int:
    description = tool.get("description")
    description = description if isinstance(description, str) else ""
    schema = tool.get("inputSchema")
    schema_json = json_compact({"jsonSchema": schema}) if "inputSchema" in tool else "{}"
    return utf16_len(name) + utf16_len(description) + utf16_len(schema_json)


def registry_entries(payload: dict[str, Any], mcp_ids: list[str], *, strict: bool = False,
                     builtin_web: bool = True) -> list[ToolEntry]:
    """Entries that apply, in registry (collation) order.

    ``builtin_web=False`` (strict, PAR-Q14 fix) leaves web search to the provider's own tool.
    """
    assistant = payload.get("assistant")
    entries: list[ToolEntry] = []
    kb_ids = get(assistant, "knowledgeBaseIds") if isinstance(assistant, dict) else None
    web_on = truthy(get_path(assistant, "settings", "enableWebSearch")) \
        if isinstance(assistant, dict) else False
    for name, namespace, cost, source in BUILTIN_TOOLS:
        if source == "knowledge" and isinstance(kb_ids, list) and kb_ids:
            entries.append(ToolEntry(name, namespace, "auto", cost, source,
                                     why="assistant.knowledgeBaseIds is non-empty"))
        if source == "web" and web_on and builtin_web:
            entries.append(ToolEntry(name, namespace, "auto", cost, source,
                                     why="assistant.settings.enableWebSearch is on (PAR-Q14: "
                                         "model capability not checked)"))
    wanted = set(mcp_ids)
    for server in _servers(payload):
        server_name = str(server.get("name", ""))
        if not _server_active(server):
            continue
        for tool in _server_tools(server):
            name = wire_id(server_name, str(tool.get("name", "")))
            if name not in wanted or is_disabled(server, tool, strict=strict):
                continue
            defer = "never" if is_force_prompt(server, tool, strict=strict) else "auto"
            description = tool["description"] if isinstance(tool.get("description"), str) else ""
            entries.append(ToolEntry(name, f"mcp:{server_name}", defer, mcp_cost_chars(name, tool),
                                     "mcp", description=description, server=server_name,
                                     why="id is in the request's MCP id set"))
    by_name = {e.name: e for e in entries}
    return [by_name[n] for n in sort_names(by_name, strict=strict)]


def apply_defer(active: list[ToolEntry], context_window: object) -> ToolsResult:
    """§8.4: the ``auto`` entries are deferred together or not at all."""
    ctx = context_window if isinstance(context_window, (int, float)) and not isinstance(
        context_window, bool) and context_window > 0 else DEFAULT_CONTEXT_WINDOW
    share = ctx * 10 / 100
    # JS: 1e308 * 10 is Infinity and Math.floor(Infinity) is Infinity (Python's floor would raise)
    threshold = math.floor(share) if math.isfinite(share) else share
    auto = [e for e in active if e.defer == "auto"]
    auto_cost_tokens = math.ceil(sum(e.cost_chars for e in auto) / 4)
    defer_auto = (auto_cost_tokens > threshold and len(auto) >= MIN_DEFER_COUNT
                  and auto_cost_tokens > META_TOOL_OVERHEAD_TOKENS)
    deferred = [e.name for e in active
                if e.defer == "always" or (e.defer == "auto" and defer_auto)]
    exposed = [e.name for e in active if e.name not in deferred]
    if deferred:
        exposed += list(META_TOOLS)
    return ToolsResult(
        active=active, exposed=exposed, deferred=deferred,
        defer_diagnostics={
            "threshold": threshold, "autoCount": len(auto), "autoCostTokens": auto_cost_tokens,
            "entries": [{"name": e.name, "namespace": e.namespace, "defer": e.defer,
                         "costChars": e.cost_chars} for e in active],
        })


def resolve_tools(payload: dict[str, Any], model: dict[str, Any], *, strict: bool = False,
                  builtin_web: bool = True) -> ToolsResult:
    from engine.params.ids import has_capability

    if not has_capability(model, "function-call"):
        return ToolsResult(skipped="the model lacks the function-call capability")
    mcp_ids, origin = resolve_mcp_tool_ids(payload, strict=strict)
    active = registry_entries(payload, mcp_ids, strict=strict, builtin_web=builtin_web)
    if not active:
        result = ToolsResult(mcp_tool_ids=mcp_ids, skipped="no registry entry applies")
    else:
        result = apply_defer(active, get(model, "contextWindow"))
        result.mcp_tool_ids = mcp_ids
    result.notes.append({"mcpToolIdsFrom": origin})
    if not strict:
        for server in _servers(payload):
            for tool in _server_tools(server):
                if quirk27_hits(server, tool):
                    result.quirks.append({"code": "PAR-Q27", "message":
                                          f"a source rule on server {server.get('name')!r} names "
                                          f"tool {tool.get('name')!r} by an un-camelCased id and "
                                          "matches nothing"})
    return result
