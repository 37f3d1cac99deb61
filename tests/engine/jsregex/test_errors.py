"""V8's exact SyntaxError texts (spec §12): the message ``new RegExp`` throws for each kind of bad pattern."""

from __future__ import annotations

import pytest

from engine.jsregex import JSSyntaxError, compile_js, is_valid

ERRORS = [
    ("(a", "", "Unterminated group"),
    ("a)", "", "Unmatched ')'"),
    ("[a", "", "Unterminated character class"),
    ("*a", "", "Nothing to repeat"),
    ("a**", "", "Nothing to repeat"),
    ("(?x)", "", "Invalid group"),
    ("(?<1a>x)", "", "Invalid capture group name"),
    ("(?<a>x)(?<a>y)", "", "Duplicate capture group name"),
    ("(?<a>x)|(?<a>y)", "", "Duplicate capture group name"),
    (r"(?<a>x)\k<b>", "", "Invalid named capture referenced"),
    (r"(?<a>x)\k", "", "Invalid named reference"),
    ("a\\", "", "\\ at end of pattern"),
    ("[z-a]", "", "Range out of order in character class"),
    ("a{2,1}", "", "numbers out of order in {} quantifier"),
    (r"\a", "u", "Invalid escape"),
    (r"\1", "u", "Invalid escape"),
    (r"\q{a}", "v", "Invalid escape"),
    (r"\u{110000}", "u", "Invalid Unicode escape"),
    (r"\c", "u", "Invalid Unicode escape"),
    ("a{", "u", "Incomplete quantifier"),
    ("a}", "u", "Lone quantifier brackets"),
    ("]", "u", "Lone quantifier brackets"),
    (r"[\d-z]", "u", "Invalid character class"),
    (r"\p{letter}", "u", "Invalid property name"),
    (r"\p{RGI_Emoji}", "u", "Invalid property name"),
    ("(?=a)+", "u", "Invalid quantifier"),
    ("(?<=a)+", "", "Invalid quantifier"),
    ("(?<!a){2}", "", "Invalid quantifier"),
    ("[a--]", "v", "Invalid character in character class"),
    ("[a&&&b]", "v", "Invalid character in character class"),
    ("[(]", "v", "Invalid character in character class"),
    (r"[^\q{ab}]", "v", "Negated character class may contain strings"),
    (r"[^\p{RGI_Emoji}]", "v", "Negated character class may contain strings"),
    (r"\00", "u", "Invalid decimal escape"),
    (r"[\1]", "u", "Invalid class escape"),
    ("^*", "", "Nothing to repeat"),
]


@pytest.mark.parametrize(("pattern", "flags", "reason"), ERRORS)
def test_v8_message(pattern: str, flags: str, reason: str) -> None:
    with pytest.raises(JSSyntaxError) as info:
        compile_js(pattern, flags)
    assert str(info.value) == f"Invalid regular expression: /{pattern}/{flags}: {reason}"
    assert not is_valid(pattern, flags)


def test_flags_are_printed_in_v8_order() -> None:
    with pytest.raises(JSSyntaxError) as info:
        compile_js("(", "yg")
    assert str(info.value) == "Invalid regular expression: /(/gy: Unterminated group"


@pytest.mark.parametrize("flags", ["gg", "uv", "x", "G", "dd"])
def test_invalid_flags(flags: str) -> None:
    with pytest.raises(JSSyntaxError) as info:
        compile_js("a", flags)
    assert str(info.value) == f"Invalid flags supplied to RegExp constructor '{flags}'"


@pytest.mark.parametrize(("pattern", "flags"), [
    ("a{,2}", ""), ("]", ""), ("}", ""), (r"\k<a>", ""), (r"[\w-z]", ""), ("(?=a)*", ""),
    (r"\8\9", ""), (r"\c1", ""), ("x{99999999999}", ""), (r"[\p{RGI_Emoji}]", "v"), (r"[]]", ""),
    (r"\u{2}", ""), (r"\p{Script=Greek}", "u"), (r"\p{scx=Grek}", "u"), (r"\p{General_Category=Letter}", "u"),
])
def test_annex_b_and_valid_forms_compile(pattern: str, flags: str) -> None:
    assert is_valid(pattern, flags)


def test_capture_limit_matches_v8() -> None:
    assert is_valid("()" * 32767)
    with pytest.raises(JSSyntaxError, match=r"Too many captures$"):
        compile_js("()" * 32768)


def test_deep_nesting_is_accepted_like_v8() -> None:
    depth = 2000
    m = compile_js("(" * depth + "a" + ")" * depth).exec("a")
    assert m is not None and m.groups[-1] == "a" and len(m.groups) == depth


# where each error lies: the UTF-16 offset an editor tints and a file's column points at
OFFSETS = [
    ("(a", "", 0),  # the '(' left open
    ("ab(?:c(d)", "", 2),  # the outer group: the inner one closed
    ("x[a", "", 1),  # the '[' left open
    ("[a[b]", "v", 0),  # the outer class of a v-mode nesting (the inner one closed)
    ("[a[b", "v", 2),  # the inner one
    ("a)", "", 1),  # the stray ')'
    ("*a", "", 0),
    ("ab{3,1}", "", 2),
    ("a[z-a]", "", 2),  # the range's first end
    ("a\\", "", 1),  # the lone backslash
    ("😀(", "", 2),  # UTF-16: the emoji is two units
    ("😀(", "u", 2),  # under u the parser counts code points; the offset is still UTF-16
]


@pytest.mark.parametrize(("pattern", "flags", "offset"), OFFSETS)
def test_error_offset_points_at_the_culprit(pattern: str, flags: str, offset: int) -> None:
    from engine.jsregex import syntax_error

    error = syntax_error(pattern, flags)
    assert error is not None and error.offset == offset


def test_every_error_has_an_offset_within_the_pattern() -> None:
    from engine.jsregex import syntax_error

    for pattern, flags, _reason in ERRORS:
        error = syntax_error(pattern, flags)
        assert error is not None and error.offset is not None
        assert 0 <= error.offset <= len(pattern.encode("utf-16-le")) // 2, pattern
    flags_error = syntax_error("a", "gg")
    assert flags_error is not None and flags_error.offset is None  # (the flags, not the pattern)
    assert syntax_error("a(b)c") is None
