"""MCP wire ids, registry entries, collation order and defer exposition (spec §8)."""

import pytest

from engine.params.tools import apply_defer, camel, resolve_mcp_tool_ids, resolve_tools

from .payloads import assistant, model, payload, provider


@pytest.mark.parametrize("name,expected", [
    ("Filesystem", "filesystem"), ("GitHub", "github"), ("Ops Server", "opsServer"),
    ("@cherry/browser", "CherryBrowser"), ("read_file", "readFile"), ("op_0", "op0"),
    ("3d tools", "_3dTools"), ("  Trim Me  ", "trimMe"),
])
def test_camel(name, expected):
    assert camel(name) == expected


def server(sid, name, tools, **extra):
    return {"id": sid, "name": name, "isActive": True, "tools": [
        {"name": t, "description": f"Tool {t}.", "inputSchema": {"type": "object"}}
        for t in tools], **extra}


def build(servers, *, mode="auto", ctx=None, **settings):
    asst = assistant(mcpMode=mode, **settings)
    extra = {"contextWindow": ctx} if ctx else {}
    return payload(provider(), model("p::m", extra=extra), asst, mcpServers=servers)


def test_auto_mode_lists_active_servers_in_table_order():
    data = build([server("s1", "Zeta", ["b_tool", "a_tool"]), server("s2", "alpha", ["x"]),
                  server("s3", "Off", ["y"], isActive=False)])
    ids, origin = resolve_mcp_tool_ids(data)
    assert ids == ["mcp__zeta__bTool", "mcp__zeta__aTool", "mcp__alpha__x"]
    assert "auto" in origin


def test_manual_mode_uses_linked_servers_and_disabled_tools_are_skipped():
    data = build([server("s1", "One", ["a", "b"], disabledTools=["b"]), server("s2", "Two", ["c"])],
                 mode="manual")
    data["assistant"]["mcpServerIds"] = ["s1"]
    assert resolve_mcp_tool_ids(data)[0] == ["mcp__one__a"]


def test_explicit_ids_win_and_are_deduplicated():
    data = build([server("s1", "One", ["a", "b"])], mode="disabled")
    data["request"]["mcpToolIds"] = ["mcp__one__b", "mcp__one__b", "mcp__none__z"]
    result = resolve_tools(data, data["model"])
    assert result.mcp_tool_ids == ["mcp__one__b", "mcp__none__z"]
    assert [e.name for e in result.active] == ["mcp__one__b"]


def test_cost_chars_counts_name_description_and_schema_json():
    data = build([server("s1", "One", ["a"])])
    entry = resolve_tools(data, data["model"]).active[0]
    schema_json = '{"jsonSchema":{"type":"object"}}'
    assert entry.cost_chars == len("mcp__one__a") + len("Tool a.") + len(schema_json)


def test_registry_order_is_locale_collation():  # PAR-Q20
    data = build([server("s1", "Ops Server", ["z"]), server("s2", "github", ["y"])],
                 enableWebSearch=True)
    data["assistant"]["knowledgeBaseIds"] = ["kb"]
    names = [e.name for e in resolve_tools(data, data["model"]).active]
    assert names == ["kb__list", "kb__search", "mcp__github__y", "mcp__opsServer__z",
                     "web__fetch", "web__search"]


def test_no_function_call_skips_tools():
    data = build([server("s1", "One", ["a"])])
    data["model"]["capabilities"] = []
    result = resolve_tools(data, data["model"])
    assert result.exposed is None and result.mcp_tool_ids == [] and result.skipped


def test_force_prompt_tools_never_defer_and_snake_rules_miss():  # PAR-Q27
    tools = [f"op_{i}" for i in range(8)]
    srv = server("s1", "Ops", tools, disabledAutoApproveTools=["op_0", "mcp__ops__op_1"])
    for t in srv["tools"]:
        t["description"] = "d" * 2000
    data = build([srv])
    result = resolve_tools(data, data["model"])
    defers = {e.name: e.defer for e in result.active}
    assert defers["mcp__ops__op0"] == "never" and defers["mcp__ops__op1"] == "auto"
    assert "mcp__ops__op0" in result.exposed and "tool_search" in result.exposed
    assert any(q["code"] == "PAR-Q27" for q in result.quirks)
    strict = resolve_tools(data, data["model"], strict=True)
    assert {e.name: e.defer for e in strict.active}["mcp__ops__op1"] == "never"


def _entries(n, chars):
    from engine.params.tools import ToolEntry
    return [ToolEntry(f"t{i}", "mcp:x", "auto", chars, "mcp") for i in range(n)]


def test_defer_needs_threshold_count_and_overhead():
    deferred = apply_defer(_entries(5, 3000), 10000)
    assert deferred.deferred == [f"t{i}" for i in range(5)]
    assert deferred.exposed == ["tool_search", "tool_inspect", "tool_invoke"]
    assert deferred.defer_diagnostics["threshold"] == 1000
    assert apply_defer(_entries(4, 30000), 10000).deferred == []  # fewer than five
    assert apply_defer(_entries(5, 300), 1000).deferred == []  # 375 tokens ≤ 500 overhead
    assert apply_defer(_entries(5, 3000), None).defer_diagnostics["threshold"] == 3200
