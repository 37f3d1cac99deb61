"""Property-based invariants of the regex layer and of the UTF-16 helpers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.jsregex import compile_js
from engine.jsvalues import (
    from_utf16_units,
    py_to_utf16_index,
    to_utf16_units,
    utf16_len,
    utf16_to_py_index,
)

texts = st.text(alphabet=st.sampled_from("ab \n\r\u2028é😀ſKkß𐐀_1"), max_size=20)
PATTERNS = ["a", r"\w+", ".", "(a)|b", "x*", "", r"\b", "[^a]", "(?:)", r"\s*", "😀", "(a|)+"]


@given(texts)
def test_utf16_round_trips(s: str) -> None:
    units = to_utf16_units(s)
    assert len(units) == utf16_len(s)
    assert from_utf16_units(units) == s
    for i in range(len(s) + 1):
        u = py_to_utf16_index(s, i)
        assert utf16_to_py_index(s, u) == i


@settings(max_examples=60)
@given(texts, st.sampled_from(PATTERNS), st.sampled_from(["g", "gu", "gi", "gm", "giu", ""]))
def test_replace_with_whole_match_is_identity(s: str, pattern: str, flags: str) -> None:
    assert compile_js(pattern, flags).replace(s, "$&") == s


@settings(max_examples=60)
@given(texts, st.sampled_from(PATTERNS), st.sampled_from(["", "u", "i", "iu"]))
def test_matches_are_slices_of_the_input(s: str, pattern: str, flags: str) -> None:
    units = to_utf16_units(s)
    previous_end = -1
    for m in compile_js(pattern, flags).match_all(s):
        assert from_utf16_units(units[m.index:m.end]) == m.match
        assert m.index >= previous_end  # global iteration never goes back
        previous_end = m.end
        assert m.cp_index == len(from_utf16_units(units[:m.index]))


@settings(max_examples=60)
@given(texts, st.sampled_from(PATTERNS), st.sampled_from(["", "u"]))
def test_split_then_join_with_separators_restores_input(s: str, pattern: str, flags: str) -> None:
    rx = compile_js(pattern, flags)
    pieces = rx.split(s)
    if "(" in pattern or not s:
        return
    separators = [m.match for m in rx.match_all(s) if m.match]
    if len(separators) == len(pieces) - 1:
        rebuilt = pieces[0]
        for sep, piece in zip(separators, pieces[1:]):
            rebuilt += sep + piece
        assert from_utf16_units(rebuilt) == s  # JS concatenation pairs surrogates again


@given(st.text(max_size=12))
def test_escaped_literal_matches_itself(s: str) -> None:
    import re

    escaped = re.sub(r"[\\^$.*+?()[\]{}|/]", lambda m: "\\" + m.group(), s)
    m = compile_js(escaped, "u").exec(s)
    assert m is not None and m.index == 0 and m.match == from_utf16_units(s)
