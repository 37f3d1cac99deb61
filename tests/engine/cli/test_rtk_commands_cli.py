"""``validate``, ``hash``, ``verify``, ``trust`` and ``export`` as a CI job or a reviewer uses them."""

from __future__ import annotations

import shutil

from .helpers import FILTERS, rulewright

FILTER = FILTERS / "git-status.json"
OTHER = FILTERS / "aws.json"


def _project(tmp_path):
    rtk = tmp_path / "project" / ".rtk"
    rtk.mkdir(parents=True)
    shutil.copy(FILTER, rtk / "filters.json")
    return rtk.parent


def test_positionals_may_come_after_options() -> None:
    # `validate a --json b` / `hash a --profile strict b` were "unrecognized arguments: b"
    validated = rulewright("validate", str(FILTER), "--json", str(OTHER))
    assert validated.code == 0 and validated.json() == []
    hashed = rulewright("hash", str(FILTER), "--profile", "strict", str(OTHER))
    assert hashed.code == 0 and len(hashed.out.splitlines()) == 2
    verified = rulewright("verify", str(FILTER), "--json", str(OTHER))
    assert verified.code == 0 and len(verified.json()["files"]) == 2


def test_validate_an_empty_folder_is_a_problem(tmp_path) -> None:
    empty = tmp_path / "rules"
    empty.mkdir()
    result = rulewright("validate", str(empty))
    assert result.code == 1
    assert f"{empty}:1:1: warning: no packs or filter files" in result.out


def test_verify_missing_project_or_empty_folder_does_not_pass_silently(tmp_path) -> None:
    missing = tmp_path / "nowhere"
    result = rulewright("verify", "--project", str(missing))
    assert result.code == 1
    assert result.err.startswith(f"{missing}:1:1: error: --project: no such folder")
    empty = tmp_path / "filters"
    empty.mkdir()
    result = rulewright("verify", str(empty))
    assert result.code == 1
    assert f"{empty}:1:1: error: no filter files" in result.err


def test_verify_dot_at_a_workspace_root_tests_the_workspaces_filter_files(tmp_path, monkeypatch) -> None:
    from engine.paths import resources_dir

    root = tmp_path / "ws"
    shutil.copytree(resources_dir() / "example-workspace", root)
    monkeypatch.chdir(root)
    result = rulewright("verify", ".")
    assert result.code == 1  # the example's deploy-log test fails on purpose
    assert result.out.startswith("No filter files directly in .: testing the workspace's "
                                 "(.rtk/filters.json, filters/deploy-log.json).")
    assert "filters/deploy-log.json: FAIL [deploy-log] healthy deploy" in result.out
    flat = rulewright("verify", "filters")  # a folder of filters is read as it is
    assert flat.code == 1 and "No filter files directly" not in flat.out


def test_trust_on_a_missing_folder_exits_1_with_a_located_error(tmp_path) -> None:
    missing = tmp_path / "nowhere"
    result = rulewright("trust", str(missing), "--check")
    assert result.code == 1
    assert result.err.startswith(f"{missing}:1:1: error: no such folder")
    bare = tmp_path / "bare"
    bare.mkdir()
    result = rulewright("trust", str(bare), "--check")
    assert result.code == 1
    assert result.err.startswith(f"{bare / '.rtk'}:1:1: error: no filters.json")


def test_trust_write_failure_is_located_not_a_traceback(tmp_path) -> None:
    project = _project(tmp_path)
    (project / ".rtk" / "trust.json").mkdir()      # os.replace onto a folder fails, even for root
    result = rulewright("trust", str(project), "--write", "--quiet")
    assert result.code == 1
    assert "Traceback" not in result.err
    assert f"{project / '.rtk' / 'trust.json'}:1:1: error: not a regular file" in result.err


def test_trust_write_then_check_round_trip(tmp_path) -> None:
    project = _project(tmp_path)
    assert rulewright("trust", str(project), "--check").code == 1
    written = rulewright("trust", "--write", "--quiet", "--yes", str(project))
    assert written.code == 0, written.err
    checked = rulewright("trust", str(project), "--check", "--json")
    assert checked.code == 0 and checked.json()["trusted"] is True


def test_export_to_an_unwritable_place_names_the_output_not_a_temp_file(tmp_path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("x", encoding="utf-8")
    target = blocker / "filters.json"            # a path below a regular file cannot be created
    result = rulewright("export", str(FILTER), "-o", str(target))
    assert result.code == 1
    assert ".tmp" not in result.err
    assert result.err == f"{target}:1:1: error: cannot write: a folder on the way is a file\n"


def test_export_errors_carry_the_command_prefix(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    result = rulewright("export", str(bad), "-o", str(tmp_path / "out.json"))
    assert result.code == 1
    lines = result.err.splitlines()
    assert lines[0].startswith(f"{bad}:1:")
    assert lines[-1].startswith("rulewright export: error: ")


def test_export_accepts_files_on_both_sides_of_the_output_option(tmp_path) -> None:
    out = tmp_path / "filters.json"
    result = rulewright("export", str(FILTER), "-o", str(out), str(OTHER))
    assert result.code == 0, result.err
    assert "2 filter(s)" in result.out


def test_verify_accepts_a_data_dir_that_does_not_exist_yet(tmp_path) -> None:
    # a fresh machine has no DATA_DIR/rtk: no global filters, not an error (unlike a missing --project)
    builtin = tmp_path / "builtin"
    builtin.mkdir()
    shutil.copy(FILTER, builtin / FILTER.name)
    result = rulewright("verify", "--data-dir", str(tmp_path / "no-data"), "--builtin", str(builtin))
    assert result.code == 0, result.err
    not_a_folder = tmp_path / "file.txt"
    not_a_folder.write_text("x", encoding="utf-8")
    result = rulewright("verify", "--data-dir", str(not_a_folder), "--builtin", str(builtin))
    assert result.code == 1
    assert result.err.startswith(f"{not_a_folder}:1:1: error: --data-dir: not a folder")


def test_export_never_replaces_a_device_or_pipe(tmp_path) -> None:
    # the atomic write (temp file + os.replace) swapped /dev/null for a regular file when run as root
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = rulewright("export", str(FILTER), "-o", str(fifo))
    assert result.code == 1
    assert result.err.startswith(f"{fifo}:1:1: error: not a regular file or folder")
    assert fifo.is_fifo()


def test_install_global_into_a_data_dir_that_is_a_file_is_located(tmp_path) -> None:
    data_dir = tmp_path / "data"
    data_dir.write_text("x", encoding="utf-8")
    result = rulewright("export", str(FILTER), "--install-global", "--data-dir", str(data_dir))
    assert result.code == 1
    assert "Traceback" not in result.err
    assert f"{data_dir / 'rtk' / 'filters.toml'}:1:1: error: cannot install: a folder on the way is a file" in result.err


def test_hash_reads_standard_input_for_dash() -> None:
    # `cat filters.json | rulewright hash -` used to say "-: No such file or directory"
    data = FILTER.read_bytes()
    from_stdin = rulewright("hash", "-", stdin=data)
    from_file = rulewright("hash", str(FILTER))
    assert from_stdin.code == 0 and from_stdin.out == from_file.out
    twice = rulewright("hash", "-", "-", stdin=data)
    assert twice.code == 2 and "can be read only once" in twice.err


def test_trust_neither_blocks_on_nor_replaces_a_pipe_standing_as_trust_json(tmp_path) -> None:
    import os

    project = _project(tmp_path)
    fifo = project / ".rtk" / "trust.json"
    os.mkfifo(fifo)
    for mode in ("--check", "--write"):
        result = rulewright("trust", str(project), mode, timeout=30)
        assert result.code == 1
        assert result.err == f"{fifo}:1:1: error: not a regular file (a folder, device or pipe)\n"
        assert fifo.is_fifo()
