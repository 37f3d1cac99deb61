"""Schema-located repair: root repairs, per-site rules, passes, verdicts and model-facing texts."""

from __future__ import annotations

from engine.repair import run_repair
from engine.repair.feedback import fnv1a32, received_text

from .conftest import EDIT_SCHEMA, FILE_SCHEMA, READ_SCHEMA, rule_ids


def test_optional_null_dropped_required_null_unrepairable():
    result = run_repair(FILE_SCHEMA, {"path": "/a", "offset": None})
    assert result.args == {"path": "/a"}
    assert rule_ids(result) == ["dropNullOrUndefinedField"]
    assert result.issue_summary == "/offset|type|number"
    assert run_repair(FILE_SCHEMA, {"path": None}).outcome == "unrepairable"


def test_stringified_array_and_object_fields_are_parsed():
    result = run_repair(FILE_SCHEMA, {"path": "/a", "labels": ' ["x","y"] ', "meta": '{"k":1}'})
    assert result.args == {"path": "/a", "labels": ["x", "y"], "meta": {"k": 1}}
    assert rule_ids(result) == ["parseJsonStringifiedArray", "parseJsonStringifiedObject"]


def test_bare_string_wrapped_and_broken_json_array_too_by_default():
    assert run_repair(FILE_SCHEMA, {"path": "/a", "labels": "x"}).args["labels"] == ["x"]
    quirky = run_repair(FILE_SCHEMA, {"path": "/a", "labels": "[a, b]"})
    assert quirky.args["labels"] == ["[a, b]"]
    assert any(d.code == "REP-Q1" for d in quirky.diagnostics)
    assert run_repair(FILE_SCHEMA, {"path": "/a", "labels": "[a, b]"}, profile="strict").outcome == "unrepairable"


def test_empty_object_placeholder_dropped():
    result = run_repair(FILE_SCHEMA, {"path": "/a", "labels": {}})
    assert result.args == {"path": "/a"}
    assert rule_ids(result) == ["dropEmptyObjectPlaceholder"]


def test_passes_allow_nested_fixes():
    legacy = {"fieldAliases": {"oldText": ["old_string"], "newText": ["new_string"]}}
    args = {"path": "/a", "edits": '[{"old_string":"x","new_string":"y"}]'}
    result = run_repair(EDIT_SCHEMA, args, {"legacyConfig": legacy})
    assert result.args == {"path": "/a", "edits": [{"oldText": "x", "newText": "y"}]}
    assert rule_ids(result) == ["parseJsonStringifiedArray", "renameAliasedField", "renameAliasedField"]


def test_root_string_wrap_and_markdown_path_fields():
    legacy = {"rootString": {"field": "path"}, "pathFields": ["path"]}
    result = run_repair(READ_SCHEMA, "[a.md](http://a.md)", {"legacyConfig": legacy, "toolName": "read"})
    assert result.args == {"path": "a.md"}
    assert rule_ids(result) == ["wrapRootStringAsObject", "unwrapMarkdownAutoLink"]
    assert result.changes[1].note == ('Unwrapped a markdown auto-link in `path` for tool "read" '
                                      "(`[a.md](http://a.md)` -> `a.md`). Send plain paths, not markdown links.")


def test_convert_only_validity_returns_input_unconverted():
    args = {"path": "/a", "offset": "5"}
    result = run_repair(FILE_SCHEMA, args)
    assert result.outcome == "valid"
    assert result.args is args
    assert any(d.code == "REP-Q2" for d in result.diagnostics)
    strict = run_repair(FILE_SCHEMA, args, profile="strict")
    assert strict.outcome == "repaired"
    assert strict.args == {"path": "/a", "offset": 5}


def test_repaired_args_carry_convert_coercions():
    result = run_repair(FILE_SCHEMA, {"path": "/a", "offset": "1.5", "labels": None})
    assert result.args == {"path": "/a", "offset": 1.5}


def test_retry_message_issue_summary_and_fingerprint():
    result = run_repair(READ_SCHEMA, {"nothing": "useful", "x": None}, {"toolName": "read"})
    assert result.outcome == "unrepairable"
    assert result.retry_message == (
        'Invalid input for tool "read". Fix these issues and retry:\n'
        "  • (root): must have required properties path\n"
        'Received: {"nothing":"useful","x":null}'
    )
    assert result.issue_summary == "(root)|required|path"
    assert result.fingerprint == fnv1a32("read::(root)|required|path")
    assert result.changes == []


def test_fingerprint_ignores_error_order_and_depends_on_tool():
    schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "number"}}}
    one = run_repair(schema, {"a": 1, "b": "x"})
    two = run_repair({**schema, "properties": dict(reversed(schema["properties"].items()))}, {"a": 1, "b": "x"})
    assert one.issue_summary != two.issue_summary
    assert one.fingerprint == two.fingerprint
    assert run_repair(schema, {"a": 1, "b": "x"}, {"toolName": "other"}).fingerprint != one.fingerprint


def test_at_most_eight_errors_are_listed():
    schema = {"type": "object", "properties": {f"k{i}": {"type": "string"} for i in range(12)}}
    result = run_repair(schema, {f"k{i}": [i] for i in range(12)})
    assert result.retry_message.count("•") == 8
    assert result.issue_summary.count(";") == 7


def test_received_text_cut_at_300_utf16_units():
    assert received_text("a" * 298) == '"' + "a" * 298 + '"'
    cut = received_text("a" * 400)
    assert cut.endswith("…") and len(cut) == 301
    astral = received_text("😀" * 200)  # the cut may split a surrogate pair, as in JS
    assert astral[-2] == "\ud83d"


def test_additional_properties_false_extra_keys_are_never_repaired():
    schema = {**READ_SCHEMA, "additionalProperties": False}
    result = run_repair(schema, {"path": "/a", "extra": 1})
    assert result.outcome == "unrepairable"
    assert result.issue_summary == "(root)|additionalProperties|"
