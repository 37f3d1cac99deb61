"""RegExp object semantics: lastIndex state, matchAll, split, replacer functions, indices, timeouts."""

from __future__ import annotations

import pytest

from engine.jsregex import (
    JSUnsupportedError,
    RegexTimeout,
    compile_js,
    get_default_timeout,
    quirks,
    set_default_timeout,
)


def test_sticky_without_global_keeps_last_index_between_replace_calls() -> None:
    # JSR-Q8: the same /a/y object applied to 'a', 'ba', 'a' gives X, bX, a
    rx = compile_js("a", "y")
    assert [rx.replace(s, "X") for s in ("a", "ba", "a")] == ["X", "bX", "a"]
    # step by step: lastIndex 1 after 'a' makes 'ba' match at 1; a failure resets it to 0
    rx = compile_js("a", "y")
    assert rx.replace("a", "X") == "X"
    assert rx.last_index == 1
    assert rx.replace("ba", "X") == "bX"
    assert rx.last_index == 2
    assert rx.replace("a", "X") == "a"
    assert rx.last_index == 0


def test_strict_profile_resets_sticky_state_per_call() -> None:
    rx = compile_js("a", "y", profile="strict")
    assert [rx.replace(s, "X") for s in ("a", "a", "ba")] == ["X", "X", "ba"]


def test_each_compile_returns_fresh_state() -> None:
    first = compile_js("a", "g")
    assert first.exec("aa").index == 0
    assert first.last_index == 1
    assert compile_js("a", "g").last_index == 0


def test_global_exec_walks_and_wraps() -> None:
    rx = compile_js(r"\d", "g")
    found = []
    while (m := rx.exec("a1b2")) is not None:
        found.append((m.index, m.match))
    assert found == [(1, "1"), (3, "2")]
    assert rx.last_index == 0
    assert rx.test("9") and rx.last_index == 1


def test_non_global_ignores_last_index() -> None:
    rx = compile_js("a")
    rx.last_index = 5
    assert rx.exec("a").index == 0
    assert rx.last_index == 5


def test_search_is_stateless_and_utf16() -> None:
    rx = compile_js("b", "u")
    assert rx.search("😀b😀b", 3).index == 5
    assert rx.last_index == 0
    assert compile_js("b", "y").search("ab", 0) is None


def test_match_all_sticky_chain() -> None:
    assert [m.index for m in compile_js("a", "y").match_all("aaba")] == [0, 1]


def test_indices_and_cp_index_are_utf16() -> None:
    m = compile_js("b", "d").exec("😀b")
    assert m.index == 2 and m.cp_index == 1 and m.indices == [(2, 3)]
    m = compile_js("(?<x>a)(b)?", "d").exec("zab")
    assert m.indices == [(1, 3), (1, 2), (2, 3)]
    assert m.named_indices == {"x": (1, 2)}
    second = compile_js(".", "g").match_all("😀")[1]
    assert (second.index, second.cp_index) == (1, 1)


def test_group_accessors() -> None:
    m = compile_js(r"(?<first>\w+) (\w+)?").exec("Ada ")
    assert m.group(0) == "Ada " and m.group(1) == "Ada" and m.group(2) is None
    assert m.group("first") == "Ada" and m.named == {"first": "Ada"}
    assert m.input == "Ada "


def test_replacer_function_output_is_verbatim() -> None:
    rx = compile_js(r"(\d+)", "g")
    assert rx.replace("a1b22", lambda m: f"$1<{int(m.groups[0]) * 2}>") == "a$1<2>b$1<44>"


def test_replace_without_match_returns_input() -> None:
    assert compile_js("z", "g").replace("abc", "-") == "abc"


@pytest.mark.parametrize(("pattern", "flags", "subject", "limit", "expected"), [
    (",", "", "a,b,,c", None, ["a", "b", "", "c"]),
    ("(,)", "", "a,b", None, ["a", ",", "b"]),
    ("", "", "abc", None, ["a", "b", "c"]),
    ("", "", "", None, []),
    ("x", "", "", None, [""]),
    (",", "", "a,b,c", 2, ["a", "b"]),
    ("(a)|b", "", "xbyaz", None, ["x", None, "y", "a", "z"]),
    ("", "", "😀", None, ["\ud83d", "\ude00"]),
    ("", "u", "😀", None, ["😀"]),
    (r"\s*", "", "a b", None, ["a", "b"]),
])
def test_split(pattern: str, flags: str, subject: str, limit: int | None, expected: list) -> None:
    assert compile_js(pattern, flags).split(subject, limit) == expected


def test_catastrophic_pattern_times_out_and_names_itself() -> None:
    rx = compile_js("(a|aa)+$")
    with pytest.raises(RegexTimeout) as info:
        rx.test("a" * 40 + "b", timeout=0.05)
    assert info.value.source == "(a|aa)+$" and info.value.timeout == 0.05
    assert str(info.value) == "regex /(a|aa)+$/ timed out after 50 ms"
    assert isinstance(info.value, TimeoutError)


def test_default_timeout_is_configurable() -> None:
    previous = get_default_timeout()
    assert previous == 0.25
    try:
        set_default_timeout(0.03)
        with pytest.raises(RegexTimeout) as info:
            compile_js("(a|aa)+$").replace("a" * 40 + "b", "x")
        assert info.value.timeout == 0.03
    finally:
        set_default_timeout(previous)


def test_per_regex_timeout() -> None:
    with pytest.raises(RegexTimeout):
        compile_js("(a|a)+$", timeout=0.03).match_all("a" * 40 + "b")


def test_string_property_without_data_compiles_but_is_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.jsregex import parser
    from engine.jsregex.translate import cache_clear

    monkeypatch.setattr(parser, "string_property", lambda name: None)
    cache_clear()
    try:
        rx = compile_js(r"[\p{RGI_Emoji}]", "v")
        with pytest.raises(JSUnsupportedError, match="unsupported in Rulewright"):
            rx.test("x")
    finally:
        cache_clear()


@pytest.mark.slow
def test_rgi_emoji_properties_of_strings() -> None:
    text = "hi 👩🏽\u200d💻 and 🇫🇷 #\ufe0f\u20e3 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f ✌\ufe0f ✌ 😀 x"
    found = [m.match for m in compile_js(r"\p{RGI_Emoji}", "gv").match_all(text)]
    assert found == ["👩🏽\u200d💻", "🇫🇷", "#\ufe0f\u20e3",
                     "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "✌\ufe0f", "😀"]
    assert [m.match for m in compile_js(r"[\p{RGI_Emoji}--\q{😀}]", "gv").match_all(text)] == found[:-1]
    assert compile_js(r"^\p{Basic_Emoji}+$", "v").test("😀✌\ufe0f")
    assert compile_js(r"^\p{RGI_Emoji_Flag_Sequence}$", "v").test("🇫🇷")
    assert not compile_js(r"^\p{RGI_Emoji_Flag_Sequence}$", "v").test("🇫")


def test_class_strings_prefer_the_longest() -> None:
    rx = compile_js(r"[\q{abc|ab|a|abd|}x]", "gv")
    assert [m.match for m in rx.match_all("abdabcabax")] == ["abd", "abc", "ab", "a", "x", ""]


def test_keycap_sequences_are_supported() -> None:
    rx = compile_js(r"\p{Emoji_Keycap_Sequence}", "gv")
    assert [m.match for m in rx.match_all("#\ufe0f\u20e3 1")] == ["#\ufe0f\u20e3"]


def test_huge_counts_are_accepted_and_clamped() -> None:
    assert compile_js("x{99999999999}").exec("xxx") is None
    assert compile_js("a{0,99999999999}").exec("aaa").match == "aaa"


def test_case_insensitive_output_comes_from_original_subject() -> None:
    assert compile_js("straße", "gi").replace("STRAßE straße", "<$&>") == "<STRAßE> <straße>"
    assert compile_js(r"(\w)\1", "gi").replace("aA Kk", "[$1]") == "[a] [K]"


def test_unicode_mode_runs_on_utf16_units_like_v8() -> None:
    # the search steps one unit at a time: an empty match can fall between the halves of a pair
    assert [m.index for m in compile_js(r"\B|x", "gu").match_all("x😀")] == [0, 2, 3]
    assert compile_js("(?:)", "gu").replace("😀", "-") == "-😀-"
    # a lone-surrogate class never matches half of a pair, and a backreference never ends inside one
    assert compile_js(r"[\udc00-\udfff]", "gu").match_all("😀") == []
    assert [m.index for m in compile_js(r"(?<n>\B)\1", "gu").match_all("b😀xxa")] == [4, 5]
    # split searches like exec (V8's fast path), advancing by code points after an empty match
    assert compile_js(r"\B", "u").split("😀😀") == ["😀", "😀"]
    assert compile_js(r"\B", "u").split("b😀") == ["b\ud83d", "\ude00"]
    assert compile_js(r"(?=\ude00)", "u").split("😀😀") == ["😀😀"]


@pytest.mark.parametrize(("pattern", "subject", "expected"), [
    ("[^]+", "bbb", (0, "b")), ("[^]*", "bbb", (0, "")), ("[^]{5}", "bbb", (0, "b")), ("[^]*?x", "bbx", (2, "x")),
    ("(?:[^]){2,}x", "bbbx", (2, "bx")),
])
def test_v8_11_quantified_empty_negated_class_in_v_mode(pattern: str, subject: str, expected: tuple) -> None:
    # V8 11.3 (Node 20) defect, reproduced and reported as JSR-V8 (GAPS.md §2); with u it is normal
    m = compile_js(pattern, "v").exec(subject)
    assert (m.index, m.match) == expected
    assert any(d.code == "JSR-V8" for d in quirks(pattern, "v"))


def test_empty_negated_class_repeats_normally_with_u() -> None:
    assert compile_js("[^]+", "u").exec("bbb").match == "bbb"
    assert compile_js("[^]*", "").exec("bbb").match == "bbb"


@pytest.mark.parametrize(("subject", "expected"), [
    ("a\r\nb", "a\r#\nb"),          # \r and \n are two terminators: an empty line between them
    ("a\n\nb", "a\n#\nb"),          # LF-only subjects take the native-anchor pattern
    ("a\u2028\u2028b", "a\u2028#\u2028b"),
    ("", "#"),
])
def test_multiline_anchors_know_every_js_line_terminator(subject: str, expected: str) -> None:
    assert compile_js("^$", "gm").replace(subject, "#") == expected


def test_multiline_dollar_before_cr_only_when_cr_present() -> None:
    assert [m.index for m in compile_js("x$", "gm").match_all("x\nx\rx")] == [0, 2, 4]
    assert [m.index for m in compile_js("^x", "gm").match_all("x\nx\u2029x")] == [0, 2, 4]


def test_nested_huge_counts_are_refused_instead_of_exhausting_memory() -> None:
    rx = compile_js("(?:a{1000}){1000}")  # valid JS; `regex` would unroll 10^6 repetitions
    with pytest.raises(JSUnsupportedError, match="unrolled repetitions"):
        rx.test("a")
    assert [(d.code, d.level) for d in quirks("(?:a{1000}){1000}")] == [("JSR-COUNT", "error")]
    assert compile_js("(?:ab){65535}").test("ab") is False
