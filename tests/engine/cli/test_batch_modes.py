
"""``--jsonl`` of validate, verify, trust and export: the batch contract of the other commands."""

from __future__ import annotations

import importlib
import json
import re
import shutil

import pytest

from engine.cli import COMMANDS

from .helpers import FILTERS, REPO, rulewright

EXAMPLE = REPO / "resources" / "example-workspace"
BROKEN_PACK = {"language": "en", "category": "filler", "rules": [
    {"name": "broken", "pattern": "(unclosed", "replacement": "", "context": "all", "category": "filler"}]}


def batch(command: str, *requests) -> list[dict]:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    result = rulewright(command, "--jsonl", stdin="\n".join(lines) + "\n")
    assert result.code == 0, result.err
    answers = [json.loads(line) for line in result.out.splitlines()]
    assert len(answers) == len(requests)  # one answer per request, in order
    return answers


def test_validate_batch(tmp_path):
    pack = tmp_path / "pack.json"
    pack.write_text(json.dumps(BROKEN_PACK), encoding="utf-8")
    broken, clean_text, folder, wrong, neither = batch(
        "validate", {"path": str(pack)}, {"path": "x.json", "text": json.dumps({**BROKEN_PACK, "rules": []})},
        {"paths": [str(REPO / "rules" / "en")]}, {"path": 3}, {})
    assert broken["ok"] is False and broken["errors"] == 1
    [d] = broken["diagnostics"]
    assert (d["line"], d["pointer"]) == (1, "/rules/0/pattern") and "Unterminated group" in d["message"]
    assert clean_text == {"ok": True, "files": 1, "errors": 0, "warnings": 0, "notes": 0, "diagnostics": []}
    assert folder["ok"] is True and folder["files"] >= 5
    assert wrong == {"error": '"path" must be a path string'}
    assert "error" in neither


@pytest.mark.slow
def test_verify_batch():
    builtin, example, missing, wrong = batch(
        "verify", {}, {"paths": [str(EXAMPLE / "filters")]}, {"paths": ["no/such/folder"]}, {"requireAll": 1})
    assert builtin["passed"] is True and builtin["outcomes"] and not builtin["errors"]
    assert builtin["files"] and all(f.startswith(str(FILTERS)) for f in builtin["files"])
    assert example["passed"] is False and any(not o["passed"] for o in example["outcomes"])
    assert missing == {"error": "no such file or folder: no/such/folder"}
    assert wrong == {"error": '"requireAll" must be true or false'}


@pytest.mark.slow
def test_verify_batch_all_scopes_gate():
    [gate] = batch("verify", {"project": str(EXAMPLE)})
    assert gate["passed"] is True and any(o.get("source") == "project" for o in gate["outcomes"])


def test_trust_batch_checks_and_never_writes(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(EXAMPLE, project)
    trusted, write, absent = batch("trust", {"project": str(project)}, {"project": str(project), "mode": "write"},
                                   {"project": str(tmp_path / "nope")})
    assert trusted["trusted"] is True and [f["verdict"] for f in trusted["files"]] == ["trusted"]
    assert "--write" in write["error"]
    assert absent["error"].endswith("no such folder")
    (project / ".rtk" / "filters.json").write_text("[]\n", encoding="utf-8")
    [changed] = batch("trust", {"project": str(project), "mode": "check"})
    assert changed["trusted"] is False


def test_export_batch(tmp_path):
    out = tmp_path / ".rtk" / "filters.json"  # --with-trust trusts only a project's own filter file
    written, no_output, unreadable = batch(
        "export", {"files": [str(FILTERS / "git-status.json")], "output": str(out), "withTrust": True},
        {"files": [str(FILTERS / "git-status.json")]}, {"files": [str(tmp_path / "nope.json")], "output": str(out)})
    assert written["filters"] == ["git-status"] and written["path"] == str(out)
    assert [f["id"] for f in json.loads(out.read_text(encoding="utf-8"))] == ["git-status"]
    assert (tmp_path / ".rtk" / "trust.json").is_file()
    assert no_output == {"error": '"output" is required (where to write: a project\'s is .rtk/filters.json), or use "installGlobal"'}
    assert unreadable["error"] and unreadable["diagnostics"][0]["path"] == str(tmp_path / "nope.json")


def test_the_readme_names_exactly_the_commands_with_a_batch_mode():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("Batch mode (`--jsonl`"))
    named = set(re.findall(r"`(\w+)`", line.split(":", 1)[1]))
    have = {name for name, (module, _) in COMMANDS.items() if hasattr(importlib.import_module(module), "handle_request")}
    assert named == have


@pytest.mark.parametrize("command", ["validate", "compress", "filter"])
def test_a_line_of_unicode_spaces_is_answered_not_skipped(command):
    """Only JSON whitespace makes a blank line; U+00A0 is a request JSON.parse refuses (fuzz finding)."""
    from engine.cli.batch import run_jsonl

    handler = importlib.import_module(COMMANDS[command][0]).handle_request
    import io

    out = io.StringIO()
    assert run_jsonl(handler, io.StringIO("\u00a0\n \t\n\u2003\n"), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 2 and all("error" in a for a in answers)
