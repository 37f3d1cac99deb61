"""JavaScript value semantics the engines rely on (jsregex.md §15): UTF-16 lengths, trim, Number, String, JSON, sort order."""

from __future__ import annotations

import functools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.jsvalues import (
    UNDEFINED,
    js_number,
    js_sort_key,
    js_trim,
    js_trim_end,
    js_trim_start,
    json_stringify,
    locale_compare,
    math_round,
    number_to_js_string,
    utf16_len,
)


def test_utf16_length() -> None:
    assert utf16_len("a😀") == 3 and utf16_len("") == 0 and utf16_len("\ud83d") == 1


def test_trim_uses_the_js_whitespace_set() -> None:
    assert js_trim("\ufeff\u00a0 x \u2028\u2029") == "x"
    assert js_trim("\u0085x\u200b") == "\u0085x\u200b"
    assert js_trim("\x1cx\x1f") == "\x1cx\x1f"
    assert js_trim_start("  x  ") == "x  " and js_trim_end("  x  ") == "  x"


@pytest.mark.parametrize(("text", "expected"), [
    ("", 0.0), ("  12  ", 12.0), ("0x1F", 31.0), ("0o17", 15.0), ("0b101", 5.0), (".5", 0.5), ("5.", 5.0),
    ("-Infinity", -math.inf), ("+5", 5.0), ("1e3", 1000.0), ("\u00a042\ufeff", 42.0),
])
def test_number(text: str, expected: float) -> None:
    assert js_number(text) == expected


@pytest.mark.parametrize("text", ["1_000", "12px", "-0x1", "0x", "Infinityx", "1e", "--1", "infinity"])
def test_number_nan(text: str) -> None:
    assert math.isnan(js_number(text))


def test_number_of_other_primitives() -> None:
    assert js_number(None) == 0 and js_number(True) == 1 and math.isnan(js_number(UNDEFINED))


@pytest.mark.parametrize(("value", "expected"), [
    (5.0, "5"), (-0.0, "0"), (0.1, "0.1"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
    (1e-7, "1e-7"), (0.000001, "0.000001"), (1.5e-6, "0.0000015"), (2**60, "1152921504606847000"),
    (123e-20, "1.23e-18"), (1.7976931348623157e308, "1.7976931348623157e+308"), (1 / 3, "0.3333333333333333"),
    (math.nan, "NaN"), (-math.inf, "-Infinity"), (42, "42"),
])
def test_number_to_string(value: float, expected: str) -> None:
    assert number_to_js_string(value) == expected


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_to_string_round_trips(x: float) -> None:
    assert js_number(number_to_js_string(x)) == x or x == 0


def test_json_stringify() -> None:
    value = {"b": 1, "2": [1.0, None, UNDEFINED, "\ud83d\u2028é"], "1": {}, "a": UNDEFINED, "c": []}
    assert json_stringify(value) == '{"1":{},"2":[1,null,null,"\\ud83d\u2028é"],"b":1,"c":[]}'
    assert json_stringify({"a": [1, {"b": 2}], "e": {}}, 2) == '{\n  "a": [\n    1,\n    {\n      "b": 2\n    }\n  ],\n  "e": {}\n}'
    assert json_stringify('x"\n\x01😀') == '"x\\"\\n\\u0001😀"'
    assert json_stringify(math.nan) == "null" and json_stringify(UNDEFINED) is None
    assert json_stringify([lambda: 1]) == "[null]"
    assert json_stringify({"a": 1}, "\t") == '{\n\t"a": 1\n}'


def test_sort_key_is_utf16_order() -> None:
    items = ["\uffff", "😀", "a", "\ue000"]
    assert sorted(items, key=js_sort_key) == ["a", "😀", "\ue000", "\uffff"]


def test_locale_compare_root_collation() -> None:
    words = ["b", "B", "a", "A", "á", "_a", "-a", ".a", "a1", "a_", "ab", "Ab", "résumé", "resume", "Resume"]
    ordered = sorted(words, key=functools.cmp_to_key(locale_compare))
    assert ordered == ["_a", "-a", ".a", "a", "A", "á", "a_", "a1", "ab", "Ab", "b", "B", "resume", "Resume",
                       "résumé"]
    assert locale_compare("a", "a") == 0 and locale_compare("ab", "a b") == 1


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("é", "è", -1),            # acute before grave on the accent level
    ("æ", "b", -1), ("æ", "ae", 1), ("ﬁ", "fi", 1), ("①", "1", 1), ("ı", "i", 1), ("oĳ", "oı", -1),
    ("😀", "0", -1), ("$", "😀", 1), ("\t", ":", -1), ("\u00a0a", " a", 1), ("\u0301", "", 1),
    ("ა", "Ա", -1), ("Ꭰ", "中", -1), ("가", "あ", -1), ("あ", "ア", -1), ("か", "ア", 1),
])
def test_locale_compare_beyond_ascii(a: str, b: str, expected: int) -> None:
    assert locale_compare(a, b) == expected
    assert locale_compare(b, a) == -expected


@pytest.mark.parametrize(("x", "expected"), [(2.5, 3), (-2.5, -2), (0.49999999999999994, 0), (-0.5, 0), (1.4, 1)])
def test_math_round(x: float, expected: int) -> None:
    assert math_round(x) == expected


def test_math_round_passes_non_finite_through() -> None:
    assert math.isnan(math_round(math.nan)) and math_round(math.inf) == math.inf


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("a\u00e9\u20ac\ud800\udc00\U0001f600\U0010ffff"), max_size=40))
def test_utf16_len_is_the_length_of_the_utf16_encoding(s):
    # (the size of the string's storage answers for texts without astral characters)
    from engine.jsvalues import utf16_len

    assert utf16_len(s) == len(s.encode("utf-16-le", "surrogatepass")) // 2


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("a é\u6100\ud800\udc00\U0001F600\U00010000"), max_size=40))
def test_holds_astral_is_exactly_a_character_beyond_the_bmp(s):
    from engine.jsvalues import holds_astral

    assert holds_astral(s) == any(ord(c) > 0xFFFF for c in s)


def test_utf16_len_of_long_texts_is_remembered_by_identity_only() -> None:
    from engine.jsvalues import LENGTH_MEMO_MIN, forget_lengths

    one = "a😀" * LENGTH_MEMO_MIN
    other = "😀" + "é" * (2 * LENGTH_MEMO_MIN - 1)  # same length in code points, other UTF-16 length
    third = "😀😀" + "b" * (2 * LENGTH_MEMO_MIN - 2)
    for _ in range(2):
        for s in (one, other, third, one):
            assert utf16_len(s) == len(s.encode("utf-16-le", "surrogatepass")) // 2
    forget_lengths()
    assert utf16_len(third) == 2 * LENGTH_MEMO_MIN + 2


def test_a_kept_length_outlives_forget_lengths_and_is_its_own() -> None:
    from engine import jsvalues as j

    kept = "😀" + "a" * j.LENGTH_MEMO_MIN
    same_text = "".join(["😀", "a" * j.LENGTH_MEMO_MIN])  # (equal, another object: measured anew)
    with j.length_kept(kept):
        assert j._remembered(kept) == -1  # (not measured yet)
        assert j.utf16_len(kept) == j.LENGTH_MEMO_MIN + 2
        j.forget_lengths()
        assert j._remembered(kept) == j.LENGTH_MEMO_MIN + 2 and j._remembered(same_text) == -1
        assert j.utf16_len(same_text) == j.LENGTH_MEMO_MIN + 2
        for other in ("😀" * j.LENGTH_MEMO_MIN, "é😀" * j.LENGTH_MEMO_MIN):  # (the two-text memo moves on)
            assert j.utf16_len(other) == len(other.encode("utf-16-le", "surrogatepass")) // 2
        assert j._remembered(kept) == j.LENGTH_MEMO_MIN + 2
    j.forget_lengths()
    assert j._remembered(kept) == -1  # (let go of after the block)
    with j.length_kept(same_text):  # (a length the memo holds already is kept from the start)
        pass
    assert j.utf16_len(same_text) == j.LENGTH_MEMO_MIN + 2
    with j.length_kept(same_text):
        assert j._remembered(same_text) == j.LENGTH_MEMO_MIN + 2
