"""engine.caveman.required: the literals every match holds, and the rule skipping they allow
(FastRegex on a large text equals the plain JavaScript-regex replace)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman.fast import FastRegex
from engine.caveman.required import required_literals
from engine.jsregex import RegexTimeout, compile_js, get_default_timeout, set_default_timeout


@pytest.mark.parametrize(("source", "flags", "expected"), [
    (r"\b(?:(?:can|could) you )?(?:please )?(?:give|write)(?: me)? (?:a|the) (?:(?:brief|full) )*summary\b", "gi",
     {"SUMMARY"}),  # the optional words at the start require nothing; the noun is the evidence
    (r"(?:(?<=[^\s]\s*)|(?!x))(?:\bi hope (?:this|that) helps|happy coding)", "gi",
     {"I HOPE THIS HELPS", "I HOPE THAT HELPS", "HAPPY CODING"}),  # (an alternation of words joins its stretch)
    (r"(?:abc)?def", "g", {"def"}),
    (r"x(?=yyyy)zzz", "g", {"xzzz"}),  # (a lookahead requires nothing, and consumes nothing between)
    (r"(a)bcd\1", "g", {"abcd"}),
    (r"^\s*(Error|TypeError|RangeError):", "gm", {"Error:"}),  # (each holds "Error:")
    (r"(?:abc)?def", "gi", {"DEF"}),  # (a text holding another of the set is left out)
    (r"\b(?:a|an|the)\s+x", "g", None),  # (no stretch of three characters or more)
    (r"[ab]cde", "gi", {"CDE"}),  # case-folded images, as the subject under i
    ("caf\u00e9s", "gi", {"CAF\u00c9S"}),
    (r"ab+c", "g", None),  # runs never cross a repeat; shorter than 3: not kept
    (r"abc|de", "g", None),  # one alternative requires nothing worth a search
    (r"abcd", "gu", None),
    (r"abcd", "gy", None),
])
def test_required_literals(source, flags, expected):
    found = required_literals(source, flags)
    assert (None if found is None else set(found)) == expected


PIECES = ["(?:please )?", "(?:give|write) ", "summary", "(?:very )*", "\\bhelp", "caf\u00e9", "[ab]", "list",
          "(?<=\\s)", "(?!x)", "(?:summary|list)", "\\s+", "(?:ab)+", "x?", "(?:notes )?"]
WORDS = ["please ", "give ", "write ", "a ", "Summary", "SUMMARY ", "summary", "list", "LIST ", "caf\u00e9 ",
         "CAF\u00c9", "help", " ", "\n", "x", "very ", "ab", "notes "]


# openings that leave no start plan (unbounded width before any literal), so the required
# literals are what rules the text out
OPENINGS = ["", "(?:very )*", "\\s*", "(?:[a-z]+ )?", "[a-z]*"]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(OPENINGS), st.lists(st.sampled_from(PIECES), min_size=1, max_size=5),
       st.sampled_from(["g", "gi", "gim"]), st.lists(st.sampled_from(WORDS), min_size=1, max_size=12),
       st.sets(st.sampled_from(WORDS), max_size=4))
def test_fast_replace_with_required_literals_equals_the_plain_replace(opening, pieces, flags, words, dropped):
    source = opening + "".join(pieces)
    unit = "".join(w for w in words if w not in dropped) or " "
    text = unit * (4200 // len(unit) + 1)  # above FastRegex.MIN_LENGTH: the planned path
    # Both sides get the same generous budget: some shapes are quadratic on this text
    # ([a-z]*\s+ on a text without spaces), and a 250 ms budget made the comparison depend on
    # how busy the machine was (the plain path finishing just inside it, the planned one not).
    before = get_default_timeout()
    set_default_timeout(5.0)
    try:
        try:
            expected = compile_js(source, flags).replace(text, "<$&>")
        except RegexTimeout:  # pathological even with 5 s: nothing to compare
            return
        assert FastRegex(source, flags).replace(text, "<$&>") == expected
    finally:
        set_default_timeout(before)


def test_a_rule_whose_required_word_is_absent_is_skipped_without_a_scan():
    fast = FastRegex(r"\b(?:please )?(?:give|write) (?:a|the) (?:brief )*summary\b", "gi")
    text = "please write a brief note. " * 400
    assert fast.required == {"SUMMARY"}
    assert fast.cannot_match(text)
    assert fast.replace(text, "") == text
    assert not fast.cannot_match(text + "write a summary")
