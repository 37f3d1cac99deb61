"""Background work without blocking the GUI thread: one job in flight, latest wins, job ids.

This is novelWriter's runnables pattern (``WordCounterDispatcher``): a dispatcher ``QObject``
owns a busy flag and at most one running ``QRunnable`` on the global ``QThreadPool``. While a
job runs, only the newest request is kept (older pending ones are coalesced away). Each request
gets a monotonically increasing id; results come back through a queued signal and the receiver
drops those whose id is not the newest (jqplay's ``runId``). Threads cannot be killed, so the
work itself must be bounded (regex timeouts).

Heavy pure-Python work (validating a 2 MB filter file runs jsonschema and the RTK model over
thousands of filters for seconds) does not only compete for the GIL: its garbage collections
stop *every* thread for as long as they take. ``Dispatcher(process=True)`` therefore runs the
function in a helper *process* (long-lived, reused, see :class:`ProcessWorker`); the pool thread
merely waits for the answer with the GIL released. Helpers come in *lanes*: workspace checks
(scan, validation) share the ``checks`` helper, live previews have their own ``previews``
helper so a preview never queues behind a validation that takes seconds.

Every background job of the IDE goes through :class:`Dispatcher`: the editor's parse and
validation, the workspace scan, highlighting, the previews and the playground panels.
"""

from __future__ import annotations

import atexit
import itertools
import os
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from app.timers import single_shot
from engine.workspace.worker import read_message, write_message

_ids = itertools.count(1)


GUI_SWITCH_INTERVAL_S = 0.001


def tune_for_gui() -> None:
    """Let the GUI thread get the GIL back within ~1 ms (CPython's default is 5 ms).

    Every call from Qt into Python re-acquires the GIL; with a busy worker thread each of those
    can wait a full switch interval, and a paint or a form build makes dozens of them.
    """
    if sys.getswitchinterval() > GUI_SWITCH_INTERVAL_S:
        sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)


def lower_priority(pid: int, niceness: int) -> bool:
    """Give process ``pid`` a CPU priority ``niceness`` steps below ours; False where unsupported.

    A helper that validates a 2 MB file for seconds competes for one of the machine's (two)
    cores; at a lower priority the scheduler runs the GUI thread as soon as it wakes, and an idle
    GUI still leaves the helper the whole core.
    """
    if niceness <= 0 or not hasattr(os, "setpriority"):
        return False
    try:
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        os.setpriority(os.PRIO_PROCESS, pid, min(ours + niceness, 19))
    except OSError:  # the helper already ended, or the platform refuses: run at our priority
        return False
    return True


class WorkerProcessError(RuntimeError):
    """The helper process failed or died; the next call starts a fresh one."""


class ProcessWorker:
    """One long-lived helper process (``engine.workspace.worker``), one request at a time.

    ``multiprocessing`` is not used: with PySide6 6.12 loaded, its pool machinery corrupted the
    reference count of ``None`` in the GUI process within seconds ("deallocating None").
    """

    def __init__(self, niceness: int = 0) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self.niceness = niceness  # how much lower than ours the helper's CPU priority is

    @staticmethod
    def command() -> list[str]:
        if getattr(sys, "frozen", False):
            return [sys.executable, "--rulewright-worker"]
        return [sys.executable, "-m", "engine.workspace.worker"]

    def _ensure(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(self.command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            lower_priority(self._proc.pid, self.niceness)
        return self._proc

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` in the helper (blocks the calling worker thread, not the GUI)."""
        name = f"{fn.__module__}:{fn.__qualname__}"
        with self._lock:
            proc = self._ensure()
            assert proc.stdin is not None and proc.stdout is not None  # started with both pipes
            try:
                write_message(proc.stdin, (name, args))
                ok, value = read_message(proc.stdout)
            except (OSError, EOFError) as exc:
                self._stop()
                raise WorkerProcessError(f"the helper process stopped ({exc or 'no answer'})") from None
        if not ok:
            raise WorkerProcessError(value)
        return value

    def pid(self) -> int | None:
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                if proc.stdin is not None:
                    proc.stdin.close()
                proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()

    def stop(self) -> None:
        with self._lock:
            self._stop()

    @property
    def busy(self) -> bool:
        """Whether a call is in flight (or about to start)."""
        return self._lock.locked()

    def abort(self) -> None:
        """Kill the helper now, without waiting for the call in flight: that call raises
        ``WorkerProcessError`` (read: its answer is not wanted any more) and the next call
        starts a fresh helper."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()


CHECKS_LANE = "checks"  # workspace scan and validation
PREVIEWS_LANE = "previews"  # live previews (RTK): must not wait behind a long validation
# the first result of a large Caveman paste: runs beside the GUI thread (which is busy taking the
# paste into its document meanwhile) instead of contending with it for the GIL; at our own
# priority, since the user is waiting for exactly this
CAVEMAN_LANE = "caveman"
# CPU priority below the GUI's, per lane: validation is background work; a preview is what the
# user waits for, so it yields less (beside two CPU-bound jobs, a 1 MB RTK preview took ~0.8 s
# at nice 10 and ~0.3-0.4 s at nice 3; on an otherwise idle machine both took ~0.09 s)
LANE_NICENESS = {CHECKS_LANE: 10, PREVIEWS_LANE: 3, CAVEMAN_LANE: 0}

_workers: dict[str, ProcessWorker] = {}
_workers_lock = threading.Lock()


def process_worker(lane: str = CHECKS_LANE) -> ProcessWorker:
    """The helper of ``lane`` (created on first use; its process starts on its first call)."""
    with _workers_lock:
        worker = _workers.get(lane)
        if worker is None:
            worker = _workers[lane] = ProcessWorker(LANE_NICENESS.get(lane, 0))
        return worker


def run_in_process(fn: Callable[..., Any], *args: Any, lane: str = CHECKS_LANE) -> Any:
    """Run ``fn(*args)`` in the helper process of ``lane``; called from a pool thread."""
    return process_worker(lane).call(fn, *args)


def helper_pids() -> list[int]:
    """Process ids of the helper processes running now (one per lane that has been used)."""
    with _workers_lock:
        workers = list(_workers.values())
    return [pid for worker in workers if (pid := worker.pid()) is not None]


def abort_busy_helpers() -> int:
    """Kill every helper in the middle of a call (work nobody will read: the window that asked
    has gone); idle helpers stay. Returns how many were killed."""
    with _workers_lock:
        busy = [worker for worker in _workers.values() if worker.busy]
    for worker in busy:
        worker.abort()
    return len(busy)


@atexit.register
def shutdown_process_worker() -> None:
    with _workers_lock:
        workers = list(_workers.values())
    for worker in workers:
        worker.stop()


class Later:
    """An argument of :meth:`Dispatcher.request` worked out when its job starts (in the GUI
    thread), not when it is asked for: a debounced request over a large text then reads the text
    once, after the burst of keystrokes, instead of at each of them (``toPlainText`` of 1 MB takes
    ~20 ms). A request replaced before it starts never works it out."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def _resolved(args: tuple) -> tuple:
    return tuple(a.make() if isinstance(a, Later) else a for a in args)


class _Relay(QObject):
    """Lives in the GUI thread; the runnable emits through it (queued across threads).

    The payload travels as one tuple: a bare ``None`` in a queued ``object`` argument trips a
    reference-count bug in PySide6 6.12 ("deallocating None") after a few thousand jobs.
    """

    done = Signal(int, object)  # job id, (result, error text or "", seconds)


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
            self.relay.done.emit(self.job_id, (result, error or "", time.perf_counter() - start))
        except RuntimeError:  # the dispatcher was deleted (window closed) while we ran
            pass


class Dispatcher(QObject):
    """Runs ``fn(*args)`` off the GUI thread, one at a time, newest request wins.

    ``finished(job_id, result)`` fires only for the newest request's job; ``failed(job_id,
    message)`` when it raised. ``debounce_ms`` > 0 delays the start so a burst of keystrokes
    becomes one job. ``process=True`` runs ``fn`` (an ``engine`` function) in the helper process
    of ``lane`` instead of a thread of this process. ``inline=True`` runs it at once in the
    calling thread instead (docs-mode screenshots: a finished, deterministic result and no pool
    thread left when the process exits); it can be switched at any time, and an answer from a
    job still running in the pool is then dropped like any superseded one.

    Two progress signals: ``busyChanged(running)`` when a job starts or the last one ends,
    ``activity(1)`` when a request is queued and ``activity(0)`` when nothing is left to do.
    """

    finished = Signal(int, object)
    failed = Signal(int, str)
    busyChanged = Signal(bool)
    activity = Signal(int)

    def __init__(self, parent: QObject | None = None, *, debounce_ms: int = 0,
                 process: bool = False, lane: str = CHECKS_LANE, inline: bool = False) -> None:
        super().__init__(parent)
        self._process = process
        self._lane = lane
        self.inline = inline
        self._pool = QThreadPool.globalInstance()
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._running = False
        self._pending: tuple[int, Callable[..., Any], tuple] | None = None
        self._latest = 0
        self.last_seconds = 0.0
        self.dropped = 0  # results that arrived for a superseded request
        self._timer = single_shot(self, debounce_ms, self._start_pending)

    @property
    def busy(self) -> bool:
        """A job runs, or a request waits for its start (the debounce or the running job)."""
        return self._running or self._pending is not None

    @property
    def running(self) -> bool:
        return self._running

    def set_debounce(self, ms: int) -> None:
        """How long a burst of requests must pause before the newest one starts."""
        self._timer.setInterval(ms)

    def request(self, fn: Callable[..., Any], *args: Any, immediate: bool = False) -> int:
        """Queue ``fn(*args)``; returns its job id. Replaces any request not started yet."""
        job_id = next(_ids)
        self._latest = job_id
        if self.inline:
            self.cancel_pending()
            self._run_inline(job_id, fn, _resolved(args))
            return job_id
        self._pending = (job_id, fn, args)
        self.activity.emit(1)
        if immediate or self._timer.interval() == 0:
            self._timer.stop()
            self._start_pending()
        else:
            self._timer.start()
        return job_id

    def cancel_pending(self) -> None:
        """Forget a request that has not started; a running job still delivers its answer."""
        self._timer.stop()
        had_pending, self._pending = self._pending is not None, None
        if had_pending and not self._running:
            self.activity.emit(0)

    def _run_inline(self, job_id: int, fn: Callable[..., Any], args: tuple) -> None:
        start = time.perf_counter()
        try:
            result = fn(*args)
        except Exception as exc:  # shown by the receiver, as a worker failure would be
            self.last_seconds = time.perf_counter() - start
            self.failed.emit(job_id, f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}")
        else:
            self.last_seconds = time.perf_counter() - start
            self.finished.emit(job_id, result)

    @Slot()
    def _start_pending(self) -> None:
        if self._running or self._pending is None:
            return
        job_id, fn, args = self._pending
        self._pending = None
        args = _resolved(args)
        self._running = True
        self.busyChanged.emit(True)
        if self._process:
            fn, args = partial(run_in_process, lane=self._lane), (fn, *args)
        self._pool.start(_Job(job_id, fn, args, self._relay))

    @Slot(int, object)
    def _on_done(self, job_id: int, payload: tuple) -> None:
        result, error, seconds = payload
        self._running = False
        self.last_seconds = seconds
        if job_id == self._latest:
            if not error:
                self.finished.emit(job_id, result)
            else:
                self.failed.emit(job_id, str(error))
        else:
            self.dropped += 1
        if self._pending is not None and not self._timer.isActive():
            self._start_pending()
        if not self._running:
            self.busyChanged.emit(False)
        if not self.busy:
            self.activity.emit(0)
