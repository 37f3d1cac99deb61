"""The ``grammar`` command: readable and JSON output, and the ``--jsonl`` batch contract."""

from __future__ import annotations

import io
import json

from engine.cli import main
from engine.cli.batch import run_jsonl
from engine.cli.grammar import handle_request

LEAK = "Working.\n<tool_call>\n<function=bash>\n<parameter=command>\npwd\n</parameter>\n</function>\n</tool_call>"


def test_handler_request(monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_NOW_MS", "1767225600000")
    response = handle_request({"text": LEAK, "modelId": "qwen3-coder", "policy": "recover",
                               "knownTools": ["bash"], "stopReason": "stop"})
    assert response["promotedCalls"][0]["id"] == "tool_repair_qwen_mjuohs00_0"
    assert response["strippedText"] == "Working."


def test_api_requests():
    assert handle_request({"api": "modelLeaksGrammar", "modelId": "GLM-4"}) == {"matches": True}
    assert handle_request({"api": "modelLeaksGrammar"}) == {"matches": False}
    parsed = handle_request({"api": "parseToolGrammarLeaks", "text": LEAK, "grammars": ["glm"]})
    assert parsed["calls"] == []
    recovered = handle_request({"api": "recoverGrammarLeaks", "text": LEAK, "grammarMode": "observe",
                                "knownTools": ["bash"], "stopReason": "stop"})
    assert recovered["observed"] and recovered["sameMessageObject"] and not recovered["inputMutated"]


def test_strict_profile_in_requests():
    text = '[TOOL_CALLS]bash[ARGS]{"command":"ls"}'
    assert handle_request({"api": "parseToolGrammarLeaks", "text": text})["calls"] == []
    strict = handle_request({"api": "parseToolGrammarLeaks", "text": text, "profile": "strict"})
    assert strict["calls"] == [{"name": "bash", "arguments": {"command": "ls"}, "grammar": "mistral"}]


def test_batch_keeps_going_after_a_bad_request(monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_NOW_MS", "1767225600000")
    lines = [json.dumps({"api": "nope"}), "not json", json.dumps({"api": "modelLeaksGrammar", "modelId": "kimi-k2"})]
    out = io.StringIO()
    run_jsonl(handle_request, io.StringIO("\n".join(lines) + "\n"), out)
    responses = [json.loads(line) for line in out.getvalue().splitlines()]
    assert "error" in responses[0] and "error" in responses[1]
    assert responses[2] == {"matches": True}


def test_readable_summary(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_NOW_MS", "1767225600000")
    path = tmp_path / "leak.txt"
    path.write_text(LEAK, encoding="utf-8")
    assert main(["grammar", str(path), "--model-id", "qwen3-coder", "--policy", "recover"]) == 0
    out = capsys.readouterr().out
    assert "bash" in out and "promoted as tool_repair_qwen_mjuohs00_0" in out and "Working." in out


def test_json_output_and_tools_option(tmp_path, capsys):
    path = tmp_path / "leak.txt"
    path.write_text(LEAK, encoding="utf-8")
    assert main(["grammar", str(path), "--model-id", "qwen3-coder", "--policy", "recover", "--tools", "read",
                 "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["knownTools"] == ["read"] and record["reasonsNotPromoted"] == ["unknown-tool"]
    assert record["candidates"][0]["reason"] == "unknown-tool-preserved"


def test_missing_file_is_reported_without_traceback(tmp_path, capsys):
    assert main(["grammar", str(tmp_path / "absent.txt")]) == 1
    err = capsys.readouterr().err
    assert "absent.txt:1:1: error:" in err and "Traceback" not in err
