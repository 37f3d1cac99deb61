"""The ``rulewright regex`` command: human output, --replace, --json, errors and the --jsonl contract."""

from __future__ import annotations

import io
import json

import pytest

from engine.cli import main
from engine.cli.batch import run_jsonl
from engine.cli.regex import handle_request


def run_cli(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["regex", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_lists_matches_with_utf16_index_and_groups(monkeypatch, capsys) -> None:
    code, out, _ = run_cli([r"(?<d>\d)(x)?", "-"], "😀1 2x", monkeypatch, capsys)
    assert code == 0
    assert out.splitlines() == ['2-3: "1"  1<d>="1" 2=undefined', '4-6: "2x"  1<d>="2" 2="x"']


def test_replace_prints_the_result(monkeypatch, capsys) -> None:
    code, out, _ = run_cli([r"(\w)(\d)", "--flags", "g", "--replace", "$2$1"], "a1 b2", monkeypatch, capsys)
    assert (code, out) == (0, "1a 2b")


def test_json_output(monkeypatch, capsys, tmp_path) -> None:
    path = tmp_path / "in.txt"
    path.write_text("ab", encoding="utf-8")
    code, out, _ = run_cli(["b", str(path), "--json", "--flags", "d"], "", monkeypatch, capsys)
    assert code == 0
    assert json.loads(out) == {"matches": [{"index": 1, "cpIndex": 1, "match": "b", "groups": [], "named": {},
                                            "indices": [[1, 2]], "namedIndices": {}}]}


def test_invalid_pattern_prints_v8_message_and_exits_1(monkeypatch, capsys) -> None:
    code, _, err = run_cli(["a)", "--flags", "yg"], "", monkeypatch, capsys)
    assert code == 1
    # the column is the stray ')' (the second character)
    assert err.startswith("<pattern>:1:2: error: Invalid regular expression: /a)/gy: Unmatched ')'")


def test_invalid_flags_exit_1(monkeypatch, capsys) -> None:
    code, _, err = run_cli(["a", "--flags", "gg"], "", monkeypatch, capsys)
    assert code == 1 and "Invalid flags supplied to RegExp constructor 'gg'" in err


def test_missing_file_is_an_error_not_a_traceback(monkeypatch, capsys, tmp_path) -> None:
    code, _, err = run_cli(["a", str(tmp_path / "nope.txt")], "", monkeypatch, capsys)
    assert code == 1 and "error" in err


def test_handle_request_ops() -> None:
    assert handle_request({"pattern": "(", "flags": "", "op": "compile", "input": ""})["ok"] is False
    assert handle_request({"pattern": "ab)", "flags": "", "op": "compile", "input": ""})["offset"] == 2
    assert handle_request({"pattern": "😀[", "flags": "", "op": "matches", "input": ""})["offset"] == 2  # UTF-16
    assert "offset" not in handle_request({"pattern": "a", "flags": "gg", "op": "compile", "input": ""})
    assert handle_request({"pattern": "a", "flags": "g", "op": "compile", "input": ""}) == {"ok": True}
    assert handle_request({"pattern": "a", "flags": "g", "op": "replace", "input": "aa", "replacement": "$&$&"}) == {
        "result": "aaaa"}
    response = handle_request({"pattern": "a(b)?", "flags": "", "op": "matches", "input": "a ab"})
    assert [m["index"] for m in response["matches"]] == [0, 2]
    assert response["exec"] == {"index": 0, "cpIndex": 0, "match": "a", "groups": [None], "named": {}}
    assert "exec" not in handle_request({"pattern": "a", "flags": "g", "op": "matches", "input": "a"})
    sticky = handle_request({"pattern": "a", "flags": "y", "op": "matches", "input": "aaba"})
    assert [m["index"] for m in sticky["matches"]] == [0, 1]
    assert "error" in handle_request({"pattern": "a", "flags": "", "op": "nope", "input": ""})


def test_jsonl_batch_keeps_lone_surrogates() -> None:
    lines = [json.dumps({"pattern": "(?:)", "flags": "g", "op": "replace", "input": "😀", "replacement": "-"}),
             json.dumps({"pattern": "(", "flags": "", "op": "replace", "input": "", "replacement": ""})]
    out = io.StringIO()
    run_jsonl(handle_request, io.StringIO("\n".join(lines) + "\n"), out)
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first == {"result": "-\ud83d-\ude00-"}
    assert "Unterminated group" in second["error"]
