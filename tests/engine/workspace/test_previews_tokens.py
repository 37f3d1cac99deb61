"""The word diff's tokens tile the text: their starts are the running sum of their lengths."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.workspace.previews.word_diff import _TOKEN, _tokens


def plain_tokens(text: str, base: int) -> tuple[list[str], list[int]]:
    words, starts = [], []
    for m in _TOKEN.finditer(text):
        words.append(m.group())
        starts.append(base + m.start())
    starts.append(base + len(text))
    return words, starts


@given(st.text(alphabet=st.sampled_from("ab_1 \t\n.,!é😀\u00a0\u2028"), max_size=60), st.integers(0, 50))
def test_tokens_equal_their_matches(text, base):
    assert _tokens(text, base) == plain_tokens(text, base)
