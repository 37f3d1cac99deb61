"""Table-driven seeds from the spec's §16 differential corpus (each confirmed against Node 20)."""

from __future__ import annotations

import pytest

from engine.jsregex import JSSyntaxError, compile_js

# (pattern, flags, input, expected first match as (index, text) or None)
MATCH_SEEDS = [
    ("abc$", "", "abc\n", None),
    ("c$", "m", "abc\r\nx", (2, "c")),
    ("^x", "m", "a\u2028x", (2, "x")),
    ("a.b", "", "a\rb", None),
    ("a.b", "", "a\u2028b", None),
    (r"\d", "", "\u0663", None),
    (r"\w", "", "é", None),
    (r"\w", "u", "é", None),
    (r"\bcaf\b", "", "café", (0, "caf")),
    (r"\s", "", "\u00a0", (0, "\u00a0")),
    (r"\s", "", "\ufeff", (0, "\ufeff")),
    (r"\s", "", "\u001c", None),
    ("a[^]b", "", "a\nb", (0, "a\nb")),
    ("a[]b", "", "ab", None),
    (r"\u{1F600}", "u", "😀", (0, "😀")),
    (r"\cJ", "", "\n", (0, "\n")),
    (r"(?<=\$\d+\.)\d+", "", "$10.53", (4, "53")),
    ("k", "i", "\u212a", None),
    ("k", "iu", "\u212a", (0, "\u212a")),
    ("ß", "i", "SS", None),
    ("s", "iu", "\u017f", (0, "\u017f")),
    (r"\w", "iu", "\u017f", (0, "\u017f")),
    ("^.$", "", "😀", None),
    ("^.$", "u", "😀", (0, "😀")),
    (r"\1(a)", "", "a", (0, "a")),
    (r"(a)?b\1", "", "b", (0, "b")),
    (r"\101", "", "A", (0, "A")),
    (r"\a", "", "a", (0, "a")),
    ("a{,2}", "", "a{,2}", (0, "a{,2}")),
    (r"[\w--\d]+", "v", "ab12", (0, "ab")),
    ("b", "y", "ab", None),
    ("a", "y", "ab", (0, "a")),
    (r"\p{Lu}", "u", "É", (0, "É")),
    ("[[:digit:]]", "", "5", None),
    (r"a\Z", "", "a", None),
    (r"(?<q>['\"]).*?\k<q>", "", "say 'hi' now", (4, "'hi'")),
    ("i", "iu", "İ", None),
    ("[^k]", "iu", "\u212a", None),
    (r"(ß)\1", "i", "ßẞ", None),
    (r"\P{Ll}", "iu", "a", (0, "a")),
    (r"\P{Ll}", "iv", "a", None),
    (r"(?<\u0061>x)\k<a>", "", "xx", (0, "xx")),
]


@pytest.mark.parametrize(("pattern", "flags", "subject", "expected"), MATCH_SEEDS)
def test_first_match(pattern: str, flags: str, subject: str, expected: tuple[int, str] | None) -> None:
    m = compile_js(pattern, flags).exec(subject)
    assert (None if m is None else (m.index, m.match)) == expected


REPLACE_SEEDS = [
    (r"(?<y>\d{4})", "", "in 2024", "[$<y>]", "in [2024]"),
    (r"\d+", "g", "a1b22", "<$&>", "a<1>b<22>"),
    (r"(\w)(\d)", "g", "a1 b2", "$2$1", "1a 2b"),
    ("x", "", "x", "$$5", "$5"),
    ("b", "", "abc", "[$`|$']", "a[a|c]c"),
    ("(a)", "", "a", "$2", "$2"),
    ("(a)", "", "a", "$10", "a0"),
    ("a", "", "a", r"\n\1", r"\n\1"),
    ("a", "gy", "aaba", "x", "xxba"),
    ("x*", "g", "abc", "-", "-a-b-c-"),
    ("(a)|(b)", "g", "ab", "[$1$2]", "[a][b]"),
    (r"(?<!\$)\b\d+", "g", "$5 and 6", "<$&>", "$5 and <6>"),
    ("(?:)", "g", "😀", "-", "-\ud83d-\ude00-"),
    ("(?:)", "gu", "😀", "-", "-😀-"),
    ("a*?", "g", "aaa", "-", "-a-a-a-"),
    ("|a", "g", "aa", "-", "-a-a-"),
    ("x*", "g", "abxd", "-", "-a-b--d-"),
]


@pytest.mark.parametrize(("pattern", "flags", "subject", "replacement", "expected"), REPLACE_SEEDS)
def test_replace(pattern: str, flags: str, subject: str, replacement: str, expected: str) -> None:
    assert compile_js(pattern, flags).replace(subject, replacement) == expected


GROUP_SEEDS = [
    ("(?:(a)|b)+", "", "ab", (None,)),
    (r"(?:(x)|y)*\1", "", "xyx", (None,)),
    ("(a|)+b", "", "aab", ("a",)),
    ("(a*)*", "", "b", (None,)),
    (r"(?<=(\d+)(\d+))$", "", "1053", ("1", "053")),
    (r"(z)((a+)?(b+)?(c))*", "", "zaacbbbcac", ("z", "ac", "a", None, "c")),
]


@pytest.mark.parametrize(("pattern", "flags", "subject", "groups"), GROUP_SEEDS)
def test_capture_semantics(pattern: str, flags: str, subject: str, groups: tuple) -> None:
    m = compile_js(pattern, flags).exec(subject)
    assert m is not None
    assert m.groups == groups


def test_string_class_alternatives() -> None:
    rx = compile_js(r"[\q{abc|d}x]", "gv")
    assert [m.match for m in rx.match_all("abcdx")] == ["abc", "d", "x"]


@pytest.mark.parametrize("pattern", ["(?i)a", "(?i:a)b"])
def test_inline_flags_are_invalid_groups(pattern: str) -> None:
    with pytest.raises(JSSyntaxError) as info:
        compile_js(pattern)
    assert str(info.value).endswith(": Invalid group")
