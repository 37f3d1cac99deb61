"""What changed since trust: trusted content from real git history or Rulewright's snapshot, filter
by filter, with the risk delta of each change; and ``trust --write`` asking with that comparison."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.rtk.trust import snapshot_file, write_trust
from engine.rtk.trust_diff import compare_contents, diff_since_trust
from engine.rtk.trust_history import find_in_git, snapshots_dir

from .conftest import canonical

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

BUILD = canonical("build", commands=["^make\\b"], category="build", drop=["^make\\[\\d+\\]: (?:Entering|Leaving)"],
                  maxLines=80, tests=[{"name": "t", "input": "make[1]: Entering directory\nmake: *** [all] Error 2\n",
                                       "expected": "make: *** [all] Error 2"}])
STATUS = canonical("status", include=["^On branch", "modified:"], priority=70)
LINT = canonical("lint", commands=["^eslint\\b"], category="build", drop=["^\\s*$"])
STATUS_ERRORS = canonical("status", include=["^On branch", "modified:"], priority=70)
STATUS_ERRORS["preserve"]["errorPatterns"] = ["^fatal:"]


def _write(path: Path, filters: list[dict]) -> bytes:
    data = (json.dumps(filters, indent=2) + "\n").encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"})


def _risky_edit() -> list[dict]:
    build = json.loads(json.dumps(BUILD))
    build["rules"]["dropPatterns"] = ["make"]                        # broadened: now drops 'make: *** Error'
    build["rules"]["maxLines"] = 400                                 # raised
    build["rules"]["matchOutput"] = [{"pattern": "Nothing to be done", "message": "build ok"}]
    status = json.loads(json.dumps(STATUS_ERRORS))
    status["preserve"]["errorPatterns"] = []                         # removed priority pattern
    status["rules"]["includePatterns"] = ["^On branch"]              # removed keep pattern
    deploy = canonical("deploy", commands=["^(?:deploy|trivy)\\b"], category="infra",
                       matchOutput=[{"pattern": ".", "message": "deployed"}])
    return [build, status, deploy]                                   # lint removed


def _trusted_then_lint_added(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose filters.json was trusted (a snapshot kept) and then gained the lint filter."""
    project = tmp_path / "plain"
    filters = project / ".rtk" / "filters.json"
    _write(filters, [STATUS])
    write_trust(project)
    _write(filters, [STATUS, LINT])
    return project, filters


@needs_git
def test_diff_finds_the_trusted_revision_in_git_and_names_each_risk(tmp_path, capsys):
    project = tmp_path / "repo"
    filters = project / ".rtk" / "filters.json"
    _write(filters, [BUILD, STATUS_ERRORS, LINT])
    _git(project, "init", "-q")
    _git(project, "add", ".")
    _git(project, "commit", "-qm", "filters v1")
    write_trust(project, remember=False)                              # no snapshot: git must answer
    _write(filters, [BUILD, STATUS_ERRORS])
    _git(project, "commit", "-qam", "drop lint")                      # a later revision, not the trusted one
    _write(filters, _risky_edit())

    assert main(["trust", str(project), "--diff", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    (entry,) = out["files"]
    assert entry["verdict"] == "changed"
    assert entry["trustedContent"]["origin"] == "git" and "filters v1" in entry["trustedContent"]["detail"]
    by_id = {c["filterId"]: c for c in entry["changes"]}
    assert set(by_id) == {"build", "status", "deploy", "lint"}
    assert by_id["deploy"]["kind"] == "added" and by_id["lint"]["kind"] == "removed"
    build_codes = {r["code"]: r for r in by_id["build"]["risk"]}
    assert build_codes["new-match-output"]["level"] == "high"
    assert build_codes["drops-more"]["level"] == "high"              # error-like lines now dropped
    assert build_codes["limit-raised"]["message"].startswith("maxLines raised 80 → 400")
    assert "rules.dropPatterns" in by_id["build"]["fields"]
    status_codes = {r["code"] for r in by_id["status"]["risk"]}
    assert {"priority-removed", "keep-removed"} <= status_codes
    assert any(r["code"] == "security-tool" for r in by_id["deploy"]["risk"])
    assert by_id["deploy"]["worst"] == "high"

    assert main(["trust", str(project), "--diff"]) == 1
    text = capsys.readouterr().out
    assert "trusted content found in git: commit" in text
    assert "~ changed build" in text and "+ added   deploy" in text and "- removed lint" in text


@needs_git
def test_diff_uses_the_staged_version_and_bounded_history(tmp_path):
    project = tmp_path / "repo"
    filters = project / ".rtk" / "filters.json"
    _git(tmp_path, "init", "-q", str(project))
    trusted = _write(filters, [STATUS])
    _git(project, "add", ".")                                        # staged only, never committed
    _write(filters, [STATUS, LINT])
    stored = snapshot_file(filters).sha256  # not the staged one
    assert find_in_git(filters, stored) is None
    import hashlib

    found = find_in_git(filters, hashlib.sha256(trusted).hexdigest().upper())
    assert found is not None and found.data == trusted and "index" in found.detail


def test_diff_falls_back_to_the_snapshot_kept_when_trust_was_written(tmp_path):
    project = tmp_path / "plain"
    filters = project / ".rtk" / "filters.json"
    _write(filters, [STATUS])
    write_trust(project)                                             # keeps a snapshot
    assert any(snapshots_dir().iterdir())
    _write(filters, [STATUS, LINT])
    diff = diff_since_trust(snapshot_file(filters))
    assert diff.found is not None and diff.found.origin == "snapshot"
    assert [(c.filter_id, c.kind) for c in diff.comparison.changes] == [("lint", "added")]
    assert diff.comparison.unchanged == ["status"]


def test_diff_lines_sets_the_trusted_text_beside_the_text_now(tmp_path, capsys):
    project, _filters = _trusted_then_lint_added(tmp_path)
    assert main(["trust", str(project), "--diff", "--lines"]) == 1
    out = capsys.readouterr().out
    head, _, diff = out.partition("--- filters.json (trusted, snapshot ")
    assert "+ added   lint" in head and diff, out
    added = [line for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    removed = [line for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    assert "+++ filters.json (now)" in diff and any('"id": "lint"' in line for line in added)
    assert removed == [] and "+  }," in added  # a filter added: lines added, none taken away
    assert main(["trust", str(project), "--diff", "--lines", "--json"]) == 1
    listed = json.loads(capsys.readouterr().out)["files"]
    assert listed[0]["lineDiff"] == ("--- filters.json (trusted, snapshot " + diff).rstrip("\n")
    # nothing trusted to compare with: no line diff, and no key
    (project / ".rtk" / "trust.json").write_text(json.dumps({"filtersSha256": "0" * 64}))
    assert main(["trust", str(project), "--diff", "--lines", "--json"]) == 1
    assert "lineDiff" not in json.loads(capsys.readouterr().out)["files"][0]
    assert main(["trust", str(project), "--check", "--lines"]) == 2
    assert "--lines applies to --diff and --write" in capsys.readouterr().err


def test_write_lines_shows_the_line_diff_before_trusting(tmp_path, capsys):
    project, filters = _trusted_then_lint_added(tmp_path)
    assert main(["trust", str(project), "--write", "--yes", "--quiet", "--lines"]) == 0
    out = capsys.readouterr().out
    compared, _, rest = out.partition("--- filters.json (trusted, snapshot ")
    assert "Compared with the last trust: changed since the last trust" in compared
    assert "+++ filters.json (now)" in rest and rest.index("+++") < rest.index("Trusted .rtk/filters.json")
    _write(filters, [STATUS])  # lint taken out again
    assert main(["trust", str(project), "--write", "--yes", "--lines", "--json"]) == 0
    review = json.loads(capsys.readouterr().out)["reviews"][0]
    assert review["lineDiff"].startswith("--- filters.json (trusted, snapshot ")
    assert '-    "id": "lint",' in review["lineDiff"].splitlines()
    assert main(["trust", str(project), "--write", "--yes", "--lines", "--json"]) == 0  # unchanged: no diff
    assert "lineDiff" not in json.loads(capsys.readouterr().out)["reviews"][0]


def test_diff_without_trusted_content_says_so_and_shows_the_whole_risk(tmp_path, capsys):
    project = tmp_path / "plain"
    filters = project / ".rtk" / "filters.json"
    _write(filters, [STATUS])
    (project / ".rtk" / "trust.json").write_text(json.dumps({"filtersSha256": "0" * 64}))
    _write(filters, [canonical("status", on_empty="all good", drop=["error"])])
    assert main(["trust", str(project), "--diff"]) == 1
    out = capsys.readouterr().out
    assert "the trusted content was not found" in out
    assert "Risk summary:" in out and "claims success" in out
    # a tampered snapshot proves nothing
    snapshots_dir().mkdir(parents=True, exist_ok=True)
    (snapshots_dir() / f"{'0' * 64}.json").write_text("[]")
    assert diff_since_trust(snapshot_file(filters)).found is None


def test_diff_of_an_unchanged_file_exits_0(tmp_path, capsys):
    project = tmp_path / "plain"
    _write(project / ".rtk" / "filters.json", [STATUS])
    write_trust(project)
    assert main(["trust", str(project), "--diff"]) == 0
    assert "unchanged since it was trusted" in capsys.readouterr().out


def test_unchanged_filters_are_not_reported_and_duplicates_pair_by_occurrence(tmp_path):
    path = tmp_path / "filters.json"
    old = _write(path, [STATUS, STATUS])
    new = _write(path, [STATUS, canonical("status", include=["^On branch"], priority=70)])
    result = compare_contents(path, old, new)
    assert result.unchanged == ["status"]
    assert [(c.filter_id, c.kind) for c in result.changes] == [("status (#2)", "changed")]


def test_bytes_changed_with_no_filter_effect_changed_say_so_and_name_what_omniroute_drops(tmp_path):
    """A drop pattern OmniRoute's ReDoS heuristic removes changes the file (and its hash) but no
    filter's effect: the review says so, with the load warning, instead of "changed after trust"
    over a list of unchanged filters alone."""
    path = tmp_path / "filters.json"
    old = _write(path, [LINT])
    hostile = json.loads(json.dumps(LINT))
    hostile["rules"]["dropPatterns"].append("^(a+)+$")
    new = _write(path, [hostile])
    result = compare_contents(path, old, new)
    assert result.unchanged == ["lint"] and not result.changes and result.same_effect
    assert len(result.new_notes) == 1 and "^(a+)+$" in result.new_notes[0] and "ReDoS" in result.new_notes[0]
    lines = result.format()
    assert any("the bytes differ from the trusted ones, but no filter's effect does" in line for line in lines)
    assert any(line.startswith("  ! the current content: ") for line in lines)
    assert result.to_dict()["sameEffect"] is True
    reformatted = compare_contents(path, old, (json.dumps([LINT]) + "\n").encode())  # key order kept, no indent
    assert reformatted.same_effect and not reformatted.new_notes
    assert not compare_contents(path, old, old).same_effect  # the same bytes: nothing to explain


def test_write_shows_the_comparison_with_the_previous_trust(tmp_path, capsys):
    project = tmp_path / "plain"
    filters = project / ".rtk" / "filters.json"
    _write(filters, [STATUS])
    assert main(["trust", str(project), "--write", "--yes", "--quiet"]) == 0
    assert "never trusted before: every filter is new" in capsys.readouterr().out
    _write(filters, [STATUS, LINT])
    assert main(["trust", str(project), "--write", "--yes", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "changed since the last trust (trusted content from snapshot" in out and "+ added   lint" in out


def _run_on_a_terminal(argv: list[str], answer: bytes) -> tuple[int, str]:
    import pty
    import select

    pid, fd = pty.fork()
    if pid == 0:  # child: stdin/stdout/stderr are the terminal
        os.execv(sys.executable, [sys.executable, "-m", "engine", *argv])
    chunks, sent = [], False
    while True:
        ready, _, _ = select.select([fd], [], [], 30)
        if not ready:
            break
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
        if not sent and b"[y/N]" in b"".join(chunks):
            os.write(fd, answer)
            sent = True
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize(("answer", "code"), [(b"n\n", 1), (b"y\n", 0)])
def test_write_asks_on_a_terminal(tmp_path, answer, code):
    project = tmp_path / "plain"
    _write(project / ".rtk" / "filters.json", [STATUS])
    exit_code, screen = _run_on_a_terminal(["trust", str(project), "--write", "--quiet"], answer)
    assert exit_code == code
    assert screen.index("Risk summary:") < screen.index("exactly as shown? [y/N]")
    assert (project / ".rtk" / "trust.json").exists() is (code == 0)


def test_trust_snapshots_live_in_the_one_user_data_folder(tmp_path, monkeypatch):
    """The snapshots, the IDE's recovery copies and the example workspace share one data folder,
    looked up in one place (engine.paths), so RULEWRIGHT_DATA_DIR moves them all."""
    from engine.paths import data_dir
    from engine.workspace.example import user_example_workspace
    from engine.workspace.settings import recovery_dir

    monkeypatch.setenv("RULEWRIGHT_DATA_DIR", str(tmp_path / "elsewhere"))
    assert data_dir() == tmp_path / "elsewhere"
    assert snapshots_dir() == data_dir() / "trusted-filters"
    assert recovery_dir() == data_dir() / "recovery"
    assert user_example_workspace() == data_dir() / "example-workspace"


def _trusted_elsewhere(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose trust.json another tool wrote: no copy of ours, no git history."""
    project = tmp_path / "plain"
    filters = project / ".rtk" / "filters.json"
    _write(filters, [STATUS])
    write_trust(project, remember=False)
    return project, filters


@pytest.mark.parametrize("seen_by", ["editor", "trust panel", "trust --diff"])
def test_trusted_bytes_seen_before_an_edit_are_what_the_edit_is_compared_with(tmp_path, seen_by):
    from engine.workspace.panel_models.trust_panel import trust_overview
    from engine.workspace.validation import trust_of

    project, filters = _trusted_elsewhere(tmp_path)
    _write(filters, [STATUS, LINT])
    assert diff_since_trust(snapshot_file(filters)).found is None   # (unseen before the edit: nothing to compare)
    _write(filters, [STATUS])
    if seen_by == "editor":
        assert trust_of(filters).verdict == "trusted"
    elif seen_by == "trust panel":
        assert trust_overview(project).files[0].verdict == "trusted"
    else:
        assert main(["trust", str(project), "--diff"]) == 0
    _write(filters, [STATUS, LINT])
    diff = diff_since_trust(snapshot_file(filters))
    assert diff.found is not None and diff.found.origin == "snapshot"
    assert [(c.filter_id, c.kind) for c in diff.comparison.changes] == [("lint", "added")]


def test_bytes_that_do_not_match_the_stored_hash_are_never_kept(tmp_path):
    from engine.rtk.trust_history import keep_verified_copy

    _project, filters = _trusted_elsewhere(tmp_path)
    stored = snapshot_file(filters).sha256
    _write(filters, [STATUS, LINT])
    keep_verified_copy(snapshot_file(filters), stored, "trusted")
    assert not snapshots_dir().exists() or not any(snapshots_dir().iterdir())
    # and a copy kept already is left as it is (one write per trusted content)
    _write(filters, [STATUS])
    keep_verified_copy(snapshot_file(filters), stored.upper(), "trusted")
    kept = snapshots_dir() / f"{stored}.json"
    before = kept.stat().st_mtime_ns
    keep_verified_copy(snapshot_file(filters), stored, "trusted")
    assert kept.stat().st_mtime_ns == before
