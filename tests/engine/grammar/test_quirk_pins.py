"""Grammar quirks no other test pinned by id: both profiles, and the diagnostic id where one exists."""

from __future__ import annotations

import copy

import pytest

from engine.grammar import message_end
from engine.grammar.quirks import QUIRKS, STRICT_FIXED
from engine.grammar.recover import recovered_call_id

from .conftest import assistant
from .test_quirks import codes, decide, outcome

HERMES = '<tool_call>{"name":"ls","arguments":{"path":"/"}}</tool_call>'


def ids(record) -> list[str]:
    return [c["id"] for c in record["promotedCalls"]]


def test_json_inside_tool_call_is_labelled_granite():  # GRM-Q2
    ref = decide(HERMES)
    assert outcome(ref) == ("", [("ls", {"path": "/"})])
    assert ids(ref)[0].startswith("tool_repair_granite_") and "GRM-Q2" in codes(ref)
    strict = decide(HERMES, strict=True)
    assert outcome(strict) == ("", [("ls", {"path": "/"})])
    assert ids(strict)[0].startswith("tool_repair_qwen_") and "GRM-Q2" not in codes(strict)


def test_ids_collide_within_one_millisecond():  # GRM-Q16
    # Not reported: a collision needs two messages, and each hook call sees one.
    assert "GRM-Q16" in STRICT_FIXED
    first, second = decide(HERMES), decide(HERMES)
    assert ids(first) == ids(second)  # same clock, same index: same id
    assert "GRM-Q16" not in codes(first)
    strict_first, strict_second = decide(HERMES, strict=True), decide(HERMES, strict=True)
    assert ids(strict_first) != ids(strict_second)  # a process-wide sequence tells them apart
    assert recovered_call_id("minimax-text", 2, 0) == "tool_repair_minimax_text_0_2"
    assert recovered_call_id("minimax-text", 2, 0, strict=True).startswith("tool_repair_minimax_text_0_2_")


def test_recovery_note_survives_in_this_engine():  # GRM-Q32
    # The reference loses the recovery note when the host's own argument repair later replaces the
    # feedback for that call id; that lifecycle is outside this engine, so neither profile drops
    # the note and the id is catalogued only, never emitted.
    assert "GRM-Q32" in QUIRKS and "GRM-Q32" not in STRICT_FIXED
    for strict in (False, True):
        record = decide(HERMES, strict=strict)
        assert len(record["notes"]) == 1 and "ls" in record["notes"][0]
        assert "GRM-Q32" not in codes(record)


# Quirks pinned elsewhere only by behaviour: through ``message_end`` (the CLI's entry point), the
# default profile shows the quirk and names it; strict applies the fix and does not name it.

QWEN_BASH = "<tool_call>\n<function=bash>\n<parameter=command>\npwd\n</parameter>\n</function>\n</tool_call>"


def both(message, hook_state, **kw):
    return (message_end(copy.deepcopy(message), hook_state(**kw)),
            message_end(copy.deepcopy(message), hook_state(strict=True, **kw)))


def calls(record):
    return [c["name"] for c in record["promotedCalls"]]


def test_strip_respaces_the_whole_part(hook_state):  # GRM-Q11
    ref, strict = both(assistant("x = 1   \n\n\n\ny = 2\n" + QWEN_BASH), hook_state, mode="strip")
    assert ref["strippedText"] == "x = 1\n\ny = 2" and "GRM-Q11" in codes(ref)
    assert strict["strippedText"] == "x = 1   \n\n\n\ny = 2" and "GRM-Q11" not in codes(strict)


@pytest.mark.parametrize(("model", "reference"), [("ollama/gpt-oss", True), ("devstral-small", False)])
def test_substring_model_gate(hook_state, model, reference):  # GRM-Q15
    ref, strict = both(assistant(QWEN_BASH), hook_state, model=model)
    assert ref["promoted"] is reference and "GRM-Q15" in codes(ref)
    assert strict["promoted"] is not reference and "GRM-Q15" not in codes(strict)


def test_thinking_parts_are_promoted(hook_state):  # GRM-Q18
    leak = "<tool_call>ls\n<arg_key>path</arg_key><arg_value>/</arg_value></tool_call>"
    message = {"role": "assistant", "stopReason": "stop",
               "content": [{"type": "thinking", "thinking": leak}]}
    ref, strict = both(message, hook_state)
    assert calls(ref) == ["ls"] and "GRM-Q18" in codes(ref)
    assert calls(strict) == [] and "GRM-Q18" not in codes(strict)


def test_real_tool_call_blocks_promotion_but_not_stripping(hook_state):  # GRM-Q21
    message = assistant(QWEN_BASH)
    message["content"].append({"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "/a"}})
    ref, strict = both(message, hook_state)
    assert not ref["promoted"] and ref["strippedText"] == "" and "GRM-Q21" in codes(ref)
    assert not strict["promoted"] and strict["strippedText"] == QWEN_BASH
    assert "GRM-Q21" not in codes(strict)


def test_allowed_tools_replace_the_active_tools(hook_state):  # GRM-Q24
    ref, strict = both(assistant(QWEN_BASH), hook_state, tools=["read"], allowed=("bash",))
    assert calls(ref) == ["bash"] and "GRM-Q24" in codes(ref)
    assert calls(strict) == [] and "GRM-Q24" not in codes(strict)


def test_tool_call_with_non_string_name_does_not_block(hook_state):  # GRM-Q26
    message = assistant(QWEN_BASH)
    message["content"].append({"type": "toolCall", "id": "odd", "name": 7, "arguments": {}})
    ref, strict = both(message, hook_state)
    assert calls(ref) == ["bash"] and "GRM-Q26" in codes(ref)
    assert calls(strict) == [] and "GRM-Q26" not in codes(strict)
