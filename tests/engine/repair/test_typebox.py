"""TypeBox emulation: rebuild, error order and messages, Convert."""

from __future__ import annotations

import pytest

from engine.repair.typebox import build_schema, check, convert, errors, grapheme_count


def messages(schema, value, mode="typebox"):
    return [(e.instance_path, e.keyword, e.message) for e in errors(build_schema(schema, mode), value)]


def test_enum_yields_type_and_const_per_member_then_anyof():
    got = messages({"enum": ["a", "b"]}, None)
    assert [k for _, k, _ in got] == ["type", "const", "type", "const", "anyOf"]
    assert got[-1][2] == "must match a schema in anyOf"


def test_plain_mode_keeps_json_schema_keywords():
    assert messages({"type": ["string", "number"]}, None, "plain") == [("", "type", "must be either string or number")]
    assert messages({"enum": ["a"]}, "b", "plain") == [("", "enum", "must be equal to one of the allowed values")]


def test_object_error_order_and_required_order_follows_properties():
    schema = {"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}},
              "required": ["a", "b", "ghost"], "minProperties": 3}
    got = messages(schema, {"x": 1})
    assert got[0] == ("", "required", "must have required properties b, a")
    assert got[1] == ("", "minProperties", "must not have fewer than 3 properties")


def test_constraint_messages():
    assert messages({"type": "number", "minimum": 0}, -1) == [("", "minimum", "must be >= 0")]
    assert messages({"type": "number", "exclusiveMaximum": 1.5}, 2) == [("", "exclusiveMaximum", "must be < 1.5")]
    assert messages({"type": "string", "maxLength": 1}, "ab") == [("", "maxLength", "must not have more than 1 characters")]
    assert messages({"type": "array", "uniqueItems": True}, [1, 1]) == [("", "uniqueItems", "must not have duplicate items")]
    assert messages({"type": "integer"}, 1.5) == [("", "type", "must be integer")]


def test_type_failure_is_followed_by_other_failing_keywords():
    assert [k for _, k, _ in messages({"type": "string", "const": "x"}, 5)] == ["type", "const"]


def test_grapheme_count():
    assert grapheme_count("e\u0301") == 1
    assert grapheme_count("👍🏽") == 2  # skin-tone modifiers are not in TypeBox's cluster rule
    assert grapheme_count("👨\u200d👩") == 1
    assert grapheme_count("🇫🇷") == 1
    assert grapheme_count("😀") == 1


@pytest.mark.parametrize(("schema", "value", "expected"), [
    ({"type": "string"}, 5.5, "5.5"),
    ({"type": "string"}, None, "null"),
    ({"type": "string"}, True, "true"),
    ({"type": "number"}, "  ", 0),
    ({"type": "number"}, "0x10", 16),
    ({"type": "number"}, "TRUE", 1),
    ({"type": "number"}, "12n", 12),
    ({"type": "number"}, "1e400", "1e400"),
    ({"type": "integer"}, "5.5", 5),
    ({"type": "boolean"}, "1", True),
    ({"type": "boolean"}, "yes", "yes"),
    ({"type": "null"}, "Undefined", None),
    ({"type": "null"}, "x", "x"),
    ({"const": 5}, "5", 5),
    ({"const": "x"}, 5, 5),
    ({"type": "array", "items": {"type": "string"}}, None, ["null"]),
    ({"type": "array", "items": {"type": "number"}}, ["1", "2"], [1, 2]),
    ({"anyOf": [{"type": "number"}, {"type": "boolean"}]}, "true", 1),
    ({"anyOf": [{"type": "boolean"}, {"type": "number"}]}, "true", True),
])
def test_convert_table(schema, value, expected):
    assert convert(build_schema(schema), value) == expected


def test_convert_never_creates_absent_properties_and_plain_mode_converts_nothing():
    schema = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
              "required": ["a", "b"]}
    assert convert(build_schema(schema), {"a": "1"}) == {"a": 1}
    assert convert(build_schema(schema, "plain"), {"a": "1"}) == {"a": "1"}


def test_check_matches_errors():
    schema = build_schema({"type": "object", "properties": {"a": {"type": "string", "pattern": "^a+$"}}})
    assert check(schema, {"a": "aaa"})
    assert not check(schema, {"a": "b"})
    assert errors(schema, {"a": "b"})[0].message == 'must match pattern "^a+$"'


def test_plain_only_keywords():
    schema = {"type": "object", "dependentRequired": {"a": ["b"]}, "propertyNames": {"maxLength": 2},
              "if": {"required": ["a"]}, "then": {"required": ["c"]}}
    got = messages(schema, {"a": 1, "long": 2}, "plain")
    assert got == [("", "required", "must have required properties c"),
                   ("", "if", 'must match "then" schema'),
                   ("", "dependentRequired", "must have properties b when property a is present"),
                   ("", "propertyNames", "property names long are invalid")]
    assert messages({"type": "array", "contains": {"type": "string"}}, [1], "plain") == [
        ("", "contains", "must contain at least 1 valid item")]


def test_local_refs_are_inlined_for_typebox_mode():
    schema = {"type": "object", "properties": {"p": {"$ref": "#/$defs/path"}, "tree": {"$ref": "#/$defs/node"}},
              "$defs": {"path": {"type": "string"},
                        "node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/node"}}}}}
    built = build_schema(schema)
    assert convert(built, {"p": 5}) == {"p": "5"}
    assert check(built, {"tree": {"child": {"child": 1}}})


def test_additional_properties_schema_reports_one_error_with_failing_keys():
    schema = {"type": "object", "properties": {"path": {"type": "string"}},
              "additionalProperties": {"type": "number"}}
    found = errors(build_schema(schema), {"path": "/x", "ok": 1, "bad": "5", "worse": None})
    assert [(e.instance_path, e.keyword, e.params) for e in found] == [
        ("", "additionalProperties", {"additionalProperties": ["bad", "worse"]})]
    assert convert(build_schema(schema), {"path": "/x", "bad": "5", "worse": None}) == {"path": "/x", "bad": 5, "worse": 0}
    plain = {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": False}
    assert messages(plain, {"x-a": 1}, "plain") == [("/x-a", "type", "must be string")]
    assert messages(plain, {"y": 1}, "plain") == [("", "additionalProperties", "must not have additional properties")]
