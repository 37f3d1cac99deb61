"""The preview names the rules behind each change (``_attribute``) as its first, plain form did:
the matches overlapping the change, looked for among the 64 that start last before its end,
else among all of them (a far-reaching match)."""

from __future__ import annotations

import bisect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.workspace.previews.caveman_preview import RuleHit, _attribute
from engine.workspace.previews.word_diff import DiffOp


def plain_rules_for(marks: list[tuple[int, int, str]], a: int, b: int) -> list[str]:
    starts = [m[0] for m in marks]
    found: list[str] = []
    hi = bisect.bisect_right(starts, max(b, a + 1))
    for s, e, name in marks[max(0, hi - 64):hi]:
        if s < max(b, a + 1) and e >= a and name not in found:
            found.append(name)
    if not found:
        found = list(dict.fromkeys(name for s, e, name in marks if s < max(b, a + 1) and e >= a))
    return found


spans = st.lists(st.tuples(st.integers(0, 400), st.integers(0, 40)).map(lambda t: (t[0], t[0] + t[1])), max_size=90)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(spans, min_size=1, max_size=4), st.lists(st.tuples(st.integers(0, 450), st.integers(0, 8)), max_size=30))
def test_attribution_equals_the_plain_lookup(rule_spans, changes):
    hits = [RuleHit(f"r{i}", "c", "s", len(sp), True, True, "", 0, sp) for i, sp in enumerate(rule_spans)]
    diff = [DiffOp("delete", a, a + n, 0, 0) for a, n in changes]
    left, _right = _attribute(diff, hits)
    marks = sorted((s, e, h.name) for h in hits for s, e in h.spans)
    expected = [plain_rules_for(marks, op.a_start, op.a_end) for op in diff]
    assert [span.rule for span in left] == [names[0] if names else None for names in expected]
    assert [span.tip.removeprefix("removed by ") for span in left] == [
        ", ".join(names) if names else "cleanup (spacing, capitals, punctuation)" for names in expected]


def test_a_far_reaching_match_behind_many_short_ones_is_found():
    short = [(100 + 2 * i, 101 + 2 * i) for i in range(100)]  # none reaches the change at 400
    hits = [RuleHit("long", "c", "s", 1, True, True, "", 0, [(0, 500)]),
            RuleHit("short", "c", "s", 100, True, True, "", 0, short)]
    left, _right = _attribute([DiffOp("delete", 400, 405, 0, 0)], hits)
    assert [span.rule for span in left] == ["long"]
