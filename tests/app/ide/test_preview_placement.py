"""The preview dock steps aside while a playground is the active tab (``app.preview_placement``),
through the real main window: its tabs, View ▸ Preview, the dock's close button, a Show … preview
command, Reset Layout and the layout saved for the next session."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from app.mainwindow import MainWindow
from engine.workspace.settings import Settings

pytestmark = pytest.mark.gui


def _activate(qtbot, window: MainWindow, widget) -> None:
    window.tabs.setCurrentWidget(widget)
    qtbot.wait(10)


@pytest.fixture
def parts(qtbot, window):
    pack = window.open_file(window.workspace / "rules" / "en" / "filler.json")
    assert pack is not None
    return window, pack, window.panel_widgets["params"], window.panel_widgets["repair"]


def test_the_preview_steps_aside_for_a_playground_and_comes_back(qtbot, parts):
    window, pack, params, repair = parts
    assert window.right_dock.isVisible()
    editor_width = window.centralWidget().width()
    _activate(qtbot, window, params)
    assert not window.right_dock.isVisible()
    qtbot.waitUntil(lambda: window.centralWidget().width() > editor_width, timeout=2000)  # the room went to it
    _activate(qtbot, window, repair)  # playground to playground: still aside
    assert not window.right_dock.isVisible()
    _activate(qtbot, window, pack)
    assert window.right_dock.isVisible()
    assert window.right.currentWidget() is window.panel_widgets["caveman-preview"]


def test_the_users_choice_holds_per_kind_of_tab(qtbot, parts):
    window, pack, params, repair = parts
    toggle = window.actions_["toggle_preview"]
    _activate(qtbot, window, params)
    toggle.trigger()  # shown from a playground: it stays shown on playgrounds
    assert window.right_dock.isVisible() and window.settings.preview_in_playgrounds
    _activate(qtbot, window, pack)
    assert window.right_dock.isVisible()
    _activate(qtbot, window, repair)
    assert window.right_dock.isVisible()

    _activate(qtbot, window, pack)
    QApplication.sendEvent(window.right_dock, QEvent(QEvent.Type.Close))  # its title bar's ✕
    window.right_dock.hide()
    _activate(qtbot, window, params)
    assert window.right_dock.isVisible()  # on playgrounds, as chosen there
    _activate(qtbot, window, pack)
    assert not window.right_dock.isVisible()  # hidden from a file: stays hidden on files

    window.show_panel("rtk-preview")  # asked for by name: shown on files again
    _activate(qtbot, window, params)
    _activate(qtbot, window, pack)
    assert window.right_dock.isVisible()

    window.actions_["reset_layout"].trigger()
    assert window.right_dock.isVisible() and not window.settings.preview_in_playgrounds
    _activate(qtbot, window, params)
    assert not window.right_dock.isVisible()


def test_a_floating_preview_is_left_where_the_user_put_it(qtbot, parts):
    window, _pack, params, _repair = parts
    window.right_dock.setFloating(True)
    qtbot.wait(10)
    _activate(qtbot, window, params)
    assert window.right_dock.isVisible()


def test_the_saved_layout_is_the_files_one(qtbot, parts):
    window, _pack, params, _repair = parts
    _activate(qtbot, window, params)
    assert not window.right_dock.isVisible()
    window.save_window_state()
    assert window.right_dock.isVisible()  # settled as on files before the state was saved

    again = MainWindow(Settings(window_state=window.settings.window_state))
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    assert again.tabs.currentWidget() is not None
    expected = not again.preview_placement.is_playground(again.tabs.currentWidget())
    assert again.right_dock.isVisible() == expected
    again.watcher.stop()


def test_the_palette_lists_the_toggles_with_their_state(qtbot, parts):
    window, pack, _params, _repair = parts
    _activate(qtbot, window, pack)
    from app.palette import CommandPalette

    palette = CommandPalette(list(window.actions_.values()), window)
    palette.query.setText("preview")
    from app.palette import SHORTCUT_ROLE

    rows = [(palette.list.item(i).text(), palette.list.item(i).data(SHORTCUT_ROLE))
            for i in range(palette.list.count())]
    assert ("Preview  (on)", "Ctrl+Alt+B") in rows, rows
    palette.close()
