"""engine.jsregex.starts: where matches start, how wide they are, which literals they hold —
checked against the matches the layer itself finds; and every analysis of a pattern reads the
one parse the translation made."""

from __future__ import annotations

import importlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import memo
from engine.jsregex import JSSyntaxError, compile_js, pattern_facts, quirks
from engine.jsregex import parser as jsparser
from engine.jsregex.backtracking import linear_attempts, linear_scan
from engine.jsregex.charset_led import charset_led_twin
from engine.jsregex.starts import (
    NOTHING_KNOWN,
    MatchStarts,
    match_starts,
    merge_anchors,
    start_facts,
    width,
    word_boundaries,
)
from engine.jsregex.subject import canonicalize
from engine.jsregex.translate import parsed_root
from engine.jsregex.variants import after_line_break, specialised

from .test_facts import PATTERN, SUBJECT

jstranslate = importlib.import_module("engine.jsregex.translate")  # (the package's `translate` is the function)


@pytest.mark.parametrize(("source", "flags", "expected"), [
    (r"\b(?:please|kindly)\s", "g", MatchStarts(
        ((frozenset({"please"}), 0, 0), (frozenset({"kindly"}), 0, 0)), boundary=True)),
    (r"(?:^|\s)\.{0,2}/x", "g", MatchStarts(((frozenset({"/x"}), 0, 3),))),  # 0-3 units before "/x"
    (r"^foo", "g", MatchStarts(((frozenset({"foo"}), 0, 0),), line_start="text")),
    (r"^foo", "gm", MatchStarts(((frozenset({"foo"}), 0, 0),), line_start="line")),
    (r"^\s*", "gm", MatchStarts(line_start="line")),
    (r"[ab]c?d", "g", MatchStarts(((frozenset({"ad", "acd", "bd", "bcd"}), 0, 0),))),
    (r".\d", "g", MatchStarts(((frozenset("0123456789"), 1, 1),))),
    (r"x*", "g", None),
    # an alternative that is a start kind: the group gives no anchor, the literal after it does
    (r"(?:a|^)b", "g", MatchStarts(((frozenset({"b"}), 0, 1),))),
])
def test_match_starts(source, flags, expected):
    assert start_facts(source, flags).starts == expected


@pytest.mark.parametrize(("source", "widths"), [
    ("abc", (3, 3)), ("a?b{2,4}", (2, 5)), ("a+", (1, None)), ("(?=x)y|zz", (1, 2)), (r"(a)\1", (1, None)),
    ("^$", (0, 0)),
])
def test_width(source, widths):
    assert width(parsed_root(source, "")) == widths


def test_invalid_or_refused_patterns_claim_nothing():
    assert start_facts("a(", "g") is NOTHING_KNOWN
    assert start_facts("(" * 6000 + ")" * 6000, "") is NOTHING_KNOWN


def test_merge_anchors_keeps_every_start_covered():
    merged = merge_anchors(((frozenset({"http://", "https://", "ftp://"}), 0, 0),))
    assert merged == ((frozenset({"://"}), 3, 5),)
    merged = merge_anchors(((frozenset({"summarise", "summarize", "sum"}), 2, 2),))
    assert merged == ((frozenset({"sum"}), 2, 2),)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ab_9 .-é\u017f\u212a\n", max_size=60))
def test_word_boundaries_equal_js_word_boundaries(text):
    expected = [m.index for m in compile_js(r"\b", "g").match_all(text)]
    assert word_boundaries(text, list(range(len(text) + 1))) == expected


def _units(text: str, flags: str) -> str:
    return canonicalize(text, False) if "i" in flags else text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PATTERN, st.sampled_from(["", "i", "m", "im"]), SUBJECT)
def test_every_match_starts_where_the_start_facts_say(source, flags, subject):
    """Non-``u`` flags, BMP subjects: offsets and literals are UTF-16 units, as the facts say."""
    subject = subject.replace("\U0001F600", "\u00e9")
    try:
        found = compile_js(source, flags + "g").match_all(subject)
    except JSSyntaxError:
        return
    facts = start_facts(source, flags)
    units = _units(subject, flags)
    for m in found:
        text, start = _units(m.match, flags), m.index
        if facts.min_width is not None:
            assert len(text) >= facts.min_width
        if facts.required_any is not None:
            assert any(literal in text for literal in facts.required_any), (facts.required_any, m.match)
        starts = facts.starts
        if starts is None:
            continue
        if starts.line_start == "text":
            assert start == 0
        if starts.line_start == "line":
            assert start == 0 or subject[start - 1] in "\n\r\u2028\u2029"
        if starts.boundary:
            assert word_boundaries(subject, [start]) == [start]
        for anchors in (starts.anchors, merge_anchors(starts.anchors)):
            if anchors:
                assert any(units.startswith(literal, start + k) for literals, lo, hi in anchors
                           for literal in literals for k in range(lo, hi + 1)), (anchors, m.match, start)


def test_match_starts_of_a_parsed_tree_equal_the_memoised_ones():
    source = r"\b(?:could|would) you(?: please)? (?=(?:explain|show|tell))"
    assert match_starts(parsed_root(source, "gi"), multiline=False) == start_facts(source, "gi").starts


def test_every_analysis_of_a_pattern_reads_one_parse(monkeypatch):
    """The translation, the facts, the start facts, the linearity proofs, the variants, the
    ``re`` twin and the quirk report of a pattern share its one (memoised) parse."""
    calls: list[str] = []
    real = jsparser.parse

    def counting(units, *args, **kwargs):
        calls.append(units)
        return real(units, *args, **kwargs)

    monkeypatch.setattr(jsparser, "parse", counting)  # (read by any later ``from .parser import parse``)
    monkeypatch.setattr(jstranslate, "parse", counting)
    source = r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])" + f"(?:qz{random.random()})?"
    compile_js(source, "gm")
    pattern_facts(source, "gm")
    start_facts(source, "gm")
    linear_attempts(source, "gm")
    linear_scan(source, "gm")
    specialised(source, "gm", lf_only=True, native_space=True)
    after_line_break(source, "gm", native_space=True)
    charset_led_twin(source, "g", compile_js(source, "g").translation.emitted)
    quirks(source, "gm")
    assert len(calls) == 1


def test_the_shared_parse_is_a_registered_bounded_memo():
    """Trees are kept for the most recent patterns only (a pattern typed in a live preview is a
    new one per keystroke), and ``engine.memo.clear`` lets go of all of them."""
    assert jstranslate.PARSE_CACHE_SIZE <= 1024
    parsed_root("kept" + str(random.random()), "")
    assert memo.sizes()["engine.jsregex.translate._parse_cached"] >= 1
    memo.clear()
    assert memo.sizes()["engine.jsregex.translate._parse_cached"] == 0
