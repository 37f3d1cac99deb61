"""Fast paths of the RTK preview that must not change a result: the run memo (reruns on the same
text reuse detection and filter-choice searches), the required-literal check in front of the
filter choice's whole-text searches, and the truncation trace stopping at the event cap."""

from __future__ import annotations

import threading

import pytest

from engine.jsregex import compile_js
from engine.rtk import select
from engine.rtk.engine import RtkConfig, process_rtk_text
from engine.rtk.memo import RunMemo, active_memo, using_memo
from engine.rtk.trace import MAX_EVENTS, Trace

from .helpers import make

FILTERS = [
    make("mytool", match={"patterns": ["^mytool \\d+ done$"]}, rules={"dropPatterns": ["^debug:"], "maxLines": 20}),
    make("other", match={"patterns": ["^other tool$"]}, rules={"maxLines": 5}),
    make("generic", match={"outputTypes": ["generic-output"]}, rules={"maxLines": 30, "headLines": 10,
                                                                      "tailLines": 10}),
]


def _log(n: int, tail: str = "mytool 3 done") -> str:
    return "\n".join([*(f"debug: step {i}" if i % 3 else f"line {i} ok" for i in range(n)), tail])


def _run(text: str, command: str | None = None, profile: str = "omniroute"):
    trace = Trace()
    result = process_rtk_text(text, command, RtkConfig.from_dict({"enabled": True}), FILTERS, profile=profile,
                              trace=trace)
    return result, trace.to_dict()


def _same(a, b) -> None:
    (ra, ta), (rb, tb) = a, b
    assert ra.text == rb.text
    assert ra.filter.id == rb.filter.id if ra.filter else rb.filter is None
    assert ra.detection == rb.detection
    assert [d.message for d in ra.diagnostics] == [d.message for d in rb.diagnostics]
    assert ta == tb


def test_memo_gives_the_same_results_and_is_reused_on_the_same_text():
    memo = RunMemo()
    text = _log(200)
    plain = _run(text)
    assert plain[0].filter.id == "mytool"
    with using_memo(memo):
        first = _run(text)
        assert memo.hits == 0
        second = _run(text[:-1] + text[-1])  # an equal text that is a different object
    assert memo.hits > 0
    _same(plain, first)
    _same(plain, second)
    assert active_memo() is None


def test_memo_starts_afresh_on_another_text_and_keeps_profiles_and_commands_apart():
    memo = RunMemo()
    a, b = _log(50), _log(50, tail="other tool")
    with using_memo(memo):
        ra = _run(a)
        rb = _run(b)
        rc = _run(b, "mytool build")
        rd = _run(b, profile="strict")
    assert ra[0].filter.id == "mytool" and rb[0].filter.id == "other"
    _same(rb, _run(b))
    _same(rc, _run(b, "mytool build"))
    _same(rd, _run(b, profile="strict"))


def test_a_remembered_detection_cannot_be_changed_through_a_result():
    memo = RunMemo()
    text = _log(20)
    with using_memo(memo):
        first = _run(text)[0]
        first.detection.matched_patterns.append("tampered")
        second = _run(text)[0]
    assert "tampered" not in second.detection.matched_patterns


def test_memo_is_per_thread_context():
    memo = RunMemo()
    seen: list[object] = []
    with using_memo(memo):
        worker = threading.Thread(target=lambda: seen.append(active_memo()))
        worker.start()
        worker.join()
        assert active_memo() is memo
    assert seen == [None]


def test_truncation_trace_stops_at_the_event_cap():
    text = _log(MAX_EVENTS + 500, tail="nothing to match")
    result, trace = _run(text)
    assert result.filter.id == "generic"
    stage = next(s for s in trace["stages"] if s["stage"] == "truncate")
    assert len(stage["events"]) == MAX_EVENTS and stage["eventsTruncated"] is True
    assert [e["line"] for e in stage["events"]] == sorted(e["line"] for e in stage["events"])
    assert stage["linesIn"] > stage["linesOut"]


@pytest.mark.parametrize("subject", [
    "INFO request 1 ok\nWARN slow 300 ms\n" * 400,
    "ERROR [SC2034] x.sh:3:1: warning: unused\n" + "noise line\n" * 600,
    "Straße ß ok\nFAIL pkg 0.2s\n" * 300,  # not ASCII: the case-insensitive check is left to the regex
    "a.sh:1:2: note: x [sc1000]\n" * 200,
    "noise\r" * 1000 + "warn: x\rok\n",  # CR starts a JS line too: the line-head check stands aside
    "noise\u2028Warn: x.sh:1 y\n" * 300,
    "short\nwarn 1 ok",  # below the size where the checks run
])
@pytest.mark.parametrize("source", [
    r"^\S+:\d+:\d+: \w+: .*\[SC\d{4}\]$", r"^(?:ok|FAIL)\s+\S+\s+[\d.]+s", r"Error:", r"\bslow \d+ ms",
    r"STRASSE", r"straße", r"^warn\b", r"^Warn: x", r"^o", r"x\.sh:\d", r"a|zzz", r"(?:zzz)?ok", r"^colou?r",
])
@pytest.mark.parametrize("flags", ["im", "m"])
def test_the_literal_checks_never_change_a_search(subject, source, flags):
    expected = compile_js(source, flags).search(subject) is not None
    assert select._search(source, flags, subject, []) is expected
    if select._lacks_a_literal(source, flags, subject):
        assert not expected


def test_an_absent_literal_or_line_head_rules_a_search_out_without_the_regex():
    subject = "INFO GET /api 200\n" * 1000
    assert select._lacks_a_literal(r"^\S+:\d+ DL\d{4} ", "im", subject)  # no " DL" anywhere
    assert select._lacks_a_literal(r"^GET /api", "im", subject)  # in the text, but no line starts with it
    assert not select._lacks_a_literal(r"^info get", "im", subject)  # present in another case
    assert select._lacks_a_literal(r"^info get", "m", subject)  # case-sensitive: absent
    assert not select._lacks_a_literal(r"^\S+ \d+$", "im", subject)  # nothing to check
    # a short subject too (a command: checked before the pattern is compiled)
    assert select._lacks_a_literal(r"^GET /api", "im", "INFO GET /api 200\n")
    assert select._lacks_a_literal(r"^cargo\s+test\b", "im", "pytest -x")
    assert not select._lacks_a_literal(r"^cargo\s+test\b", "im", "CARGO test")  # (i: the regex decides)
