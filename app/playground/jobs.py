"""Where a panel's computation runs: a pool thread normally, the GUI thread in docs mode.

The contract is :class:`app.workers.Dispatcher`'s (debounced, one job in flight, the newest
request wins, results delivered in the GUI thread), with fewer emits per job (no
``busyChanged``): PySide6/Shiboken 6.12 on CPython 3.11 drops a reference to ``True`` on every
``emit`` made from Python (IDE-Q13, neutralised by :mod:`app.qtfix`).

Docs mode (``rulewright gui --screenshot``) grabs the window once the workspace settles; running
the playgrounds inline there makes each screenshot show a finished, deterministic result and
leaves no pool thread alive when the process exits.
"""

from __future__ import annotations

import itertools
import time
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

_ids = itertools.count(1)


class _Relay(QObject):
    """Lives in the GUI thread; a pool thread emits through it (queued across threads)."""

    done = Signal(int, object, object)  # job id, result, error text (None when it worked)


class _Job(QRunnable):
    def __init__(self, job_id: int, fn: Callable[..., Any], args: tuple, relay: _Relay) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self.job_id, self.fn, self.args, self.relay = job_id, fn, args, relay

    def run(self) -> None:  # pool thread
        result, error = None, None
        try:
            result = self.fn(*self.args)
        except Exception as exc:  # reported in the panel, never raised in a pool thread
            error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
        try:
            self.relay.done.emit(self.job_id, result, error)
        except RuntimeError:  # the panel was deleted while the job ran
            pass


class PanelJobs(QObject):
    """Run ``fn(*args)`` for a panel: debounced, one at a time, only the newest answer delivered.

    ``finished(job, result)`` / ``failed(job, message)`` fire for the newest request only;
    ``activity(1)`` when a job is queued, ``activity(0)`` when none is left. With ``inline`` the
    function runs immediately in the calling (GUI) thread.
    """

    finished = Signal(int, object)
    failed = Signal(int, str)
    activity = Signal(int)

    def __init__(self, parent: QObject, *, debounce_ms: int = 0, inline: bool = False,
                 pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self.inline = inline
        self._pool = pool or QThreadPool.globalInstance()
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._running = 0  # id of the job in flight, 0 when idle
        self._pending: tuple[int, Callable[..., Any], tuple] | None = None
        self._latest = 0
        self.last_seconds = 0.0
        self._started = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._start_pending)

    @property
    def busy(self) -> bool:
        return self._running != 0 or self._pending is not None

    @property
    def latest_id(self) -> int:
        return self._latest

    def request(self, fn: Callable[..., Any], *args: Any, immediate: bool = False) -> int:
        """Queue ``fn(*args)``; returns its id. Replaces any request that has not started yet."""
        job = self._latest = next(_ids)
        if self.inline:
            self._pending = None
            self._run_inline(job, fn, args)
            return job
        self._pending = (job, fn, args)
        self.activity.emit(1)
        if immediate or self._timer.interval() == 0:
            self._timer.stop()
            self._start_pending()
        else:
            self._timer.start()
        return job

    def cancel_pending(self) -> None:
        """Forget a request that has not started; a running job still delivers its answer."""
        self._timer.stop()
        self._pending = None
        if not self._running:
            self.activity.emit(0)

    def _run_inline(self, job: int, fn: Callable[..., Any], args: tuple) -> None:
        start = time.perf_counter()
        try:
            result = fn(*args)
        except Exception as exc:  # shown in the panel, as a worker failure would be
            self.last_seconds = time.perf_counter() - start
            self.failed.emit(job, f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}")
        else:
            self.last_seconds = time.perf_counter() - start
            self.finished.emit(job, result)

    @Slot()
    def _start_pending(self) -> None:
        if self._running or self._pending is None:
            return
        job, fn, args = self._pending
        self._pending = None
        self._running = job
        self._started = time.perf_counter()
        self._pool.start(_Job(job, fn, args, self._relay))

    @Slot(int, object, object)
    def _on_done(self, job: int, result: object, error: object) -> None:
        self._running = 0
        self.last_seconds = time.perf_counter() - self._started
        if job == self._latest:
            if error is None:
                self.finished.emit(job, result)
            else:
                self.failed.emit(job, str(error))
        if self._pending is not None and not self._timer.isActive():
            self._start_pending()
        if not self.busy:
            self.activity.emit(0)


def docs_mode(window: Any) -> bool:
    return bool(getattr(window, "docs_mode", False))
