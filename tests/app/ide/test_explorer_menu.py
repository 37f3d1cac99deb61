"""The explorer's context menu through the real main window: what it offers, Rename with an open
tab holding unsaved edits, Move to Trash naming what goes, and the trash itself."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QLineEdit, QMessageBox

from app.explorer_menu import explorer_menu, rename_dialog, trash_dialog

pytestmark = pytest.mark.gui


@pytest.fixture
def trash(tmp_path, monkeypatch):
    """The system's trash, in the test's folder (Qt follows XDG_DATA_HOME)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "Trash" / "files"


def _texts(menu) -> list[str]:
    return [a.text().replace("&", "") for a in menu.actions() if not a.isSeparator()]


def test_the_menu_offers_file_and_group_commands(qtbot, window):
    pack = window.workspace / "rules" / "en" / "filler.json"
    assert _texts(explorer_menu(window, str(pack))) == [
        "Open", "Open as JSON", "Copy Path", "Copy Relative Path", "Show in File Manager", "Rename…",
        "Move to Trash…"]
    assert _texts(explorer_menu(window, "group:rtk")) == ["New Filter…", "New Filter from Samples…"]
    assert _texts(explorer_menu(window, "group:project")) == ["Show Trust", "Trust Project Filters…"]
    assert _texts(explorer_menu(window, "lang:de")) == ["New Pack in de…"]

    menu = explorer_menu(window, str(pack))
    next(a for a in menu.actions() if a.text() == "Copy Relative Path").trigger()
    assert QGuiApplication.clipboard().text() == "rules/en/filler.json"
    next(a for a in menu.actions() if a.text() == "Open as JSON").trigger()
    tab = window.tab_for(pack)
    assert tab is not None and tab.views.tabText(tab.views.currentIndex()) == "JSON"


def test_rename_keeps_the_open_tab_and_its_unsaved_edits(qtbot, window, dialogs):
    old = window.workspace / "filters" / "mytool.json"
    tab = window.open_file(old)
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    edited = tab.text.replace('"mytool"', '"mytool-renamed"', 1)
    assert edited != tab.text
    tab.restore_text(edited)
    assert tab.is_dirty()
    def answer(dialog):
        dialog.show()  # the stem is selected: typing replaces it and keeps ".json"
        edit = dialog.findChild(QLineEdit)
        assert (edit.text(), edit.selectedText()) == ("mytool.json", "mytool")
        QTest.keyClicks(edit, "mytool-v2")
        assert dialog.textValue() == "mytool-v2.json"
        return QDialog.DialogCode.Accepted

    dialogs.answers["RenameDialog"] = answer
    new = rename_dialog(window, old)
    assert new == old.with_name("mytool-v2.json") and new.exists() and not old.exists()
    assert window.tab_for(new) is tab and tab.is_dirty() and tab.text == edited
    assert window.tabs.tabText(window.tabs.indexOf(tab)).startswith("mytool-v2.json")
    tab.write_journal()
    qtbot.waitUntil(lambda: [e.path for e in window.journal.entries(window.workspace)] == [str(new)],
                    timeout=5000)
    qtbot.waitUntil(lambda: new in window.explorer.items and old not in window.explorer.items, timeout=10000)
    assert tab.save() and new.read_text(encoding="utf-8") == edited and not old.exists()


def test_rename_refuses_a_taken_name_and_moves_nothing(qtbot, window, dialogs):
    pack = window.workspace / "rules" / "en" / "filler.json"
    (pack.parent / "other.json").write_text("{}", encoding="utf-8")
    assert rename_dialog(window, pack, "other") is None
    assert pack.exists() and (pack.parent / "other.json").read_text(encoding="utf-8") == "{}"
    assert any("other.json already exists here" in text for kind, text in dialogs.calls if kind == "warning")


def test_the_rename_dialog_says_why_a_name_will_not_do_before_ok(qtbot, window, dialogs):
    from PySide6.QtWidgets import QDialogButtonBox

    pack = window.workspace / "rules" / "en" / "filler.json"
    (pack.parent / "other.json").write_text("{}", encoding="utf-8")
    seen = []

    def answer(dialog):
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        for name in ("filler.json", "other", "../up", "fine"):
            dialog.edit.setText(name)
            seen.append((name, dialog.why.text(), ok.isEnabled()))
        return QDialog.DialogCode.Accepted

    dialogs.answers["RenameDialog"] = answer
    assert rename_dialog(window, pack) == pack.with_name("fine.json")
    assert seen == [("filler.json", "", False),  # its name already: nothing to say, nothing to do
                    ("other", "other.json already exists here", False),
                    ("../up", "a name, not a path: the file stays in its folder", False),
                    ("fine", "", True)]


def test_move_to_trash_names_what_goes_and_can_be_cancelled(qtbot, window, dialogs, trash):
    project = window.workspace / ".rtk" / "filters.json"
    assert not trash_dialog(window, project)  # the question's default is Cancel
    question = next(text for kind, text in dialogs.calls if kind == "question")
    assert "Move .rtk/filters.json to the trash?" in question
    assert "It holds 1 filter: " in question and "You can restore it from the system's trash" in question
    assert project.exists()

    dialogs.answers["Move to Trash"] = QMessageBox.StandardButton.Yes
    assert trash_dialog(window, project)
    assert not project.exists() and (trash / "filters.json").exists()
    qtbot.waitUntil(lambda: project not in window.explorer.items, timeout=10000)


def test_an_open_tab_with_unsaved_edits_stays_open_when_its_file_is_trashed(qtbot, window, dialogs, trash):
    pack = window.workspace / "rules" / "en" / "filler.json"
    tab = window.open_file(pack)
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    buffer = tab.text.replace('"basically"', '"basically_renamed"', 1)
    tab.restore_text(buffer)
    dialogs.answers["Move to Trash"] = QMessageBox.StandardButton.Yes
    assert trash_dialog(window, pack)
    question = next(text for kind, text in dialogs.calls if kind == "question")
    assert "3 rules: basically_renamed, please, just" in question  # what the user sees, not the disk
    assert "the tab stays open with them" in question
    assert window.tab_for(pack) is tab and tab.is_dirty() and tab.text == buffer
    assert tab.conflict_bar.isVisible()  # "deleted or renamed on disk. Save to write it again."

    clean = window.open_file(window.workspace / "rules" / "de" / "filler.json")
    qtbot.waitUntil(clean.is_settled, timeout=10000)
    assert trash_dialog(window, clean.path, confirmed=True)
    assert window.tab_for(window.workspace / "rules" / "de" / "filler.json") is None  # a clean tab closes


def test_f2_and_delete_act_on_the_explorers_current_file(qtbot, window, dialogs, monkeypatch, trash):
    from PySide6.QtCore import Qt

    pack = window.workspace / "rules" / "de" / "filler.json"
    qtbot.waitUntil(lambda: pack in window.explorer.items, timeout=10000)
    tree = window.explorer.tree
    window.explorer_dock.show()
    tree.setFocus()
    window.explorer.select_path(pack)
    dialogs.answers["RenameDialog"] = lambda dialog: (dialog.edit.setText("fuellwoerter"),
                                                      QDialog.DialogCode.Accepted)[1]
    QTest.keyClick(tree, Qt.Key.Key_F2)
    renamed = pack.with_name("fuellwoerter.json")
    assert renamed.exists() and not pack.exists()

    qtbot.waitUntil(lambda: renamed in window.explorer.items, timeout=10000)
    window.explorer.select_path(renamed)
    dialogs.answers["Move to Trash"] = QMessageBox.StandardButton.Yes
    QTest.keyClick(tree, Qt.Key.Key_Delete)
    assert not renamed.exists() and (trash / "fuellwoerter.json").exists()


def test_renaming_the_projects_filters_file_asks_first(qtbot, window, dialogs):
    project = window.workspace / ".rtk" / "filters.json"
    assert rename_dialog(window, project, "old-filters") is None  # the question's default is Cancel
    assert project.exists()
    assert any("its filters are no longer the project's" in text for kind, text in dialogs.calls
               if kind == "question")
    dialogs.answers["Rename"] = QMessageBox.StandardButton.Yes
    assert rename_dialog(window, project, "old-filters") == project.with_name("old-filters.json")
