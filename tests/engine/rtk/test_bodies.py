"""RTK on Responses and Kiro bodies (rtk.md §8.6) through the shared body adapter."""

from __future__ import annotations

from engine.bodies import adapt_body
from engine.rtk.messages import apply_rtk_compression

LOG = "".join(f"2026-05-14T10:00:{i:02d}Z INFO served path=/a status=200\n" for i in range(40))


def responses_body(output, **extra) -> dict:
    return {"model": "gpt-5", "input": [
        {"type": "function_call", "call_id": "c1", "name": "read_file", "arguments": '{"path":"a.log"}'},
        {"type": "function_call_output", "call_id": "c1", "output": output}], **extra}


def test_responses_tool_output_is_grouped_and_written_back():
    body = responses_body(LOG)
    result = apply_rtk_compression(body, {"enabled": True, "enableGrouping": True})
    out = result.body["input"][1]["output"]
    assert result.compressed and "[rtk:grouped \u00d740]" in out
    assert "messages" not in result.body and result.body["input"][0] == body["input"][0]
    assert "RTK-Q35" in [d.code for d in result.diagnostics]
    assert body["input"][1]["output"] == LOG  # the input body is not modified


def test_strict_uses_the_function_call_to_skip_filters_of_non_shell_tools():
    strict = apply_rtk_compression(responses_body(LOG), {"enabled": True}, profile="strict")
    assert [r["skipFilters"] for r in strict.results] == [True]
    omni = apply_rtk_compression(responses_body(LOG), {"enabled": True})
    assert [r["skipFilters"] for r in omni.results] == [False]


def test_object_output_comes_back_as_json_text_unless_strict():
    body = responses_body({"ok": True})
    assert apply_rtk_compression(body, None).body["input"][1]["output"] == '{"ok":true}'
    assert apply_rtk_compression(body, None, profile="strict").body["input"][1]["output"] == {"ok": True}


def test_kiro_tool_results_are_exposed_and_errors_kept():
    body = {"conversationState": {"currentMessage": {"userInputMessage": {
        "content": "go", "userInputMessageContext": {"toolResults": [
            {"toolUseId": "t1", "status": "success", "content": [{"text": LOG}]},
            {"toolUseId": "t2", "status": "error", "content": [{"text": LOG}]}]}}}}}
    result = apply_rtk_compression(body, {"enabled": True, "enableGrouping": True})
    results = result.body["conversationState"]["currentMessage"]["userInputMessage"]["userInputMessageContext"][
        "toolResults"]
    assert "[rtk:grouped" in results[0]["content"][0]["text"]
    assert results[1] is body["conversationState"]["currentMessage"]["userInputMessage"][
        "userInputMessageContext"]["toolResults"][1]


def test_disabled_or_empty_bodies_come_back_unchanged_without_stats():
    body = {"input": [{"type": "reasoning", "summary": []}]}
    result = apply_rtk_compression(body, None)
    assert (result.body, result.compressed, result.stats) == (body, False, None)


def test_adapter_shape_order_and_messages_key():
    assert adapt_body({"messages": [], "input": "x"}).shape == "chat"
    kiro_first = adapt_body({"conversationState": {}, "input": "hello"})
    assert kiro_first.shape == "none" and [d.code for d in kiro_first.diagnostics] == ["CAV-Q23"]
    assert adapt_body({"conversationState": {}, "input": "hello"}, profile="strict").shape == "responses"
    legacy = adapt_body({"input": "hello", "messages": None})
    assert legacy.body["messages"] == [{"role": "user", "content": "hello"}]
    assert legacy.restore(legacy.body) == {"input": "hello"}
    assert adapt_body({"input": "hello", "messages": None}, profile="strict").restore(legacy.body)["messages"] is None


def test_string_input_and_output_field_messages():
    adapted = adapt_body({"input": [{"role": "user", "output": "text in output"}]})
    back = adapted.restore({"messages": [{"role": "user", "content": "changed"}]})
    assert back["input"][0] == {"role": "user", "output": "text in output", "content": "changed"}
    strict = adapt_body({"input": [{"role": "user", "output": "text in output"}]}, profile="strict")
    assert strict.restore({"messages": [{"role": "user", "content": "changed"}]})["input"][0] == {
        "role": "user", "output": "changed"}


def test_custom_tool_output_json_is_reserialised():
    raw = '{\n  "output": "hi",\n  "10": 1, "2": 2\n}'
    adapted = adapt_body({"input": [{"type": "custom_tool_call_output", "output": raw}]})
    assert adapted.body["messages"] == [{"role": "tool", "content": "hi"}]
    assert adapted.restore(adapted.body)["input"][0]["output"] == '{"2":2,"10":1,"output":"hi"}'
    assert "CAV-Q19" in [d.code for d in adapted.diagnostics]
