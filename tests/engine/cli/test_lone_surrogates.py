"""JavaScript strings may hold lone surrogates (UTF-16 halves); printing them must not crash.

JSON output escapes them as ``\\udXXX`` (as well-formed ``JSON.stringify`` does); plain text shows
U+FFFD.
"""

from __future__ import annotations

import json

import pytest

from .helpers import rulewright

LONE = '{"messages": [{"role": "user", "content": "\\ud800 Please basically just make sure you really run it"}]}'


def test_regex_without_u_flag_splits_an_astral_character() -> None:
    listed = rulewright("regex", ".", stdin="\U0001F600")
    assert listed.code == 0 and "Traceback" not in listed.err
    assert listed.out.splitlines() == ['0-1: "\\ud83d"', '1-2: "\\ude00"']
    as_json = rulewright("regex", ".", "--json", stdin="\U0001F600")
    assert [m["match"] for m in as_json.json()["matches"]] == ["\ud83d", "\ude00"]
    replaced = rulewright("regex", ".", "--replace", "x", stdin="\U0001F600")
    assert (replaced.code, replaced.out) == (0, "x\ufffd")


@pytest.mark.slow
def test_compress_chat_body_with_a_lone_surrogate(tmp_path) -> None:
    body = tmp_path / "body.json"
    body.write_text(LONE, encoding="utf-8")
    for argv in (["--messages"], ["--messages", "--json"]):
        result = rulewright("compress", *argv, str(body))
        assert result.code == 0 and "Traceback" not in result.err, result.err
        assert json.loads(result.out)["messages"][0]["content"].startswith("\ud800")


def test_grammar_json_survives_a_lone_surrogate_from_the_command_line(tmp_path) -> None:
    text = tmp_path / "reply.txt"
    text.write_text("plain reply", encoding="utf-8")
    result = rulewright("grammar", str(text), "--json", "--tools", "read,\udcff")
    assert result.code == 0 and "Traceback" not in result.err, result.err
    json.loads(result.out)
