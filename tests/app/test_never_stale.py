"""Derived views never show a result that no longer matches the document (issue 15).

Each test reproduces one staleness bug seen by a rule author, through the real window.
"""

from __future__ import annotations

import json

import pytest
from ide_helpers import open_pack, wait_settled
from PySide6.QtGui import QTextCursor

pytestmark = pytest.mark.gui


def _type_in_json(tab, old: str, new: str) -> None:
    """Replace the first ``old`` in the JSON view as a user would (a cursor edit in the editor)."""
    text = tab.editor.toPlainText()
    start = text.index(old)
    cursor = QTextCursor(tab.editor.document())
    cursor.setPosition(start)
    cursor.setPosition(start + len(old), QTextCursor.MoveMode.KeepAnchor)
    cursor.insertText(new)


def test_this_rule_only_follows_a_renamed_rule(qtbot, window, workspace):
    panel = window.panel_widgets["caveman-preview"]
    tab = open_pack(qtbot, window, workspace)
    panel.set_text("Basically we should just go. Please do it.")
    tab.visual.select(1)
    tab.visual.select(0)
    qtbot.waitUntil(lambda: panel.preview is not None and panel.preview.only_rule == "basically", timeout=10000)
    assert panel.rule_button.isChecked()
    tab.edit_field(0, "/name", "basically_renamed", True)
    qtbot.waitUntil(lambda: panel.preview.only_rule == "basically_renamed", timeout=10000)
    assert [h.name for h in panel.preview.rules] == ["basically_renamed"]
    assert "1 of 1 rules changed" in panel.summary.text()
    assert panel.rule_button.text().endswith("basically_renamed")
    tab.undo_stack.undo()  # the rename undone: the scope follows the rule back to its old name
    qtbot.waitUntil(lambda: panel.preview.only_rule == "basically", timeout=10000)


def test_undo_of_a_json_header_edit_refreshes_the_visual_header(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    category = tab.visual.header_fields["/category"]
    assert category.edit.text() == "filler"
    tab.show_json()
    _type_in_json(tab, '"category": "filler"', '"category": "verbose"')
    qtbot.waitUntil(lambda: category.edit.text() == "verbose", timeout=5000)
    tab.undo_stack.undo()
    qtbot.waitUntil(lambda: category.edit.text() == "filler", timeout=5000)
    tab.undo_stack.redo()
    qtbot.waitUntil(lambda: category.edit.text() == "verbose", timeout=5000)
    assert json.loads(tab.text)["category"] == "verbose"


def test_tests_panel_is_current_after_undoing_accept_actual(qtbot, window, workspace):
    panel = window.panel_widgets["tests"]
    qtbot.waitUntil(lambda: panel.result is not None and not panel.runner.busy, timeout=30000)
    path = workspace / "filters" / "mytool.json"
    tab = window.open_file(path)
    wait_settled(qtbot, tab)
    # break the test in the buffer: the panel re-runs on the edit and shows the failure
    value = json.loads(tab.text)
    old_expected = value["tests"][0]["expected"]
    tab.show_json()
    _type_in_json(tab, json.dumps(old_expected), json.dumps("a\nb\nbroken"))
    qtbot.waitUntil(lambda: not panel.runner.busy and panel.result is not None and panel.result.failed == 1,
                    timeout=30000)
    item = next(i for i in panel.test_items() if i.text(0) == "drops blank lines" and i.text(1) == "✗ fail")
    panel.tree.setCurrentItem(item)
    assert panel.accept_selected()
    qtbot.waitUntil(lambda: not panel.runner.busy and panel.result.failed == 0, timeout=30000)
    tab.undo_stack.undo()  # the accept undone: the test fails again, without F5
    assert panel.outdated and panel.summary.text().startswith("outdated")
    assert not panel.accept_button.isEnabled()
    qtbot.waitUntil(lambda: not panel.runner.busy and not panel._autorun.isActive()
                    and panel.result.failed == 1, timeout=30000)
    tab.undo_stack.redo()
    qtbot.waitUntil(lambda: not panel.runner.busy and not panel._autorun.isActive()
                    and panel.result.failed == 0, timeout=30000)


def _playground_invalid_marks_last_result(qtbot, pane, status_ok, stale_banner, result_widget, bad_text):
    qtbot.waitUntil(status_ok, timeout=15000)
    assert not stale_banner.isVisible() and result_widget.isEnabled()
    good = pane.toPlainText()
    pane.setPlainText(bad_text)
    qtbot.waitUntil(lambda: stale_banner.isVisible(), timeout=15000)
    assert "showing the result for the last valid input" in stale_banner.text()
    assert not result_widget.isEnabled()
    pane.setPlainText(good)
    qtbot.waitUntil(lambda: not stale_banner.isVisible() and result_widget.isEnabled(), timeout=15000)


def test_params_playground_marks_the_last_good_report_while_the_input_is_invalid(qtbot, window):
    panel = window.panel_widgets["params"]
    window.show_panel("params")
    _playground_invalid_marks_last_result(qtbot, panel.payload, lambda: panel.view is not None and panel.view.ok,
                                          panel.stale, panel.tree, '{"provider": ')


def test_repair_playground_marks_the_last_good_result_while_the_input_is_invalid(qtbot, window):
    panel = window.panel_widgets["repair"]
    window.show_panel("repair")
    repair = panel.repair
    _playground_invalid_marks_last_result(qtbot, repair.schema, lambda: repair.view is not None and repair.view.ok,
                                          repair.stale, repair.changes, '{"type": ')
