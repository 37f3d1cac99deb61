"""Benchmark: GUI-thread stalls on a 2 MB filter file, opened, scrolled, edited in both views, validated.

    python bench/bench_gui_stalls.py     # prints the figures; exit 1 when a target is missed

The steps are the journey of ``tests/app/ide/big_file_journey.py`` (the test suite runs them without
a clock).

A 5 ms ``QTimer`` measures the longest gap between its ticks (a stall of the event loop), per
phase, while the editor loads the file in chunks, workers scan/validate/highlight it, and the
user types; each gap also records how much CPU the GUI thread itself used during it.

Target: no phase stalls longer than 50 ms. Met on the 2-core development machine with other
processes using under a quarter of a core (opening ~10 ms, loading ~30-40, scrolling ~10, typing
~15, form ~20, reorder/undo ~25, workers ~10-30). What got it there: the RTK preview parses the
open filter file in its own helper process (it used to do so in a thread here, where its GIL
holds and garbage collections froze the GUI for ~100 ms), the helpers run at a lower CPU
priority, a move and its undo refresh the item list once and look at one or two items instead of
all 2,200, the JSON view no longer re-lays out its ~100,000 lines when only its width changes
(~30 ms on the first switch to it), and the garbage collector is frozen after start-up as
``rulewright gui`` does. The ~200 ms "open workspace" stall reported before was window
construction counted in the wrong phase.

What is asserted, and why two bounds:
* always: the GUI thread never *computes* for more than 50 ms within one stall (our own work,
  independent of what else runs on the machine);
* when the machine was otherwise idle (other processes used less than ``IDLE_FOREIGN_CORES``
  of a core during the test, from ``/proc``; elsewhere a 1-minute load average below
  ``IDLE_LOAD``): every phase's wall-clock stall is at most 50 ms. On a busy machine the wall
  clock also measures waiting for a core (other jobs, at normal priority, win half the time), so
  only ``BUSY_BOUND_MS`` is asserted there — the printout says which bound applied.

Not measured: start-up (window construction, ~0.2-0.4 s in one block, and the panels' first
runs in pool threads, which import modules and compile the built-in Caveman pack). They happen
once before any file is open; the test waits for them and prints the start-up stall separately.
The phase with the most GUI-thread work left is loading (~25-30 ms: the first list of 2,200
titles and the first form).
"""

from __future__ import annotations

import gc
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402
from PySide6.QtCore import QThreadPool, QTimer  # noqa: E402

from app.workers import helper_pids  # noqa: E402
from tests.app.ide.big_file_journey import big_filters, edit_big_filter_file  # noqa: E402

TARGET_MS = 50.0  # every phase, wall clock, on an idle machine; and the GUI thread's own CPU per stall
IDLE_FOREIGN_CORES = 0.25  # other processes' CPU use during the run below which the machine is idle
IDLE_LOAD = 1.0  # without /proc: the 1-minute load average below which the 2-core machine counts as idle
BUSY_BOUND_MS = 250.0  # wall-clock bound on a busy machine (waiting for a core is not our work)


class StallWatch:
    """Per phase: the longest gap between timer ticks, and the most CPU the GUI thread itself used
    within one gap (``time.thread_time``: the ticks run in the GUI thread)."""

    def __init__(self, interval_ms: int = 5) -> None:
        self.per_phase: dict[str, float] = {}
        self.cpu_per_phase: dict[str, float] = {}  # GUI-thread CPU ms within a gap, the most per phase
        self.worst = 0.0
        self.where = ""
        self.phase = "start"
        self._last = time.perf_counter()
        self._last_cpu = time.thread_time()
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()  # ticks run in the GUI thread
        gap = (now - self._last) * 1000
        busy = (cpu - self._last_cpu) * 1000
        if gap > self.worst:
            self.worst, self.where = gap, self.phase
        self.per_phase[self.phase] = max(self.per_phase.get(self.phase, 0.0), gap)
        self.cpu_per_phase[self.phase] = max(self.cpu_per_phase.get(self.phase, 0.0), busy)
        self._last, self._last_cpu = now, cpu

    def start(self) -> None:
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()
        self.timer.start()

    def forget(self) -> None:
        """Drop what was measured so far and restart the clock (the next gap starts now)."""
        self.worst, self.where = 0.0, ""
        self.per_phase.clear()
        self.cpu_per_phase.clear()
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()


class ForeignLoad:
    """How many cores *other* processes kept busy while the test ran (Linux ``/proc``).

    System-wide busy time minus this process's and its helper processes' own CPU time, per second
    of wall clock: the part of a stall that is waiting for a core taken by someone else.
    ``cores()`` is None where ``/proc`` is missing (the caller then falls back to the load average).
    """

    def __init__(self) -> None:
        self._start: tuple[float, float, float] | None = None

    @staticmethod
    def _system_busy_s() -> float:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
        return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")

    @staticmethod
    def _own_s() -> float:
        total = 0.0
        for pid in [os.getpid(), *helper_pids()]:
            try:
                with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:  # a helper that just ended
                continue
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
        return total

    def start(self) -> None:
        try:
            self._start = (time.perf_counter(), self._system_busy_s(), self._own_s())
        except (OSError, ValueError, IndexError):
            self._start = None

    def cores(self) -> float | None:
        if self._start is None:
            return None
        wall0, busy0, own0 = self._start
        try:
            foreign = (self._system_busy_s() - busy0) - (self._own_s() - own0)
        except (OSError, ValueError, IndexError):
            return None
        return max(0.0, foreign) / max(time.perf_counter() - wall0, 1e-3)


def wait_for_quiet_pool(qtbot, quiet_ms: int = 500, timeout_ms: int = 60000) -> None:
    """Wait until no pool thread has run for ``quiet_ms`` (debounced start-up jobs have fired)."""
    pool = QThreadPool.globalInstance()
    deadline = time.monotonic() + timeout_ms / 1000
    quiet_since = None
    while time.monotonic() < deadline:
        if pool.activeThreadCount():
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif (time.monotonic() - quiet_since) * 1000 >= quiet_ms:
            return
        qtbot.wait(20)
    raise AssertionError("start-up jobs did not finish")


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    from bench.gui_window import bench_main_window

    win = bench_main_window(qtbot, tmp_path, monkeypatch)
    yield win
    gc.unfreeze()  # the run freezes the heap after start-up, as the app does
    win.watcher.stop()


def test_two_megabyte_filter_file_stays_responsive(qtbot, tmp_path, window):
    root = tmp_path / "big"
    (root / ".rtk").mkdir(parents=True)
    path = root / ".rtk" / "filters.json"
    path.write_text(big_filters(2 * 1024 * 1024), encoding="utf-8")
    size = path.stat().st_size
    # two command outputs: the RTK preview shows the first, which none of the big file's filters
    # is chosen for, so opening the file has it work out (in its helper) to turn to the second
    samples = root / "samples"
    samples.mkdir()
    for name, command, output in (("a-git.log", "git status", "On branch main\n"),
                                  ("tool.log", "tool1500 run", "tool 1500\nDEBUG 1500: step\ndone [12ms]\n")):
        (samples / name).write_text(output, encoding="utf-8")
        (samples / name).with_suffix(".cmd").write_text(f"$ {command}\n", encoding="utf-8")

    watch = StallWatch()
    watch.start()
    window.show()
    qtbot.waitExposed(window)
    gc.freeze()  # as ``rulewright gui`` does after building the window (app.main.launch)
    # Start-up is not measured: building the window and the panels' first runs in pool threads
    # happen once, before any file.
    wait_for_quiet_pool(qtbot)
    startup_ms = max(watch.per_phase.values(), default=0.0)
    watch.forget()
    foreign = ForeignLoad()
    foreign.start()
    load_at_start = os.getloadavg()[0]
    count = edit_big_filter_file(qtbot, window, root, lambda name: setattr(watch, "phase", name))
    rtk = window.panel_widgets["rtk-preview"]
    qtbot.waitUntil(lambda: rtk.sample_combo.currentText() == "tool.log", timeout=60000)  # (turned to, off the GUI)
    watch.timer.stop()

    foreign_cores = foreign.cores()
    if foreign_cores is not None:
        idle = foreign_cores < IDLE_FOREIGN_CORES
        machine = f"other processes used {foreign_cores:.2f} cores"
    else:
        idle = load_at_start < IDLE_LOAD
        machine = f"load average {load_at_start:.2f} at the start"
    bound = TARGET_MS if idle else BUSY_BOUND_MS
    phases = ", ".join(f"{name}: {ms:.0f} ms (GUI thread busy {watch.cpu_per_phase[name]:.0f})"
                       for name, ms in watch.per_phase.items())
    print(f"\n2 MB responsiveness (wall clock, offscreen): {size} bytes, {count} filters; {machine}, "
          f"load average {load_at_start:.2f} ({'idle' if idle else 'busy'}: wall-clock bound {bound:.0f} ms); "
          f"worst GUI stall {watch.worst:.1f} ms during '{watch.where}' (target {TARGET_MS:.0f} ms); "
          f"per phase: {phases}; start-up (not a target): {startup_ms:.0f} ms")
    for name, ms in watch.cpu_per_phase.items():
        assert ms <= TARGET_MS, f"the GUI thread computed {ms:.1f} ms without a break during '{name}'"
    for name, ms in watch.per_phase.items():
        assert ms <= bound, f"GUI thread blocked {ms:.1f} ms during '{name}' ({machine})"


def main() -> int:
    """Run the measurement under pytest-qt; exit 1 when a target is missed (or the run failed)."""
    print("reference not run: the references have no IDE; these are our GUI latencies against our targets")
    return 1 if pytest.main([__file__, "-q", "-s", "-p", "no:cacheprovider", "--timeout=600"]) else 0


if __name__ == "__main__":
    sys.exit(main())
