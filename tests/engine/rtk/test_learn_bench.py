"""The learn benchmark's corpus, and its central promise on it: nothing lost on held-out runs."""

from __future__ import annotations

import pytest

from bench.learn_corpus import GENERATORS, PLAN, corpus
from engine.rtk.engine import process_rtk_text
from engine.rtk.learn import learn_filter
from engine.rtk.model import parse_filter
from engine.rtk.signal import missing_lines, must_survive


def test_the_corpus_is_seeded_and_covers_fifteen_commands_with_failures_and_successes():
    assert len(GENERATORS) >= 15
    first, again = list(corpus(7)), list(corpus(7))
    assert first == again and first != list(corpus(8))
    for name, _, runs in first:
        assert [failing for _, failing in runs] == list(PLAN)
        assert all(text.strip() for text, _ in runs), name
        assert any(must_survive(text) for text, failing in runs if failing), f"{name}: failing runs show errors"


@pytest.mark.slow
@pytest.mark.parametrize("seed", [20, 3])
def test_learned_filters_keep_every_signal_line_of_held_out_runs(seed):
    for name, command, runs in corpus(seed):
        result = learn_filter([text for text, _ in runs[:3]], command)
        assert result.proof.passed, name
        flt, _ = parse_filter(result.filter, source="project")
        for text, _ in runs[3:]:
            out = process_rtk_text(text, command, {"enabled": True}, [flt]).text
            assert missing_lines(text, out) == [], name
