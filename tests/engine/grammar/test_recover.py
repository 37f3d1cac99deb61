"""``recover_grammar_leaks`` (§5): choosing, stripping, promotion gates, ids, immutability."""

from __future__ import annotations

import copy

from engine.grammar import recover_grammar_leaks
from engine.grammar.recover import recovered_call_id, to_base36

from .conftest import NOW_MS, PI_TOOLS, assistant

QWEN_BASH = "<tool_call>\n<function=bash>\n<parameter=command>\npwd\n</parameter>\n</function>\n</tool_call>"
QWEN_UNKNOWN = "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\n</tool_call>"


def run(message, mode="recover", tools=PI_TOOLS, **kw):
    return recover_grammar_leaks(message, mode=mode, known_tools=tools, now_ms=NOW_MS, **kw)


def test_ids_embed_the_clock_in_base36():
    assert to_base36(NOW_MS) == "mjuohs00"
    assert recovered_call_id("minimax-text", 2, NOW_MS) == "tool_repair_minimax_text_mjuohs00_2"


def test_promotes_known_call_and_strips_text():
    message = assistant("Working on it.\n" + QWEN_BASH)
    before = copy.deepcopy(message)
    result = run(message)
    assert message == before  # never mutated
    assert result.promoted and result.changed
    assert result.message["stopReason"] == "toolUse"
    assert result.message["content"] == [
        {"type": "text", "text": "Working on it."},
        {"type": "toolCall", "id": "tool_repair_qwen_mjuohs00_0", "name": "bash", "arguments": {"command": "pwd"}},
    ]
    assert result.promoted_call_ids == ["tool_repair_qwen_mjuohs00_0"]
    (report,) = result.candidates
    assert report.span == (15, 15 + len(QWEN_BASH)) and report.reason == "promoted"


def test_stop_reason_gate_strips_without_promoting():  # GRM-Q17
    result = run(assistant("x\n" + QWEN_BASH, stop="length"))
    assert result.changed and not result.promoted
    assert result.message["content"] == [{"type": "text", "text": "x"}]
    assert result.message["stopReason"] == "length"
    assert "GRM-Q17" in {d.code for d in result.diagnostics}
    strict = run(assistant("x\n" + QWEN_BASH, stop="length"), strict=True)
    assert not strict.changed and strict.message["content"][0]["text"] == "x\n" + QWEN_BASH


def test_absent_stop_reason_never_promotes():
    result = run(assistant(QWEN_BASH, stop=None))
    assert result.changed and not result.promoted
    assert result.candidates[0].reason == "stop-reason-absent"


def test_existing_tool_call_blocks_promotion():  # GRM-Q21
    message = assistant(QWEN_BASH)
    message["content"].append({"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "/a"}})
    result = run(message)
    assert not result.promoted and result.changed
    assert [p.get("id") for p in result.message["content"]] == [None, "c1"]


def test_tool_call_part_with_non_string_name_does_not_count():  # GRM-Q26
    message = assistant(QWEN_BASH)
    message["content"].append({"type": "toolCall", "id": "odd", "name": 7, "arguments": {}})
    assert run(message).promoted
    assert not run(message, strict=True).promoted


def test_unknown_tool_text_is_preserved_or_stripped():
    text = QWEN_UNKNOWN + "\n" + QWEN_BASH
    kept = run(assistant(text), mode="strip")
    assert kept.changed and kept.detected_ranges == 2 and kept.stripped_ranges == 1
    assert kept.message["content"][0]["text"] == QWEN_UNKNOWN
    gone = run(assistant(text), mode="strip", unknown_tool_text="strip")
    assert gone.message["content"][0]["text"] == ""
    assert not gone.recovered_calls


def test_observe_mode_detects_without_changing():
    message = assistant(QWEN_BASH)
    result = run(message, mode="observe")
    assert result.observed and not result.changed and result.message is message
    assert result.detected_grammars == ["qwen"]


def test_off_mode_and_other_roles_are_untouched():
    assert not run(assistant(QWEN_BASH), mode="off").observed
    user = {"role": "user", "content": [{"type": "text", "text": QWEN_BASH}], "stopReason": "stop"}
    assert run(user).message is user


def test_empty_arguments_are_stripped_but_not_promoted():  # GRM-Q12
    result = run(assistant("<tool_call>write</tool_call>"))
    assert result.changed and not result.promoted
    assert result.message["content"][0]["text"] == ""
    assert "GRM-Q12" in {d.code for d in result.diagnostics}


def test_empty_known_set_allows_nothing_but_dangling_markers():
    result = run(assistant(QWEN_BASH + "\ntext <｜DSML｜tool_calls"), tools=[])
    assert result.changed and not result.promoted
    assert result.message["content"][0]["text"] == QWEN_BASH + "\ntext"


def test_require_known_tool_false_promotes_anything():
    result = run(assistant(QWEN_UNKNOWN), tools=[], require_known_tool=False)
    assert result.promoted and result.recovered_calls[0]["name"] == "get_weather"


def test_index_counts_across_parts_and_thinking_is_scanned():  # GRM-Q18
    message = {"role": "assistant", "stopReason": "stop", "content": [
        {"type": "thinking", "thinking": "<tool_call>ls\n<arg_key>path</arg_key><arg_value>/</arg_value></tool_call>"},
        {"type": "text", "text": QWEN_BASH, "textSignature": "s"},
    ]}
    result = run(message)
    assert result.promoted_call_ids == ["tool_repair_glm_mjuohs00_0", "tool_repair_qwen_mjuohs00_1"]
    assert result.message["content"][1] == {"type": "text", "text": "", "textSignature": "s"}
    strict = run(message, strict=True)  # strict: thinking is observe-only
    assert strict.promoted_call_ids[0].startswith("tool_repair_qwen_mjuohs00_0")
    assert strict.message["content"][0] == message["content"][0]


def test_whole_part_is_normalised_after_a_strip():  # GRM-Q11
    text = "x = 1   \n\n\n\ny = 2\n" + QWEN_BASH
    assert run(assistant(text), mode="strip").message["content"][0]["text"] == "x = 1\n\ny = 2"
    assert run(assistant(text), mode="strip", strict=True).message["content"][0]["text"] == "x = 1   \n\n\n\ny = 2"


def test_spans_are_utf16():
    text = "😀 " + QWEN_BASH
    (report,) = run(assistant(text)).candidates
    assert report.span == (3, 3 + len(QWEN_BASH))
