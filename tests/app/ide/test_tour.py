"""The first-run tour (ux.md "First run"): shown once on the example workspace, each step framing
the right widget with its panel in front, Next / Back / Skip / Esc, Help ▸ Show Tour and the
palette, never in docs mode unless asked, never taking the keyboard focus."""

from __future__ import annotations

import argparse

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from app import tour as tour_module
from app.main import launch
from app.panel_tests import ROW_ROLE
from app.tour import STEPS, install_tour, start_on_first_run, tour_of
from engine.workspace.example import ensure_example_workspace
from engine.workspace.kinds import FileKind
from engine.workspace.settings import Settings

from .ide_helpers import wait_settled

pytestmark = pytest.mark.gui
STEP_KEYS = [s.key for s in STEPS]


def args(**kw) -> argparse.Namespace:
    base = {"workspace": None, "screenshot": None, "panel": None, "size": "1400x900", "tour_step": None}
    base.update(kw)
    return argparse.Namespace(**base)


@pytest.fixture
def example_window(qtbot):
    """The main window on the user's copy of the example workspace (in the test's data folder)."""
    from app.mainwindow import MainWindow

    root = ensure_example_workspace()
    win = MainWindow(Settings())
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.open_workspace(root, restore=False)
    win.show()
    qtbot.waitUntil(lambda: win.index is not None, timeout=15000)
    yield win
    for tab in win.document_tabs():
        tab.undo_stack.setClean()
    win.watcher.stop()


@pytest.fixture
def tour(example_window):
    return install_tour(example_window)


def go_to(tour, key: str) -> None:
    tour.start(STEP_KEYS.index(key)) if not tour.is_active() else tour.show_step(STEP_KEYS.index(key))


def assert_framed(tour, window, widget) -> None:
    """The step points at ``widget``: it is visible, framed by the overlay, and the callout is shown."""
    assert tour.target_widget() is widget
    assert widget.isVisible()
    frame = tour.frame_rect()
    assert frame is not None and frame.topLeft() == widget.mapTo(window, QPoint(0, 0)) and frame.size() == widget.size()
    assert tour.overlay.isVisible() and tour.overlay.frame == frame
    assert tour.callout.isVisible() and window.rect().contains(tour.callout.geometry())
    assert not tour.callout.geometry().intersects(frame), "the callout hides what it explains"


@pytest.mark.slow
def test_first_run_of_the_example_workspace_shows_the_tour_once(qtbot, monkeypatch):
    """Through the real start-up (app.main.launch): shown after the first scan, remembered when
    dismissed, not shown on the next start."""
    seen, windows = [], []
    real_install = tour_module.install_tour

    def recording_install(window):
        windows.append(window)
        return real_install(window)

    def fake_exec(_app=None):
        window = windows[-1]
        tour = tour_of(window)
        qtbot.waitUntil(lambda: tour.is_active() or window.index is not None, timeout=15000)
        qtbot.wait(200)  # the tour starts on the scan's signal
        seen.append(tour.is_active())
        if tour.is_active():
            assert tour.current_step().key == "explorer"
            tour.callout.skip_button.click()
            qtbot.waitUntil(lambda: Settings.load().tour_done, timeout=5000)
        for tab in window.document_tabs():
            tab.undo_stack.setClean()
        window.close()
        window.deleteLater()
        return 0

    monkeypatch.setattr(tour_module, "install_tour", recording_install)
    monkeypatch.setattr(QApplication, "exec", fake_exec)
    assert not Settings.load().tour_done
    assert launch(args()) == 0
    assert launch(args()) == 0
    assert seen == [True, False]
    assert Settings.load().tour_done


def test_only_the_example_workspace_and_only_until_seen(qtbot, window, example_window):
    assert tour_of(window) is None and tour_of(example_window) is None  # a bare window (tests) has none
    assert not start_on_first_run(window, install_tour(window))  # conftest's own workspace
    example_window.settings.tour_done = True
    assert not start_on_first_run(example_window, install_tour(example_window))
    example_window.settings.tour_done = False
    assert start_on_first_run(example_window, install_tour(example_window))
    assert not tour_of(example_window).is_active()  # it waits for the scan
    example_window.rescan(immediate=True)
    qtbot.waitUntil(tour_of(example_window).is_active, timeout=15000)


def test_each_step_frames_its_widget_with_its_panel_in_front(qtbot, example_window, tour):
    w = example_window
    go_to(tour, "explorer")
    assert_framed(tour, w, w.explorer)
    assert w.explorer_dock.isVisible()

    tour.next()
    tab = w.current_tab()
    assert tab is not None and tab.doc.kind == FileKind.CAVEMAN_PACK
    assert tab.path == w.index.by_group("caveman")[0].path  # the workspace's own (custom) pack
    assert_framed(tour, w, tab)
    assert w.tabs.currentWidget() is tab

    tour.next()
    preview = w.panel_widgets["caveman-preview"]
    assert w.right.currentWidget() is preview and w.right_dock.isVisible()
    assert_framed(tour, w, preview)

    tour.next()
    tests = w.panel_widgets["tests"]
    assert w.bottom.currentWidget() is tests and w.bottom_dock.isVisible()
    qtbot.waitUntil(lambda: tour.spot_rect() is not None, timeout=20000)  # the run finishes in its worker
    assert_framed(tour, w, tests)
    item = tests.tree.currentItem()
    row = item.data(0, ROW_ROLE)[1]
    assert not row.passed  # a failing test is selected and marked
    assert next(i for i in tests.test_items() if not i.data(0, ROW_ROLE)[1].passed) is item
    row_rect = tests.tree.visualItemRect(item)
    centre = tests.tree.viewport().mapTo(w, row_rect.center())
    assert tour.spot_rect().contains(centre) and tour.overlay.spot == tour.spot_rect()
    assert row.test_name in tour.callout.body.text() and row.filter_id in tour.callout.body.text()

    tour.next()
    trust = w.panel_widgets["trust"]
    assert w.bottom.currentWidget() is trust
    assert_framed(tour, w, trust)
    assert tour.spot_rect().topLeft() == trust.verdict.mapTo(w, QPoint(0, 0))
    assert tour.callout.next_button.text().replace("&", "") == "Done"


def test_next_back_skip_and_done(qtbot, example_window, tour):
    closed = []
    tour.closed.connect(closed.append)
    tour.start()
    callout = tour.callout
    assert tour.index == 0 and not callout.back_button.isEnabled()
    qtbot.mouseClick(callout.next_button, Qt.MouseButton.LeftButton)
    assert tour.index == 1 and callout.back_button.isEnabled()
    assert "step 2 of 5" in callout.counter.text()
    qtbot.mouseClick(callout.back_button, Qt.MouseButton.LeftButton)
    assert tour.index == 0 and tour.target_widget() is example_window.explorer
    qtbot.mouseClick(callout.skip_button, Qt.MouseButton.LeftButton)
    assert not tour.is_active() and closed == [False]
    assert not tour.overlay.isVisible() and not callout.isVisible()

    tour.start(len(STEPS) - 1)
    qtbot.mouseClick(callout.next_button, Qt.MouseButton.LeftButton)  # "Done"
    assert not tour.is_active() and closed == [False, True]
    assert example_window.settings.tour_done


def test_escape_closes_the_tour_and_clicks_keep_the_editor_focus(qtbot, example_window, tour):
    w = example_window
    tab = w.open_file(w.index.by_group("caveman")[0].path)
    wait_settled(qtbot, tab)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow, timeout=5000)
    tab.editor.setFocus()
    qtbot.waitUntil(tab.editor.hasFocus, timeout=5000)

    tour.start()
    for _ in STEPS[1:]:
        qtbot.mouseClick(tour.callout.next_button, Qt.MouseButton.LeftButton)
        assert QApplication.focusWidget() is tab.editor, tour.current_step().key
    qtbot.keyClick(tab.editor, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)  # the buttons' mnemonics
    qtbot.waitUntil(lambda: tour.index == len(STEPS) - 2, timeout=2000)  # a mnemonic animates its click
    qtbot.keyClick(tab.editor, Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: tour.index == len(STEPS) - 1, timeout=2000)
    assert QApplication.focusWidget() is tab.editor
    qtbot.keyClick(tab.editor, Qt.Key.Key_Escape)
    assert not tour.is_active()
    assert QApplication.focusWidget() is tab.editor
    assert tab.text == tab.doc.text  # Esc went to the tour, not into the file
    assert not tour.escape.isEnabled()  # once closed, Esc is the editor's again


def test_tour_is_remembered_as_done(qtbot, example_window, tour):
    assert not Settings.load().tour_done
    tour.start()
    tour.close()
    qtbot.waitUntil(lambda: Settings.load().tour_done, timeout=5000)


def test_help_menu_and_palette_reopen_it(qtbot, example_window, tour):
    from app.palette import CommandPalette

    w = example_window
    help_menu = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "Help")
    show = next(a for a in help_menu.actions() if a.text().replace("&", "") == "Show Tour")
    assert install_tour(w) is tour and sum(a is show for a in help_menu.actions()) == 1  # installed once
    tour.start(3)
    tour.close()
    show.trigger()
    assert tour.is_active() and tour.index == 0
    tour.close()

    palette = CommandPalette(list(w.actions_.values()), w)
    palette.query.setText("tour")
    assert palette.list.count() == 1 and palette.list.item(0).text().startswith("Show Tour")
    palette.run_current()
    assert tour.is_active() and tour.index == 0
    tour.close()


def test_the_frame_follows_its_target_and_survives_it_closing(qtbot, example_window, tour):
    w = example_window
    go_to(tour, "trust")
    before = tour.overlay.frame
    height = w.bottom_dock.height()
    w.resizeDocks([w.bottom_dock], [height - 80 if height > 300 else height + 80], Qt.Orientation.Vertical)
    qtbot.waitUntil(lambda: w.bottom_dock.height() != height, timeout=3000)
    qtbot.waitUntil(lambda: tour.overlay.frame != before and tour.overlay.frame == tour.frame_rect(), timeout=3000)

    go_to(tour, "pack")
    tab = w.current_tab()
    w.close_tab(w.tabs.indexOf(tab))
    qtbot.waitUntil(lambda: tour.overlay.frame is None, timeout=3000)  # nothing to frame: no stale rectangle
    assert tour.callout.isVisible() and w.rect().contains(tour.callout.geometry())
    tour.back()
    tour.next()  # locating again reopens the pack
    assert tour.target_widget() is w.current_tab()


def test_callout_is_readable_in_light_and_dark_themes(qtbot, example_window, tour):
    from app.theme import apply_theme

    app = QApplication.instance()
    tour.start()
    try:
        for theme in ("light", "dark"):
            apply_theme(app, theme)
            example_window.setPalette(app.palette())
            tour.callout.setPalette(app.palette())
            tour.relayout()
            image = tour.callout.grab().toImage()
            label = tour.callout.title
            inside = label.mapTo(tour.callout, QPoint(-4, label.height() // 2))
            background = image.pixelColor(inside * image.devicePixelRatio())
            text = label.palette().color(label.foregroundRole())
            assert abs(background.lightness() - text.lightness()) > 120, theme
    finally:
        apply_theme(app, "system")


@pytest.mark.slow
def test_never_in_docs_mode_unless_asked(qtbot, monkeypatch, tmp_path, capsys):
    started = []
    original = tour_module.Tour.start
    monkeypatch.setattr(tour_module.Tour, "start", lambda self, step=0: (started.append(step), original(self, step)))
    assert launch(args(screenshot=str(tmp_path / "plain.png"), size="1000x700")) == 0
    assert started == []
    assert launch(args(screenshot=str(tmp_path / "step4.png"), tour_step="4")) == 0
    assert started == [3]
    assert QImage(str(tmp_path / "step4.png")).width() == 1400
    assert launch(args(screenshot=str(tmp_path / "bad.png"), tour_step="9")) == 2
    assert "--tour-step must be a step number from 1 to 5" in capsys.readouterr().err
    assert not (tmp_path / "bad.png").exists()


def test_a_step_shown_before_the_first_scan_finds_its_widget_when_the_scan_is_in(qtbot):
    from app.mainwindow import MainWindow

    win = MainWindow(Settings())
    qtbot.addWidget(win)
    tour = install_tour(win)
    win.open_workspace(ensure_example_workspace(), restore=False)
    win.show()
    tour.start(STEP_KEYS.index("pack"))
    assert win.index is None and tour_module.SCANNING in tour.callout.body.text()
    qtbot.waitUntil(lambda: win.current_tab() is not None and tour.target_widget() is win.current_tab(),
                    timeout=15000)
    assert win.current_tab().doc.kind == FileKind.CAVEMAN_PACK
    assert tour_module.SCANNING not in tour.callout.body.text()
    for tab in win.document_tabs():
        tab.undo_stack.setClean()
    win.watcher.stop()
