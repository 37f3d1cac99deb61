"""The command dispatcher and the shared ``--jsonl`` loop."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from engine import __version__
from engine.cli import COMMANDS, main
from engine.cli.batch import run_jsonl


def test_version_is_printed_without_loading_commands(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"rulewright {__version__}"


def test_version_does_not_import_qt_or_engines() -> None:
    probe = ("import sys; from engine.cli import main\n"
             "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith(('PySide6', 'regex', 'jsonschema', 'engine.'))))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "['engine.cli']"


def test_every_command_module_exists_and_has_the_contract() -> None:
    import importlib

    for name, (module_name, _help) in COMMANDS.items():
        module = importlib.import_module(module_name)
        assert callable(module.configure), name
        assert callable(module.run), name


def test_jsonl_answers_every_line_in_order_and_survives_errors() -> None:
    def handler(request):
        if request.get("boom"):
            raise ValueError("bad request")
        return {"echo": request["x"]}

    stdin = io.StringIO('{"x": 1}\nnot json\n{"boom": true}\n[1]\n\n{"x": "\\ud800"}\n')
    stdout = io.StringIO()
    assert run_jsonl(handler, stdin, stdout) == 0
    lines = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert lines[0] == {"echo": 1}
    assert "not JSON" in lines[1]["error"]
    assert lines[2] == {"error": "bad request"}
    assert lines[3] == {"error": "request must be a JSON object"}
    assert lines[4] == {"echo": "\ud800"}  # lone surrogates survive the round trip
    assert len(lines) == 5
