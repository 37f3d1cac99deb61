"""Custom parameters, the providerOptions merge and the stop condition (spec §9.2–§9.3)."""

import pytest

from engine.params.jsv import UNDEFINED
from engine.params.options import (
    flatten_custom_parameters,
    merge_custom_provider_parameters,
    split_custom_parameters,
    stop_step_count,
)


def item(name, type_, value):
    return {"name": name, "type": type_, "value": value}


def test_flatten_skips_blank_names_and_later_items_win():
    quirks = []
    flat = flatten_custom_parameters([item("a", "number", 1), item("  ", "string", "x"),
                                      item("a", "number", 2), item(" b", "string", "y")], quirks)
    assert flat == {"a": 2, " b": "y"}
    assert [q["code"] for q in quirks] == ["PAR-Q8"]
    assert flatten_custom_parameters([item(" b", "string", "y")], [], strict=True) == {"b": "y"}


@pytest.mark.parametrize("value,expected", [
    ('{"k": [1, 2]}', {"k": [1, 2]}),
    ("not json", "not json"),
    ("42", 42),
    ("null", None),
    ({"nested": True}, {"nested": True}),  # String() gives [object Object], which fails to parse
    ([7], 7),  # String([7]) is "7": the array collapses (PAR-Q8)
])
def test_json_values_are_parsed_after_string_conversion(value, expected):
    assert flatten_custom_parameters([item("p", "json", value)], []) == {"p": expected}


def test_json_undefined_string_keeps_the_key():
    flat = flatten_custom_parameters([item("p", "json", "undefined")], [])
    assert "p" in flat and flat["p"] is UNDEFINED


def test_split_is_exact_and_case_sensitive():  # PAR-Q7
    quirks = []
    flat = {"temperature": "0.3", "top_k": 5, "Temperature": 1, "seed": True}
    split = split_custom_parameters(flat, {"id": "p::m"}, quirks)
    assert split.standard == {"temperature": "0.3", "seed": True}
    assert split.provider == {"top_k": 5, "Temperature": 1}
    assert any(q["code"] == "PAR-Q7" for q in quirks)
    strict = split_custom_parameters(flat, {"id": "p::m"}, [], strict=True)
    assert strict.standard["topK"] == 5


def test_topk_is_dropped_for_gemini_3():
    split = split_custom_parameters({"topK": 40}, {"id": "g::gemini-3-flash"}, [])
    assert split.standard == {} and split.dropped == ["topK"]
    assert split_custom_parameters({"topK": 40}, {"id": "g::gemini-2.5-pro"}, []).standard == \
        {"topK": 40}


def test_merge_renames_reasoning_effort_only_for_openai_compatible():
    base = {"openai-compatible": {"reasoningEffort": "low"}}
    merged = merge_custom_provider_parameters(base, {"reasoning_effort": "high"},
                                              "openai-compatible", [])
    assert merged == {"openai-compatible": {"reasoningEffort": "high"}}
    both = merge_custom_provider_parameters(base, {"reasoning_effort": "high",
                                                   "reasoningEffort": "medium"},
                                            "openai-compatible", [])
    assert both["openai-compatible"]["reasoningEffort"] == "medium"
    native = merge_custom_provider_parameters({"openai": {}}, {"reasoning_effort": "high"},
                                              "openai", [])
    assert native == {"openai": {"reasoning_effort": "high"}}


def test_merge_is_shallow_and_nests_foreign_provider_keys():  # PAR-Q6
    base = {"google": {"thinkingConfig": {"thinkingBudget": 10, "includeThoughts": True}}}
    quirks = []
    merged = merge_custom_provider_parameters(
        base, {"thinkingConfig": {"thinkingBudget": 99}, "openai": {"x": 1}}, "google", quirks)
    assert merged["google"]["thinkingConfig"] == {"thinkingBudget": 99}
    assert merged["google"]["openai"] == {"x": 1}
    assert {q["code"] for q in quirks} == {"PAR-Q6"}
    strict = merge_custom_provider_parameters(
        base, {"thinkingConfig": {"thinkingBudget": 99}, "openai": {"x": 1}}, "google", [],
        strict=True)
    assert strict["google"]["thinkingConfig"] == {"thinkingBudget": 99, "includeThoughts": True}
    assert strict["openai"] == {"x": 1}


def test_merge_routes_the_scope_id_into_the_primary_entry():
    merged = merge_custom_provider_parameters({"anthropic": {"a": 1}}, {"cherryin": {"b": 2}},
                                              "cherryin", [])
    assert merged == {"anthropic": {"a": 1, "b": 2}}
    gateway = merge_custom_provider_parameters({"anthropic": {}}, {"gateway": {"order": ["x"]}},
                                               "gateway", [])
    assert gateway == {"anthropic": {}, "gateway": {"order": ["x"]}}


@pytest.mark.parametrize("settings,expected", [
    ({"enableMaxToolCalls": True, "maxToolCalls": 7}, 7),
    ({"enableMaxToolCalls": False, "maxToolCalls": 7}, 20),
    ({"maxToolCalls": 3}, 3),  # a missing toggle counts as on
    ({"enableMaxToolCalls": True, "maxToolCalls": 150}, 20),
    ({"enableMaxToolCalls": True, "maxToolCalls": 0}, 20),
    ({"enableMaxToolCalls": True}, 20),
    ({"enableMaxToolCalls": True, "maxToolCalls": 3.5}, None),  # PAR-Q18: never fires
])
def test_stop_step_count(settings, expected):
    assert stop_step_count({"settings": settings}, []) == expected


def test_stop_step_count_strict_rounds_and_clamps():
    assert stop_step_count({"settings": {"maxToolCalls": 3.5}}, [], strict=True) == 4
    assert stop_step_count({"settings": {"maxToolCalls": 150}}, [], strict=True) == 100
    assert stop_step_count(None, []) is None
