"""Every command × every kind of bad input: never a traceback, always the documented exit code.

Exit codes: 0 ok, 1 problems (bad input is a problem), 2 usage. A file problem is reported as
``path:line:col: error: message`` on stderr.
"""

from __future__ import annotations

import os
import pty
import re
from pathlib import Path

import pytest

from .helpers import rulewright

BAD_INPUTS: dict[str, bytes | None] = {
    "missing": None,                      # no such file
    "folder": b"",                        # an (empty) folder where a file is expected
    "empty": b"",
    "binary": bytes(range(256)) * 2,
    "invalid-utf8": b'{"a": "\xff\xfe"}',
    "bom": b'\xef\xbb\xbf{"a": 1}\n',
    "crlf": b'{\r\n"a": 1\r\n}\r\n',
    "huge": b"",                          # sparse 50 MB, above the 16 MB limit
    "not-json": b"not json at all\n",
    "wrong-shape": b"[1, 2, 3]\n",
}


def make_input(kind: str, tmp_path: Path) -> Path:
    path = tmp_path / f"input-{kind}.json"
    if kind == "folder":
        path.mkdir()
    elif kind == "huge":
        with open(path, "wb") as fh:
            fh.truncate(50 * 1024 * 1024)
    elif BAD_INPUTS[kind] is not None:
        path.write_bytes(BAD_INPUTS[kind])
    return path


def _schema(tmp_path: Path) -> Path:
    schema = tmp_path / "schema.json"
    schema.write_text('{"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}',
                      encoding="utf-8")
    return schema


def _args(tmp_path: Path) -> Path:
    args = tmp_path / "args.json"
    args.write_text('{"path": "a.txt"}', encoding="utf-8")
    return args


# command -> argv built from the bad input path
COMMANDS = {
    "validate": lambda p, t: ["validate", p],
    "regex": lambda p, t: ["regex", "a", p],
    "hash": lambda p, t: ["hash", p],
    "compress": lambda p, t: ["compress", p],
    "compress-messages": lambda p, t: ["compress", "--messages", p],
    "verify": lambda p, t: ["verify", p],
    "trust": lambda p, t: ["trust", p, "--check"],
    "export": lambda p, t: ["export", p, "-o", t / "out" / "filters.json"],
    "repair-args": lambda p, t: ["repair", "--schema", _schema(t), p],
    "repair-schema": lambda p, t: ["repair", "--schema", p, _args(t)],
    "repair-config": lambda p, t: ["repair", "--schema", _schema(t), "--config", p, _args(t)],
    "grammar": lambda p, t: ["grammar", p],
    "params": lambda p, t: ["params", p],
    "filter": lambda p, t: ["filter", p],
}

# The documented exit code where it is not 1 (every bad input is a problem unless listed here).
OK_INPUTS = {
    "regex": {"empty", "bom", "crlf", "not-json", "wrong-shape"},
    # the trust hash is defined for any bytes; invalid UTF-8 is a warning (VT-Q1); the input
    # limit (RULEWRIGHT_MAX_FILE_MB) holds for hash as for every command (issue 23, finding 4)
    "hash": {"empty", "binary", "invalid-utf8", "bom", "crlf", "not-json", "wrong-shape"},
    "compress": {"empty", "bom", "crlf", "not-json", "wrong-shape"},
    "compress-messages": {"crlf", "wrong-shape"},
    "repair-schema": {"crlf", "wrong-shape"},   # {"a": 1} and [1, 2, 3] accept the arguments
    "repair-config": {"crlf"},                  # {"a": 1}: an unknown option is ignored, as pi does
    "grammar": {"empty", "bom", "crlf", "not-json", "wrong-shape"},
    "filter": {"empty", "bom", "crlf", "not-json", "wrong-shape"},
}

LOCATED = re.compile(r"^\S.*?:\d+:\d+: (error|warning): ", re.M)


def expected_code(command: str, kind: str) -> int:
    return 0 if kind in OK_INPUTS.get(command, set()) else 1


def _every_command_and_kind() -> list:
    """Every command × every kind of bad input (140 runs of the real command, ~0.12 s each). The
    fast lane runs two kinds per command, shifted from one command to the next, so that it still
    tries every command and every kind; the whole suite runs every pair."""
    commands, kinds = list(COMMANDS), list(BAD_INPUTS)
    return [pytest.param(command, kind, id=f"{command}-{kind}",
                         marks=() if (j - i) % len(kinds) in (0, len(kinds) // 2) else pytest.mark.slow)
            for i, command in enumerate(commands) for j, kind in enumerate(kinds)]


def test_the_fast_lane_still_tries_every_command_and_every_kind() -> None:
    fast = [p.values for p in _every_command_and_kind() if not p.marks]
    assert {c for c, _k in fast} == set(COMMANDS) and {k for _c, k in fast} == set(BAD_INPUTS)


@pytest.mark.parametrize(("command", "kind"), _every_command_and_kind())
def test_bad_input_gives_a_located_error_and_the_documented_code(command: str, kind: str, tmp_path: Path) -> None:
    path = make_input(kind, tmp_path)
    result = rulewright(*COMMANDS[command](path, tmp_path))
    assert "Traceback" not in result.err, result.err
    assert result.code == expected_code(command, kind), (result.code, result.err[-800:])
    if result.code == 1 and command != "repair-args":
        # the problem is said located at the file (validate's diagnostics are its stdout report;
        # repair-args may instead report an unrepairable call, which is not about the file)
        said = result.out + result.err if command == "validate" else result.err
        assert LOCATED.search(said), said


STDIN_COMMANDS = {
    "hash": ["hash", "-"],
    "regex": ["regex", "a", "-"],
    "compress": ["compress", "-"],
    "grammar": ["grammar", "-"],
    "params": ["params", "-"],
    "repair": ["repair", "--schema", "SCHEMA", "-"],
}


def _stdin_argv(command: str, tmp_path: Path) -> list[str]:
    return [str(_schema(tmp_path)) if a == "SCHEMA" else a for a in STDIN_COMMANDS[command]]


# the trust hash is defined for any bytes, so hash is not among the text readers here
@pytest.mark.parametrize("command", [c for c in STDIN_COMMANDS if c != "hash"])
@pytest.mark.parametrize("data", [b"\x00\x01binary", b"caf\xe9 \xff"], ids=["binary", "invalid-utf8"])
def test_bad_standard_input_is_reported_like_a_file(command: str, data: bytes, tmp_path: Path) -> None:
    result = rulewright(*_stdin_argv(command, tmp_path), stdin=data)
    assert "Traceback" not in result.err
    assert result.code == 1, result.err
    assert "<stdin>:1:" in result.err


@pytest.mark.parametrize("command", list(STDIN_COMMANDS))
def test_a_terminal_on_standard_input_is_a_usage_error_not_a_hang(command: str, tmp_path: Path) -> None:
    controller, terminal = pty.openpty()
    try:
        result = rulewright(*_stdin_argv(command, tmp_path), stdin=terminal, timeout=30)
    finally:
        os.close(terminal)
        os.close(controller)
    assert "Traceback" not in result.err
    assert result.code == 2, result.err
    assert f"rulewright {command}: error: no input" in result.err


@pytest.mark.parametrize("command", ["hash", "regex", "compress", "grammar", "params", "repair"])
def test_empty_standard_input_never_crashes(command: str, tmp_path: Path) -> None:
    argv = _stdin_argv(command, tmp_path)
    result = rulewright(*argv, stdin=b"")
    assert "Traceback" not in result.err
    # empty text is fine for text commands; JSON commands say the input is not JSON
    assert result.code == (1 if command in ("params", "repair") else 0), result.err
