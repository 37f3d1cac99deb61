"""The preview's run memo: reruns on the same text reuse detection and filter-choice searches and
give exactly the results of a run without it; the truncation trace stops at the event cap."""

from __future__ import annotations

import threading

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
