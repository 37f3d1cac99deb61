"""Optional fields of a grammar request that are absent, null or of another type (spec §10.1).

The reference reads them as JavaScript does; none of them is an error. Each test states what the
reference's reading gives for one field.
"""

from __future__ import annotations

import json

import pytest

from engine.cli.grammar import handle_request

LEAK = 'Sure.\n<tool_call>{"name":"read","arguments":{"path":"a.txt"}}</tool_call>'
BASE = {"text": LEAK, "modelId": "qwen3", "knownTools": ["read"], "policy": "recover", "stopReason": "stop"}
HANDLER_FIELDS = ("text", "content", "existingToolCalls", "role", "stopReason", "modelId", "policy", "grammarMode",
                  "unknownToolText", "unknownGrammarText", "allowedTools", "settings", "settingsFile", "knownTools",
                  "getActiveTools", "messageExtra")
ODD_VALUES = (None, 0, 1.5, True, "", "x", [], {}, [None, 3, "a", {}, [1]], {"k": 1})


def run(**changes):
    request = {**BASE, **changes}
    for key in [k for k, v in changes.items() if v is ...]:
        del request[key]
    return handle_request(request)


@pytest.mark.parametrize("api", [None, "recoverGrammarLeaks", "parseToolGrammarLeaks", "modelLeaksGrammar"])
@pytest.mark.parametrize("field", (*HANDLER_FIELDS, "grammars", "requireKnownTool"))
def test_no_optional_field_value_is_an_error(api, field):
    for value in (*ODD_VALUES, ...):
        out = run(**{field: value}, **({"api": api} if api else {}))
        assert "error" not in out, (field, value, out)
        json.dumps(out)  # the response stays JSON


def test_null_stop_reason_strips_but_never_promotes():
    out = run(stopReason=None)
    assert (out["changed"], out["promoted"], out["stopReason"]) == (True, False, None)
    assert out["reasonNotPromoted"] == "stop-reason-null"
    assert run(stopReason=...)["reasonNotPromoted"] == "stop-reason-absent"
    assert run(stopReason=5)["reasonNotPromoted"] == "stop-reason-5"


def test_content_that_is_not_an_array_passes_through():
    out = run(content="plain text")
    assert out["content"] == "plain text" and out["calls"] == [] and not out["changed"]
    assert out["strippedText"] is None


def test_null_content_and_role_mean_absent():
    assert run(content=None)["promoted"] is True  # built from `text`
    assert run(role=None)["skippedBy"] is None
    assert run(role=5)["skippedBy"] == "not-assistant-role"


@pytest.mark.parametrize("tools", [..., None, "read", {"read": True}, 5])
def test_active_tools_that_are_not_an_array_give_an_empty_known_set(tools):
    out = run(knownTools=tools)
    assert out["knownTools"] == [] and out["reasonNotPromoted"] == "unknown-tool"
    assert out["content"][0]["text"] == LEAK  # unknown-tool text is preserved


def test_an_absent_get_active_tools_source_uses_the_tools_given():
    assert run(getActiveTools=...)["promoted"] is True
    assert run(getActiveTools=None)["promoted"] is True
    assert run(getActiveTools="throws")["knownTools"] == []


def test_object_entries_in_the_tool_list_never_match_a_name():
    out = run(knownTools=[{"name": "read"}, "read", "read"])
    assert out["promoted"] is True and out["knownTools"] == [{"name": "read"}, "read"]


def test_text_that_is_not_a_string_is_not_a_text_part():
    out = run(text=5)
    assert out["calls"] == [] and out["content"] == [{"type": "text", "text": 5}]


def test_existing_tool_calls_of_odd_shapes():
    out = run(existingToolCalls=[None, "x", {"name": 3}])
    assert out["content"][1:4] == [{"type": "toolCall"}, {"type": "toolCall"}, {"type": "toolCall", "name": 3}]
    assert out["promoted"] is True  # no part has a string name (GRM-Q26)
    assert run(existingToolCalls={"name": "read"})["promoted"] is True  # not an array: no calls


def test_settings_null_falls_back_to_the_request_keys_and_non_objects_to_defaults():
    assert run(settings=None)["settings"]["profile"] == "recover"
    assert run(settings=5)["settings"] == {"mode": "strip", "profile": "adaptive", "unknownGrammarText": "preserve",
                                          "grammarAllowedTools": []}


def test_settings_values_of_other_types_fall_back():
    out = run(policy=5, grammarMode=None, allowedTools="read", unknownToolText=True)
    assert out["settings"] == {"mode": "strip", "profile": "adaptive", "unknownGrammarText": "preserve",
                               "grammarAllowedTools": []}


def test_model_id_is_read_through_string_conversion():
    assert run(modelId=["qwen"])["modelGate"] is True
    assert run(modelId=None)["skippedBy"] == "model-not-on-leak-list"
    assert handle_request({"api": "modelLeaksGrammar", "modelId": 5}) == {"matches": False}


def test_message_extra_is_spread():
    out = run(messageExtra="ab")
    assert "error" not in out and out["promoted"] is True


def test_api_options_of_other_types():
    base = {"api": "recoverGrammarLeaks", "text": LEAK, "knownTools": ["read"], "grammarMode": "recover",
            "stopReason": "stop"}
    assert handle_request({**base, "requireKnownTool": None})["promoted"] is True
    assert handle_request({**base, "knownTools": None, "requireKnownTool": 0})["promoted"] is True
    assert handle_request({**base, "grammars": "qwen"})["detectedGrammars"] == ["granite"]
    assert handle_request({**base, "role": None})["promoted"] is True
    assert handle_request({**base, "grammarMode": None})["promoted"] is False
    assert handle_request({"api": "parseToolGrammarLeaks", "text": None}) == {"calls": []}
