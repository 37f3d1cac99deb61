"""``rulewright compress``: bad rule folders, bad fallback lists, bad text, bad batch requests."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

from .helpers import rulewright

PROSE = "Please basically make sure that you really just run the tests quickly, okay? Thanks a lot."


def test_missing_rules_folder_is_an_error_not_a_silent_no_op(tmp_path) -> None:
    missing = tmp_path / "no-rules"
    result = rulewright("compress", "--rules", str(missing), stdin=PROSE)
    assert result.code == 1
    assert result.err.startswith(f"{missing}:1:1: error: --rules: no such folder")
    assert result.out == ""


@pytest.mark.slow
def test_fallback_rules_of_the_wrong_shape_are_reported_at_the_file(tmp_path) -> None:
    for content in ("[1, 2, 3]", '"x"', "{not json"):
        fallback = tmp_path / "fallback.json"
        fallback.write_text(content, encoding="utf-8")
        result = rulewright("compress", "--fallback-rules", str(fallback), stdin=PROSE)
        assert result.code == 1, content
        assert "Traceback" not in result.err
        assert result.err.startswith(f"{fallback}:1:"), result.err


def test_invalid_utf8_is_compressed_as_omniroute_reads_it_but_exits_1(tmp_path) -> None:
    text = tmp_path / "latin1.txt"
    text.write_bytes(b"caf\xe9 is open")
    result = rulewright("compress", str(text))
    assert result.code == 1
    assert f"{text}:1:4: error: invalid UTF-8" in result.err
    assert result.out == "caf\ufffd is open\n"


def test_options_may_follow_the_file(tmp_path) -> None:
    text = tmp_path / "t.txt"
    text.write_text(PROSE, encoding="utf-8")
    result = rulewright("compress", str(text), "--intensity", "lite", "--json")
    assert result.code == 0
    assert result.json()["originalTokens"] > 0


def test_jsonl_fields_of_the_wrong_type_are_answered_and_the_batch_goes_on() -> None:
    lines = [json.dumps({"text": PROSE, "minLength": []}),
             json.dumps({"text": PROSE, "language": {"x": 1}}),
             json.dumps({"text": PROSE, "config": 5}),
             json.dumps({"role": "user"}),
             json.dumps({"text": "short", "language": "en"})]
    result = rulewright("compress", "--jsonl", stdin="\n".join(lines) + "\n")
    responses = [json.loads(line) for line in result.out.splitlines()]
    assert len(responses) == 5
    assert responses[0] == {"error": '"minLength" must be a number'}
    assert responses[1] == {"error": '"language" must be a string'}
    assert responses[2] == {"error": '"config" must be an object'}
    assert responses[3] == {"error": 'request needs "text" (a string) or "messages" (an array)'}
    assert responses[4]["text"] == "short"


def test_min_length_must_be_a_finite_non_negative_number() -> None:
    for value in ("nan", "inf", "-1", "ten"):
        result = rulewright("compress", "--min-length", value, stdin=PROSE)
        assert result.code == 2, value
        assert "argument --min-length" in result.err


def test_jsonl_unknown_profile_is_answered_without_a_python_class_name() -> None:
    result = rulewright("compress", "--jsonl", stdin=json.dumps({"text": PROSE, "profile": "fast"}) + "\n")
    assert json.loads(result.out) == {"error": 'unknown profile "fast" (expected one of omniroute, strict)'}


@pytest.mark.slow
def test_a_skip_rule_name_that_matches_nothing_is_warned(tmp_path) -> None:
    pack_dir = tmp_path / "rules" / "en"
    pack_dir.mkdir(parents=True)
    pack = {"language": "en", "category": "filler", "rules": [
        {"name": "drop_basically", "pattern": "\\bbasically\\s+", "replacement": "", "flags": "gi",
         "context": "all", "category": "filler", "minIntensity": "lite"}]}
    (pack_dir / "filler.json").write_text(json.dumps(pack), encoding="utf-8")
    rules = str(tmp_path / "rules")
    typo = rulewright("compress", "--rules", rules, "--skip-rule", "drop_basicaly", stdin=PROSE)
    assert "--skip-rule drop_basicaly: no loaded rule has this name" in typo.err
    known = rulewright("compress", "--rules", rules, "--skip-rule", "drop_basically", stdin=PROSE)
    assert "no loaded rule" not in known.err
    assert known.code == 0 and "basically" in known.out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _in_process(monkeypatch, args: list[str], stderr: io.StringIO) -> tuple[int, str, str]:
    from engine.cli import main

    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", stderr)
    code = main(["compress", *args])
    monkeypatch.undo()
    return code, out.getvalue(), stderr.getvalue()


def test_a_terminal_sees_a_progress_bar_and_the_output_is_the_same(tmp_path, monkeypatch) -> None:
    """On a terminal a run draws its progress on standard error (here from the start: the
    bar's delay is set to 0), and leaves standard output as it is without one; ``--quiet``,
    or a standard error that is no terminal, draws none."""
    import engine.cli.compress as compress_cli

    text = tmp_path / "big.txt"
    text.write_text((PROSE + "\n") * 3000, encoding="utf-8")
    monkeypatch.setattr(compress_cli, "BAR_DELAY", 0.0)
    code, out, err = _in_process(monkeypatch, [str(text)], _Terminal())
    assert code == 0 and re.search(r"compress: +[1-9]\d*%\|", err), err  # (moved on from 0 %)
    monkeypatch.setattr(compress_cli, "BAR_DELAY", 0.0)
    quiet = _in_process(monkeypatch, ["--quiet", str(text)], _Terminal())
    monkeypatch.setattr(compress_cli, "BAR_DELAY", 0.0)
    piped = _in_process(monkeypatch, [str(text)], io.StringIO())
    assert quiet == piped == (0, out, "")
