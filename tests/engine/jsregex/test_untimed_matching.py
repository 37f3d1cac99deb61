"""Untimed matching (engine.jsregex.backtracking, anchored, twin): same matches as the timed
`regex` calls, and only for patterns whose attempts cannot stall."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.jsregex import compile_js
from engine.jsregex.anchored import anchored_spans
from engine.jsregex.backtracking import linear_attempts, linear_scan
from engine.jsregex.twin import re_twin

LINEAR = [
    (r"\b(?:please|kindly|could you please)\b\s*", "gi"),
    (r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", "g"),
    (r"(?<!make\s)(?<!be\s)\b(?:i'?d be happy to|happy to|sure)\b[,.!?\s]*", "gi"),
    (r"^(?:i'?d|let me)\s+(?=[a-z])", "gim"),
    (r"\b(?:very|really)\s+", "i"),
    (r"[.,]\s*", "g"),
    (r"`[^`\n]+`", "g"),
    (r"\bx\B", "gi"),
    (r"a{2,5}b?", "g"),
    (r"\s*x", "g"),
    (r"x*", "g"),
    (r"\$(?![\s$0-9])(?:\\.|[^$\n\\]){1,3}?\$", "g"),
    # several unbounded repeats, each deterministic (what follows cannot start with its class)
    (r"\b[A-Za-z_$][A-Za-z0-9_$]*\s*\([^()\n]*\)", "g"),
    (r",\s*and also\s+|,\s*as well as\s+", "gi"),
    (r"x*y*", "g"),
    # repeated groups: one way through the body, whose first character decides each iteration
    (r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", "g"),
    (r"\b\d+(?:\.\d+){1,3}(?:[-+][A-Za-z0-9.-]+)?\b", "g"),
    (r"\b[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+\(\)?", "g"),
    (r"(?:x\s*)+y", "gi"),
    (r"(?:_a+){3}_", "g"),  # a fixed count: no choice between iterating and stopping
]
NOT_LINEAR = [
    (r"(a|aa)+", "g"),
    (r"(?:(a|aa)+)+c", "g"),
    (r"\s*\s*x", "g"),
    (r"(\w)\1", "g"),
    (r"(?:a+)+b", "g"),
    (r"(?=a*)a*b", "g"),
    (r"(?:a|b|c|d){1,40}", "g"),
    (r"\b(?:here is my code)\b\s*[:.]?\s*", "gi"),  # \s* then an optional [:.] then \s* again
    (r"a\s*b[^c]*d", "g"),  # [^c] can take the d that must follow
    (r"[a-z]*[a-z]*", "g"),
    (r"(?:ab)+a", "g"),  # another iteration and what follows both start with a
    (r"(?:_a+)+_", "g"),  # a+ gives an a back to... nothing, but _ may start both ways
    (r"(?:_[a-z]+)+[a-z]", "g"),  # the inner run can give back what follows the group
    (r"(?:x\s*){2,}x", "g"),
    (r"(?:a|b)+", "g"),  # two ways through the body
    (r"(?:a?)+b", "g"),  # a body that can match empty
    (r"(?:(?:_a+)+a)+", "g"),
]


@pytest.mark.parametrize("source, flags", LINEAR)
def test_linear_attempts(source, flags):
    assert linear_attempts(source, flags)


@pytest.mark.parametrize("source, flags", NOT_LINEAR)
def test_not_linear_attempts(source, flags):
    assert not linear_attempts(source, flags)
    assert not linear_scan(source, flags)


def test_deterministic_repeats_stay_linear_on_long_runs():
    source = r"\b[A-Za-z_$][A-Za-z0-9_$]*\s*\([^()\n]*\)"
    assert linear_attempts(source, "g") and not linear_scan(source, "g")  # attempts only
    t = compile_js(source, "g").translation
    twin = re_twin(t.emitted)
    subject = "a" * 200_000 + " " * 200_000 + "(" + "x" * 200_000  # every repeat runs long, then fails
    started = time.process_time()
    assert anchored_spans(twin, subject, [0], None, linear=True) == []
    assert time.process_time() - started < 1.0


def test_deterministic_repeated_groups_stay_linear_on_long_runs():
    source = r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"
    assert linear_attempts(source, "g") and not linear_scan(source, "g")  # attempts only
    twin = re_twin(compile_js(source, "g").translation.emitted)
    assert twin is not None
    # many iterations, each with a long run, and a word character at the end: every run gives
    # its characters back before the attempt fails
    subject = "A" + "_ABCDEFGH1" * 40_000 + "x"
    started = time.process_time()
    assert anchored_spans(twin, subject, [0], None, linear=True) == []
    assert time.process_time() - started < 1.0


def test_linear_scan_needs_runs_to_start_after_another_character():
    assert linear_scan(r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", "g")  # a letter before the blanks
    assert linear_scan(r"`[^`\n]+`", "g")
    assert linear_scan(r"a{2,5}b?", "g")  # no unbounded repeat
    assert not linear_scan(r"\s*x", "g")  # every blank of a run starts its own attempt
    assert not linear_scan(r"x*", "g")
    assert not linear_scan(r"a?\s*", "g")  # the character before may be missing
    assert not linear_scan(r"(?:a|\s)\s*", "g")  # ... or be a blank itself
    assert not linear_scan(r"\b(?:very|really)\s+", "u")  # u/v: not claimed
    assert not linear_scan(r"ab*c*", "g")  # two repeats: the runs after the first may overlap


def test_a_stalling_pattern_is_never_linear():
    # each of these takes seconds on a few dozen characters when nothing stops it
    for source in (r"(a|aa)+$", r"(?:a*)*b", r"(a|a)*c", r"\s*\s*\s*\s*$"):
        assert not linear_attempts(source, "g")


def test_twins_exist_only_for_plain_translations():
    assert re_twin(compile_js(r"\b(?:very|really)\s+", "gi").translation.emitted) is not None
    assert re_twin(compile_js(r"(a|b)+c", "g").translation.emitted) is None  # repeated group names
    assert re_twin(r"\p{L}") is None  # a `regex` property class
    assert re_twin(r"(?<=a+)b") is None  # variable-length lookbehind
    assert re_twin(r"[[a]") is None  # `re` warns about a possible nested set


WORDS = ("please", "Please", "the", "The", "a", "an", "really", "very", "I'd", "be", "happy", "to",
         "sure", "let me", "x", "`code`", "$a$", "$", "\\", "aa", "aaab", ",", ".", " ", "  ", "\n", "\t",
         "MAX", "_RETRY", "_", "2", "1.4", ".0", "-rc", "+b", "obj", ".get", "(", ")", "y",
         "é", "ß", "ſ", "\u2028", "\u00a0", "😀")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=80), st.sampled_from(LINEAR))
def test_twin_and_untimed_loop_find_the_timed_matches(words, pattern):
    source, flags = pattern
    text = "".join(words)
    t = compile_js(source, flags).translation
    twin = re_twin(t.emitted)
    if twin is None:
        return
    subject = text.upper() if t.ignore_case else text  # a stand-in subject: both engines see the same one
    expected = [m.span() for m in t.compiled.finditer(subject)]
    if linear_scan(source, flags) and t.nullable is False:
        assert [m.span() for m in twin.finditer(subject)] == expected
    positions = range(len(subject) + 1)
    timed = anchored_spans(t.compiled, subject, positions, 1.0, linear=False)
    assert anchored_spans(twin, subject, positions, 1.0, linear=True) == timed
    assert anchored_spans(t.compiled, subject, positions, None, linear=True) == timed


def test_the_untimed_loop_keeps_the_budget_of_the_whole_call():
    t = compile_js(r"\bx\s*", "g").translation
    subject = "x " * 200_000
    positions = list(range(0, len(subject), 2))
    with pytest.raises(TimeoutError):
        anchored_spans(t.compiled, subject, positions, 0.0005, linear=True)


def test_the_timed_loop_stops_a_stalling_call():
    t = compile_js(r"\bfoo(?:(a|aa)+)+c", "g").translation
    subject = "foo" + "a" * 40 + "b"
    started = time.perf_counter()
    with pytest.raises(TimeoutError):
        anchored_spans(t.compiled, subject, [0], 0.02, linear=False)
    assert time.perf_counter() - started < 2
