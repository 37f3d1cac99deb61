"""Opening a workspace, the two synced views, list actions, undo/redo (offscreen Qt)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QDialog

from app.fields import FlagsField, ListField, PatternField, TableField, TextField

from .ide_helpers import open_pack, wait_settled

pytestmark = pytest.mark.gui


def test_explorer_lists_packs_by_language_filters_and_rtk(window, workspace):
    top = [window.explorer.tree.topLevelItem(i).text(0) for i in range(window.explorer.tree.topLevelItemCount())]
    assert any(t.startswith("Caveman packs") for t in top)
    assert any(t.startswith("RTK filters") for t in top)
    assert any(t.startswith(".rtk") for t in top)
    caveman = window.explorer.tree.topLevelItem(0)
    assert sorted(caveman.child(i).text(0) for i in range(caveman.childCount())) == ["de", "en"]
    assert workspace / ".rtk" / "filters.json" in window.explorer.items


def test_packs_are_listed_by_file_in_load_order_with_a_differing_category(qtbot, window, workspace):
    pack = workspace / "rules" / "en" / "aaa-first.json"
    pack.write_text(json.dumps({"language": "en", "category": "zzz", "rules": []}), encoding="utf-8")
    window.rescan(immediate=True)
    qtbot.waitUntil(lambda: pack in window.explorer.items, timeout=10000)
    caveman = window.explorer.tree.topLevelItem(0)
    english = next(caveman.child(i) for i in range(caveman.childCount()) if caveman.child(i).text(0) == "en")
    labels = [english.child(i).data(0, Qt.ItemDataRole.UserRole + 2) for i in range(english.childCount())]
    # the file name, in OmniRoute's load order (it was the category, sorted by category: bad.json
    # showed as its category "t", and a file named for nothing the explorer showed)
    assert labels[0] == "aaa-first — category zzz"
    assert labels[1:] == sorted(labels[1:]) and "filler" in labels


def test_open_shows_rules_in_the_list_and_form(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    assert tab.visual.model.rowCount() == 3
    assert tab.visual.model.titles == ["basically", "please", "just"]
    assert isinstance(tab.visual.form.fields["/pattern"], PatternField)
    assert tab.visual.form.fields["/name"].edit.text() == "basically"
    assert window.status_rules.text() == "rules 3"


def test_form_edit_updates_json_and_keeps_formatting(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    before = tab.text
    tab.visual.select(1)
    name = tab.visual.form.fields["/name"]
    assert isinstance(name, TextField)
    name.edit.selectAll()
    qtbot.keyClicks(name.edit, "polite")
    assert json.loads(tab.editor.toPlainText())["rules"][1]["name"] == "polite"
    assert tab.editor.toPlainText() == tab.text == before.replace('"name": "please"', '"name": "polite"')
    assert tab.visual.model.titles[1] == "polite"
    assert tab.is_dirty()


def test_json_edit_updates_the_form_at_once(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    tab.visual.select(2)
    tab.show_json()
    cursor = tab.editor.textCursor()
    cursor.setPosition(tab.editor.toPlainText().index('"just"') + 1)
    tab.editor.setTextCursor(cursor)
    qtbot.keyClicks(tab.editor, "only_")
    assert tab.index.values[2]["name"] == "only_just"
    assert tab.visual.form.fields["/name"].edit.text() == "only_just"
    assert tab.visual.model.titles[2] == "only_just"


def test_flags_toggles_and_default(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    tab.visual.select(2)  # "just" has no flags: default gi
    flags = tab.visual.form.fields["/flags"]
    assert isinstance(flags, FlagsField) and flags.default_box.isChecked()
    flags.default_box.click()  # explicit flags, starting from the default
    assert tab.index.values[2]["flags"] == "gi"
    flags.boxes["m"].click()
    assert tab.index.values[2]["flags"] == "gim"
    flags.default_box.click()
    assert "flags" not in tab.index.values[2]


def test_replacement_map_table_writes_an_object(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    tab.visual.select(0)
    table = tab.visual.form.fields["/replacementMap"]
    assert isinstance(table, TableField)
    table._add()
    table.table.item(0, 0).setText("Basically")
    table.table.item(0, 1).setText("")
    assert tab.index.values[0]["replacementMap"] == {"Basically": ""}
    assert json.loads(tab.text)["rules"][0]["replacementMap"] == {"Basically": ""}


def test_pattern_errors_show_while_typing(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    pattern = tab.visual.form.fields["/pattern"]
    pattern.edit.moveCursor(QTextCursor.MoveOperation.End)
    typed_at = len(pattern.edit.toPlainText())
    qtbot.keyClicks(pattern.edit, "(")
    assert pattern.error.isVisibleTo(tab.visual.form)
    # the reason leads (V8's message repeats the pattern first, and a narrow form elided the
    # reason away); the whole message is the tooltip; the open '(' is tinted in the field
    assert pattern.error.text() == f"Unterminated group (char {typed_at + 1})"
    assert pattern.error.toolTip().startswith("Invalid regular expression: /")
    assert pattern.error.toolTip().endswith(": Unterminated group")
    [mark] = pattern.edit.extraSelections()
    assert (mark.cursor.selectionStart(), mark.cursor.selectedText()) == (typed_at, "(")
    qtbot.keyClick(pattern.edit, Qt.Key.Key_Backspace)
    assert not pattern.error.isVisibleTo(tab.visual.form)
    assert pattern.edit.extraSelections() == []


def test_a_bad_pattern_row_is_named_under_its_list_even_while_selected(qtbot, window, workspace):
    tab = window.open_file(workspace / "filters" / "mytool.json")
    wait_settled(qtbot, tab)
    qtbot.waitUntil(lambda: tab.visual.form.fields.get("/rules/dropPatterns") is not None, timeout=5000)
    drop = tab.visual.form.fields["/rules/dropPatterns"]
    assert isinstance(drop, ListField) and drop.list.count() == 1 and drop.problems.isHidden()
    drop._add()  # (a new row is selected and opened for editing, as the + button does)
    drop.list.item(1).setText("^warn: [a-z+")
    qtbot.waitUntil(lambda: json.loads(tab.text)["rules"]["dropPatterns"][1] == "^warn: [a-z+", timeout=5000)
    assert drop.list.currentRow() == 1  # selected: its red text is under the selection colour …
    assert not drop.list.item(1).icon().isNull() and drop.list.item(0).icon().isNull()  # … its mark is not
    assert drop.problems.isVisibleTo(tab.visual.form)
    assert drop.problems.text() == "Row 2: Unterminated character class (char 8)"  # the "["
    drop.list.item(1).setText("^warn: [a-z]+")
    assert drop.problems.isHidden() and drop.list.item(1).icon().isNull()


def test_add_duplicate_delete_move(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    names = lambda: [r["name"] for r in json.loads(tab.text)["rules"]]  # noqa: E731
    tab.visual.select(0)
    tab.visual.buttons["add"].click()
    assert names()[1] == "new_rule" and len(names()) == 4
    assert tab.visual.current() == 1
    tab.visual.buttons["duplicate"].click()
    assert names()[:3] == ["basically", "new_rule", "new_rule_copy"]
    tab.visual.buttons["delete"].click()
    assert names() == ["basically", "new_rule", "please", "just"]
    tab.visual.select(3)
    tab.visual.buttons["up"].click()
    assert names() == ["basically", "new_rule", "just", "please"]
    assert '{"name": "just", "pattern": "\\\\bjust\\\\s+", "replacement": ""}' in tab.text  # kept verbatim
    while tab.undo_stack.canUndo():
        tab.undo_stack.undo()
    assert names() == ["basically", "please", "just"]
    assert tab.text == (workspace / "rules" / "en" / "filler.json").read_text()
    assert not tab.is_dirty()


def test_drag_and_drop_reorders_through_the_document(qtbot, qtmodeltester, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    model = tab.visual.model
    qtmodeltester.check(model)
    mime = model.mimeData([model.index(0)])
    assert model.dropMimeData(mime, Qt.DropAction.MoveAction, 3, 0, model.index(-1)) is False
    assert [r["name"] for r in json.loads(tab.text)["rules"]] == ["please", "just", "basically"]
    assert tab.editor.toPlainText() == tab.text
    tab.undo_stack.undo()  # a long move is delete + insert, undone as one step
    assert tab.text == (workspace / "rules" / "en" / "filler.json").read_text()
    assert not model.dropMimeData(QMimeData(), Qt.DropAction.MoveAction, 0, 0, model.index(-1))


def test_keystrokes_merge_into_one_undo_step(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    original = tab.text
    name = tab.visual.form.fields["/name"]
    name.edit.end(False)
    qtbot.keyClicks(name.edit, "_more")
    assert tab.undo_stack.count() == 1
    tab.show_json()
    tab.editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(tab.editor, "   ")
    assert tab.undo_stack.count() == 2
    qtbot.keyClick(tab.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert tab.text == original.replace('"basically"', '"basically_more"', 1)
    tab.undo_stack.undo()
    assert tab.text == original and tab.editor.toPlainText() == original
    assert tab.undo_stack.isClean() and not tab.is_dirty()
    qtbot.keyClick(tab.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert tab.visual.form.fields["/name"].edit.text() == "basically_more"


def test_dirty_marker_in_tab_and_explorer(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    path = workspace / "rules" / "en" / "filler.json"
    tab.edit_field(0, "/replacement", "x", False)
    assert window.tabs.tabText(window.tabs.indexOf(tab)).endswith("●")
    assert window.explorer.badges[path]["dirty"] == "●"
    tab.undo_stack.undo()
    assert not window.tabs.tabText(window.tabs.indexOf(tab)).endswith("●")


def test_filter_form_covers_nested_fields(qtbot, window, workspace):
    tab = window.open_file(workspace / "filters" / "mytool.json")
    wait_settled(qtbot, tab)
    qtbot.waitUntil(lambda: tab.index is not None and tab.index.single, timeout=5000)
    fields = tab.visual.form.fields
    for pointer in ("/id", "/label", "/category", "/priority", "/match/commands", "/rules/dropPatterns",
                    "/rules/replace", "/rules/matchOutput", "/rules/maxLines", "/preserve/errorPatterns", "/tests"):
        assert pointer in fields
    fields["/rules/stripAnsi"].box.click()
    assert json.loads(tab.text)["rules"]["stripAnsi"] is False
    fields["/priority"].spin.setValue(77)
    assert json.loads(tab.text)["priority"] == 77
    drop = fields["/rules/dropPatterns"]
    drop._add()
    drop.list.item(drop.list.count() - 1).setText("^DEBUG")
    assert json.loads(tab.text)["rules"]["dropPatterns"][-1] == "^DEBUG"
    assert not tab.visual.buttons["add"].isEnabled()  # a one-filter file has no list to grow


def test_find_and_replace_all_is_one_undo_step(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    original = tab.text
    tab.open_find(replace=True)
    bar = tab.find_bar
    qtbot.waitUntil(bar.isVisible)
    boxes = bar.find_edit.geometry(), bar.replace_edit.geometry()
    tab.find_bar.find_edit.setText("replacement")
    tab.find_bar.replace_edit.setText("replacement")
    tab.find_bar.find_edit.setText('"replacement": ""')
    tab.find_bar.replace_edit.setText('"replacement": "-"')
    assert tab.find_bar.replace_all() == 3
    qtbot.wait(10)  # (a layout pass)
    assert (bar.find_edit.geometry(), bar.replace_edit.geometry()) == boxes  # the status's text moved nothing
    assert [r["replacement"] for r in json.loads(tab.text)["rules"]] == ["-", "-", "-"]
    assert tab.find_bar.status.text() == "3 replaced · 0 matches"
    tab.undo_stack.undo()
    assert tab.text == original
    # the count and the highlights follow the text (they were the text's before the undo)
    qtbot.waitUntil(lambda: tab.find_bar.status.text() == "3 matches", timeout=5000)
    assert [c.cursor.selectedText() for c in tab.editor._find_selections] == ['"replacement": ""'] * 3
    tab.editor.textCursor().insertText('"replacement": "", ')  # typed: one more
    qtbot.waitUntil(lambda: tab.find_bar.status.text() == "4 matches", timeout=5000)


def test_go_to_file_finds_a_file_by_part_of_its_name(qtbot, window, workspace, dialogs, tmp_path):
    """Ctrl+P lists the workspace's files by name, their folder beside; typing part of a name
    narrows the list and Enter opens the first (it was a combo box that opened a file only when
    its whole relative path was typed: "filler" + Enter did nothing)."""
    from app.palette import SHORTCUT_ROLE

    seen = {}

    def pick(dialog):
        seen["all"] = [dialog.list.item(i).text() for i in range(dialog.list.count())]
        dialog.query.setText("fill de")  # words in any order, matched on the path
        seen["found"] = [(dialog.list.item(i).text(), dialog.list.item(i).data(SHORTCUT_ROLE))
                         for i in range(dialog.list.count())]
        dialog.query.setText("fill")
        dialog.run_current()
        return QDialog.DialogCode.Accepted

    dialogs.answers["FilePicker"] = pick
    window.actions_["quick_open"].trigger()
    assert ("exec", "FilePicker") in dialogs.modal()
    assert {"filler.json", "mytool.json", "filters.json"} <= set(seen["all"])
    assert seen["found"] == [("filler.json", "rules/de")]
    tab = window.current_tab()
    assert tab is not None and tab.path.name == "filler.json"  # (the first of the two filler packs)
    window.activateWindow()
    qtbot.waitUntil(lambda: tab.visual.list.hasFocus(), timeout=3000)  # Ctrl+D, Alt+↑/↓ act on the rules
    dialogs.answers["FilePicker"] = lambda dialog: QDialog.DialogCode.Rejected
    window.actions_["quick_open"].trigger()  # Escape: nothing else opens
    assert window.current_tab() is tab
    empty = tmp_path / "empty"
    empty.mkdir()
    tab.undo_stack.setClean()
    window.open_workspace(empty, restore=False)
    qtbot.waitUntil(lambda: window.index is not None and window.index.root == empty.resolve(), timeout=10000)
    asked = len(dialogs.modal())
    window.actions_["quick_open"].trigger()  # nothing to go to: it says so, no empty list
    assert len(dialogs.modal()) == asked and "no packs or filters" in window.statusBar().currentMessage()


def test_command_palette_filters_and_runs(qtbot, window, workspace, dialogs):
    from app.palette import SHORTCUT_ROLE, CommandPalette

    palette = CommandPalette(list(window.actions_.values()), window)
    qtbot.addWidget(palette)
    palette.query.setText("diag next")
    assert palette.list.count() == 1 and "Next Diagnostic" in palette.list.item(0).text()
    assert palette.list.item(0).data(SHORTCUT_ROLE) == "F8"  # drawn right-aligned beside the label
    palette.show()
    assert not palette.list.viewport().grab().isNull()  # (the delegate paints; an error would fail here)
    palette.query.setText("trust")  # the label's word first; tooltips that mention it after
    shown = [palette.list.item(i).text() for i in range(palette.list.count())]
    assert shown[0] == "Show Trust" and "Maximize Panels  (off)" in shown  # a toggle says its state
    palette.query.setText("show json")
    open_pack(qtbot, window, workspace)
    palette.run_current()
    assert window.current_tab().views.currentWidget() is window.current_tab().json_page
