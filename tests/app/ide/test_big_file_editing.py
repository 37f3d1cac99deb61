"""A 2 MB, 2,200-filter file: every edit made through the window lands in the document.

How long the GUI thread stalls meanwhile is measured by ``bench/bench_gui_stalls.py`` (the same
journey), not here: a timed test fails on a busy machine and proves nothing on an idle one.
"""

from __future__ import annotations

import pytest

from app.mainwindow import MainWindow
from engine.workspace.settings import Settings

from .big_file_journey import big_filters, edit_big_filter_file

pytestmark = [pytest.mark.gui, pytest.mark.slow]


def test_edits_in_a_two_megabyte_filter_file_land_in_the_document(qtbot, tmp_path):
    root = tmp_path / "big"
    (root / ".rtk").mkdir(parents=True)
    (root / ".rtk" / "filters.json").write_text(big_filters(2 * 1024 * 1024), encoding="utf-8")
    window = MainWindow(Settings())
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    phases: list[str] = []
    count = edit_big_filter_file(qtbot, window, root, phases.append)
    window.watcher.stop()
    assert count >= 2000
    assert phases[0] == "open workspace" and phases[-1] == "validation and parse workers"
