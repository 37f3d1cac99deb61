"""Where panel work runs (worker vs inline, newest answer wins) and docs-mode screenshots.

Panels use the IDE's one background-job dispatcher, :class:`app.workers.Dispatcher`."""

from __future__ import annotations

import argparse

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget

from app.playground.jobs import panel_jobs
from app.workers import Dispatcher

pytestmark = pytest.mark.gui


def test_an_older_worker_answer_never_replaces_a_newer_inline_one(qtbot):
    owner = QWidget()
    qtbot.addWidget(owner)
    jobs = Dispatcher(owner)
    seen = []
    jobs.finished.connect(lambda job, result: seen.append(result))
    activity = []
    jobs.activity.connect(activity.append)
    slow = jobs.request(lambda: ("old", __import__("time").sleep(0.3))[0])
    jobs.inline = True
    newest = jobs.request(lambda: "new")
    assert newest != slow and seen == ["new"]
    qtbot.waitUntil(lambda: not jobs.busy, timeout=5000)
    qtbot.wait(50)
    assert seen == ["new"]  # the worker's "old" was dropped
    assert activity[0] == 1 and activity[-1] == 0


def test_inline_failures_are_reported_not_raised(qtbot):
    owner = QWidget()
    qtbot.addWidget(owner)
    jobs = Dispatcher(owner, inline=True)
    errors = []
    jobs.failed.connect(lambda job, message: errors.append(message))
    jobs.request(lambda: 1 / 0)
    assert errors and errors[0].startswith("ZeroDivisionError")


@pytest.mark.slow
@pytest.mark.parametrize("panel", ["tests", "trust", "repair", "params"])
def test_docs_mode_screenshot_of_each_panel(qtbot, demo, tmp_path, panel):
    from app.main import launch

    png = tmp_path / f"{panel}.png"
    args = argparse.Namespace(screenshot=str(png), size="1400x900", workspace=str(demo), panel=panel)
    assert launch(args) == 0
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1400, 900)
    colours = {image.pixel(x, y) for x in range(0, 1400, 25) for y in range(0, 900, 25)}
    assert len(colours) > 8  # a rendered window, not a blank grab


def test_emits_cannot_exhaust_true_and_false(qtbot):
    """Every emit from Python drops a reference to True on PySide6 6.12 / CPython 3.11; a
    playground runs a job per keystroke, so the counts must be out of reach (app.qtfix, IDE-Q13).

    The reference counts of ``True`` and ``False`` are process-wide: other tests' threads and the
    cyclic collector move them too, by hundreds, while this test runs beside them. So the test
    does not compare one count before and after a few jobs; it asserts what must hold whatever
    else runs: where the toolkit leaks, both counts are at the immortal level before and after
    the jobs (nothing a session can drain); where it does not leak, the jobs drain no reference
    per job — measured over several rounds with the collector paused, a leak shows in every
    round, noise does not."""
    import sys

    from app import qtfix
    from engine.gcpause import gc_paused

    owner = QWidget()
    qtbot.addWidget(owner)
    jobs = Dispatcher(owner)
    done = []
    jobs.finished.connect(lambda job, result: done.append(result))
    jobs.activity.connect(lambda running: None)

    def run_jobs(count: int) -> None:
        for n in range(count):
            jobs.request(lambda n=n: n, immediate=True)
            qtbot.waitUntil(lambda: not jobs.busy, timeout=5000)
        assert done[-1] == count - 1

    out_of_reach = qtfix.IMMORTAL_REFCOUNT // 2
    if qtfix.emit_leaks_true():
        assert min(sys.getrefcount(True), sys.getrefcount(False)) > out_of_reach
        run_jobs(40)
        assert min(sys.getrefcount(True), sys.getrefcount(False)) > out_of_reach
        return
    jobs_per_round = 40
    drained: list[tuple[int, int]] = []
    for _round in range(3):
        with gc_paused():
            before = sys.getrefcount(True), sys.getrefcount(False)
            run_jobs(jobs_per_round)
            after = sys.getrefcount(True), sys.getrefcount(False)
        drained.append((before[0] - after[0], before[1] - after[1]))
    # a reference lost per job would drain at least ``jobs_per_round`` in every round
    assert min(t for t, _f in drained) < jobs_per_round and min(f for _t, f in drained) < jobs_per_round, drained
    assert min(sys.getrefcount(True), sys.getrefcount(False)) > 1000


def test_debounce_coalesces_a_burst_into_one_job(qtbot):
    owner = QWidget()
    qtbot.addWidget(owner)
    jobs = Dispatcher(owner, debounce_ms=80)
    calls = []
    with qtbot.waitSignal(jobs.finished, timeout=5000) as blocker:
        for n in range(5):
            jobs.request(lambda n=n: calls.append(n) or n)
    assert blocker.args[1] == 4 and calls == [4]


def test_panel_jobs_run_inline_only_in_docs_mode(qtbot):
    owner = QWidget()
    qtbot.addWidget(owner)
    docs = type("Window", (), {"docs_mode": True})()
    interactive = type("Window", (), {"docs_mode": False})()
    assert panel_jobs(owner, docs).inline and not panel_jobs(owner, interactive, debounce_ms=5).inline
