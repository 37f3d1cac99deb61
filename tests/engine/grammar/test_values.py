"""Argument values: JSON numbers as doubles, N unwrapping, S sniffing, pythonic values (§2.4–§2.6)."""

from __future__ import annotations

import pytest

from engine.grammar.candidates import Hits
from engine.grammar.jsjson import FAIL, parse_json
from engine.grammar.values import (
    call_from_json_object,
    normalize_arguments,
    python_literal_value,
    pythonish_value,
    sniff,
)


@pytest.mark.parametrize(("text", "value"), [
    ("12345678901234567890", 12345678901234567000),
    ("1e3", 1000),
    ("1.0", 1),
    ("-0", 0),
    ("0.1", 0.1),
    ('{"a": 1, "a": 2}', {"a": 2}),
])
def test_json_numbers_are_doubles(text, value):
    assert parse_json(text) == value


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "[1,]", "{'a': 1}", "// x\n1", "\ufeff1"])
def test_json_rejects_what_v8_rejects(text):
    assert parse_json(text) is FAIL


def test_normalize_unwraps_nested_strings_and_drops_siblings():
    hits = Hits()
    nested = '"{\\"arguments\\": {\\"command\\": \\"ls\\"}}"'
    assert normalize_arguments(nested, hits, strict=False) == {"command": "ls"}
    assert normalize_arguments({"arguments": {"command": "ls"}, "timeout": 5}, hits, strict=False) == {"command": "ls"}
    assert [h.quirk for h in hits] == ["GRM-Q14"]
    assert normalize_arguments({"arguments": {"command": "ls"}, "timeout": 5}, Hits(), strict=True) == {
        "arguments": {"command": "ls"}, "timeout": 5}
    assert normalize_arguments("ls -la", Hits(), strict=False) is None
    assert normalize_arguments([1, 2], Hits(), strict=False) is None


@pytest.mark.parametrize(("obj", "name", "args"), [
    ({"name": " bash ", "arguments": {"command": "ls"}}, "bash", {"command": "ls"}),
    ({"function": {"name": "read", "arguments": '{"path": "/a"}'}}, "read", {"path": "/a"}),
    ({"name": "ls", "arguments": None, "function": {"arguments": {"path": "/"}}}, "ls", {"path": "/"}),
    ({"name": "ls", "parameters": None, "function": {"arguments": {"path": "/"}}}, "ls", {}),
    ({"name": "bash", "arguments": "ls -la"}, "bash", {}),
    ({"function_name": "grep", "args": {"pattern": "x"}}, "grep", {"pattern": "x"}),
])
def test_call_objects(obj, name, args):
    call = call_from_json_object(obj, strict=False)
    assert call is not None
    assert (call.name, call.arguments) == (name, args)


@pytest.mark.parametrize("obj", [{"name": "  "}, {"name": 3}, {"function": "bash"}, {}])
def test_call_objects_without_a_usable_name(obj):
    assert call_from_json_object(obj, strict=False) is None


@pytest.mark.parametrize(("raw", "value"), [
    ("", ""), ("42", 42), ("1e3", 1000), ("007", "007"), ('"quoted"', "quoted"),
    ("true story", "true story"), ("[1,2]", [1, 2]), ("-5", -5), ("-x", "-x"), ("null", None),
])
def test_sniffing(raw, value):
    assert sniff(raw) == value


@pytest.mark.parametrize(("raw", "reference", "strict"), [
    ("True", True, True), ("None", None, None), ("007", 7, "007"), ("+7", 7, 7), (".5", ".5", 0.5),
    ("1e3", 1000, 1000), ("'it\\'s'", "it's", "it's"), ("run None now", "run null now", "run None now"),
    ("[True, None]", [True, None], [True, None]), ("{'a': 1}", "{'a': 1}", {"a": 1}),
    ("éNone", "énull", "éNone"), ("None_x", "None_x", "None_x"),
])
def test_pythonic_values(raw, reference, strict):  # GRM-Q30
    assert pythonish_value(raw) == reference
    assert python_literal_value(raw) == strict
