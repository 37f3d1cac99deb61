"""RTK TOML v1: validation order and messages (§6.3), mapping (§6.2), inline gate (§2), round trip."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rtk.toml_io import (
    TomlFilterError,
    TomlTest,
    derive_category,
    dump_rtk_toml,
    multiline_string,
    parse_rtk_toml,
)

GOOD = """schema_version = 1

[filters.make-quiet]
description = "quiet make"
match_command = '^make\\b'
strip_lines_matching = ['^make\\[\\d+\\]: (?:Entering|Leaving)']
head_lines = 2
tail_lines = 1

[[tests.make-quiet]]
name = "drops directory noise"
input = \"\"\"
make[1]: Entering directory '/x'
cc -c a.c
make[1]: Leaving directory '/x'
\"\"\"
expected = "cc -c a.c"
"""


def test_parse_maps_fields_and_runs_tests():
    result = parse_rtk_toml(GOOD)
    (f,) = result.filters
    assert (f.id, f.name, f.priority, f.source_format, f.category) == ("make-quiet", "make-quiet", 50,
                                                                       "rtk-toml-v1", "build")
    assert f.command_patterns == ("^make\\b",)
    assert (f.rtk_toml_head_lines, f.rtk_toml_tail_lines, f.rtk_toml_max_lines, f.max_lines) == (2, 1, None, 0)
    assert (f.preserve_head, f.preserve_tail, f.deduplicate) == (0, 0, False)
    assert result.passed and [o.test_name for o in result.outcomes] == ["drops directory noise"]
    assert result.filters_without_tests == [] and result.warnings == []
    assert len(result.sha256) == 64


@pytest.mark.parametrize(("text", "message"), [
    ("x" * 1048577, "file exceeds the 1048576-byte limit"),
    ("schema_version = 1\n[filters.bad\nmatch_command = 'x'\n", "invalid TOML syntax (line 2, column 2)"),
    ("a = \n", "invalid TOML syntax (line 1, column 5)"),
    ("a = 1\na = 2", "invalid TOML syntax (line 2, column 1)"),
    ("x = [1,\n", "invalid TOML syntax (line 2, column 1)"),
    ("schema_version = 2\n[filters.a]\nmatch_command='a'\n", "schema_version: Invalid input: expected 1"),
    ("schema_version = 1\nfoo = 1\n[filters.a]\nmatch_command='a'\n", 'document: Unrecognized key: "foo"'),
    ("schema_version = 1\n[filters.x]\nmatch_command='a'\ndedup = true\n", 'filters.x: Unrecognized key: "dedup"'),
    ("schema_version = 1\n[filters.x]\n", "filters.x.match_command: Invalid input: expected string, received undefined"),
    ("schema_version = 1\n[filters.x]\nmatch_command = ''\n",
     "filters.x.match_command: Too small: expected string to have >=1 characters"),
    ("schema_version = 1\n[filters.x]\nmatch_command = 'a'\nmax_lines = -1\n",
     "filters.x.max_lines: Too small: expected number to be >=0"),
    ("schema_version = 1\n[filters.x]\nmatch_command = 'a'\n[[tests.x]]\nname='n'\ninput=''\nexpected=''\ncommand='a'\n",
     'tests.x.0: Unrecognized key: "command"'),
    ("schema_version = 1\n", "document contains no filters"),
    ("schema_version = 1\n[filters.x]\nmatch_command = 'a'\n[[tests.y]]\nname='n'\ninput=''\nexpected=''\n",
     "tests reference unknown filter 'y'"),
    ("schema_version = 1\n[filters.x]\nmatch_command = 'a'\nstrip_lines_matching=['a']\nkeep_lines_matching=['b']\n",
     "filter 'x' cannot combine strip_lines_matching with keep_lines_matching"),
    ("schema_version = 1\n[filters.x]\nmatch_command = '(a+)+'\n", "filter 'x' has an unsafe regex in match_command"),
    ("schema_version = 1\n[filters.x]\nmatch_command = '(?i)git'\n", "filter 'x' has an invalid regex in match_command"),
    ("schema_version = 1\n[filters.x]\nmatch_command = 'a'\n[[filters.x.match_output]]\npattern='ok'\nmessage='m'\nunless='('\n",
     "filter 'x' has an invalid regex in match_output.unless"),
])
def test_validation_messages(text, message):
    with pytest.raises(TomlFilterError) as info:
        parse_rtk_toml(text)
    assert str(info.value) == message


def test_warnings_for_missing_tests_and_filter_stderr():
    result = parse_rtk_toml("schema_version = 1\n[filters.q]\nmatch_command = '^q'\nfilter_stderr = true\n")
    assert result.filters_without_tests == ["q"]
    assert result.warnings == [
        "Filter 'q' has no inline tests and should be reviewed before installation",
        "Filter 'q': filter_stderr is accepted as a no-op because OmniRoute receives already-captured tool output",
    ]
    assert result.filters[0].filter_stderr is False


def test_failing_inline_test_is_reported():
    result = parse_rtk_toml(GOOD.replace('expected = "cc -c a.c"', 'expected = "other"'))
    assert not result.passed
    (outcome,) = result.outcomes
    assert (outcome.actual, outcome.expected) == ("cc -c a.c", "other")


@pytest.mark.parametrize(("name", "command", "category"), [
    ("git-log", "^git log", "git"),
    ("make-test", "^make test", "test"),
    ("cargo", "^cargo test", "test"),
    ("npmish", "^npm\\b", "package"),
    ("deploy", "^terraform apply", "infra"),
    ("mytool", "^mytool", "generic"),
    ("lsd", "^lsd", "generic"),
])
def test_category_from_words(name, command, category):
    assert derive_category(name, command) == category


@pytest.mark.parametrize("text", ["", "plain", "two\nlines", "\nleading newline", "ends with quote\"",
                                  'three """ quotes\n', "back\\slash\n\ttab\r\ncrlf", "ctrl\x01\n", "é😀\n"])
def test_multiline_strings_round_trip(text):
    assert tomllib.loads(f"v = {multiline_string(text)}")["v"] == text


def test_dump_round_trips_through_parse():
    tables = {"a b": {"description": "x", "match_command": "^it's", "strip_ansi": True,
                      "keep_lines_matching": ["^\\s*ok", "it's"],
                      "replace": [{"pattern": "\\d+", "replacement": "N"}],
                      "match_output": [{"pattern": "done", "message": "ok", "unless": "error"}],
                      "truncate_lines_at": 80, "max_lines": 10, "on_empty": "nothing"}}
    tests = {"a b": [TomlTest("t1", "ok 1\n\nit's\n", "ok N\nit's\n")]}
    text = dump_rtk_toml(tables, tests, header_comment="exported")
    assert text.startswith("# exported\nschema_version = 1\n")
    assert "[filters.\"a b\"]" in text and "'^\\s*ok'" in text
    result = parse_rtk_toml(text)
    assert result.tables == tables
    assert result.tests["a b"] == tests["a b"]
    assert result.passed


@given(st.text(max_size=40), st.text(max_size=40), st.text(min_size=1, max_size=20))
@settings(max_examples=200, deadline=None)
def test_any_text_survives_the_writer(sample, description, pattern):
    from engine.rtk.toml_io import basic_string, pattern_string

    document = (f"a = {multiline_string(sample)}\nb = {basic_string(description)}\n"
                f"c = {pattern_string(pattern)}\n")
    assert tomllib.loads(document) == {"a": sample, "b": description, "c": pattern}


@pytest.mark.parametrize(("pattern", "translated"), [
    ("(?i)error", "[eE][rR][rR][oO][rR]"),
    ("(?i)^warn(ing)?:\\s+\\w+", "^[wW][aA][rR][nN]([iI][nN][gG])?:\\s+\\w+"),
    ("(?i)[a-f0-9]{7,}", "[a-fA-F0-9]{7,}"),
    ("(?i)(?:fail|x)\\b", "(?:[fF][aA][iI][lL]|[xX])\\b"),
    ("(?i)[^a-z]", "[^a-zA-Z]"),
    ("plain", None),
])
def test_translate_inline_ignore_case(pattern, translated):
    from engine.rtk.toml_io import translate_inline_ignore_case

    assert translate_inline_ignore_case(pattern) == translated


def test_rtk_ignore_case_prefix_rejected_by_omniroute_translated_by_strict_VT_Q12():
    text = ("schema_version = 1\n[filters.x]\nmatch_command = '^x'\nkeep_lines_matching = ['(?i)^error']\n"
            "[[tests.x]]\nname = 't'\ninput = \"ERROR one\\nok\\nError two\"\nexpected = \"ERROR one\\nError two\"\n")
    with pytest.raises(TomlFilterError) as info:
        parse_rtk_toml(text)
    assert str(info.value) == "filter 'x' has an invalid regex in keep_lines_matching"
    assert "VT-Q12" in info.value.hint
    result = parse_rtk_toml(text, profile="strict")
    assert result.passed and result.filters[0].keep_patterns == ("^[eE][rR][rR][oO][rR]",)
    assert [n.code for n in result.notes] == ["VT-Q12"]


def _table(**fields):
    return {"match_command": "^x", **fields}


@pytest.mark.parametrize(("table", "text", "expected"), [
    # case-sensitive line regexes (OmniRoute uses `i`)
    (_table(strip_lines_matching=["^PING "]), "PING a\nPing statistics\n", "Ping statistics"),
    # str::lines(): CRLF and a final newline
    (_table(), "a\r\nb\r\n", "a\nb"),
    # Rust replacement syntax: $1a is group "1a" (empty), ${1}a is group 1 then "a"
    (_table(replace=[{"pattern": "(\\d+)", "replacement": "$1a"}]), "v 42", "v "),
    (_table(replace=[{"pattern": "(\\d+)", "replacement": "${1}a|$$"}]), "v 42", "v 42a|$"),
    (_table(replace=[{"pattern": "(?P<n>\\d)", "replacement": "<$n>"}]), "a1b2", "a<1>b<2>"),
    # truncate: exactly "..." for N <= 3
    (_table(truncate_lines_at=2), "abcdef\nab", "...\nab"),
    (_table(truncate_lines_at=5), "abcdef", "ab..."),
    # head/tail/max markers
    (_table(head_lines=1, tail_lines=1), "1\n2\n3\n4", "1\n... (2 lines omitted)\n4"),
    (_table(tail_lines=1, max_lines=1), "1\n2\n3", "... (2 lines omitted)\n... (1 lines truncated)"),
    # match_output: ^ and $ at text boundaries, case-sensitive, unless guard
    (_table(match_output=[{"pattern": "^done$", "message": "ok"}]), "x\ndone", "x\ndone"),
    (_table(match_output=[{"pattern": "done", "message": "ok", "unless": "error"}]), "done\nerror", "done\nerror"),
    (_table(match_output=[{"pattern": "(?i)DONE", "message": "ok"}]), "done", "ok"),
    # on_empty after Rust trim
    (_table(strip_lines_matching=["."], on_empty="nothing"), "a\nb", "nothing"),
])
def test_rtk_semantics(table, text, expected):
    from engine.rtk.toml_io import apply_rtk_semantics

    assert apply_rtk_semantics(table, text) == expected


def test_rtk_rejects_lookaround():
    from engine.rtk.toml_io import RtkRegexError, apply_rtk_semantics

    with pytest.raises(RtkRegexError, match="look-around"):
        apply_rtk_semantics(_table(keep_lines_matching=["^(?!x)"]), "a")


def test_compare_semantics_shows_case_difference():
    from engine.rtk.toml_io import compare_semantics

    text = ("schema_version = 1\n[filters.p]\nmatch_command = '^ping'\nstrip_lines_matching = ['^PING ']\n"
            "[[tests.p]]\nname = 't'\ninput = \"PING x\\nPing stats\"\nexpected = \"Ping stats\"\n")
    result = parse_rtk_toml(text, run_tests=False)
    (c,) = compare_semantics(result)
    assert (c.omniroute, c.rtk, c.omniroute_passed, c.rtk_passed) == ("", "Ping stats", False, True)
    assert c.differs


def _column_of(text: str, index: int) -> tuple[int, int]:
    before = text[:index]
    return before.count("\n") + 1, len(before.rsplit("\n", 1)[-1].encode("utf-16-le")) // 2 + 1


@pytest.mark.parametrize(("written", "culprit"), [
    ("'^warn: [a-z+'", "["),  # a literal string: its characters are the pattern's
    ('"^make\\\\b\\u0020(\\U0001F600x"', "("),  # escapes write one character each; the emoji is two units
    ("'''\n^other['''", "["),  # a multi-line literal string: its first line break is not part of it
    ('"😀😀 (a"', "("),  # astral characters written as themselves
])
def test_a_bad_regex_is_located_at_its_character(written, culprit):
    from engine.rtk.toml_io import error_position

    text = f"schema_version = 1\n\n[filters.x]\nmatch_command = '^x'\nstrip_lines_matching = [\n  {written},\n]\n"
    with pytest.raises(TomlFilterError) as info:
        parse_rtk_toml(text)
    error = info.value
    assert str(error) == "filter 'x' has an invalid regex in strip_lines_matching"  # the reference's words
    assert error.detail is not None and error.detail.startswith(repr(error.pattern)[:10])
    assert error.explained() == f"{error} ({error.detail})"
    where = text.index(written)
    assert error_position(text, error) == _column_of(text, text.index(culprit, where))


def test_a_bad_regex_in_a_multiline_basic_string_is_located_at_its_key():
    from engine.rtk.toml_io import error_position

    text = 'schema_version = 1\n[filters.x]\nmatch_command = """\\\n  ^x("""\n'
    with pytest.raises(TomlFilterError) as info:
        parse_rtk_toml(text)
    assert error_position(text, info.value) == _column_of(text, text.index("match_command"))
