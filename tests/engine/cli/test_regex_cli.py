"""``rulewright regex``: argument order, input errors and the batch contract."""

from __future__ import annotations

import json

from .helpers import rulewright


def test_documented_order_pattern_options_then_file(tmp_path) -> None:
    # README: rulewright regex PATTERN [--flags F] [--replace R] [FILE|-] — options between the two
    # positionals used to make argparse reject FILE as "unrecognized"
    text = tmp_path / "t.txt"
    text.write_text("hello", encoding="utf-8")
    replaced = rulewright("regex", "l", "--flags", "g", "--replace", "L", str(text))
    assert (replaced.code, replaced.out) == (0, "heLLo")
    listed = rulewright("regex", "(?<ch>l)", "--json", str(text))
    assert listed.code == 0
    assert [m["index"] for m in listed.json()["matches"]] == [2, 3]


def test_missing_file_is_located_and_exits_1(tmp_path) -> None:
    missing = tmp_path / "nope.txt"
    result = rulewright("regex", "a", str(missing))
    assert result.code == 1
    assert result.err.startswith(f"{missing}:1:1: error: cannot read")


def test_negative_timeout_is_a_usage_error() -> None:
    result = rulewright("regex", "a", "--timeout", "-1", stdin="a")
    assert result.code == 2
    assert "--timeout" in result.err and "Traceback" not in result.err


def test_invalid_flags_report_v8_message_exit_1() -> None:
    result = rulewright("regex", "a", "--flags", "zz", stdin="a")
    assert result.code == 1
    assert "error: Invalid flags supplied to RegExp constructor 'zz'" in result.err


def test_jsonl_request_without_pattern_is_an_error_and_the_batch_goes_on() -> None:
    lines = ['{"input": "x"}', "garbage", '{"pattern": "x", "input": "xx"}']
    result = rulewright("regex", "--jsonl", stdin="\n".join(lines) + "\n")
    responses = [json.loads(line) for line in result.out.splitlines()]
    assert result.code == 0 and len(responses) == 3
    assert "pattern" in responses[0]["error"]
    assert "error" in responses[1]
    assert [m["match"] for m in responses[2]["matches"]] == ["x", "x"]


def test_double_dash_passes_a_pattern_that_starts_with_a_dash(tmp_path) -> None:
    text = tmp_path / "t.txt"
    text.write_text("a -12 b", encoding="utf-8")
    for argv in (["regex", "--", "-[0-9]+", str(text)], ["regex", "--flags", "g", "--", "-[0-9]+", str(text)]):
        result = rulewright(*argv)
        assert (result.code, result.out) == (0, '2-5: "-12"\n'), result.err
    piped = rulewright("regex", "--", "-[0-9]+", stdin="x -7")
    assert (piped.code, piped.out) == (0, '2-4: "-7"\n')
