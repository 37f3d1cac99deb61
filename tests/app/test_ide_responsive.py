"""The GUI thread on a 2 MB filter file: opened, scrolled, edited in both views, validated.

A 5 ms ``QTimer`` measures the longest gap between its ticks (a stall of the event loop), per
phase, while the editor loads the file in chunks, workers scan/validate/highlight it, and the
user types. The target is 50 ms and it is NOT met yet. On a 2-core machine typing in the JSON
view (~15 ms), scrolling (~40 ms) and the form (~15 ms without the RTK preview) meet it; what
remains is the RTK preview parsing the whole 2 MB file in a thread of this process on every
change (GIL and garbage collections: the form and validation phases reach ~100 ms with it) and
a ~200 ms stall while the first workspace scan runs in the helper process. The assertion is
therefore a regression bound, and the test prints every phase's worst stall so the number stays
visible.
"""

from __future__ import annotations

import gc
import json
import time

import pytest
from ide_helpers import wait_settled
from PySide6.QtCore import QThreadPool, QTimer

from app.mainwindow import MainWindow
from engine.workspace.jsonedit import Style, dumps
from engine.workspace.settings import Settings
from engine.workspace.templates import new_filter

pytestmark = [pytest.mark.gui, pytest.mark.slow]
TARGET_MS = 50.0  # the goal for every phase (not met yet, see above)
REGRESSION_BOUND_MS = 750.0  # fails if a change makes it clearly worse


class StallWatch:
    def __init__(self, interval_ms: int = 5) -> None:
        self.per_phase: dict[str, float] = {}
        self.worst = 0.0
        self.where = ""
        self.phase = "start"
        self._last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        gap = (now - self._last) * 1000
        if gap > self.worst:
            self.worst, self.where = gap, self.phase
        self.per_phase[self.phase] = max(self.per_phase.get(self.phase, 0.0), gap)
        self._last = now

    def start(self) -> None:
        self._last = time.perf_counter()
        self.timer.start()

    def forget(self) -> None:
        """Drop what was measured so far and restart the clock (the next gap starts now)."""
        self.worst, self.where = 0.0, ""
        self.per_phase.clear()
        self._last = time.perf_counter()


def big_filters(target_bytes: int) -> str:
    filters = []
    i = 0
    text = ""
    while len(text) < target_bytes:
        chunk = []
        for _ in range(200):
            f = new_filter(set())
            f["id"] = f"tool-{i}"
            f["label"] = f"Tool {i} output"
            f["match"]["commands"] = [f"^tool{i}\\b", f"\\btool-{i}\\s+run"]
            f["rules"]["dropPatterns"] = ["^\\s*$", f"^DEBUG {i}:", "\\[\\d+ms\\]$"]
            f["rules"]["replace"] = [{"pattern": f"id={i}-\\w+", "replacement": "id=…"}]
            chunk.append(f)
            i += 1
        filters.extend(chunk)
        text = dumps(filters, Style(), 0) + "\n"
    return text


def test_two_megabyte_filter_file_stays_responsive(qtbot, tmp_path, record_property):
    root = tmp_path / "big"
    (root / ".rtk").mkdir(parents=True)
    path = root / ".rtk" / "filters.json"
    path.write_text(big_filters(2 * 1024 * 1024), encoding="utf-8")
    size = path.stat().st_size
    assert size >= 2 * 1024 * 1024

    watch = StallWatch()
    watch.start()
    window = MainWindow(Settings())
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    gc.freeze()  # as ``rulewright gui`` does after building the window (app.main.launch)
    # Start-up is not measured: building the window (importing the panels, ~0.2 s) and the panels'
    # first runs in pool threads (imports, compiling the built-in Caveman pack) happen once, before
    # any file. Without restarting the clock that start-up was counted as "open workspace".
    pool = QThreadPool.globalInstance()
    qtbot.waitUntil(lambda: pool.activeThreadCount() == 0, timeout=60000)
    qtbot.wait(100)
    watch.forget()
    watch.phase = "open workspace"
    window.open_workspace(root, restore=False)
    qtbot.waitUntil(lambda: window.index is not None, timeout=60000)

    watch.phase = "open and load the file"
    tab = window.open_file(path)
    wait_settled(qtbot, tab, timeout=60000)
    qtbot.waitUntil(lambda: tab.index is not None and len(tab.index) > 1000, timeout=60000)
    count = len(tab.index)

    watch.phase = "scroll"
    tab.show_json()
    bar = tab.editor.verticalScrollBar()
    for fraction in (0.25, 0.5, 0.75, 1.0, 0.5):
        bar.setValue(int(bar.maximum() * fraction))
        qtbot.wait(60)

    watch.phase = "type in the JSON view"
    middle = tab.text.index('"tool-1000"') + 1
    cursor = tab.editor.textCursor()
    cursor.setPosition(middle)
    tab.editor.setTextCursor(cursor)
    for ch in "edited-":
        qtbot.keyClicks(tab.editor, ch)
        qtbot.wait(30)
    assert tab.index.values[1000]["id"] == "edited-tool-1000"

    watch.phase = "edit in the form"
    tab.show_visual()
    tab.visual.select(1500)
    label = tab.visual.form.fields["/label"]
    label.edit.end(False)
    for ch in " (v2)":
        qtbot.keyClicks(label.edit, ch)
        qtbot.wait(30)
    assert tab.index.values[1500]["label"] == "Tool 1500 output (v2)"

    watch.phase = "reorder, undo"
    tab.move_item(1500, 0)  # a drag in the list, then Ctrl+Z: two user actions, an event-loop turn apart
    assert tab.index.values[0]["id"] == "tool-1500"
    qtbot.wait(30)
    tab.undo_stack.undo()
    assert tab.index.values[1500]["id"] == "tool-1500"
    qtbot.wait(30)

    watch.phase = "validation and parse workers"
    wait_settled(qtbot, tab, timeout=60000)
    qtbot.wait(300)
    watch.timer.stop()
    assert json.loads(tab.text)[1000]["id"] == "edited-tool-1000"
    tab.undo_stack.setClean()
    window.watcher.stop()
    gc.unfreeze()

    record_property("worst_stall_ms", round(watch.worst, 1))
    phases = ", ".join(f"{name}: {ms:.0f} ms" for name, ms in watch.per_phase.items())
    print(f"\n2 MB responsiveness: {size} bytes, {count} filters, worst GUI stall {watch.worst:.1f} ms "
          f"during '{watch.where}' (target {TARGET_MS:.0f} ms); per phase: {phases}")
    assert watch.worst < REGRESSION_BOUND_MS, f"GUI thread blocked {watch.worst:.1f} ms during {watch.where}"
