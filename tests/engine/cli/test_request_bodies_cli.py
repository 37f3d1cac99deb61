"""``compress --body`` and ``filter --stage body``: whole request bodies (chat, Responses, Kiro)."""

from __future__ import annotations

import json

from .helpers import rulewright

LOG = "".join(f"2026-05-14T10:00:{i:02d}Z INFO served path=/a status=200\n" for i in range(40))


def test_compress_body_restores_a_responses_string_input():
    body = {"model": "gpt-5", "input": "Just basically make sure that the tests really pass before you merge."}
    result = rulewright("compress", "--body", "--min-length", "0", stdin=json.dumps(body))
    assert result.code == 0, result.err
    out = json.loads(result.out)
    assert set(out) == {"model", "input"} and isinstance(out["input"], str)
    assert len(out["input"]) < len(body["input"])


def test_compress_body_json_reports_the_adapter_quirks():
    body = {"conversationState": {"currentMessage": {"userInputMessage": {"content": "hello there", (
        "userInputMessageContext"): {"toolResults": [{"status": "success", "content": [{"text": "ok"}]}]}}}}}
    result = rulewright("compress", "--body", "--json", stdin=json.dumps(body))
    out = json.loads(result.out)
    assert out["body"] == body
    assert "CAV-Q22" in result.err


def test_filter_stage_body_groups_a_responses_tool_output():
    body = {"input": [{"type": "function_call_output", "call_id": "c", "output": LOG}]}
    result = rulewright("filter", "--stage", "body", "--config", '{"enabled": true, "enableGrouping": true}',
                        stdin=json.dumps(body))
    assert result.code == 0, result.err
    assert json.loads(result.out)["input"][0]["output"].endswith("[rtk:grouped \u00d740]")
    assert "[RTK-Q35]" in result.err


def test_jsonl_body_requests():
    lines = [json.dumps({"stage": "body", "body": {"messages": []}}),
             json.dumps({"stage": "body", "body": {"input": 5}, "config": {"enabled": True}})]
    result = rulewright("filter", "--jsonl", stdin="\n".join(lines) + "\n")
    for line in result.out.splitlines():
        response = json.loads(line)
        assert response["compressed"] is False and response["originalTokens"] is None
