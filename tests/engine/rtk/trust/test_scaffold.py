"""``new filter`` / ``new pack``: valid, schema-referenced scaffolds; a sample becomes a passing test."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cli import main
from engine.jsregex import compile_js
from engine.rtk.scaffold import ScaffoldError, command_pattern, js_regex_escape, scaffold_filter, suggested_id
from engine.rtk.sources import read_filter_file
from engine.rtk.verify import verify_filters
from engine.validate import validate_paths


@pytest.mark.parametrize(("command", "pattern"), [
    ("cargo clippy --all-targets", r"^cargo\s+clippy\b"),
    ("git status", r"^git\s+status\b"),
    ("FOO=1 BAR=2 make", r"^make\b"),
    ("kubectl -n prod get pods", r"^kubectl\b"),          # after an option the word may be its value
    ("c++ -O2 main.c", r"^c\+\+(?=\s|$)"),
    ("./scripts/deploy.sh prod", r"^\./scripts/deploy\.sh\s+prod\b"),
])
def test_command_pattern_is_program_and_subcommand(command, pattern):
    assert command_pattern(command) == pattern


@given(st.text(min_size=1, max_size=20))
def test_escaped_text_matches_itself_literally(text):
    found = compile_js(js_regex_escape(text), "").search(text)
    assert found is not None and found.index == 0 and found.match == text


def test_scaffold_selects_its_command_and_sample_test_passes():
    obj = scaffold_filter("cargo-clippy", "cargo clippy --all-targets", "\x1b[1mwarning\x1b[0m: x\n\nok\n")
    assert next(iter(obj)) == "$schema" and obj["$schema"].endswith("rtk-filter.schema.json")
    assert obj["category"] == "build" and obj["label"] == "cargo clippy"
    assert obj["tests"][0]["expected"] == "warning: x\n\nok"
    assert obj["rules"] == {"stripAnsi": True, "dropPatterns": [], "includePatterns": []}  # nothing hidden yet


def test_scaffold_without_sample_has_no_test_and_refuses_bad_input():
    assert scaffold_filter("x", "tool")["tests"] == []
    with pytest.raises(ScaffoldError):
        scaffold_filter("bad id", "tool")
    with pytest.raises(ScaffoldError):
        scaffold_filter("x", "   ")


def test_new_filter_writes_a_valid_file_that_verifies(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out.txt").write_text("Compiling foo\nerror: bad\n", encoding="utf-8")
    assert main(["new", "filter", "cargo-clippy", "--command", "cargo clippy", "--sample", "out.txt"]) == 0
    path = tmp_path / "filters" / "cargo-clippy.json"
    assert "wrote filters/cargo-clippy.json" in capsys.readouterr().out
    assert [d for d in validate_paths([path]) if d.level == "error"] == []
    read = read_filter_file(path)
    result = verify_filters(read.filters)
    assert result.passed and len(result.outcomes) == 1 and result.outcomes[0].activation.passed
    # never overwritten
    before = path.read_bytes()
    assert main(["new", "filter", "cargo-clippy", "--command", "cargo build"]) == 1
    assert "already exists" in capsys.readouterr().err and path.read_bytes() == before


def test_new_filter_json_and_stdout(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "filter", "tool-x", "--command", "tool run", "-o", "-", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["written"] is False and out["filter"]["match"]["commands"] == [r"^tool\s+run\b"]
    assert not (tmp_path / "filters").exists()
    assert main(["new", "filter", "bad id", "--command", "x", "--json"]) == 2


@pytest.mark.parametrize(("command", "ident"), [
    ("kubectl get pods", "kubectl-get"),
    ("terraform plan -out x", "terraform-plan"),
    ("FOO=1 /usr/bin/make", "make"),
    ("kubectl -n prod get pods", "kubectl"),
    ("", ""),
    ("c++ -O2 main.c", ""),                      # no valid id from it: the caller asks for one
])
def test_the_suggested_id_is_program_and_subcommand(command, ident):
    assert suggested_id(command) == ident


def test_new_filter_without_an_id_takes_it_from_the_command(tmp_path, capsys, monkeypatch):
    """The IDE's New Filter suggests the id from the command; the CLI asked for both."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", "filter", "--command", "kubectl get pods"]) == 0
    assert "wrote filters/kubectl-get.json" in capsys.readouterr().out
    assert json.loads((tmp_path / "filters" / "kubectl-get.json").read_text(encoding="utf-8"))["id"] == "kubectl-get"
    assert main(["new", "filter", "--command", "c++ main.c"]) == 2
    assert "no filter id could be made from the command 'c++ main.c': give one" in capsys.readouterr().err
    assert main(["new", "filter", "--command", "  "]) == 2
    assert "the command is empty" in capsys.readouterr().err


def test_new_pack_is_valid_and_empty(tmp_path, capsys):
    assert main(["new", "pack", "en", "team", "-o", str(tmp_path / "rules"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    path = tmp_path / "rules" / "en" / "team.json"
    assert out["path"] == str(path) and out["pack"]["rules"] == []
    assert [d for d in validate_paths([path]) if d.level == "error"] == []
    assert main(["new", "pack", "en", "team", "-o", str(tmp_path / "rules")]) == 1
    assert main(["new", "pack", "e n", "team"]) == 2
