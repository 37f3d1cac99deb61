"""Filter schema, defaults, the zod-4 messages and load-time pattern hygiene (rtk.md §1)."""

from __future__ import annotations

import json

import pytest

from engine.rtk.model import (
    check_filter_file,
    is_redos_prone,
    load_filter_dir,
    parse_filter,
    parse_filter_file,
)

from .helpers import canonical


def test_canonical_mapping_and_defaults():
    flt, diagnostics = parse_filter({
        "id": "x", "label": "X", "category": "test",
        "match": {"commands": ["^x\\b"], "outputTypes": ["test-x"]},
        "rules": {"dropPatterns": ["^$"], "includePatterns": ["FAIL"]},
        "preserve": {"errorPatterns": ["E1"], "summaryPatterns": ["S1"]},
    })
    assert diagnostics == []
    assert flt is not None
    assert (flt.name, flt.priority, flt.description) == ("X", 50, "")
    assert flt.command_types == ("test-x",)
    assert flt.command_patterns == ("^x\\b",)
    assert flt.strip_patterns == ("^$",) and flt.keep_patterns == ("FAIL",)
    # error patterns come before summary patterns
    assert flt.priority_patterns == ("E1", "S1")
    assert (flt.preserve_head, flt.preserve_tail, flt.max_lines) == (20, 20, 0)
    assert flt.pointer_of("priority_patterns", 1) == "/preserve/summaryPatterns/0"


def test_legacy_shape_dedup_follows_surviving_collapse_patterns():
    on, _ = parse_filter({"id": "l", "name": "L", "commandTypes": ["x"], "category": "generic",
                          "collapsePatterns": ["^retry"]})
    off, _ = parse_filter({"id": "l", "name": "L", "commandTypes": ["x"], "category": "generic",
                           "collapsePatterns": ["(a+)+"]})
    assert on is not None and on.deduplicate is True and on.shape == "legacy"
    assert off is not None and off.deduplicate is False and off.collapse_patterns == ()


def test_omitted_sections_crash_like_the_reference_rtk_q1():
    no_rules = canonical()
    del no_rules["rules"]
    flt, diagnostics = parse_filter(no_rules)
    assert flt is None
    assert diagnostics[0].code == "RTK-Q1"
    assert diagnostics[0].message == "Cannot read properties of undefined (reading 'filter')"
    no_preserve = canonical()
    del no_preserve["preserve"]
    flt, diagnostics = parse_filter(no_preserve)
    assert flt is None and diagnostics[0].message == "parsed.preserve.errorPatterns is not iterable"
    # strict applies the inner defaults instead
    flt, diagnostics = parse_filter(no_preserve, profile="strict")
    assert flt is not None and flt.priority_patterns == ()


def test_unknown_key_gives_a_union_issue_listing_both_branches():
    obj = canonical()
    obj["extraKey"] = 1
    flt, diagnostics = parse_filter(obj)
    assert flt is None
    issues = json.loads(diagnostics[0].message)
    assert issues[0]["code"] == "invalid_union" and issues[0]["message"] == "Invalid input"
    canonical_branch, legacy_branch = issues[0]["errors"]
    assert canonical_branch == [{"code": "unrecognized_keys", "keys": ["extraKey"], "path": [],
                                 "message": 'Unrecognized key: "extraKey"'}]
    assert [i["path"] for i in legacy_branch] == [["name"], ["commandTypes"], []]
    assert legacy_branch[-1]["keys"] == ["label", "match", "rules", "preserve", "extraKey"]
    # key order inside an issue follows zod: expected, code, path, message
    assert list(legacy_branch[0]) == ["expected", "code", "path", "message"]
    # the message is JSON.stringify(issues, null, 2)
    assert diagnostics[0].message.startswith('[\n  {\n    "code": "invalid_union",')


def test_a_check_failure_in_one_branch_only_is_reported_without_the_union():
    obj = canonical(priority=101)
    flt, diagnostics = parse_filter(obj)
    assert flt is None
    issues = json.loads(diagnostics[0].message)
    assert issues == [{"origin": "number", "code": "too_big", "maximum": 100, "inclusive": True,
                       "path": ["priority"], "message": "Too big: expected number to be <=100"}]
    obj = canonical()
    obj["priority"] = 2.5
    issues = json.loads(parse_filter(obj)[1][0].message)
    assert issues[0]["code"] == "invalid_union"  # int failure aborts, so both branches are shown
    assert issues[0]["errors"][0][0]["message"] == "Invalid input: expected int, received number"


def test_schema_key_is_ignored_and_pointers_are_set():
    obj = canonical(rules={"dropPatterns": ["ok", "(x+)+"]})
    obj["$schema"] = "../resources/schemas/rtk-filter.schema.json"
    flt, diagnostics = parse_filter(obj)
    assert flt is not None and flt.strip_patterns == ("ok",)
    assert [(d.code, d.pointer) for d in diagnostics] == [("RTK-Q2", "/rules/dropPatterns/1")]


@pytest.mark.parametrize(("pattern", "prone"), [
    ("(a+)+b", True), ("(\\w+\\s?)+$", True), ("([+-]\\d)+", True), ("(a|aa)+", False),
    ("(ab)*", False), ("(a*) +", True), ("(x{2,})*", True), ("a+b+", False), ("((a+))+", False),
])
def test_redos_heuristic(pattern, prone):
    assert is_redos_prone(pattern) is prone


def test_strict_keeps_prone_patterns_and_rejects_invalid_regexes():
    obj = canonical(rules={"dropPatterns": ["(a+)+", "[unclosed"]})
    flt, diagnostics = parse_filter(obj, profile="strict")
    assert flt is None
    assert {d.code for d in diagnostics} == {"RTK-Q2", "RTK-Q3"}
    flt, diagnostics = parse_filter(obj, check_regex=True)
    assert flt is not None and flt.strip_patterns == ("[unclosed",)  # OmniRoute keeps it (skipped at run time)
    assert [(d.code, d.pointer) for d in diagnostics] == [("RTK-Q2", "/rules/dropPatterns/0"),
                                                          ("RTK-Q3", "/rules/dropPatterns/1")]


def test_invalid_unless_is_reported_as_rtk_q4():
    obj = canonical(rules={"matchOutput": [{"pattern": "ok", "message": "fine", "unless": "(bad"}]})
    diagnostics = check_filter_file(obj)
    assert [(d.code, d.pointer) for d in diagnostics] == [("RTK-Q4", "/rules/matchOutput/0/unless")]


def test_file_with_an_array_rejects_everything_on_the_first_bad_entry():
    good = canonical("good")
    bad = canonical("bad", priority=-1)
    filters, diagnostics = parse_filter_file([good, bad])
    assert filters == []
    assert any(d.code == "VT-Q8" for d in diagnostics)
    filters, _ = parse_filter_file([good, bad], profile="strict")
    assert [f.id for f in filters] == ["good"]


def test_check_filter_file_points_at_each_issue():
    obj = canonical(rules={"maxLines": -1, "headLines": "x"})
    found = {(d.pointer, d.message) for d in check_filter_file([obj])}
    assert ("/0/rules/maxLines", "Too small: expected number to be >=0") in found
    assert ("/0/rules/headLines", "Invalid input: expected number, received string") in found


def test_load_filter_dir_reads_files_in_name_order(tmp_path):
    (tmp_path / "b.json").write_text(json.dumps(canonical("b")), encoding="utf-8")
    (tmp_path / "a.json").write_text(json.dumps([canonical("a1"), canonical("a2")]), encoding="utf-8")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("ignored", encoding="utf-8")
    filters, diagnostics = load_filter_dir(tmp_path)
    assert [f.id for f in filters] == ["a1", "a2", "b"]
    assert [d.message.split(":")[0] for d in diagnostics] == ["Invalid RTK filter bad.json"]
