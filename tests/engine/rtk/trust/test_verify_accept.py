"""verify: --accept writes actual as expected (only those values change), --json tells the exit
status's truth, the default library is named; compress says when a text is below the minimum."""

from __future__ import annotations

import json

from engine.cli import main

from .conftest import canonical, write_json

TOML = '''schema_version = 1

# kept comment
[filters.tool]
match_command = '^tool\\b'
strip_lines_matching = ['^noise']

[[tests.tool]]
name = "first"
input = """
[INFO] a
noise x
b
"""
expected = """
wrong
"""

[[tests.tool]]
name = "second"
input = "x"
expected = "not x"
'''


def _failing(tmp_path):
    path = tmp_path / "f.json"
    write_json(path, [canonical("a", include=["^keep"], tests=[
        {"name": "one", "input": "keep 1\nx", "expected": "old"},
        {"name": "two", "input": "keep 2\ny", "expected": "also old"}]),
        canonical("b", tests=[{"name": "ok", "input": "z", "expected": "z"}])])
    return path


def test_accept_one_test_changes_only_its_expected_value(tmp_path, capsys):
    path = _failing(tmp_path)
    before = path.read_text()
    assert main(["verify", str(path), "--accept", "--filter", "a", "--test", "2"]) == 0
    out = capsys.readouterr().out
    assert f"{path}:" in out and "accepted the actual output of [a] two as expected" in out
    assert "-also old" in out and "+keep 2" in out
    after = path.read_text()
    assert after == before.replace('"expected": "also old"', '"expected": "keep 2"')
    assert main(["verify", str(path), "--json"]) == 1
    outcomes = {o["testName"]: o["passed"] for o in json.loads(capsys.readouterr().out)["outcomes"]}
    assert outcomes == {"one": False, "two": True, "ok": True}


def test_accept_all_failing_then_verify_passes(tmp_path, capsys):
    path = _failing(tmp_path)
    assert main(["verify", str(path), "--accept", "--json"]) == 0
    accepted = json.loads(capsys.readouterr().out)["accepted"]
    assert [(a["filterId"], a["testName"]) for a in accepted] == [("a", "one"), ("a", "two")]
    assert main(["verify", str(path)]) == 0
    assert main(["verify", str(path), "--accept"]) == 0
    assert "nothing to accept" in capsys.readouterr().out


def test_accept_in_toml_keeps_the_rest_of_the_file(tmp_path, capsys):
    path = tmp_path / "f.toml"
    path.write_text(TOML, encoding="utf-8")
    assert main(["verify", str(path), "--accept", "--filter", "tool", "--test", "first"]) == 0
    text = path.read_text(encoding="utf-8")
    assert text == TOML.replace('expected = """\nwrong\n"""', 'expected = """\n[INFO] a\nb"""')
    assert main(["verify", str(path), "--accept"]) == 0
    assert path.read_text(encoding="utf-8").endswith('expected = "x"\n') and "# kept comment" in text
    assert main(["verify", str(path)]) == 0


def test_accept_usage_and_unknown_filter(tmp_path, capsys):
    path = _failing(tmp_path)
    assert main(["verify", str(path), "--test", "1"]) == 2
    assert main(["verify", str(path), "--accept", "--filter", "zzz"]) == 1
    assert "no filter with id 'zzz'" in capsys.readouterr().err
    assert main(["verify", str(path), "--accept", "--filter", "a", "--test", "9"]) == 1


def test_json_passed_is_false_whenever_the_exit_status_is_not_zero(tmp_path, capsys):
    good = tmp_path / "good.json"
    write_json(good, canonical("g", tests=[{"name": "t", "input": "z", "expected": "z"}]))
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": 1,}', encoding="utf-8")
    assert main(["verify", str(good), str(bad), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["passed"] is False and out["errors"] and out["library"] == "paths"


def test_verify_without_paths_names_the_built_in_library(capsys):
    assert main(["verify", "--filter", "git-status"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Testing the built-in filter library (") and "not the current folder" in out
    assert main(["verify", "--filter", "git-status", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["library"] == "builtin"


def test_compress_says_when_the_text_is_below_the_minimum(tmp_path, capsys):
    short = tmp_path / "short.txt"
    short.write_text("Thanks a lot!", encoding="utf-8")
    assert main(["compress", str(short)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "Thanks a lot!\n"
    assert "below the minimum of 50 (--min-length): left unchanged" in captured.err
    assert main(["compress", str(short), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["belowMinLength"] == [{"message": 0, "length": 13, "minLength": 50}]
    assert main(["compress", str(short), "--min-length", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["belowMinLength"] == []


PING_LIKE = '''schema_version = 1

[filters.pingish]
match_command = '^ping\\b'
strip_lines_matching = ['^PING ']

[[tests.pingish]]
name = "keeps the lower-case summary"
input = """
PING host (10.0.0.1)
ping statistics: 1 packets
"""
expected = "ping statistics: 1 packets"
'''


def test_a_result_changed_by_a_quirk_names_it_with_the_strict_answer(tmp_path, capsys):
    path = tmp_path / "ping.toml"
    path.write_text(PING_LIKE, encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    captured = capsys.readouterr()
    assert "FAIL [pingish] keeps the lower-case summary — result changed by RTK-Q16" in captured.out
    assert "under --profile strict this test passes" in captured.out
    assert "+++ strict" in captured.out and "[RTK-Q16]" in captured.err
    assert main(["verify", str(path), "--json"]) == 1
    (outcome,) = json.loads(capsys.readouterr().out)["outcomes"]
    assert outcome["quirk"]["ids"] == ["RTK-Q16"] and outcome["quirk"]["strictPassed"] is True
    assert outcome["quirk"]["strictActual"] == "ping statistics: 1 packets"
    assert main(["verify", str(path), "--profile", "strict"]) == 0


def test_results_no_quirk_touched_carry_no_quirk(tmp_path, capsys):
    path = _failing(tmp_path)
    assert main(["verify", str(path), "--json"]) == 1
    assert all("quirk" not in o for o in json.loads(capsys.readouterr().out)["outcomes"])


def test_filter_names_the_quirk_that_changed_its_output(tmp_path, capsys, monkeypatch):
    import io

    path = tmp_path / "d.json"
    write_json(path, canonical("d", deduplicate=True))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"a\na\na\nb\n")))
    assert main(["filter", "--stage", "filter", "--filter", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    quirk = json.loads(captured.out)["quirk"]
    assert quirk["ids"] == ["RTK-Q12"] and quirk["strictActual"] == "a\na\na\nb"
    assert "output changed by RTK-Q12; under --profile strict the output is:" in captured.err
