"""Editing safety: atomic saves, live reload, conflicts, crash recovery, diagnostics without dialogs."""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtWidgets import QDialog, QMessageBox

from app.conflict import DiffDialog
from app.mainwindow import MainWindow
from engine.fsutil import atomic_write_text
from engine.workspace.journal import sha256_bytes
from engine.workspace.settings import Settings

from .ide_helpers import open_pack, wait_settled

pytestmark = pytest.mark.gui


def test_save_is_atomic_and_keeps_formatting(qtbot, window, workspace, monkeypatch):
    tab = open_pack(qtbot, window, workspace)
    path = workspace / "rules" / "en" / "filler.json"
    inode_before = os.stat(path).st_ino
    writes = []
    import engine.workspace.document as document_module

    real = document_module.atomic_write_bytes
    monkeypatch.setattr(document_module, "atomic_write_bytes", lambda p, d: (writes.append(p), real(p, d)))
    tab.edit_field(1, "/replacement", "pls", False)
    assert window.save_current()
    assert writes == [path]
    assert os.stat(path).st_ino != inode_before  # replaced by rename, never written in place
    assert path.read_text() == tab.text
    assert json.loads(path.read_text())["rules"][1]["replacement"] == "pls"
    assert not tab.is_dirty() and not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_save_all_saves_every_dirty_tab(qtbot, window, workspace):
    a = open_pack(qtbot, window, workspace)
    b = window.open_file(workspace / "filters" / "mytool.json")
    wait_settled(qtbot, b)
    qtbot.waitUntil(lambda: b.index is not None, timeout=5000)
    a.edit_field(0, "/name", "a1", False)
    b.edit_field(0, "/label", "Label 2", False)
    assert window.save_all()
    assert json.loads((workspace / "filters" / "mytool.json").read_text())["label"] == "Label 2"
    assert json.loads((workspace / "rules" / "en" / "filler.json").read_text())["rules"][0]["name"] == "a1"


def test_external_change_reloads_a_clean_file(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    path = workspace / "rules" / "en" / "filler.json"
    path.write_text(path.read_text().replace('"just"', '"merely"'))
    qtbot.waitUntil(lambda: '"merely"' in tab.text, timeout=8000)
    assert tab.editor.toPlainText() == tab.text and not tab.is_dirty()
    qtbot.waitUntil(lambda: tab.visual.model.titles[2] == "merely", timeout=5000)


def test_atomic_save_by_another_editor_arrives_as_a_move(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    path = workspace / "rules" / "en" / "filler.json"
    atomic_write_text(path, path.read_text().replace('"please"', '"kindly"'))  # temp file + os.replace
    qtbot.waitUntil(lambda: '"kindly"' in tab.text, timeout=8000)
    assert not tab.is_dirty()


def _conflicted(qtbot, window, workspace):
    """An open pack with an unsaved edit ("mine") whose file then changed on disk ("theirs")."""
    tab = open_pack(qtbot, window, workspace)
    path = workspace / "rules" / "en" / "filler.json"
    tab.edit_field(0, "/replacement", "mine", False)
    path.write_text(path.read_text().replace('"just"', '"theirs"'))
    qtbot.waitUntil(lambda: tab.conflict_bar.isVisible(), timeout=8000)
    return tab, path


def test_conflict_bar_when_dirty_and_changed_on_disk(qtbot, window, workspace, dialogs):
    tab, path = _conflicted(qtbot, window, workspace)
    assert json.loads(tab.text)["rules"][0]["replacement"] == "mine"  # nothing lost
    # compare shows both sides
    dialog = tab.compare_with_disk()
    assert isinstance(dialog, DiffDialog)
    assert any(r.tag != "equal" and "theirs" in r.right for r in dialog.rows)
    # saving now asks first; cancelling leaves the disk alone
    dialogs.answers["File changed on disk"] = QMessageBox.StandardButton.Cancel
    assert not tab.save()
    assert '"theirs"' in path.read_text()
    # keep mine: the user has seen it, so saving overwrites
    tab.keep_mine()
    assert not tab.conflict_bar.isVisible() and tab.is_dirty()
    assert tab.save()
    saved = json.loads(path.read_text())
    assert saved["rules"][0]["replacement"] == "mine" and saved["rules"][2]["name"] == "just"


def test_compare_marks_the_changed_stretch_and_settles_the_conflict(qtbot, window, workspace, dialogs):
    tab, path = _conflicted(qtbot, window, workspace)

    def look_then_close(dialog):
        changed = [r for r in dialog.rows if r.tag == "replace"]
        assert changed and all(r.left_changed and r.right_changed for r in changed)
        theirs = next(r for r in changed if "theirs" in r.right)
        start, end = theirs.right_changed
        assert theirs.right[start:end] == "theirs" and theirs.left[slice(*theirs.left_changed)] == "just"
        current = dialog.table.currentIndex()
        assert (current.row(), current.column()) == (dialog.changes[dialog.current], 1)
        return QDialog.DialogCode.Rejected

    dialogs.answers["DiffDialog"] = look_then_close
    tab.compare_with_disk()
    assert tab.conflict_bar.isVisible()  # Close decides nothing

    def keep(dialog):
        dialog.keep_button.click()
        return dialog.result()

    dialogs.answers["DiffDialog"] = keep
    assert tab.compare_with_disk().choice == "keep"
    assert not tab.conflict_bar.isVisible() and tab.is_dirty()
    dialogs.answers.pop("File changed on disk", None)
    assert tab.save()  # no question: the user kept theirs over the version the dialog showed
    assert json.loads(path.read_text())["rules"][0]["replacement"] == "mine"


def test_compare_can_reload_from_disk(qtbot, window, workspace, dialogs):
    tab, path = _conflicted(qtbot, window, workspace)
    dialogs.answers["DiffDialog"] = lambda dialog: (dialog.reload_button.click(), dialog.result())[1]
    tab.compare_with_disk()
    assert tab.text == path.read_text() and not tab.is_dirty() and not tab.conflict_bar.isVisible()


def test_compare_keeps_a_change_made_while_it_was_open_in_question(qtbot, window, workspace, dialogs):
    tab, path = _conflicted(qtbot, window, workspace)

    def changed_meanwhile(dialog):
        path.write_text(path.read_text().replace('"theirs"', '"later"'))
        dialog.keep_button.click()
        return dialog.result()

    dialogs.answers["DiffDialog"] = changed_meanwhile
    tab.compare_with_disk()
    assert tab.conflict_bar.isVisible()  # what was kept over is not what is on disk now
    dialogs.answers["File changed on disk"] = QMessageBox.StandardButton.Cancel
    assert not tab.save() and '"later"' in path.read_text()


def test_conflict_reload_is_undoable(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    path = workspace / "rules" / "en" / "filler.json"
    tab.edit_field(0, "/replacement", "mine", False)
    mine = tab.text
    path.write_text(path.read_text().replace('"just"', '"theirs"'))
    qtbot.waitUntil(lambda: tab.conflict_bar.isVisible(), timeout=8000)
    tab.conflict_bar.reload_button.click()
    assert tab.text == path.read_text() and not tab.is_dirty() and not tab.conflict_bar.isVisible()
    tab.undo_stack.undo()
    assert tab.text == mine


def test_deleted_file_keeps_the_buffer(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    path = workspace / "rules" / "en" / "filler.json"
    path.unlink()
    qtbot.waitUntil(lambda: tab.conflict_bar.isVisible(), timeout=8000)
    assert tab.is_dirty() and "deleted" in tab.conflict_bar.message.text()
    assert tab.save() and path.exists()


def test_crash_recovery_restores_unsaved_edits(qtbot, workspace, dialogs):
    first = MainWindow(Settings())
    qtbot.addWidget(first)
    first.open_workspace(workspace, restore=False)
    qtbot.waitUntil(lambda: first.index is not None, timeout=10000)
    tab = open_pack(qtbot, first, workspace)
    tab.edit_field(1, "/name", "recovered_name", False)
    tab.write_journal()
    qtbot.waitUntil(lambda: bool(first.journal.entries(workspace)) and not tab._journaler.busy, timeout=5000)
    first.watcher.stop()  # the "crash": no close, no save; the journal stays on disk

    second = MainWindow(Settings())
    qtbot.addWidget(second)
    dialogs.answers["Restore unsaved edits?"] = QMessageBox.StandardButton.Yes
    second.open_workspace(workspace, restore=False)
    restored = second.offer_recovery()
    assert len(restored) == 1
    again = second.tab_for(workspace / "rules" / "en" / "filler.json")
    assert again.is_dirty()
    assert json.loads(again.text)["rules"][1]["name"] == "recovered_name"
    assert json.loads((workspace / "rules" / "en" / "filler.json").read_text())["rules"][1]["name"] == "please"
    again.undo_stack.undo()  # the restore itself is one undo step
    assert json.loads(again.text)["rules"][1]["name"] == "please"
    second.watcher.stop()


def _own_inputs(window) -> dict[str, str]:
    """Give each preview and playground an input of the user's own, as a user does."""
    rtk, caveman = window.panel_widgets["rtk-preview"], window.panel_widgets["caveman-preview"]
    repair, params = window.panel_widgets["repair"].repair, window.panel_widgets["params"]
    rtk.command.setText("mytool build --fast")
    rtk.input.setPlainText("mytool 2.0\nwarning: 😀 kept\nerror: link failed\n")
    caveman.input.setPlainText("Could you please basically just check the build?")
    repair.args.setPlainText('{"path": "src/mine.py"}')
    params.payload.setPlainText('{"model": {"id": "mine"}}')
    return {"rtk": rtk.input.plain_text(), "caveman": caveman.input.plain_text(),
            "args": repair.args.toPlainText(), "payload": params.payload.toPlainText()}


def _assert_inputs_back(window, typed: dict[str, str]) -> None:
    rtk, caveman = window.panel_widgets["rtk-preview"], window.panel_widgets["caveman-preview"]
    repair, params = window.panel_widgets["repair"].repair, window.panel_widgets["params"]
    assert rtk.input.plain_text() == typed["rtk"] and rtk.command.text() == "mytool build --fast"
    assert rtk.sample_combo.currentIndex() == 0  # "(your output)"
    assert caveman.input.plain_text() == typed["caveman"] and caveman.sample_combo.currentIndex() == 0
    assert repair.args.toPlainText() == typed["args"] and "Your own input" in repair.description.text()
    assert params.payload.toPlainText() == typed["payload"]


def test_the_previews_and_playgrounds_keep_their_own_inputs_across_a_restart(qtbot, workspace, dialogs):
    (workspace / "samples").mkdir()
    (workspace / "samples" / "build.log").write_text("mytool 1.0\nok\n", encoding="utf-8")
    first = MainWindow(Settings())
    qtbot.addWidget(first)
    first.open_workspace(workspace, restore=False)
    qtbot.waitUntil(lambda: first.index is not None, timeout=10000)
    typed = _own_inputs(first)
    first.close()  # (written at once on close)

    second = MainWindow(Settings())
    qtbot.addWidget(second)
    second.open_workspace(workspace, restore=False)
    qtbot.waitUntil(lambda: second.index is not None, timeout=10000)
    _assert_inputs_back(second, typed)
    rtk = second.panel_widgets["rtk-preview"]
    qtbot.waitUntil(lambda: rtk.preview is not None and rtk.preview.output == typed["rtk"], timeout=10000)
    # a workspace sample shown instead is not the user's to keep: nothing of the preview's is then
    index = rtk.sample_combo.findText("build.log")
    rtk.sample_combo.setCurrentIndex(index)
    rtk.sample_combo.activated.emit(index)
    assert rtk.scratch_state() == {}
    second.close()
    assert second.scratch.store.read(str(workspace.resolve()), "rtk-preview") == {}
    assert second.scratch.store.read(str(workspace.resolve()), "caveman-preview") != {}


def test_another_workspace_shows_its_own_kept_inputs_not_these(qtbot, workspace, tmp_path, dialogs):
    other = tmp_path / "other"
    (other / "rules").mkdir(parents=True)
    window = MainWindow(Settings())
    qtbot.addWidget(window)
    window.open_workspace(workspace, restore=False)
    qtbot.waitUntil(lambda: window.index is not None, timeout=10000)
    typed = _own_inputs(window)
    window.open_workspace(other, restore=False)  # (kept nothing: none of the first one's inputs here)
    rtk, caveman = window.panel_widgets["rtk-preview"], window.panel_widgets["caveman-preview"]
    repair, params = window.panel_widgets["repair"].repair, window.panel_widgets["params"]
    assert rtk.scratch_state() == {} and typed["rtk"] not in rtk.input.plain_text()
    assert caveman.scratch_state() == {} and repair.scratch_state() == {} and params.scratch_state() == {}
    window.open_workspace(workspace, restore=False)  # back: its own inputs again
    _assert_inputs_back(window, typed)
    window.watcher.stop()


def test_the_previews_inputs_survive_a_crash(qtbot, workspace, dialogs):
    first = MainWindow(Settings())
    qtbot.addWidget(first)
    first.open_workspace(workspace, restore=False)
    qtbot.waitUntil(lambda: first.index is not None, timeout=10000)
    typed = _own_inputs(first)
    qtbot.waitUntil(lambda: first.scratch.pending, timeout=2000)
    qtbot.waitUntil(lambda: not first.scratch.pending, timeout=10000)  # a second after the last change
    first.watcher.stop()  # the "crash": no close

    second = MainWindow(Settings())
    qtbot.addWidget(second)
    second.open_workspace(workspace, restore=False)
    qtbot.waitUntil(lambda: second.index is not None, timeout=10000)
    _assert_inputs_back(second, typed)
    second.watcher.stop()


def test_a_failing_write_of_the_previews_inputs_is_shown(qtbot, window, workspace, monkeypatch):
    def disk_full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(window.scratch.store, "write_all", disk_full)
    window.panel_widgets["rtk-preview"].input.setPlainText("mine\n")
    window.scratch.flush()
    assert "No space left on device" in window.statusBar().currentMessage()


def test_recovered_edits_over_a_changed_file_ask_before_saving(qtbot, workspace, dialogs):
    path = workspace / "rules" / "en" / "filler.json"
    original = path.read_bytes()
    win = MainWindow(Settings())
    qtbot.addWidget(win)
    mine = original.decode().replace('"please"', '"recovered"')
    win.journal.write(path, mine, sha256_bytes(original), workspace)
    path.write_text(original.decode().replace('"just"', '"theirs"'))  # changed on disk after the crash
    win.open_workspace(workspace, restore=False)
    dialogs.answers["Restore unsaved edits?"] = QMessageBox.StandardButton.Yes
    assert len(win.offer_recovery()) == 1
    tab = win.tab_for(path)
    assert tab.text == mine and tab.is_dirty()
    assert not tab.conflict_bar.isHidden() and "restored" in tab.conflict_bar.message.text()
    dialogs.answers["File changed on disk"] = QMessageBox.StandardButton.Cancel
    assert not tab.save() and '"theirs"' in path.read_text()
    win.watcher.stop()


def test_declining_recovery_discards_the_journal(qtbot, workspace, dialogs):
    win = MainWindow(Settings())
    qtbot.addWidget(win)
    win.journal.write(workspace / "rules" / "en" / "filler.json", "{}", None, workspace)
    win.open_workspace(workspace, restore=False)
    dialogs.answers["Restore unsaved edits?"] = QMessageBox.StandardButton.Discard
    assert win.offer_recovery() == []
    assert win.journal.entries(workspace) == []
    win.watcher.stop()


def test_broken_file_shows_diagnostics_not_dialogs(qtbot, window, workspace, dialogs):
    broken = workspace / "rules" / "en" / "broken.json"
    broken.write_text('{\n  "language": "en",\n  "category": "x",\n  "rules": [\n    {"name": "a",}\n  ]\n}\n')
    window.rescan()
    qtbot.waitUntil(lambda: bool(window.diagnostics_panel.by_file.get(broken)), timeout=10000)
    tab = window.open_file(broken)
    wait_settled(qtbot, tab)
    qtbot.waitUntil(lambda: bool(tab.diagnostics), timeout=5000)
    d = next(d for d in tab.diagnostics if d.level == "error")
    assert d.line == 5
    assert tab.editor.marks() and tab.editor.mark_at(tab.editor.marks()[0].start) is not None
    assert "syntax error" in tab.visual.notice.text()
    assert dialogs.calls == []  # errors land in Diagnostics, never in modal dialogs
    # clicking a diagnostic jumps to its place
    window.go_to_diagnostic(d)
    assert tab.editor.textCursor().blockNumber() == d.line - 1
    assert window.explorer.badges[broken]["diag"].startswith("✖")


def test_schema_problems_are_underlined_with_tooltips(qtbot, window, workspace):
    tab = open_pack(qtbot, window, workspace)
    tab.edit_field(0, "/context", "everyone", False)
    qtbot.waitUntil(lambda: any("context" in d.message for d in tab.diagnostics), timeout=8000)
    qtbot.waitUntil(lambda: any("context" in m.text for m in tab.editor.marks()), timeout=5000)
    mark = next(m for m in tab.editor.marks() if "context" in m.text)
    line = tab.editor.document().findBlock(mark.start).blockNumber() + 1
    assert line == next(d.line for d in tab.diagnostics if "context" in d.message)


def test_next_diagnostic_walks_the_panel(qtbot, window, workspace):
    broken = workspace / "rules" / "en" / "broken.json"
    broken.write_text("{")
    window.rescan()
    qtbot.waitUntil(lambda: window.diagnostics_panel.proxy.rowCount() > 0, timeout=10000)
    window.step_diagnostic(1)
    assert window.current_tab() is not None and window.current_tab().path is not None
    window.diagnostics_panel.search.setText("no such text anywhere")  # the filter hides them all
    window.step_diagnostic(1)
    assert window.statusBar().currentMessage().startswith("No diagnostic to go to (")
    assert "hidden by the panel's filter" in window.statusBar().currentMessage()


def test_next_diagnostic_with_none_says_so(qtbot, window):
    """F8 with nothing to go to says so (it did nothing, which looks like a broken key)."""
    window.diagnostics_panel.set_all({})
    window.actions_["next_diag"].trigger()
    assert window.statusBar().currentMessage() == "No diagnostic to go to"


def test_trust_verdict_in_status_and_explorer(qtbot, window, workspace):
    project = workspace / ".rtk" / "filters.json"
    assert window.explorer.badges[project]["trust"] == "🔓 untrusted"  # from the workspace scan
    tab = window.open_file(project)
    wait_settled(qtbot, tab)
    qtbot.waitUntil(lambda: tab.trust is not None and tab.trust.verdict == "untrusted", timeout=5000)
    assert window.status_trust.text() == "trust: untrusted"
    import hashlib

    digest = hashlib.sha256((workspace / ".rtk" / "filters.json").read_bytes()).hexdigest()
    (workspace / ".rtk" / "trust.json").write_text(json.dumps({"filtersSha256": digest}))
    qtbot.waitUntil(lambda: tab.trust.verdict == "trusted", timeout=8000)
    qtbot.waitUntil(lambda: window.explorer.badges[project].get("trust") == "🔒 trusted", timeout=8000)
    tab.edit_field(0, "/label", "edited", False)
    # shown as soon as the buffer differs, before any save or reload (verify-trust §4.4)
    qtbot.waitUntil(lambda: tab.trust.verdict == "changed", timeout=5000)
    assert window.status_trust.text() == "trust: changed"


def test_window_state_and_open_files_are_remembered(qtbot, workspace):
    first = MainWindow(Settings())
    qtbot.addWidget(first)
    first.open_workspace(workspace, restore=False)
    first.resize(1111, 777)
    open_pack(qtbot, first, workspace)
    first.close()
    saved = Settings.load()
    assert saved.last_workspace == str(workspace.resolve())
    assert saved.open_files == [str(workspace / "rules" / "en" / "filler.json")]
    assert saved.window_state.count(";") == 2  # geometry; docks; the rule list's width (empty: default)
    second = MainWindow(saved)
    qtbot.addWidget(second)
    assert second.restore_window_state()  # Qt accepted the saved geometry and dock layout
    first.watcher.stop()
    second.watcher.stop()
