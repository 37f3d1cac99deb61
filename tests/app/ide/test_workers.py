"""The one background-job dispatcher (``app.workers.Dispatcher``): busy/activity while a request
waits or runs, cancelling, and the helper-process lanes (separate processes, lower priority)."""

from __future__ import annotations

import os

import pytest
from PySide6.QtWidgets import QWidget

from app.workers import CHECKS_LANE, LANE_NICENESS, PREVIEWS_LANE, Dispatcher, Later
from engine.workspace.worker import ping

pytestmark = pytest.mark.gui


@pytest.fixture
def owner(qtbot) -> QWidget:
    """The dispatchers' parent; kept alive by the fixture for the whole test."""
    widget = QWidget()
    qtbot.addWidget(widget)
    return widget


def test_busy_covers_the_debounce_and_activity_brackets_the_work(qtbot, owner):
    jobs = Dispatcher(owner, debounce_ms=60)
    activity, running = [], []
    jobs.activity.connect(activity.append)
    jobs.busyChanged.connect(running.append)
    with qtbot.waitSignal(jobs.finished, timeout=5000) as done:
        jobs.request(lambda: "first")
        assert jobs.busy and not jobs.running  # waiting for the debounce, not started yet
    assert done.args[1] == "first"
    qtbot.waitUntil(lambda: not jobs.busy, timeout=5000)
    assert activity[0] == 1 and activity[-1] == 0
    assert running == [True, False]


def test_cancel_pending_forgets_the_request_and_says_nothing_is_left(qtbot, owner):
    jobs = Dispatcher(owner, debounce_ms=10_000)
    activity, results = [], []
    jobs.activity.connect(activity.append)
    jobs.finished.connect(lambda _job, result: results.append(result))
    jobs.request(lambda: "never")
    jobs.cancel_pending()
    qtbot.wait(50)
    assert not jobs.busy and activity == [1, 0] and results == []


def test_set_debounce_changes_the_wait(qtbot, owner):
    jobs = Dispatcher(owner, debounce_ms=10_000)
    jobs.set_debounce(0)
    with qtbot.waitSignal(jobs.finished, timeout=5000) as done:
        jobs.request(lambda: 42)
    assert done.args[1] == 42


def test_a_later_argument_is_worked_out_when_the_job_starts(qtbot, owner):
    """A debounced request's argument is read once, after the burst: the requests it replaced
    never read theirs."""
    jobs = Dispatcher(owner, debounce_ms=10_000)
    made: list[int] = []

    def make(n: int):
        return Later(lambda: made.append(n) or n * 10)

    for n in range(5):  # a burst of keystrokes
        jobs.request(lambda value: value + 1, make(n))
    assert made == []
    with qtbot.waitSignal(jobs.finished, timeout=5000) as done:
        jobs.set_debounce(0)
        jobs.request(lambda value: value + 1, make(5), immediate=True)
    assert made == [5] and done.args[1] == 51
    jobs.inline = True  # inline runs work it out at once
    with qtbot.waitSignal(jobs.finished, timeout=5000) as done:
        jobs.request(lambda value: value, make(7))
    assert made == [5, 7] and done.args[1] == 70


def test_each_lane_has_its_own_helper_process(qtbot, owner):
    pids = {}
    for lane in (CHECKS_LANE, PREVIEWS_LANE):
        jobs = Dispatcher(owner, process=True, lane=lane)
        with qtbot.waitSignal(jobs.finished, timeout=30000) as done:
            jobs.request(ping)
        pids[lane] = done.args[1]
    assert os.getpid() not in pids.values()
    assert pids[CHECKS_LANE] != pids[PREVIEWS_LANE]


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no process priorities on this platform")
@pytest.mark.parametrize("lane", [CHECKS_LANE, PREVIEWS_LANE])
def test_helpers_yield_the_cpu_to_the_gui(qtbot, owner, lane):
    jobs = Dispatcher(owner, process=True, lane=lane)
    with qtbot.waitSignal(jobs.finished, timeout=30000) as done:
        jobs.request(ping)
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    helper = os.getpriority(os.PRIO_PROCESS, done.args[1])
    assert LANE_NICENESS[lane] > 0
    assert helper == min(mine + LANE_NICENESS[lane], 19)


def test_a_failing_helper_job_is_reported_and_the_helper_keeps_serving(qtbot, owner):
    jobs = Dispatcher(owner, process=True, lane=PREVIEWS_LANE)
    with qtbot.waitSignal(jobs.failed, timeout=30000) as failed:
        jobs.request(os.path.getsize, "/nonexistent/rulewright-test-file")  # not an engine function
    assert "PermissionError" in failed.args[1]
    with qtbot.waitSignal(jobs.finished, timeout=30000) as done:
        jobs.request(ping)
    assert isinstance(done.args[1], int) and done.args[1] != os.getpid()


def test_aborting_a_busy_helper_fails_its_call_and_the_next_call_gets_a_fresh_helper():
    """What a test's teardown (``tests/app/conftest.py``) does to work nobody will read."""
    import threading
    import time

    from app.workers import ProcessWorker, WorkerProcessError
    from engine.o200k import count_o200k

    worker = ProcessWorker()
    try:
        first = worker.call(ping)
        outcome: list[object] = []

        def long_call() -> None:
            try:
                outcome.append(worker.call(count_o200k, "word " * 2_000_000))  # seconds of work
            except WorkerProcessError as exc:
                outcome.append(exc)

        thread = threading.Thread(target=long_call)
        thread.start()
        deadline = time.monotonic() + 10
        while not worker.busy and time.monotonic() < deadline:
            time.sleep(0.005)
        assert worker.busy
        worker.abort()
        thread.join(30)
        assert len(outcome) == 1 and isinstance(outcome[0], WorkerProcessError), outcome
        assert not worker.busy
        second = worker.call(ping)
        assert second != first and worker.pid() == second
    finally:
        worker.stop()
