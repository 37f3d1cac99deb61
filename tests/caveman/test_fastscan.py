"""FastRegex must give exactly engine.jsregex's results, on texts large enough to be planned."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman.fastscan import FastRegex, occurrences, plan_for
from engine.caveman.preservation import PATTERN_KINDS
from engine.jsregex import compile_js

WORDS = ("please", "Please", "the", "The", "a", "an", "really", "very", "basically", "I'd", "id", "be", "happy",
         "to", "help", "x.y(", "foo(bar)", "MAX_RETRY", "v1.2.3", "2.4.1", "`code`", "http://a.io/x",
         "./src/a.ts", "$HOME", "# Head", "| a |", "\n", "\n\n", ",", ".", "é", "ünï", "\u2028", "  ", "\t")
ODD = ("ß", "ſ", "ı", "\u212a", "😀", "\ud83d")  # canonical-case oddities, an astral char, a lone surrogate

PATTERNS = [
    (r"\b(?:please|kindly|could you please)\b\s*", "gi"),
    (r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", "g"),
    (r"(?<!make\s)(?<!be\s)\b(?:i'?d be happy to|happy to|sure)\b[,.!?\s]*", "gi"),
    (r"^(?:i'?d|let me)\s+(?=[a-z])", "gim"),
    (r"^(?:really|basically)\s*", "gi"),
    (r"(?:^|\s)(\.{0,2}/[\w./\-]+)", "g"),
    (r"\b(?:very|really)\s+", "i"),
    (r"x*", "g"),
    (r"(?=a)|b", "g"),
    (r"[.,]\s*", "g"),
    (r"\b(?:strasse|ſun|kelvin)\b", "gi"),
    (r"\b(?:pleaſe|happy)\b", "giu"),
    (r"[\s\S]", "g"),
] + [(k.source, k.flags) for k in PATTERN_KINDS]


def big_text(seed: int, size: int = 6000, odd: bool = False) -> str:
    rng = random.Random(seed)
    words = WORDS + ODD if odd else WORDS
    out, n = [], 0
    while n < size:
        w = rng.choice(words)
        out.append(w + rng.choice(("", " ", " ", " ")))
        n += len(out[-1])
    return "".join(out)


@pytest.mark.parametrize("seed, odd", [(0, False), (1, False), (2, False), (3, True), (4, True), (5, True)])
def test_planned_and_direct_paths_equal_jsregex(seed, odd):
    text = big_text(seed, odd=odd)
    for source, flags in PATTERNS:
        fast = FastRegex(source, flags)
        for repl in ("<$&>", "", "[$1]", "a\\b\\g<0>\\1"):
            assert fast.replace(text, repl) == compile_js(source, flags).replace(text, repl), (source, flags, repl)
        assert fast.replace(text, lambda m: m.match.upper()) == \
            compile_js(source, flags).replace(text, lambda m: m.match.upper())
        expected = compile_js(source, flags).search(text)
        got = fast.search(text)
        assert (got and (got.index, got.match)) == (expected and (expected.index, expected.match))


def test_kinds_with_their_own_candidate_finders():
    text = big_text(11, 20000)
    for kind in PATTERN_KINDS:
        assert kind.compile().replace(text, "<$&>") == compile_js(kind.source, kind.flags).replace(text, "<$&>")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=800, max_size=1500))
def test_random_texts(words):
    text = " ".join(words)
    for source, flags in PATTERNS[:7]:
        assert FastRegex(source, flags).replace(text, "_") == compile_js(source, flags).replace(text, "_")


def test_plans():
    assert plan_for(r"\b(?:please|kindly)\b", "gi").anchors == ((frozenset({"PLEASE", "KINDLY"}), 0, 0),)
    # literals sharing six characters scan as their common prefix; an extension of another goes
    assert plan_for(r"\b(?:i would be happy|i would be glad|however|however,)", "gi").anchors == (
        (frozenset({"I WOULD BE ", "HOWEVER"}), 0, 0),)
    assert plan_for(r"^\s*Error:", "g").start == "text"
    assert plan_for(r"x", "gy") is None and plan_for(r"\w+", "g") is None
    assert plan_for(r"(?:^|\s)\.{0,2}/x", "g").anchors == ((frozenset({"/x"}), 0, 3),)


def test_occurrences_include_overlaps():
    assert occurrences("aaaa", "aa") == [0, 1, 2]
    assert occurrences("abcab", "ab") == [0, 3]
    assert occurrences("abc", "z") == []


TEMPLATES = ["$1", "$2-$1", "$&$&", "$`|", "|$'", "$$", "$<n>", "$<nope>", "$<n", "$10", "$01", "$0", "$3",
             "plain", "$", "a$", "$$1", "$<"]


@pytest.mark.parametrize("source", [r"(\w)(\w)?", r"(?<n>\w+)\s", r"x(\d)(\d)(\d)(\d)(\d)(\d)(\d)(\d)(\d)(\d)?"])
def test_expand_template_matches_jsregex(source):
    from engine.caveman.apply import expand_template

    text = "ab c😀 x1234567890 é"
    for template in TEMPLATES:
        rx = compile_js(source, "g")
        expected = rx.replace(text, template)
        mine = compile_js(source, "g")
        assert mine.replace(text, lambda m, t=template, r=mine: expand_template(t, m, text, r)) == expected, template
