"""MCP metadata description compression and its estimate counters (spec §14)."""

from __future__ import annotations

from engine.caveman import McpCounters, McpDescriptionCompressor, PackSource

from .helpers import pack, rule

EN = pack(rule("polite", r"\bplease\s+"), rule("user_only", r"\bfiles\b", "F", context="user"),
          rule("ultra", r"\bfunction\b", "fn", minIntensity="ultra"), language="en")


def make(counters=None) -> McpDescriptionCompressor:
    return McpDescriptionCompressor(PackSource.from_packs([EN]), counters=counters)


def test_compress_uses_all_context_rules_at_full_and_normalises():
    c = make()
    r = c.compress("please  list files ,   then call `please x`  \n\n\n\nnext function")
    # blanks at a line end are only collapsed (no per-line trim in the MCP normaliser)
    assert r["compressed"] == "List files, then call `please x` \n\nNext function"
    assert r["changed"] and r["before"] > r["after"]
    assert c.compress("") == {"compressed": "", "before": 0, "after": 0, "changed": False}


def test_maybe_compress_counts_and_kill_switches(monkeypatch):
    counters = McpCounters()
    c = make(counters)
    assert c.maybe_compress("please read the docs") == "Read the docs"
    assert c.maybe_compress("nothing to do") == "nothing to do"
    assert (counters.descriptionsCompressed, counters.charsSaved, counters.estimatedTokensSaved) == (1, 7, 2)
    status = counters.status()
    assert status["source"] == "mcp_metadata_estimate" and status["notProviderUsage"] is True
    assert c.maybe_compress("please read", enabled=False) == "please read"
    monkeypatch.setenv("OMNIROUTE_MCP_DESCRIPTION_COMPRESSION", " Off ")
    assert c.maybe_compress("please read") == "please read"


def test_walkers():
    c = make()
    listing = {"tools": [{"name": "t", "description": "please run it",
                          "inputSchema": {"properties": {"p": {"description": "please pass a path"}}}}],
               "description": "please keep (not in a list)"}
    out = c.list_metadata(listing)
    assert out["tools"][0]["description"] == "Run it"
    assert out["tools"][0]["inputSchema"]["properties"]["p"]["description"] == "Pass a path"
    assert out["description"] == "please keep (not in a list)"
    assert listing["tools"][0]["description"] == "please run it"
    assert c.registry_metadata({"description": "please go", "x": 1}) == {"description": "Go", "x": 1}
