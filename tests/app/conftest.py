"""What every app test shares: no test's background work outlives it.

The IDE runs its jobs on the global ``QThreadPool``, some of them in long-lived helper processes
(``app.workers``). A test that closes its window while a helper still works for it (the 2 MB
file of ``ide/test_big_file_editing.py`` leaves seconds of validation behind) would hand the
next test a busy helper: that test's first job waits behind work nobody reads, and on a loaded
machine its wait times out. So after each test the helpers still busy are killed (their calls
fail, reported to windows that have gone; the next call starts a fresh helper) and the pool is
waited for, with the events that finish a job processed meanwhile: a dispatcher starts its
pending request when the job before it ends, so a closed window's queue drains the same way,
one killed job at a time, until the pool stays idle.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

IDLE_WITHIN_S = 60  # in-process jobs cannot be killed, only waited for


@pytest.fixture(autouse=True)
def _no_background_work_left_behind():
    yield  # (torn down after pytest-qt closed the test's widgets: its teardown hook does that first)
    from PySide6.QtCore import QCoreApplication, QThreadPool

    from app.workers import abort_busy_helpers

    pool = QThreadPool.globalInstance()
    deadline = time.monotonic() + IDLE_WITHIN_S
    while True:
        QCoreApplication.processEvents()  # finished jobs reported: their dispatchers start what was pending
        abort_busy_helpers()
        if pool.waitForDone(200):
            QCoreApplication.processEvents()
            if pool.activeThreadCount() == 0:
                return
        if time.monotonic() > deadline:
            pytest.fail(f"background jobs still running {IDLE_WITHIN_S} s after the test ended")
