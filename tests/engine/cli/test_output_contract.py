"""What machines rely on: ``--json`` is one JSON document on stdout, a closed pipe is not a crash."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from .helpers import FILTERS, REPO, rulewright

FILTER = FILTERS / "git-status.json"
PROSE = "Please basically make sure that you really just run the tests quickly, okay? Thanks a lot."


def _good_argv(command: str, tmp_path) -> tuple[list[str], str]:
    schema = tmp_path / "schema.json"
    schema.write_text('{"type": "object", "properties": {"path": {"type": "string"}}}', encoding="utf-8")
    project = tmp_path / "project"
    (project / ".rtk").mkdir(parents=True)
    shutil.copy(FILTER, project / ".rtk" / "filters.json")
    params = REPO / "resources" / "samples" / "params" / "anthropic-messages.json"
    table = {
        "validate": (["validate", str(FILTER)], ""),
        "regex": (["regex", "(?<w>\\w+)"], "two words"),
        "hash": (["hash", str(FILTER), str(FILTERS / "aws.json")], ""),
        "compress": (["compress"], PROSE),
        "compress-messages": (["compress", "--messages"], json.dumps({"messages": [{"role": "user",
                                                                                    "content": PROSE}]})),
        "verify": (["verify", str(FILTER)], ""),
        "trust": (["trust", str(project), "--check"], ""),
        "trust-write": (["trust", str(project), "--write", "--yes"], ""),
        "export": (["export", str(FILTER), "-o", str(tmp_path / "out.json")], ""),
        "repair": (["repair", "--schema", str(schema)], '{"path": "a"}'),
        "grammar": (["grammar"], "<tool_call>{\"name\": \"read\", \"arguments\": {\"path\": \"a\"}}</tool_call>"),
        "params": (["params", str(params)], ""),
    }
    return table[command]


JSON_COMMANDS = ["validate", "regex", "hash", "compress", "compress-messages", "verify", "trust", "trust-write",
                 "export", "repair", "grammar", "params"]


@pytest.mark.parametrize("command", JSON_COMMANDS)
def test_json_output_is_one_json_document_on_stdout(command: str, tmp_path) -> None:
    argv, stdin = _good_argv(command, tmp_path)
    result = rulewright(*argv, "--json", stdin=stdin)
    assert "Traceback" not in result.err
    assert result.code in (0, 1), result.err      # trust --check of an untrusted project is 1
    json.loads(result.out)                        # the whole of stdout, nothing else


@pytest.mark.parametrize("command", ["validate", "regex", "hash", "compress", "verify", "export", "repair",
                                     "grammar", "params"])
def test_json_with_a_missing_file_keeps_stdout_empty_or_json(command: str, tmp_path) -> None:
    missing = str(tmp_path / "missing.json")
    argv = {"validate": ["validate", missing], "regex": ["regex", "a", missing], "hash": ["hash", missing],
            "compress": ["compress", missing], "verify": ["verify", missing],
            "export": ["export", missing, "-o", str(tmp_path / "o.json")],
            "repair": ["repair", "--schema", missing], "grammar": ["grammar", missing],
            "params": ["params", missing]}[command]
    result = rulewright(*argv, "--json")
    assert result.code == 1 and "Traceback" not in result.err
    if result.out.strip():
        json.loads(result.out)


def test_hash_json_shape_follows_the_number_of_files() -> None:
    one = rulewright("hash", str(FILTER), "--json").json()
    assert one["path"] == str(FILTER) and len(one["sha256"]) == 64
    several = rulewright("hash", str(FILTER), str(FILTERS / "aws.json"), "--json").json()
    assert [entry["path"] for entry in several] == [str(FILTER), str(FILTERS / "aws.json")]


@pytest.mark.parametrize("argv", [["verify"], ["verify", "--json"], ["regex", "a", str(FILTER)],
                                  ["validate", str(FILTERS)]], ids=lambda a: " ".join(a[:2]))
@pytest.mark.slow
def test_a_reader_that_stops_early_is_not_a_crash(argv: list[str]) -> None:
    # `rulewright verify | head -1`
    proc = subprocess.Popen([sys.executable, "-m", "engine", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    code = proc.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert code in (0, 1)
