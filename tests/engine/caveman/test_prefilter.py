"""The keyword prefilter (CAV-Q4) answers the same when the literal index's absent keys let it
skip keywords (ASCII texts only)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman.fast import LiteralIndex
from engine.caveman.prefilter import KEYWORDS, Prefilter

WORDS = ("please", "Please", "FOR EVERY", "for", "every", "as well as", "thanks", "the", "a", "sure", "i'll",
         "I'LL", " ", ", ", "\n", "ſ", "é", "K", "\u212a", "lso", "and a")
KEY = LiteralIndex.KEY


def absent_keys(text: str) -> frozenset[str]:
    """Every keyword's upper-cased key that does not occur in the upper-cased text (what the
    index knows after its pass)."""
    upper = text.upper()
    keys = {k.upper()[:KEY] for keywords in KEYWORDS.values() for k in keywords}
    return frozenset(key for key in keys if key not in upper)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=40))
def test_skipping_known_absent_keywords_gives_the_same_answers(words):
    text = "".join(words)
    plain = Prefilter(text)
    informed = Prefilter(text, absent_keys(text), KEY)
    for name in (*KEYWORDS, "articles", "custom"):
        assert informed.attempt(name) == plain.attempt(name), name
    lowered = text.lower()  # (and each is the keyword test itself)
    for name, keywords in KEYWORDS.items():
        assert plain.attempt(name) == any(k in lowered for k in keywords), name


def test_absent_keys_are_used_on_ascii_texts_only():
    ascii_text = "nothing to see here"
    assert not Prefilter(ascii_text, frozenset({"PLEASE"}), KEY)._may_occur("please")
    assert Prefilter(ascii_text, frozenset(), KEY)._may_occur("please")
    # upper() and lower() disagree beyond ASCII (the Kelvin sign lower-cases to k): never skip
    assert Prefilter("\u212aindly", frozenset({"KINDLY"}), KEY)._may_occur("kindly")
    assert Prefilter("\u212aindly", frozenset({"KINDLY"}), KEY).attempt("polite_framing")


def test_the_index_reports_its_absent_keys_for_the_text_it_looked_at():
    index = LiteralIndex(frozenset({"PLEASE", "KINDLY", "FOR THE PURPOSE OF"}))
    assert index.available
    text = "please do " * 4000  # (above the index's minimum length)
    assert index.absent_keys(text) == {"KINDLY", "FOR THE "}
    assert index.absent_keys("short") == frozenset()  # below the index's size: nothing known


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(("Please", "KINDLY", "thanks", "The", "an", "A", "x", " ", "\n", "é", "😀", "\u0130",
                                 "\u212a", "ınd", "very", "ı", "SURE", "Sure", "_a", "a_", "ä", "I'll", "I\u0307",
                                 "\ud800", "each and every", "Kindly")), max_size=30))
def test_keywords_found_in_the_lowered_bytes_as_in_the_lowered_text(words):
    # (the keywords are looked for in ASCII-lowered UTF-8 bytes unless İ or K would lower to ASCII)
    from engine.caveman.prefilter import _ARTICLE

    text = "".join(words)
    pre = Prefilter(text)
    lowered = text.lower()
    for name, keywords in KEYWORDS.items():
        assert pre.attempt(name) == any(k in lowered for k in keywords), name
    assert pre.attempt("articles") == (_ARTICLE.search(lowered) is not None)


def test_every_keyword_is_ascii_lower_case():
    # (what looking for them in ASCII-lowered bytes relies on)
    assert all(k.isascii() and k == k.lower() for keywords in KEYWORDS.values() for k in keywords)
