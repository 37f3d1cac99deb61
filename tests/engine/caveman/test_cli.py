"""``rulewright compress``: plain text, chat bodies, --json, --jsonl batch, bad input."""

from __future__ import annotations

import io
import json

import pytest

from engine.cli import main
from engine.cli.batch import run_jsonl
from engine.cli.compress import handle_request

from .helpers import pack, rule

PACK = pack(rule("polite", r"\bplease\s+"), rule("filler", r"\bbasically\s+"), language="en")


@pytest.fixture
def rules_dir(tmp_path):
    folder = tmp_path / "rules" / "en"
    folder.mkdir(parents=True)
    (folder / "filler.json").write_text(json.dumps(PACK))
    return tmp_path / "rules"


def test_plain_text_from_a_file(tmp_path, rules_dir, capsys):
    src = tmp_path / "in.txt"
    src.write_text("please basically check the logs")
    assert main(["compress", str(src), "--rules", str(rules_dir), "--min-length", "0"]) == 0
    assert capsys.readouterr().out == "Check the logs\n"


def test_json_result_and_strict_profile(tmp_path, rules_dir, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("please look"))
    assert main(["compress", "-", "--rules", str(rules_dir), "--min-length", "0", "--json",
                 "--profile", "strict"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["text"] == "Look" and out["rulesApplied"] == ["polite"] and out["fallbackApplied"] is False


def test_messages_mode(tmp_path, rules_dir, capsys):
    body = tmp_path / "body.json"
    body.write_text(json.dumps({"model": "x", "messages": [{"role": "user", "content": "please stop"},
                                                            {"role": "assistant", "content": "please wait"}]}))
    assert main(["compress", str(body), "--messages", "--rules", str(rules_dir), "--min-length", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [m["content"] for m in out["messages"]] == ["Stop", "please wait"]
    assert out["model"] == "x"


def test_bad_chat_body_and_missing_file(tmp_path, capsys):
    body = tmp_path / "body.json"
    body.write_text("{nope")
    assert main(["compress", str(body), "--messages"]) == 1
    assert f"{body}:1:2: error:" in capsys.readouterr().err
    assert main(["compress", str(tmp_path / "missing.txt")]) == 1


def test_empty_rules_folder_is_graceful(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("please keep this text"))
    assert main(["compress", "--rules", str(tmp_path), "--min-length", "0"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "Please keep this text\n"
    assert "no rule packs found" in captured.err and "CAV-Q3" in captured.err


def test_invalid_pack_is_reported_not_raised(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "en"
    folder.mkdir()
    (folder / "filler.json").write_text(json.dumps(pack(rule("bad", "("), language="en")))
    monkeypatch.setattr("sys.stdin", io.StringIO("some text"))
    assert main(["compress", "--rules", str(tmp_path), "--min-length", "0"]) == 1
    assert "Invalid Caveman rule pack en/filler: rules[0].pattern is invalid" in capsys.readouterr().err


def test_handle_request_contract(rules_dir):
    response = handle_request({"text": "please go", "language": "en", "intensity": "full", "role": "user",
                               "profile": "omniroute", "minLength": 0, "rules": str(rules_dir)})
    assert response["text"] == "Go"
    for key in ("rulesApplied", "fallbackApplied", "preservedBlockCount", "originalTokens", "compressedTokens",
                "savingsPercent", "validationErrors", "validationWarnings", "diagnostics"):
        assert key in response
    inline = handle_request({"messages": [{"role": "user", "content": "basically done"}], "language": "en",
                             "minLength": 0, "packs": [PACK], "config": {"skipRules": ["filler"]}})
    assert inline["messages"][0]["content"] == "Basically done"


def test_jsonl_batch_keeps_going(rules_dir):
    lines = [json.dumps({"text": "please go", "minLength": 0, "rules": str(rules_dir)}), "not json",
             json.dumps({"language": "en"}), json.dumps({"text": "x", "packs": [{"language": "en"}]})]
    out = io.StringIO()
    run_jsonl(handle_request, io.StringIO("\n".join(lines) + "\n"), out)
    responses = [json.loads(line) for line in out.getvalue().splitlines()]
    assert responses[0]["text"] == "Go"
    assert all("error" in r for r in responses[1:])
