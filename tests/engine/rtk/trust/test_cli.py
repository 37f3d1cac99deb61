"""The hash, verify, trust and export commands: output, exit codes, file:line:col errors."""

from __future__ import annotations

import hashlib
import io
import json

from engine.cli import main
from engine.cli.batch import run_jsonl
from engine.cli.hash import handle_request

from .conftest import canonical, write_json


def test_hash_prints_trust_hash(tmp_path, capsys):
    path = tmp_path / "filters.json"
    path.write_bytes(b"\xef\xbb\xbf[]\r\n")
    assert main(["hash", str(path)]) == 0
    assert capsys.readouterr().out.strip() == hashlib.sha256(b"\xef\xbb\xbf[]\r\n").hexdigest()


def test_hash_jsonl_batch(tmp_path):
    good = tmp_path / "a.json"
    good.write_bytes(b"caf\xe9")
    stdin = io.StringIO(json.dumps({"path": str(good)}) + "\n" + json.dumps({"path": str(tmp_path / "no")}) + "\n")
    stdout = io.StringIO()
    run_jsonl(handle_request, stdin, stdout)
    first, second = (json.loads(line) for line in stdout.getvalue().splitlines())
    assert first["sha256"] == hashlib.sha256("caf\ufffd".encode()).hexdigest()
    assert first["validUtf8"] is False and first["replacedSequences"] == 1
    assert "error" in second


def test_hash_missing_file(tmp_path, capsys):
    assert main(["hash", str(tmp_path / "none.json")]) == 1
    assert ":1:1: error: cannot read file" in capsys.readouterr().err


def test_verify_exit_codes(tmp_path, capsys):
    ok = tmp_path / "ok.json"
    write_json(ok, canonical("ok", include=["^keep"], tests=[{"name": "t", "input": "keep\nx", "expected": "keep"}]))
    untested = tmp_path / "untested.json"
    write_json(untested, canonical("untested"))
    assert main(["verify", str(ok)]) == 0
    assert "1/1 tests passed" in capsys.readouterr().out
    assert main(["verify", str(ok), str(untested)]) == 0
    assert main(["verify", str(ok), str(untested), "--require-all"]) == 1
    assert "MISSING tests for filter: untested" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    write_json(bad, canonical("bad", tests=[{"name": "t", "input": "a\nb", "expected": "a"}]))
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "FAIL [bad] t" in out
    assert out.splitlines()[1:6] == ["    --- expected", "    +++ actual", "    @@ -1 +1,2 @@", "     a", "    +b"]


def test_verify_json_and_folder(tmp_path, capsys):
    write_json(tmp_path / "one.json", canonical("one", tests=[{"name": "t", "input": "a", "expected": "a"}]))
    (tmp_path / "two.toml").write_text(
        "schema_version = 1\n[filters.two]\nmatch_command = '^two'\n[[tests.two]]\nname = 'n'\ninput = 'x'\n"
        "expected = 'x'\n", encoding="utf-8")
    assert main(["verify", str(tmp_path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [o["filterId"] for o in result["outcomes"]] == ["one", "two"]
    assert result["passed"] is True and len(result["files"]) == 2


def test_verify_reports_bad_files_with_location(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('[\n  {"id": 1,}\n]', encoding="utf-8")
    assert main(["verify", str(bad)]) == 1
    assert f"{bad}:2:12: error: Expected double-quoted property name in JSON at position 13" in capsys.readouterr().err


def test_trust_check_write_cycle(tmp_path, capsys):
    write_json(tmp_path / ".rtk" / "filters.json", [canonical("mine", on_empty="all good")])
    assert main(["trust", str(tmp_path), "--check"]) == 1
    assert "untrusted" in capsys.readouterr().out
    assert main(["trust", str(tmp_path), "--write"]) == 2  # no terminal to ask on: --yes needed
    assert "standard input is not a terminal" in capsys.readouterr().err
    assert not (tmp_path / ".rtk" / "trust.json").exists()
    assert main(["trust", str(tmp_path), "--write", "--yes"]) == 0
    out = capsys.readouterr().out
    assert out.index("=== .rtk/filters.json ===") < out.index("Risk summary:") < out.index("Trusted .rtk/filters.json")
    assert "claims success" in out
    assert "Inline tests: .rtk/filters.json: no filter has inline tests" in out  # what the reviewer trusts
    assert main(["trust", str(tmp_path), "--check", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["trusted"] is True


def test_trust_write_says_which_filters_fail_their_own_tests(tmp_path, capsys):
    """Before trusting, the review says a filter no longer does what its tests say."""
    mine = canonical("mine", on_empty="all good")
    mine["tests"] = [{"name": "keeps the error", "input": "error: boom\n", "expected": "something else"}]
    write_json(tmp_path / ".rtk" / "filters.json", [mine])
    assert main(["trust", str(tmp_path), "--write", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "Inline tests: .rtk/filters.json: 1 of 1 tested filter(s) have a test problem" in out
    assert "  [!] mine: test 'keeps the error' fails" in out
    (tmp_path / ".rtk" / "trust.json").unlink()
    assert main(["trust", str(tmp_path), "--write", "--yes", "--json"]) == 0
    review = json.loads(capsys.readouterr().out)["reviews"][0]
    assert review["tests"] == {"tested": 1, "problems": {"mine": "test 'keeps the error' fails"}}


def test_trust_write_refuses_invalid_utf8(tmp_path, capsys):
    (tmp_path / ".rtk").mkdir()
    (tmp_path / ".rtk" / "filters.json").write_bytes(b"[\"\xff\"]")
    assert main(["trust", str(tmp_path), "--write", "--quiet"]) == 1
    assert "not valid UTF-8" in capsys.readouterr().err
    assert not (tmp_path / ".rtk" / "trust.json").exists()


def test_trust_requires_a_mode(tmp_path, capsys):
    try:
        main(["trust", str(tmp_path)])
    except SystemExit as exc:
        assert exc.code == 2
    else:  # pragma: no cover
        raise AssertionError("argparse should refuse")


def test_export_command(tmp_path, capsys):
    src = tmp_path / "a.json"
    write_json(src, canonical("a", tests=[{"name": "t", "input": "x", "expected": "x"}]))
    out = tmp_path / "proj" / ".rtk"
    out.mkdir(parents=True)
    assert main(["export", str(src), "-o", str(out), "--with-trust"]) == 0
    assert "trusted in" in capsys.readouterr().out
    assert main(["trust", str(tmp_path / "proj"), "--check"]) == 0
    assert main(["export", str(src), "-o", str(out), "--toml", "--json"]) == 0
    capsys.readouterr()
    assert (out / "filters.toml").read_text("utf-8").startswith("# RTK TOML v1")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main(["export", str(bad), "-o", str(tmp_path / "x.json")]) == 1
    assert f"{bad}:1:2: error: Expected property name or '}}' in JSON at position 1" in capsys.readouterr().err


def test_verify_all_scopes_gate(tmp_path, builtin_dir, capsys):
    project = tmp_path / "p"
    write_json(project / ".rtk" / "filters.json", canonical("mine", tests=[{"name": "t", "input": "a", "expected": "b"}]))
    args = ["verify", "--project", str(project), "--data-dir", str(tmp_path / "nodata"), "--builtin", str(builtin_dir)]
    assert main(args) == 0  # the untrusted project file is skipped; the built-in test passes
    captured = capsys.readouterr()
    assert "1/1 tests passed" in captured.out
    assert "Project RTK filters are untrusted and were skipped" in captured.err
    assert main([*args, "--trust-project", "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert [o["filterId"] for o in result["outcomes"]] == ["mine", "status"]
    assert {"source": "project", "level": "warning",
            "message": "Project RTK filters are untrusted and were skipped"}.items() <= result["diagnostics"][0].items()
