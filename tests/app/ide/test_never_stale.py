"""Derived views never show a result that no longer matches the document (issue 15).

Each test reproduces one staleness bug seen by a rule author, through the real window.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtGui import QTextCursor

from .ide_helpers import open_pack, wait_settled

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
    # the button keeps its width (fixed text); the rule it runs is named in its tooltip and the scope line
    assert panel.rule_button.toolTip().endswith("basically_renamed")
    assert "rule basically_renamed" in panel.scope_label.text()
    tab.undo_stack.undo()  # the rename undone: the scope follows the rule back to its old name
    qtbot.waitUntil(lambda: panel.preview.only_rule == "basically", timeout=10000)


def test_the_scope_line_names_the_pack_folder_from_the_workspace(qtbot, window, workspace):
    """"from /roo…lewright/example-workspace/rules" hid the part that tells pack folders apart."""
    panel = window.panel_widgets["caveman-preview"]
    open_pack(qtbot, window, workspace)
    qtbot.waitUntil(lambda: "from" in panel.scope_label.text(), timeout=10000)
    assert panel.scope_label.text() == "running the whole pack from rules/"
    assert panel.scope_label.toolTip() == str(workspace / "rules")  # the whole path stays at hand


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


def test_ctrl_z_in_a_form_field_undoes_the_document_not_the_field(qtbot, window, workspace):
    """A field's own undo history would change the field without the document (or push a new edit
    instead of undoing): Ctrl+Z in a field goes to the document's stack, like everywhere else."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    tab = open_pack(qtbot, window, workspace)
    tab.visual.select(0)
    category = tab.visual.header_fields["/category"].edit
    tab.show_json()
    _type_in_json(tab, '"category": "filler"', '"category": "verbose"')
    tab.show_visual()
    qtbot.waitUntil(lambda: category.text() == "verbose", timeout=5000)
    pattern = tab.visual.form.fields["/pattern"].edit
    pattern.setFocus()
    QTest.keyClick(pattern, Qt.Key.Key_End)
    QTest.keyClicks(pattern, "x")
    assert json.loads(tab.text)["rules"][0]["pattern"].endswith("x")
    depth = tab.undo_stack.index()
    QTest.keyClick(pattern, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert tab.undo_stack.index() == depth - 1  # an undo, not a new edit
    assert not json.loads(tab.text)["rules"][0]["pattern"].endswith("x")
    assert not pattern.toPlainText().endswith("x")
    QTest.keyClick(pattern, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # next: the JSON edit
    qtbot.waitUntil(lambda: category.text() == "filler", timeout=5000)
    assert json.loads(tab.text)["category"] == "filler"
    name = tab.visual.form.fields["/name"].edit
    QTest.keyClick(name, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: category.text() == "verbose", timeout=5000)


def test_export_list_says_when_a_file_has_unsaved_edits(qtbot, window, workspace):
    panel = window.show_panel("trust")
    path = workspace / "filters" / "mytool.json"

    def label() -> str:
        items = [panel.export_tree.topLevelItem(i) for i in range(panel.export_tree.topLevelItemCount())]
        return next((i.text(0) for i in items if i.text(0).startswith("filters/mytool.json")), "")

    qtbot.waitUntil(lambda: label() == "filters/mytool.json", timeout=15000)
    tab = window.open_file(path)
    wait_settled(qtbot, tab)
    tab.edit_field(0, "/label", "Renamed in the buffer", True)
    assert label() == "filters/mytool.json — unsaved edits"
    assert tab.save()
    qtbot.waitUntil(lambda: label() == "filters/mytool.json", timeout=15000)


def test_playground_sample_and_template_labels_let_go_once_the_input_is_edited(qtbot, window):
    params = window.panel_widgets["params"]
    assert params.template.currentIndex() > 0  # a template is loaded at start
    params.payload.setPlainText(params.payload.toPlainText().replace('"Playground assistant"', '"Mine"'))
    assert params.template.currentIndex() == 0
    params.load_template(params.templates[0].name)
    assert params.template.currentData() == params.templates[0].name

    repair = window.panel_widgets["repair"].repair
    title = repair.sample.currentText()
    assert repair.sample.currentIndex() > 0 and title in repair.description.text()
    repair.args.setPlainText(repair.args.toPlainText() + " ")
    assert repair.sample.currentIndex() == 0 and "edited from the sample" in repair.description.text()

    grammar = window.panel_widgets["repair"].grammar
    assert grammar.sample.currentIndex() > 0
    grammar.text.setPlainText(grammar.text.toPlainText() + "!")
    assert grammar.sample.currentIndex() == 0


def test_reloading_the_same_sample_keeps_the_preview_shading(qtbot, window, workspace):
    """Putting the same text in the input again (a rescan picks the sample again) replaced the
    document under the shading while its layers said it was drawn: the input lost its marks."""
    panel = window.panel_widgets["caveman-preview"]
    open_pack(qtbot, window, workspace)
    panel.set_text("Basically we should just go. Please do it.")
    qtbot.waitUntil(lambda: panel.preview is not None and not panel.dispatcher.busy
                    and panel.preview.input == panel.input.toPlainText() and any(s.cursor.hasSelection() for s in panel.input.extraSelections()),
                    timeout=10000)
    panel.set_text(panel.input.toPlainText())
    qtbot.wait(400)
    qtbot.waitUntil(lambda: not panel.dispatcher.busy, timeout=10000)
    assert any(s.cursor.hasSelection() for s in panel.input.extraSelections())


def test_a_reload_keeps_the_preview_scope(qtbot, window, workspace):
    """Re-listing the rules (a reload from disk) re-selects the same row: that is not the author
    picking a rule, so "Whole pack" stays chosen."""
    panel = window.panel_widgets["caveman-preview"]
    tab = open_pack(qtbot, window, workspace)
    qtbot.waitUntil(lambda: tab.visual.current() == 0, timeout=5000)
    assert panel.whole_button.isChecked()
    tab.edit_field(0, "/name", "basically_mine", True)  # unsaved: the disk change asks first
    path = workspace / "rules" / "en" / "filler.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"just"', '"merely"'), encoding="utf-8")
    qtbot.waitUntil(lambda: tab.conflict_bar.isVisible(), timeout=10000)
    tab.conflict_bar.reload_button.click()
    qtbot.waitUntil(lambda: "merely" in tab.text, timeout=10000)
    qtbot.wait(300)
    assert panel.whole_button.isChecked() and panel.rule_name == "basically"
