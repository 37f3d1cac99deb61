"""The pattern fields' colouring lexer: UTF-16 offsets, and it never fails on what is being typed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.jsregex.colouring import tokenize
from engine.jsvalues import utf16_len


def test_regex_tokens_use_utf16_offsets() -> None:
    tokens = tokenize("😀\\d+(?<n>x)|$")
    kinds = [(t.start, t.length, t.kind) for t in tokens]
    assert kinds[0] == (2, 2, "escape")  # after the emoji (2 units)
    assert (4, 1, "quantifier") in kinds and (5, 5, "group") in kinds and (13, 1, "anchor") in kinds


def test_incomplete_patterns_are_still_coloured() -> None:
    """The parser stops at the first error; colouring a half-typed pattern must not."""
    kinds = {t.kind for t in tokenize("(a|\\d+[^")}
    assert {"group", "alternation", "escape", "quantifier"} <= kinds


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("\\()[]{}^$|*+?.,:=!<>-0123456789abdkuwpP😀é\ud800 \n")), max_size=40))
def test_tokens_are_ordered_disjoint_and_inside_the_text(source: str) -> None:
    end = 0
    for token in tokenize(source):
        assert token.start >= end and token.length > 0
        end = token.start + token.length
    assert end <= utf16_len(source)
