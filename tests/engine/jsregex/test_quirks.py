"""Quirk diagnostics: ids, spans (UTF-16 units of the pattern) and profile levels."""

from __future__ import annotations

import pytest

from engine.jsregex import QUIRKS, quirks


def codes(pattern: str, flags: str = "", **kw) -> list[tuple[str, list[int]]]:
    return [(d.code, d.data.get("span")) for d in quirks(pattern, flags, **kw)]


@pytest.mark.parametrize(("pattern", "flags", "code", "span"), [
    (r"\a", "", "JSR-Q1", [0, 2]),
    (r"x\101", "", "JSR-Q1", [1, 5]),
    (r"\k<n>", "", "JSR-Q1", [0, 2]),
    ("a{,2}", "", "JSR-Q2", [1, 2]),
    (r"[\w-z]", "", "JSR-Q3", [1, 5]),
    (r"(a)?b\1", "", "JSR-Q4", [5, 7]),
    (r"\1(a)", "", "JSR-Q4", [0, 2]),
    ("(?:(a)|b)+", "", "JSR-Q5", [0, 10]),
    ("(a|)+b", "", "JSR-Q5", [0, 5]),
    ("😀+", "", "JSR-Q6", [0, 3]),
    ("k", "i", "JSR-Q7", [0, 1]),
    ("a", "y", "JSR-Q8", [0, 0]),
    (r"\bvocê\b", "i", "JSR-Q10", [6, 8]),
    ("(?=a)*", "", "JSR-Q11", [0, 6]),
    (r"[\q{ab}]", "v", "JSR-Q12", [1, 7]),
])
def test_quirk_is_reported_with_span(pattern: str, flags: str, code: str, span: list[int]) -> None:
    assert (code, span) in codes(pattern, flags)
    assert code in QUIRKS


def test_span_counts_utf16_units_with_u() -> None:
    assert ("JSR-Q10", [2, 4]) in codes(r"😀\w", "u")


def test_replacement_quirks() -> None:
    found = codes("(a)", "g", replacement="$<x> $10")
    assert ("JSR-Q9", [0, 2]) in found and ("JSR-Q9", [5, 8]) in found
    assert codes("(?<x>a)", "g", replacement="$<x>$1") == []
    # only ASCII digits follow a $ in JavaScript: "$1\u0663" is group 1 and a character
    assert codes("(a)", "g", replacement="$1\u0663") == []


def test_plain_patterns_have_no_quirks() -> None:
    assert quirks(r"^\d+ (\w+)$", "gm") == []


def test_profiles_set_levels() -> None:
    assert {d.level for d in quirks(r"\a", "")} == {"info"}
    assert {d.level for d in quirks(r"\a", "", profile="strict")} == {"error"}
    assert {d.level for d in quirks("k", "i", profile="strict")} == {"warning"}
    assert {d.level for d in quirks("a", "y")} == {"warning"}


def test_syntax_error_is_one_error_diagnostic() -> None:
    [d] = quirks("(", "")
    assert d.level == "error" and d.code == "JSR-SYNTAX" and "Unterminated group" in d.message
