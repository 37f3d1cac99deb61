"""Background work without blocking the GUI thread: one job in flight, latest wins, job ids.

This is novelWriter's runnables pattern (``WordCounterDispatcher``): a dispatcher ``QObject``
owns a busy flag and at most one running ``QRunnable`` on the global ``QThreadPool``. While a
job runs, only the newest request is kept (older pending ones are coalesced away). Each request
gets a monotonically increasing id; results come back through a queued signal and the receiver
drops those whose id is not the newest (jqplay's ``runId``). Threads cannot be killed, so the
work itself must be bounded (regex timeouts).

Part 2 reuses :class:`Dispatcher` for previews and test runs.
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
    """Lives in the GUI thread; the runnable emits through it (queued across threads)."""

    done = Signal(int, object, object, float)  # job id, result, error text, seconds


class _Job(QRunnable):
    def __init__(self, job_id: int, fn: Callable[..., Any], args: tuple, relay: _Relay) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self.job_id, self.fn, self.args, self.relay = job_id, fn, args, relay

    def run(self) -> None:  # worker thread
        start = time.perf_counter()
        result, error = None, None
        try:
            result = self.fn(*self.args)
        except Exception as exc:  # reported to the GUI, never raised in a pool thread
            error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
        try:
            self.relay.done.emit(self.job_id, result, error, time.perf_counter() - start)
        except RuntimeError:  # the dispatcher was deleted (window closed) while we ran
            pass


class Dispatcher(QObject):
    """Runs ``fn(*args)`` off the GUI thread, one at a time, newest request wins.

    ``finished(job_id, result)`` fires only for the newest request's job; ``failed(job_id,
    message)`` when it raised. ``debounce_ms`` > 0 delays the start so a burst of keystrokes
    becomes one job.
    """

    finished = Signal(int, object)
    failed = Signal(int, str)
    busyChanged = Signal(bool)

    def __init__(self, parent: QObject | None = None, *, debounce_ms: int = 0,
                 pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self._pool = pool or QThreadPool.globalInstance()
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._busy = False
        self._pending: tuple[int, Callable[..., Any], tuple] | None = None
        self._latest = 0
        self.last_seconds = 0.0
        self.dropped = 0  # results that arrived for a superseded request
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(debounce_ms)
        self._timer.timeout.connect(self._start_pending)

    @property
    def busy(self) -> bool:
        return self._busy

    @property
    def latest_id(self) -> int:
        return self._latest

    def request(self, fn: Callable[..., Any], *args: Any, immediate: bool = False) -> int:
        """Queue ``fn(*args)``; returns its job id. Replaces any request not started yet."""
        job_id = next(_ids)
        self._latest = job_id
        self._pending = (job_id, fn, args)
        if immediate or self._timer.interval() == 0:
            self._timer.stop()
            self._start_pending()
        else:
            self._timer.start()
        return job_id

    def cancel_pending(self) -> None:
        self._timer.stop()
        self._pending = None

    @Slot()
    def _start_pending(self) -> None:
        if self._busy or self._pending is None:
            return
        job_id, fn, args = self._pending
        self._pending = None
        self._busy = True
        self.busyChanged.emit(True)
        self._pool.start(_Job(job_id, fn, args, self._relay))

    @Slot(int, object, object, float)
    def _on_done(self, job_id: int, result: object, error: object, seconds: float) -> None:
        self._busy = False
        self.last_seconds = seconds
        if job_id == self._latest:
            if error is None:
                self.finished.emit(job_id, result)
            else:
                self.failed.emit(job_id, str(error))
        else:
            self.dropped += 1
        if self._pending is not None and not self._timer.isActive():
            self._start_pending()
        if not self._busy:
            self.busyChanged.emit(False)
