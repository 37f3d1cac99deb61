"""Empty states say what to do (ux.md, issue #8): each empty panel shows a sentence and buttons
that trigger the window's own actions, and the message goes away once content arrives."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.widgets.empty_state import EmptyState, action_label
from engine.workspace.templates import example_filter, render


@pytest.fixture
def bare_window(qtbot):
    """A window with no workspace open (first start without the example)."""
    from app.mainwindow import MainWindow
    from engine.workspace.settings import Settings

    win = MainWindow(Settings())
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.watcher.stop()


@pytest.fixture
def window_on(qtbot):
    """Open a window on a workspace folder the test made (the shared ``window`` fixture's is full)."""
    from app.mainwindow import MainWindow
    from engine.workspace.settings import Settings

    opened = []

    def open_on(root: Path):
        win = MainWindow(Settings())
        qtbot.addWidget(win)
        win.open_workspace(root, restore=False)
        win.show()
        opened.append(win)
        return win

    yield open_on
    for win in opened:
        win.watcher.stop()


def record_triggers(action) -> list[bool]:
    """Replace the action's behaviour with a recorder (the real slots would open file dialogs)."""
    calls: list[bool] = []
    action.triggered.disconnect()
    action.triggered.connect(lambda *_a: calls.append(True))
    return calls


def click(qtbot, state: EmptyState, label_start: str) -> None:
    button = next(b for b in state.buttons if b.text().startswith(label_start))
    assert button.isVisibleTo(state.window()) and button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def clicking_triggers(qtbot, state: EmptyState, label_start: str, action) -> bool:
    """Clicking the state's button ``label_start`` triggers ``action`` (once, its slot recorded)."""
    calls = record_triggers(action)
    click(qtbot, state, label_start)
    return calls == [True]


def shown(state: EmptyState) -> bool:
    return state.isVisibleTo(state.window())


# -- the shared widget -----------------------------------------------------------------------------------
def test_action_label_shows_text_without_mnemonic_and_the_shortcut(bare_window):
    assert action_label(bare_window.actions_["open_workspace"]).startswith("Open Workspace…  (")
    assert "O" in action_label(bare_window.actions_["open_workspace"]).split("(")[1]
    assert action_label(bare_window.actions_["open_example"]) == "Open Example Workspace"


def test_a_new_message_replaces_the_old_buttons(qtbot, bare_window):
    state = EmptyState.over(bare_window.explorer.tree)
    state.show_message("one", [("A", lambda: None), ("B", lambda: None)])
    state.show_message("two", [("C", lambda: None)])
    assert state.text() == "two"
    assert [b.text() for b in state.buttons] == ["C"]
    state.clear()
    assert not shown(state)


def test_the_overlay_follows_the_viewport(qtbot, bare_window):
    viewport = bare_window.explorer.tree.viewport()
    state = bare_window.explorer.no_workspace
    qtbot.waitUntil(lambda: state.geometry() == viewport.rect())
    bare_window.explorer_dock.setMinimumWidth(viewport.width() + 60)
    qtbot.waitUntil(lambda: state.geometry() == viewport.rect())


# -- explorer ----------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_explorer_without_workspace_offers_open_and_example(qtbot, bare_window, tmp_path):
    state = bare_window.explorer.no_workspace
    assert shown(state)
    assert "No workspace is open" in state.text()
    assert clicking_triggers(qtbot, state, "Open Example Workspace", bare_window.actions_["open_example"])
    assert clicking_triggers(qtbot, state, "Open Workspace…", bare_window.actions_["open_workspace"])

    root = tmp_path / "ws2"
    (root / "filters").mkdir(parents=True)
    (root / "filters" / "tool.json").write_text(render(example_filter(set())), encoding="utf-8")
    bare_window.open_workspace(root, restore=False)
    qtbot.waitUntil(lambda: bare_window.index is not None, timeout=10000)
    assert not shown(state)
    assert bare_window.explorer.tree.topLevelItemCount() == 1


def test_explorer_of_a_workspace_without_files_offers_new_pack_and_filter(qtbot, window_on, tmp_path):
    """A workspace with no pack or filter says so over the tree, centred, with the buttons that
    create one (it was a label under an empty tree); the first file makes it go away."""
    root = tmp_path / "blank"
    root.mkdir()
    window = window_on(root)
    qtbot.waitUntil(lambda: window.index is not None and window.index.root == root.resolve(), timeout=10000)
    state = window.explorer.no_workspace
    qtbot.waitUntil(lambda: shown(state) and "No packs or filters in blank" in state.text(), timeout=5000)
    assert clicking_triggers(qtbot, state, "New Pack…", window.actions_["new_pack"])
    assert clicking_triggers(qtbot, state, "New Filter…", window.actions_["new_filter"])
    (root / "filters").mkdir()
    (root / "filters" / "tool.json").write_text(render(example_filter(set())), encoding="utf-8")
    window.rescan()
    qtbot.waitUntil(lambda: not shown(state), timeout=10000)
    assert window.explorer.tree.topLevelItemCount() == 1


def test_open_example_workspace_action_opens_the_users_copy(qtbot, bare_window):
    from engine.workspace.example import user_example_workspace

    bare_window.actions_["open_example"].trigger()
    assert bare_window.workspace == user_example_workspace().resolve()
    qtbot.waitUntil(lambda: bare_window.index is not None, timeout=10000)
    assert not shown(bare_window.explorer.no_workspace)


# -- diagnostics ---------------------------------------------------------------------------------------------
def test_diagnostics_without_workspace_says_what_to_open(qtbot, bare_window):
    state = bare_window.diagnostics_panel.empty
    bare_window.show_panel("diagnostics")
    assert shown(state)
    assert "No workspace is open" in state.text()
    assert clicking_triggers(qtbot, state, "Open Workspace…", bare_window.actions_["open_workspace"])


def test_diagnostics_of_a_clean_workspace_count_the_files(qtbot, window, workspace):
    panel = window.diagnostics_panel
    window.show_panel("diagnostics")
    clean = {path: [d for d in ds if d.level == "never"] for path, ds in panel.by_file.items()}
    panel.set_all(clean)
    files = len(clean)
    assert files >= 4
    assert shown(panel.empty)
    assert panel.empty.text() == f"No problems in {files} files."
    assert clicking_triggers(qtbot, panel.empty, "Validate Workspace", window.actions_["validate"])


def test_diagnostics_message_goes_when_problems_arrive_and_filter_hides_them(qtbot, window, workspace):
    from engine.diagnostics import Diagnostic

    panel = window.diagnostics_panel
    window.show_panel("diagnostics")
    path = workspace / "filters" / "mytool.json"
    panel.set_all({path: [Diagnostic("broken", "error", "RTK-x", path=str(path), line=1, column=1)]})
    assert not shown(panel.empty)
    panel.search.setText("no such text anywhere")
    assert shown(panel.empty)
    assert "No problems match" in panel.empty.text()
    click(qtbot, panel.empty, "Show all")
    assert panel.search.text() == ""
    assert not shown(panel.empty)


# -- tests panel -----------------------------------------------------------------------------------------------
def test_tests_panel_without_workspace_offers_to_open_one(qtbot, bare_window):
    panel = bare_window.show_panel("tests")
    assert shown(panel.empty)
    assert "No workspace is open" in panel.empty.text()
    assert clicking_triggers(qtbot, panel.empty, "Open Example Workspace", bare_window.actions_["open_example"])


def test_tests_panel_before_a_run_offers_run_all(qtbot, window):
    panel = window.show_panel("tests")
    qtbot.waitUntil(lambda: panel.result is not None and not panel.runner.busy, timeout=20000)
    panel.result = None  # as before the first run
    panel._fill_tree()
    assert shown(panel.empty)
    assert "have not run yet" in panel.empty.text()
    click(qtbot, panel.empty, "Run Tests")
    qtbot.waitUntil(lambda: panel.result is not None and not panel.runner.busy, timeout=20000)
    assert panel.tree.topLevelItemCount() > 0
    assert not shown(panel.empty)


def test_tests_panel_after_a_failed_run_offers_to_run_again(qtbot, window):
    panel = window.show_panel("tests")
    qtbot.waitUntil(lambda: panel.result is not None and not panel.runner.busy, timeout=20000)
    panel.result = None
    panel._on_failed(0, "OSError: disk gone")
    panel._fill_tree()
    assert "The last run failed" in panel.empty.text()
    assert [b.text().split("  ")[0] for b in panel.empty.buttons] == ["Run Tests"]


def test_tests_panel_without_filter_files_offers_new_filter(qtbot, tmp_path, window_on):
    root = tmp_path / "packs-only"
    (root / "rules" / "en").mkdir(parents=True)
    win = window_on(root)
    panel = win.show_panel("tests")
    qtbot.waitUntil(lambda: panel.result is not None and not panel.runner.busy, timeout=20000)
    assert shown(panel.empty)
    assert "No RTK filter files" in panel.empty.text()
    assert clicking_triggers(qtbot, panel.empty, "New Filter…", win.actions_["new_filter"])


def test_tests_panel_failures_only_with_none_failing_offers_show_all(qtbot, window):
    panel = window.show_panel("tests")
    qtbot.waitUntil(lambda: panel.result is not None and not panel.runner.busy, timeout=20000)
    assert panel.result.rows and not panel.result.failed
    panel.failed_only.setChecked(True)
    assert shown(panel.empty)
    assert f"all {panel.result.passed} pass" in panel.empty.text()
    click(qtbot, panel.empty, "Show all tests")
    assert not panel.failed_only.isChecked()
    assert not shown(panel.empty)


def test_tests_panel_filters_without_tests_explain_how_to_add_one(qtbot, tmp_path, window_on):
    root = tmp_path / "untested"
    (root / "filters").mkdir(parents=True)
    value = example_filter(set())
    value["tests"] = []
    (root / "filters" / "tool.json").write_text(render(value), encoding="utf-8")
    win = window_on(root)
    panel = win.show_panel("tests")
    qtbot.waitUntil(lambda: panel.result is not None and not panel.runner.busy, timeout=20000)
    assert not panel.result.rows
    assert "Add test from preview…" in panel.detail_title.text()
    assert "tests" in panel.detail_title.text()


# -- trust panel -------------------------------------------------------------------------------------------------
def test_trust_panel_without_workspace_offers_to_open_one(qtbot, bare_window):
    panel = bare_window.show_panel("trust")
    assert shown(panel.no_workspace)
    assert "No workspace is open" in panel.no_workspace.text()
    assert shown(panel.no_filters)
    assert clicking_triggers(qtbot, panel.no_workspace, "Open Workspace…", bare_window.actions_["open_workspace"])


def test_trust_export_list_without_filters_offers_new_filter(qtbot, tmp_path, window_on):
    root = tmp_path / "packs-only"
    (root / "rules" / "en").mkdir(parents=True)
    win = window_on(root)
    panel = win.show_panel("trust")
    qtbot.waitUntil(lambda: panel.overview is not None and not panel.loader.busy, timeout=20000)
    assert not shown(panel.no_workspace)
    assert shown(panel.no_filters)
    assert "No RTK filters to export" in panel.no_filters.text()
    assert clicking_triggers(qtbot, panel.no_filters, "New Filter…", win.actions_["new_filter"])


def test_trust_export_list_with_filters_has_no_message(qtbot, window):
    panel = window.show_panel("trust")
    qtbot.waitUntil(lambda: panel.export_tree.topLevelItemCount() > 0, timeout=20000)
    assert not shown(panel.no_workspace)
    assert not shown(panel.no_filters)


# -- editor area ---------------------------------------------------------------------------------------------------
def test_start_page_is_shown_while_no_document_is_open(qtbot, window, workspace):
    page = window.start_page
    assert window.tabs.currentWidget() is page
    assert "No file is open" in page.actions_state.text()
    assert any(b.text().startswith("New Pack…") for b in page.actions_state.buttons)
    tab = window.open_file(workspace / "rules" / "en" / "filler.json")
    assert window.tabs.indexOf(page) < 0
    assert window.tabs.currentWidget() is tab
    assert window.panel_widgets["repair"] is not None and window.tabs.indexOf(window.panel_widgets["repair"]) >= 0
    tab.undo_stack.setClean()
    assert window.close_tab(window.tabs.indexOf(tab))
    assert window.tabs.currentWidget() is page


def test_start_page_buttons_trigger_the_window_actions(qtbot, window):
    page = window.start_page
    assert clicking_triggers(qtbot, page.actions_state, "New Filter…", window.actions_["new_filter"])


def test_start_page_without_workspace_offers_example_tour_and_recent(qtbot, tmp_path):
    from app.mainwindow import MainWindow
    from app.tour import install_tour
    from engine.workspace.settings import Settings

    recent = tmp_path / "earlier"
    recent.mkdir()
    settings = Settings()
    settings.recent_workspaces = [str(recent)]
    win = MainWindow(settings)
    qtbot.addWidget(win)
    install_tour(win)
    win.show()
    page = win.start_page
    assert win.tabs.currentWidget() is page
    page.refresh()
    labels = [b.text() for b in page.actions_state.buttons]
    assert any(label.startswith("Open Example Workspace") for label in labels)
    assert any(label.startswith("Show Tour") for label in labels)
    assert clicking_triggers(qtbot, page.actions_state, "Show Tour", win.actions_["show_tour"])
    click(qtbot, page.recent, str(recent))
    assert win.workspace == Path(recent).resolve()
    win.watcher.stop()
