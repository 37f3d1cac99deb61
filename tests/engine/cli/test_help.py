"""``rulewright COMMAND --help``: every option explained, exit status documented, usage accurate."""

from __future__ import annotations

import argparse

import pytest

from engine.cli import _build_parser

from .helpers import rulewright

MINE = ("validate", "regex", "hash", "compress", "verify", "trust", "export", "new", "repair", "grammar", "params")


def _sub_parser(command: str) -> argparse.ArgumentParser:
    parser = _build_parser(command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]


@pytest.mark.parametrize("command", MINE)
def test_every_option_and_positional_has_help_text(command: str) -> None:
    undocumented = [a.dest for a in _sub_parser(command)._actions
                    if not isinstance(a, argparse._HelpAction) and not (a.help or "").strip()]
    assert undocumented == []


@pytest.mark.parametrize("command", MINE)
def test_help_states_the_exit_status_and_exits_0(command: str) -> None:
    result = rulewright(command, "--help")
    assert result.code == 0 and result.err == ""
    text = " ".join(result.out.split())
    assert "Exit status: 0 " in text and "2 usage error" in text


@pytest.mark.parametrize("command", ["regex", "compress", "grammar", "params", "repair"])
def test_stdin_is_described_the_same_way(command: str) -> None:
    text = " ".join(rulewright(command, "--help").out.split())
    assert "standard input" in text


@pytest.mark.parametrize(("argv", "extra"), [(["regex", "a", "f.txt", "--bogus"], "--bogus"),
                                             (["regex", "a", "f.txt", "g.txt"], "g.txt"),
                                             (["validate", "x.json", "--nope"], "--nope"),
                                             (["params", "--", "a.json", "b.json"], "b.json")])
def test_unrecognized_arguments_are_said_by_the_command(argv: list[str], extra: str) -> None:
    result = rulewright(*argv)
    assert result.code == 2
    assert f"rulewright {argv[0]}: error: unrecognized arguments: {extra}" in result.err
    assert result.err.startswith(f"usage: rulewright {argv[0]} ")
