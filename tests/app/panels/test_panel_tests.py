"""The Tests panel: runs, tree, diff, activation, accept-actual (undoable), add test, progress, cancel."""

from __future__ import annotations

import json
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

import app.panel_tests as panel_tests

pytestmark = pytest.mark.gui


def _panel(qtbot, window):
    panel = window.panel_widgets["tests"]
    qtbot.waitUntil(lambda: panel.result is not None and not panel.runner.busy, timeout=30000)
    return panel


def _item(panel, name):
    return next(i for i in panel.test_items() if i.text(0) == name)


def _rerun(qtbot, panel):
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        panel.run_tests()


def test_first_scan_runs_every_test_and_selects_the_failure(qtbot, window):
    panel = _panel(qtbot, window)
    assert (panel.result.passed, panel.result.failed) == (7, 1)
    bottom = window.bottom
    assert bottom.tabText(bottom.indexOf(panel)) == "Tests (✓ 7 ✗ 1)"
    assert panel.summary.level == "bad" and "✗ 1" in panel.summary.text()
    current = panel.tree.currentItem()
    assert current.text(0) == "plugins line (outdated expectation)" and current.text(1) == "✗ fail"
    assert "- plugins: cov-5.0" in panel.diff.plain_lines()
    assert panel.accept_button.isEnabled()


def test_activation_is_shown_per_test(qtbot, window):
    panel = _panel(qtbot, window)
    audit = _item(panel, "audit command")
    assert audit.text(1) == "✓ pass" and audit.text(2) == "⚠ picks audit-quiet"
    assert "VT-Q5" in audit.toolTip(2)
    assert _item(panel, "drops warnings").text(2) == "✓ commands"
    assert _item(panel, "drops directory lines").text(2) == "— (no command)"
    panel.tree.setCurrentItem(audit)
    assert "not this filter" in panel.activation.text()
    assert not panel.accept_button.isEnabled()  # it passes: nothing to accept


def test_failures_only_filter(qtbot, window):
    panel = _panel(qtbot, window)
    panel.failed_only.setChecked(True)
    assert [i.text(0) for i in panel.test_items()] == ["plugins line (outdated expectation)"]
    panel.failed_only.setChecked(False)
    assert len(panel.test_items()) == 8


def test_accept_actual_edits_the_document_and_undo_reverts_it(qtbot, window, demo):
    panel = _panel(qtbot, window)
    panel.tree.setCurrentItem(_item(panel, "plugins line (outdated expectation)"))
    path = demo / "filters" / "pytest.json"
    before = path.read_text(encoding="utf-8")
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        assert panel.accept_selected()
    tab = window.tab_for(path)
    assert tab is not None and tab.is_dirty()
    assert json.loads(tab.text)["tests"][2]["expected"] == "tests/test_c.py .\n1 passed"
    assert path.read_text(encoding="utf-8") == before  # nothing written: the edit is in the buffer
    assert panel.result.failed == 0  # the run tests the unsaved buffer
    tab.undo_stack.undo()
    assert tab.text == before and not tab.is_dirty()
    _rerun(qtbot, panel)
    assert panel.result.failed == 1


def test_add_preview_as_test_takes_the_rtk_preview_sample(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    path = demo / "filters" / "npm.json"
    tab = window.open_file(path)
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    preview = window.panel_widgets.get("rtk-preview")
    if preview is not None and hasattr(preview, "command") and hasattr(preview, "input"):
        preview.command.setText("npm ci")
        preview.input.setPlainText("npm notice x\nadded 9 packages")
    seen = {}

    def accept(dialog):
        seen.update(filter=dialog.filter.currentText(), name=dialog.name.text(), command=dialog.command.text(),
                    sample=dialog.input.toPlainText())
        if not dialog.input.toPlainText():  # no preview panel: type the sample in the dialog
            dialog.command.setText("npm ci")
            dialog.input.setPlainText("npm notice x\nadded 9 packages")
        return QDialog.DialogCode.Accepted

    dialogs.answers["AddTestDialog"] = accept
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        assert panel.add_test_from_preview()
    assert seen["filter"] == "npm-install" and seen["name"] == "preview sample"
    if preview is not None and hasattr(preview, "command"):
        assert (seen["command"], seen["sample"]) == ("npm ci", "npm notice x\nadded 9 packages")
    added = json.loads(tab.text)["tests"][-1]
    assert added == {"name": "preview sample", "command": "npm ci", "input": "npm notice x\nadded 9 packages",
                     "expected": "added 9 packages"}
    assert _item(panel, "preview sample").text(1) == "✓ pass"
    tab.undo_stack.undo()
    assert "preview sample" not in tab.text


def test_add_test_dialog_says_when_the_command_selects_another_filter(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    tab = window.open_file(demo / "filters" / "npm.json")
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    seen = []

    def look(dialog):
        dialog.command.setText("npm audit")
        dialog.input.setPlainText("found 0 vulnerabilities")
        qtbot.waitUntil(lambda: dialog.verdict is not None and dialog.verdict.passes is False, timeout=10000)
        seen.append(dialog.activation.text())
        dialog.command.setText("npm ci")  # corrected: the verdict follows the field
        qtbot.waitUntil(lambda: dialog.verdict is not None and dialog.verdict.passes is True, timeout=10000)
        seen.append(dialog.activation.text())
        return QDialog.DialogCode.Rejected

    dialogs.answers["AddTestDialog"] = look
    assert not panel.add_test_from_preview()
    assert "'audit-quiet' (project, filters.json) is selected (criterion: commands), not 'npm-install'" in seen[0]
    assert "this filter is selected" in seen[1]
    assert "tests" not in json.loads(tab.text) or all(t["name"] != "preview sample"
                                                      for t in json.loads(tab.text)["tests"])


def test_progress_and_cancel_of_a_long_run(qtbot, window, monkeypatch):
    panel = _panel(qtbot, window)
    real = panel_tests.run_workspace_tests
    started = threading.Event()

    def slow(files, *, buffers, profile, progress, cancel, with_builtins):  # same signature as the real one
        def waiting_progress(done, total, label):
            progress(done, total, label)
            if label.startswith("testing"):
                started.set()
                cancel.wait(10)  # a long file: the run only goes on once cancelled
        return real(files, buffers=buffers, profile=profile, progress=waiting_progress, cancel=cancel,
                    with_builtins=with_builtins)

    monkeypatch.setattr(panel_tests, "run_workspace_tests", slow)
    steps = []
    panel._progress.step.connect(lambda d, t, label: steps.append(label))
    panel.run_tests()
    qtbot.waitUntil(started.is_set, timeout=10000)
    qtbot.waitUntil(lambda: panel.cancel_button.isEnabled() and not panel.progress.isHidden(), timeout=5000)
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    assert panel.result.cancelled and panel.summary.text().startswith("cancelled")
    assert any(s.startswith("reading") for s in steps) and any(s.startswith("testing") for s in steps)
    qtbot.waitUntil(panel.progress.isHidden, timeout=5000)


def test_saving_a_filter_file_reruns_the_tests(qtbot, window, demo):
    panel = _panel(qtbot, window)
    tab = window.open_file(demo / "filters" / "pytest.json")
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    panel.tree.setCurrentItem(_item(panel, "plugins line (outdated expectation)"))
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        panel.accept_selected()
    assert panel.result.failed == 0
    panel.result = None
    with qtbot.waitSignal(panel.ranChanged, timeout=20000):
        assert tab.save()
    assert panel.result.failed == 0 and not tab.is_dirty()


def test_f5_runs_the_tests_and_double_click_goes_to_the_test(qtbot, window, demo):
    from PySide6.QtTest import QTest

    panel = _panel(qtbot, window)
    window.show_panel("diagnostics")
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        QTest.keyClick(window, Qt.Key.Key_F5)
    assert window.bottom.currentWidget() is panel
    tab = panel.go_to_item(_item(panel, "keeps failures"))
    assert tab is not None and tab.path == demo / "filters" / "pytest.json"
    line = tab.editor.textCursor().blockNumber() + 1
    assert '"name": "keeps failures"' in tab.text.splitlines()[line] or "keeps failures" in "".join(
        tab.text.splitlines()[line - 1: line + 2])


def test_no_dialogs_during_runs(qtbot, window, dialogs):
    panel = _panel(qtbot, window)
    _rerun(qtbot, panel)
    assert dialogs.calls == []


def test_run_tests_is_a_window_action_in_the_run_menu_and_palette(qtbot, window):
    panel = _panel(qtbot, window)
    qtbot.waitUntil(lambda: "run_tests" in window.actions_, timeout=5000)
    action = window.actions_["run_tests"]
    assert action.shortcut().toString() == "F5"
    run_menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "Run")
    assert action in run_menu.actions()
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        action.trigger()


def test_builtins_can_compete_in_the_activation_check(qtbot, window, tmp_path, monkeypatch):
    import engine.paths

    builtins = tmp_path / "builtins"
    builtins.mkdir()
    (builtins / "pytest.json").write_text(json.dumps({
        "id": "bundled-pytest", "label": "pytest", "category": "test", "priority": 90,
        "match": {"commands": ["^pytest\\b"]}, "rules": {}, "preserve": {}}), encoding="utf-8")
    monkeypatch.setattr(engine.paths, "builtin_filters_dir", lambda: builtins)
    panel = _panel(qtbot, window)
    assert _item(panel, "keeps failures").text(2) == "✓ commands"
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        panel.builtins.setChecked(True)
    assert _item(panel, "keeps failures").text(2) == "⚠ picks bundled-pytest"


def test_large_filter_sets_wait_for_the_panel_or_f5(qtbot, demo, dialogs, monkeypatch):
    from app.mainwindow import MainWindow
    from engine.workspace.settings import Settings

    monkeypatch.setattr(panel_tests, "AUTO_RUN_BYTES", 10)  # the demo's filters count as "large"
    win = MainWindow(Settings())
    qtbot.addWidget(win)
    win.open_workspace(demo, restore=False)
    win.show()
    qtbot.waitUntil(lambda: win.index is not None, timeout=30000)
    panel = win.panel_widgets["tests"]
    qtbot.wait(300)
    assert panel.result is None and "F5" in panel.summary.text()
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        win.show_panel("tests")
    assert panel.result.failed == 1
    win.watcher.stop()


PING_LIKE = '''schema_version = 1

[filters.pingish]
match_command = '^ping\\b'
strip_lines_matching = ['^PING ']

[[tests.pingish]]
name = "keeps the lower-case summary"
input = """
PING host (10.0.0.1)
ping statistics: 1 packets
"""
expected = "ping statistics: 1 packets"
'''


def test_a_result_changed_by_a_quirk_shows_its_id_and_the_strict_answer(qtbot, window, demo):
    panel = _panel(qtbot, window)
    (demo / "filters" / "ping.toml").write_text(PING_LIKE, encoding="utf-8")
    qtbot.waitUntil(lambda: any(i.text(0) == "keeps the lower-case summary" for i in panel.test_items()),
                    timeout=30000)
    item = _item(panel, "keeps the lower-case summary")
    assert item.text(1) == "✗ fail · RTK-Q16" and "under --profile strict this test passes" in item.toolTip(1)
    panel.tree.setCurrentItem(item)
    assert "RTK-Q16" in panel.detail_title.text()
    lines = panel.diff.plain_lines()
    assert "+++ strict" in lines and "+ ping statistics: 1 packets" in lines


def test_the_explorer_shows_each_filter_files_tests(qtbot, window, demo):
    """ux.md's explorer badges: ✓/✗ per filter file from the last run, none while an edit has made
    them outdated, back with the run after it."""
    panel = _panel(qtbot, window)
    badges = window.explorer.badges
    pytest_json, npm_json = demo / "filters" / "pytest.json", demo / "filters" / "npm.json"
    assert badges[pytest_json]["tests"] == "✗"
    assert badges[pytest_json]["tests:tip"].startswith("1 of ") and "fail" in badges[pytest_json]["tests:tip"]
    assert badges[npm_json]["tests"] == "✓"
    item = window.explorer.items[pytest_json]
    assert item.text(0) == "filters/pytest.json"  # (the icon says it; the name stays readable)
    assert not item.icon(0).isNull() and "inline test(s) fail" in item.toolTip(0)
    panel.tree.setCurrentItem(_item(panel, "plugins line (outdated expectation)"))
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        assert panel.accept_selected()  # (an edit: outdated at once, then the run after it)
    assert badges[pytest_json]["tests"] == "✓"
    tab = window.tab_for(pytest_json)
    panel.auto.setChecked(False)
    tab.undo_stack.undo()
    assert "tests" not in badges.get(pytest_json, {})  # outdated: no ✓ that no longer holds
    _rerun(qtbot, panel)
    assert badges[pytest_json]["tests"] == "✗"


def test_a_filter_file_deleted_on_disk_leaves_the_results(qtbot, window, demo):
    panel = _panel(qtbot, window)
    pytest_file = demo / "filters" / "pytest.json"
    assert any(f.path == str(pytest_file) for f in panel.result.files)
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        pytest_file.unlink()  # the watcher reports it; the run that follows no longer has it
    qtbot.waitUntil(lambda: not any(f.path == str(pytest_file) for f in panel.result.files), timeout=30000)
    assert panel.result.failed == 0  # its failing test was the only failure


def test_a_new_default_profile_outdates_the_run_and_runs_again(qtbot, window, dialogs):
    panel = _panel(qtbot, window)
    assert panel._ran_with == ("omniroute", window.settings.regex_timeout_ms)

    def choose_strict(dialog):
        dialog.profile.setCurrentText("strict")
        return QDialog.DialogCode.Accepted

    dialogs.answers["SettingsDialog"] = choose_strict
    with qtbot.waitSignal(panel.ranChanged, timeout=30000):
        window.open_settings()
        assert panel.outdated and "changed since this run (now strict)" in panel.summary.toolTip()
    assert panel._ran_with[0] == "strict" and not panel.outdated
    with qtbot.assertNotEmitted(panel.ranChanged, wait=600):
        dialogs.answers["SettingsDialog"] = QDialog.DialogCode.Accepted  # nothing that matters changed
        window.open_settings()
    assert not panel.outdated


def test_the_failure_selected_is_the_active_files_first(qtbot, window, demo):
    """Breaking the test of the filter being edited showed another file's old failure, chosen
    by the first run, instead of the one the edit made."""
    panel = _panel(qtbot, window)
    assert panel.tree.currentItem().text(0) == "plugins line (outdated expectation)"  # (pytest.json's)
    make = window.open_file(demo / "filters" / "make.toml")
    qtbot.waitUntil(make.is_settled, timeout=10000)
    make.editor.setPlainText(make.text.replace('expected = "cc -o app main.c"', 'expected = "cc -o app"'))
    _rerun(qtbot, panel)
    assert panel.result.failed == 2
    assert panel.tree.currentItem().text(0) == "drops directory lines"
    window.open_file(demo / "filters" / "npm.json")  # a file that passes: the choice stays
    _rerun(qtbot, panel)
    assert panel.tree.currentItem().text(0) == "drops directory lines"
    window.open_file(demo / "filters" / "pytest.json")
    _rerun(qtbot, panel)
    assert panel.tree.currentItem().text(0) == "plugins line (outdated expectation)"
