"""validate and verify report the same position for the same error, at the offending key."""

from __future__ import annotations

import re

import pytest

from engine.cli import main

CASES = {
    "unknown-toml-key.toml": ("schema_version = 1\n\n[filters.x]\nmatch_command = '^x'\ndedup = true\n", (5, 1)),
    "bad-toml-value.toml": ("schema_version = 1\n[filters.x]\ndescription = 'd'\nmax_lines = -3\nmatch_command = '^x'\n",
                            (4, 1)),
    "unknown-top-key.toml": ("schema_version = 1\nfoo = 1\n[filters.x]\nmatch_command = '^x'\n", (2, 1)),
    "test-command.toml": ("schema_version = 1\n[filters.x]\nmatch_command = '^x'\n[[tests.x]]\nname = 'a'\n"
                          "input = 'a'\nexpected = 'a'\ncommand = 'x'\n", (8, 1)),
    "second-test.toml": ("schema_version = 1\n[filters.x]\nmatch_command = '^x'\n[[tests.x]]\nname = 'a'\n"
                         "input = 'a'\nexpected = 'a'\n[[tests.x]]\nname = 'b'\ninput = 'b'\nexpected = 'b'\n"
                         "extra = 1\n", (12, 1)),
    "unsafe-regex.toml": ("schema_version = 1\n[filters.x]\nmatch_command = '^x'\n"
                          "strip_lines_matching = ['(a+)+$']\n", (4, 1)),
    "unknown-json-key.json": ('[\n  {\n    "id": "x",\n    "label": "x",\n    "category": "git",\n    "extra": 1,\n'
                              '    "match": {"commands": ["^x"]},\n    "rules": {"dropPatterns": []},\n'
                              '    "preserve": {"errorPatterns": []}\n  }\n]\n', (6, 5)),
}
LOCATION = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+): error: (?P<message>.*)$", re.M)


def _errors(text: str) -> dict[str, tuple[int, int]]:
    return {m["message"].rsplit(" [", 1)[0]: (int(m["line"]), int(m["column"])) for m in LOCATION.finditer(text)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_validate_and_verify_agree_at_the_key(tmp_path, capsys, name):
    text, where = CASES[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    validated = _errors(capsys.readouterr().out)
    assert main(["verify", str(path)]) == 1
    verified = _errors(capsys.readouterr().err)
    assert validated and validated == verified
    assert where in validated.values()
