"""The ``message_end`` decision (§6, §10): settings, gates, telemetry, notes, reasons."""

from __future__ import annotations

import pytest

from engine.grammar import GrammarSettings, message_end, migrate, model_leaks_grammar, recovery_note

from .conftest import assistant

LEAK = "Working.\n<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>"
UNKNOWN = "<tool_call>\n<function=fetch>\n<parameter=url>\nhttp://x\n</parameter>\n</function>\n</tool_call>"


@pytest.mark.parametrize(("stored", "expected"), [
    (None, ("strip", "adaptive", "preserve", ())),
    ({"grammarRecovery": "observe"}, ("observe", "adaptive", "preserve", ())),
    ({"grammarRecovery": "recover"}, ("recover", "recover", "preserve", ())),
    ({"policyProfile": "conservative"}, ("observe", "conservative", "preserve", ())),
    ({"policyProfile": "recover", "grammarRecovery": "off"}, ("off", "recover", "preserve", ())),
    ({"policyProfile": "bogus", "grammarRecovery": "bogus"}, ("strip", "adaptive", "preserve", ())),
    ({"grammarAllowedTools": ["a", 1], "unknownGrammarText": "strip"}, ("strip", "adaptive", "strip", ())),
    ({"grammarAllowedTools": ["a"]}, ("strip", "adaptive", "preserve", ("a",))),
    ([1, 2], ("strip", "adaptive", "preserve", ())),
])
def test_settings_migration(stored, expected):
    s = migrate(stored)
    assert (s.mode, s.profile, s.unknown_grammar_text, s.allowed_tools) == expected


@pytest.mark.parametrize(("model", "reference", "strict"), [
    ("deepseek-v3.2", True, True), ("Qwen3-Coder", True, True), ("ollama/gpt-oss", True, False),
    ("my-qwen-proxy/gpt-4o", True, False), ("mixtral-8x7b", False, True), ("devstral-small", False, True),
    ("mistralai/devstral", True, True), ("gpt-4o", False, False), ("", False, False), (None, False, False),
])
def test_model_gate(model, reference, strict):  # GRM-Q15
    assert model_leaks_grammar(model) is reference
    assert model_leaks_grammar(model, strict=True) is strict


def test_promotion_record(hook_state):
    record = message_end(assistant(LEAK), hook_state())
    assert record["skippedBy"] is None and record["promoted"]
    assert record["promotedCalls"] == [{"id": "tool_repair_qwen_mjuohs00_0", "name": "bash", "arguments": {"command": "ls"}}]
    assert record["notes"] == [recovery_note("qwen", "bash")]
    assert record["entries"][0]["data"]["toolCallId"] == "tool_repair_qwen_mjuohs00_0"
    assert record["telemetry"] == [{"tool": "bash", "model": "qwen3-coder", "outcome": "recovered",
                                    "rules": ["grammarRecovery:qwen"], "grammar": "qwen", "profile": "recover",
                                    "stages": ["grammar"]}]
    assert record["strippedText"] == "Working." and record["reasonsNotPromoted"] == []


@pytest.mark.parametrize(("kwargs", "message", "skipped"), [
    ({"mode": "off"}, assistant(LEAK), "grammar-mode-off"),
    ({}, {"role": "user", "content": [{"type": "text", "text": LEAK}], "stopReason": "stop"}, "not-assistant-role"),
    ({"model": "gpt-4o"}, assistant(LEAK), "model-not-on-leak-list"),
    ({"model": None}, assistant(LEAK), "model-not-on-leak-list"),
])
def test_gates_skip_but_calls_are_still_parsed(hook_state, kwargs, message, skipped):
    record = message_end(message, hook_state(**kwargs))
    assert record["skippedBy"] == skipped and record["reasonsNotPromoted"] == [skipped]
    assert [c["name"] for c in record["calls"]] == ["bash"]
    assert record["content"] == message["content"] and record["telemetry"] == []
    (cand,) = record["candidates"]  # the IDE still sees where the leak is and which gate stopped it
    assert cand["reason"] == skipped and cand["span"] == [9, len(LEAK)] and not cand["stripped"]


def test_strip_mode_records_a_strip(hook_state):
    record = message_end(assistant(LEAK), hook_state("strip", profile="adaptive"))
    assert record["changed"] and not record["promoted"] and record["reasonsNotPromoted"] == ["strip-mode"]
    assert record["telemetry"][0]["outcome"] == "stripped" and record["telemetry"][0]["grammar"] == "qwen"


def test_unknown_tool_preserved_is_an_observation(hook_state):  # GRM-Q20
    record = message_end(assistant(UNKNOWN), hook_state())
    assert not record["changed"] and record["observed"]
    assert record["observations"][0]["rules"] == ["grammarObserve"]
    assert record["reasonsNotPromoted"] == ["unknown-tool"]
    assert "GRM-Q20" in {d["code"] for d in record["diagnostics"]}
    strict = message_end(assistant(UNKNOWN), hook_state(strict=True))
    assert strict["telemetry"][0]["outcome"] == "preserved" and strict["observations"][0]["rules"] == ["grammarPreserve"]


def test_allowed_tools_replace_active_tools(hook_state):  # GRM-Q24
    state = hook_state(tools=["read"], allowed=("bash",))
    record = message_end(assistant(LEAK), state)
    assert record["knownTools"] == ["bash"] and record["promoted"]
    strict = message_end(assistant(LEAK), hook_state(tools=["read"], allowed=("bash",), strict=True))
    assert strict["knownTools"] == [] and not strict["promoted"]


def test_get_active_tools_throwing_leaves_nothing_known(hook_state):
    record = message_end(assistant(LEAK), hook_state(tools="throws"))
    assert record["knownTools"] == [] and record["calls"][0]["knownTool"] is False
    assert record["reasonsNotPromoted"] == ["unknown-tool"]


def test_reasons_list_every_applicable_gate(hook_state):
    record = message_end(assistant("text <｜DSML｜tool_calls", stop="length"), hook_state())
    assert record["reasonsNotPromoted"] == ["dangling-markers-only", "stop-reason-length"]
    assert record["strippedText"] == "text"


def test_message_extra_fields_and_key_order(hook_state):
    message = {"role": "assistant", "content": [{"type": "text", "text": LEAK}], "provider": "x", "stopReason": "stop"}
    record = message_end(message, hook_state())
    assert record["messageKeys"] == ["role", "content", "provider", "stopReason"]
    assert record["inputMutated"] is False


def test_settings_object_round_trip():
    assert GrammarSettings().to_dict() == {"mode": "strip", "profile": "adaptive", "unknownGrammarText": "preserve",
                                           "grammarAllowedTools": []}


def test_note_goes_in_front_of_the_tool_result_once():
    from engine.grammar import tool_result_with_note

    note = recovery_note("dsml", "bash")
    tagged = f"<repair_note>{note}</repair_note>"
    content = [{"type": "image", "data": "x"}, {"type": "text", "text": "out"}]
    with_note = tool_result_with_note(content, note)
    assert with_note[1] == {"type": "text", "text": tagged + "\nout"} and content[1]["text"] == "out"
    assert tool_result_with_note(with_note, note) == with_note
    assert tool_result_with_note([], note) == [{"type": "text", "text": tagged}]
