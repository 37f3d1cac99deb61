"""Configured preprocessors: selectors, every kind, model gating and observations."""

from __future__ import annotations

from engine.repair import run_repair
from engine.repair.preprocess import strip_anchor_bleed, strip_grammar_tokens, unwrap_markdown_autolinks

from .conftest import EDIT_SCHEMA, FILE_SCHEMA, rule_ids

ANCHOR = {"kind": "anchor-bleed", "selector": "/path", "modelFamilies": ["kimi-k2", "glm"]}
GRAMMAR = {"kind": "grammar-tokens", "selector": "", "modelFamilies": ["glm"]}


def test_alias_moves_first_eligible_alias_and_keeps_others():
    alias = {"kind": "alias", "selector": "/path", "aliases": ["file_path", "filePath"], "accepts": "string"}
    result = run_repair({"type": "object", "properties": {"path": {"type": "string"}}},
                        {"filePath": "/b", "file_path": "/a"}, {"preprocessors": [alias], "toolName": "read"})
    assert result.args == {"path": "/a", "filePath": "/b"}
    assert result.changes[0].note == 'Renamed `file_path` to `path` for tool "read". Use `path` next time.'
    assert any(d.code == "REP-Q9" for d in result.diagnostics)


def test_alias_respects_canonical_accepts_and_empty_flag():
    base = {"kind": "alias", "selector": "/path", "aliases": ["file_path"], "accepts": "string"}
    args = {"path": "", "file_path": "/b"}
    assert run_repair(FILE_SCHEMA, args, {"preprocessors": [base]}).outcome == "unrepairable"
    flagged = {**base, "emptyEquivalentToMissing": True}
    assert run_repair(FILE_SCHEMA, args, {"preprocessors": [flagged]}).args == {"path": "/b"}
    wrong_type = run_repair(FILE_SCHEMA, {"file_path": 5}, {"preprocessors": [base]})
    assert wrong_type.outcome == "unrepairable"


def test_alias_wildcard_selector_reaches_array_items():
    alias = {"kind": "alias", "selector": "/edits/*/oldText", "aliases": ["old_string"], "accepts": "string"}
    args = {"path": "/a", "edits": [{"old_string": "x", "newText": "y"}, {"oldText": "p", "newText": "q"}]}
    result = run_repair(EDIT_SCHEMA, args, {"preprocessors": [alias]})
    assert result.args["edits"] == [{"newText": "y", "oldText": "x"}, {"oldText": "p", "newText": "q"}]
    assert rule_ids(result) == ["preprocess.exact-alias"]


def test_numeric_selector_segment_does_not_index_arrays_by_default():
    entry = {"kind": "filesystem-path", "selector": "/labels/0"}
    args = {"path": "/a", "labels": ["[a.md](http://a.md)"]}
    assert run_repair(FILE_SCHEMA, args, {"preprocessors": [entry]}).outcome == "valid"
    strict = run_repair(FILE_SCHEMA, args, {"preprocessors": [entry]}, profile="strict")
    assert strict.args["labels"] == ["a.md"]


def test_markdown_autolink_cleanup():
    assert unwrap_markdown_autolinks("see [a/b.ts](https://a/b.ts) now") == "see a/b.ts now"
    assert unwrap_markdown_autolinks("[a.md](http://a.md/)") == "[a.md](http://a.md/)"
    assert unwrap_markdown_autolinks("[a.md](a.md)") == "[a.md](a.md)"
    assert unwrap_markdown_autolinks("[a.md](a.md)", relative_links=True) == "a.md"


def test_anchor_and_grammar_cleanups():
    assert strip_anchor_bleed("^^/x$$") == "/x"
    assert strip_anchor_bleed("^") == ""
    assert strip_grammar_tokens("<arg_value><arg_value>foo") == "<arg_value>foo"
    assert strip_grammar_tokens("<arg_key>a\nb</arg_value>") == "a\nb"
    assert strip_grammar_tokens("  x  ") == "x"
    assert strip_grammar_tokens("  x  ", trim_always=False) == "  x  "


def test_model_gate_needs_model_id_and_matching_family():
    args = {"path": "^/src$"}
    options = {"preprocessors": [ANCHOR]}
    assert run_repair(FILE_SCHEMA, args, options).outcome == "valid"
    assert run_repair(FILE_SCHEMA, args, {**options, "modelId": "gpt-5"}).outcome == "valid"
    fixed = run_repair(FILE_SCHEMA, args, {**options, "modelId": "moonshot/Kimi-K2"})
    assert fixed.args == {"path": "/src"}
    assert rule_ids(fixed) == ["stripAnchorBleed"]


def test_conservative_policy_observes_instead_of_mutating():
    seen = []
    options = {"preprocessors": [ANCHOR, GRAMMAR], "modelId": "glm-4.6", "policy": "conservative",
               "onObservation": seen.append}
    args = {"<arg_key>path</arg_key>": "x", "path": "^/src$"}
    result = run_repair(FILE_SCHEMA, args, options)
    assert [o.rule_id for o in result.observations] == ["stripAnchorBleed", "stripGrammarTokenLeak"]
    assert result.changes == []
    assert [o["stage"] for o in seen] == ["valid-value", "valid-value"]


def test_grammar_tokens_rebuild_object_keys_and_values_later_key_wins():
    args = {"pattern": "b", "<arg_key>pattern</arg_key>": "<arg_value>a</arg_value>"}
    result = run_repair({"type": "object", "properties": {"pattern": {"type": "string"}}}, args,
                        {"preprocessors": [GRAMMAR], "modelId": "glm-4.6"})
    assert result.args == {"pattern": "a"}


def test_scalar_kinds():
    schema = {"type": "object", "properties": {"n": {"type": "number"}, "b": {"type": "boolean"},
                                               "s": {"type": "string"}}}
    pre = [{"kind": "scalar", "selector": "/n", "scalarType": "number"},
           {"kind": "scalar", "selector": "/b", "scalarType": "boolean"},
           {"kind": "scalar", "selector": "/s", "scalarType": "string"}]
    result = run_repair(schema, {"n": "0x10", "b": "TRUE", "s": 1e21}, {"preprocessors": pre})
    assert result.args == {"n": 16, "b": True, "s": "1e+21"}
    assert rule_ids(result) == ["preprocess.scalar"] * 3
    untouched = run_repair(schema, {"n": "12px"}, {"preprocessors": pre[:1]})
    assert untouched.outcome == "unrepairable"


def test_string_or_array_and_unknown_kinds():
    pre = [{"kind": "string-or-array", "selector": "/labels"}, {"kind": "glob", "selector": "/path"},
           {"kind": "no-such-kind"}]
    result = run_repair(FILE_SCHEMA, {"path": "/a", "labels": "x"}, {"preprocessors": pre})
    assert result.args == {"path": "/a", "labels": ["x"]}
    assert rule_ids(result) == ["preprocess.string-or-array"]


def test_structural_callable_and_builtin_fold():
    def upper(value):
        if isinstance(value, str) and value != value.upper():
            return {"value": value.upper(), "note": "upper-cased"}
        return None

    pre = [{"kind": "structural", "selector": "/path", "ruleId": "upper", "apply": upper}]
    result = run_repair(FILE_SCHEMA, {"path": "/a"}, {"preprocessors": pre})
    assert result.args == {"path": "/A"}
    assert result.changes[0].note == "upper-cased"
    fold = [{"kind": "structural", "builtin": "foldFlatEditFields", "selector": ""}]
    folded = run_repair(EDIT_SCHEMA, {"path": "/a", "old_string": "x", "new_string": "y", "to": 1},
                        {"preprocessors": fold, "toolName": "str_replace"})
    assert folded.args == {"path": "/a", "edits": [{"oldText": "x", "newText": "y"}]}
    assert 'for tool "edit"' in folded.changes[0].note  # the reference always says "edit"
