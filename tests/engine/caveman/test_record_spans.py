"""An explanation records each match without building a JSMatch (``FastRegex.replace_spans``,
``RuleRunner._recorder``): the records and the result equal those of the JSMatch path
(``RuleRunner._replacer`` on ``FastRegex.replace``), on sparse and dense texts, astral
characters, sticky, non-global and mapped rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman.apply import RuleRun, RuleRunner
from engine.caveman.fastscan import FastRegex
from engine.caveman.packs import Rule

PATTERNS = [r"\bplease\s*", r"\b(?:very|really)\s+(?=[a-z])", r"o", r"\s+", r".", r"\bx\b", r"😀\s?"]
FLAGS = ["gi", "g", "gu", "i", "gy", "giu"]
MAPS = [None, {"please": "pls", "very ": ""}]


@st.composite
def rules(draw):
    mapping = draw(st.sampled_from(MAPS))
    return Rule(name="r", pattern=draw(st.sampled_from(PATTERNS)), flags=draw(st.sampled_from(FLAGS)),
                replacement=draw(st.sampled_from(["", "X", None])) if mapping else draw(st.sampled_from(["", "X"])),
                replacement_map=mapping, map_mode=draw(st.sampled_from(["pack", "fallback"])))


TEXT = st.lists(st.sampled_from(["please ", "Please", "very nice", "REALLY ", "x", "o", " ", "\n", "😀", "é"]),
                max_size=40).map("".join)


def jsmatch_path(rule: Rule, text: str):
    """What a recording run gave before: ``_replacer``'s callback on a JSMatch per match."""
    runner = RuleRunner()
    rx = FastRegex(rule.pattern, rule.flags)
    run = RuleRun(rule, text, text)
    run.after = rx.replace(text, runner._replacer(rule, rx, text, run), runner.budget(text))
    return run.after, [m.to_dict() for m in run.matches]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(rules(), TEXT, st.integers(0, 300))
def test_recorded_matches_equal_the_jsmatch_path(rule, text, repeat):
    text = text * (1 + repeat // 100)  # (some texts long enough for the planned scans)
    run = RuleRunner().apply(rule, text, record=True, rx=FastRegex(rule.pattern, rule.flags))
    assert (run.after, [m.to_dict() for m in run.matches]) == jsmatch_path(rule, text)


def test_a_large_text_takes_the_planned_path():
    text = "please do it, very nice. " * 400  # > FastRegex.MIN_LENGTH: anchored candidates
    rule = Rule(name="r", pattern=r"\bplease\s*", flags="gi", replacement="")
    run = RuleRunner().apply(rule, text, record=True, rx=FastRegex(rule.pattern, rule.flags))
    assert len(run.matches) == 400
    assert (run.after, [m.to_dict() for m in run.matches]) == jsmatch_path(rule, text)
