"""Every kind of bad input yields located diagnostics — never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.validate import validate_file, validate_paths

BAD = Path(__file__).resolve().parents[2] / "data" / "bad"
BAD_FILES = sorted(BAD.iterdir())


@pytest.mark.parametrize("path", BAD_FILES, ids=lambda p: p.name)
def test_every_bad_file_has_a_located_diagnostic(path: Path) -> None:
    diagnostics = validate_file(path)
    assert diagnostics, f"{path.name}: no diagnostic"
    for d in diagnostics:
        assert d.path == str(path)
        assert d.line is not None and d.line >= 1
        assert d.column is not None and d.column >= 1
        assert d.message


EXPECTED_AT = {
    # file: (line, column, a word the message must contain)
    "bom-pack.json": (1, 1, "byte-order mark"),
    "crlf-wrong-type.json": (5, 30, "string"),
    "invalid-utf8.json": (1, 81, "UTF-8"),
    "binary.json": (1, 5, "binary"),
    "empty.json": (1, 1, "empty"),
    "not-json.json": (1, 1, "syntax"),
    "trailing-comma.json": (2, 52, "syntax"),
    "deeply-nested.json": (1, 257, "nesting"),
    "unknown-keys.json": (5, 54, "replacment"),
    "duplicate-names.json": (6, 14, "duplicate rule name"),
    "duplicate-filter-ids.json": (3, 10, "duplicate filter id"),
    "duplicate-keys.json": (1, 20, "duplicate key"),
    "filter-unknown-key.json": (1, 58, "command"),
    "invalid-regex.json": (5, 38, "Unterminated group"),  # the "(" left open, not the string's quote
    "invalid-flags.json": (5, 48, "Invalid flags"),
}


@pytest.mark.parametrize("name", sorted(EXPECTED_AT))
def test_diagnostic_points_at_the_offending_value(name: str) -> None:
    line, column, word = EXPECTED_AT[name]
    diagnostics = validate_file(BAD / name)
    hits = [d for d in diagnostics if word.lower() in d.message.lower()]
    assert hits, f"no diagnostic mentioning {word!r}: {[d.format() for d in diagnostics]}"
    assert (hits[0].line, hits[0].column) == (line, column), hits[0].format()


def test_wrong_types_and_enums_are_each_reported() -> None:
    messages = [d.message for d in validate_file(BAD / "wrong-types.json")]
    joined = "\n".join(messages)
    assert "language" in joined
    assert "category" in joined
    assert "replacement" in joined
    assert "context" in joined
    assert "minIntensity" in joined


def test_oversized_file_is_refused_without_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as fh:
        fh.truncate(50 * 1024 * 1024)  # sparse: instant, never read
    [d] = validate_file(big)
    assert d.code == "file-too-large" and (d.line, d.column) == (1, 1)
    assert "50.0 MB" in d.message


def test_clean_pack_and_filter_have_no_diagnostics(tmp_path: Path) -> None:
    pack = tmp_path / "rules" / "en" / "filler.json"
    pack.parent.mkdir(parents=True)
    pack.write_text(json.dumps({"language": "en", "category": "filler", "rules": [
        {"name": "please", "pattern": "\\bplease\\s+", "replacement": "", "flags": "gi",
         "minIntensity": "lite", "context": "user", "description": "drop politeness"}]}))
    flt = tmp_path / "filters" / "ls.json"
    flt.parent.mkdir()
    flt.write_text(json.dumps({"id": "ls", "label": "ls", "category": "shell", "match": {"commands": ["^ls\\b"]},
                               "rules": {"maxLines": 50}, "preserve": {}}))
    assert validate_paths([tmp_path]) == []


def test_cli_exit_codes_and_format(tmp_path: Path) -> None:
    cli = [sys.executable, "-m", "engine", "validate"]
    bad = subprocess.run([*cli, str(BAD / "trailing-comma.json")], capture_output=True, text=True)
    assert bad.returncode == 1
    assert bad.stdout.startswith(f"{BAD / 'trailing-comma.json'}:2:52: error:")
    assert "Traceback" not in bad.stderr
    good = tmp_path / "trust.json"
    good.write_text('{"filtersSha256": "' + "a" * 64 + '"}')
    assert subprocess.run([*cli, str(good)], capture_output=True).returncode == 0
    usage = subprocess.run([*cli], capture_output=True, text=True)
    assert usage.returncode == 2
    as_json = subprocess.run([*cli, "--json", str(BAD / "empty.json")], capture_output=True, text=True)
    [entry] = json.loads(as_json.stdout)
    assert entry["code"] == "json-empty" and entry["line"] == 1


def _column_of(text: str, needle: str) -> tuple[int, int]:
    """1-based line and UTF-16 column of the first ``needle`` in ``text``."""
    before = text[:text.index(needle)]
    line = before.count("\n") + 1
    last = before.rsplit("\n", 1)[-1]
    return line, len(last.encode("utf-16-le")) // 2 + 1


def test_a_regex_error_points_at_its_character_through_escapes_and_astral_text(tmp_path: Path) -> None:
    # the pattern's value is "\d+ 😀[a": JSON escapes (\\, \u0020) and an emoji (two UTF-16
    # columns) stand before the '[' left open, which is where the diagnostic must point
    pack = tmp_path / "en" / "p.json"
    pack.parent.mkdir()
    text = ('{\n  "language": "en",\n  "category": "filler",\n  "rules": [\n'
            '    {"name": "x", "pattern": "\\\\d+\\u0020😀[a", "replacement": ""}\n  ]\n}\n')
    pack.write_text(text, encoding="utf-8")
    [d] = [d for d in validate_file(pack) if "Unterminated character class" in d.message]
    assert (d.line, d.column) == _column_of(text, "[a")


def test_an_rtk_regex_error_points_at_its_character(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    text = json.dumps({"$schema": "https://rulewright.dev/schemas/rtk-filter.schema.json", "id": "x",
                       "label": "make", "category": "build", "preserve": {}, "match": {"commands": ["^make\\s+(all"]},
                       "rules": {"dropPatterns": ["^ok$", "^warn: [a-z+"]}}, indent=2)
    path.write_text(text, encoding="utf-8")
    found = {d.message.split(" ")[0]: (d.line, d.column) for d in validate_file(path) if "valid JavaScript regex" in d.message}
    assert found["match.commands"] == _column_of(text, "(all")
    assert found["dropPatterns"] == _column_of(text, "[a-z+")
