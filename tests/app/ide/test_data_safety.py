"""IDE data safety against crashes and hostile files (issue 23, findings 4 and 12–17).

Each test names the finding it guards. The crash journal must be written while typing goes on,
its failures must be seen, a recovered entry whose file is gone must open, a same-size same-mtime
external edit must be noticed, invalid UTF-8 must not be rewritten silently, a killed save's
temp files must go, and a FIFO in the workspace must not block the GUI.
"""

from __future__ import annotations

import json
import os
import time

import pytest
from PySide6.QtWidgets import QMessageBox

from app.document_tab import JOURNAL_MAX_WAIT_MS
from app.mainwindow import MainWindow
from engine.workspace.settings import Settings

from .ide_helpers import open_pack, wait_settled

pytestmark = pytest.mark.gui


def test_finding_12_journal_is_written_while_typing_goes_on(qtbot, window, workspace):
    """Edits every 300 ms (each restarting the 800 ms debounce) still reach the journal within
    the max wait: the first entry lands before typing stops."""
    tab = open_pack(qtbot, window, workspace)
    started = time.monotonic()
    written_at = None
    for i in range(int(JOURNAL_MAX_WAIT_MS / 300) + 6):
        tab.edit_field(1, "/replacement", f"typed {i}", False)
        qtbot.wait(300)
        if written_at is None and window.journal.entries(workspace):
            written_at = time.monotonic() - started
    assert written_at is not None, "nothing journaled while typing continued"
    assert written_at <= JOURNAL_MAX_WAIT_MS / 1000 + 1.0
    assert tab._journal_timer.isActive()  # the debounce was still being restarted


def test_finding_13_a_failing_journal_write_is_shown(qtbot, window, workspace, monkeypatch):
    tab = open_pack(qtbot, window, workspace)

    def disk_full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    real_write = window.journal.write
    monkeypatch.setattr(window.journal, "write", disk_full)
    seen: list[str] = []
    tab.journalProblem.connect(seen.append)
    tab.edit_field(1, "/replacement", "lost?", False)
    tab.write_journal()
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    assert "No space left on device" in seen[-1] and "recovery journal" in seen[-1]
    assert "recovery journal" in window.statusBar().currentMessage()
    monkeypatch.setattr(window.journal, "write", real_write)  # (not undo(): that would bring back real dialogs)
    tab.edit_field(1, "/replacement", "kept", False)
    tab.write_journal()
    qtbot.waitUntil(lambda: seen[-1] == "", timeout=5000)  # a write that works clears it
    assert tab.journal_error is None


def test_finding_14_recovery_of_a_deleted_file_opens_an_unsaved_tab(qtbot, workspace, dialogs):
    gone = workspace / "rules" / "en" / "gone.json"
    win = MainWindow(Settings())
    qtbot.addWidget(win)
    text = '{"language": "en", "category": "gone", "rules": []}\n'
    win.journal.write(gone, text, "0" * 64, workspace)
    win.open_workspace(workspace, restore=False)
    dialogs.answers["Restore unsaved edits?"] = QMessageBox.StandardButton.Yes
    restored = win.offer_recovery()
    assert [e.path for e in restored] == [str(gone)]
    assert any(kind == "question" and "gone.json  (deleted on disk since)" in text for kind, text in dialogs.calls)
    tab = win.tab_for(gone)
    assert tab is not None and tab.is_dirty() and tab.text == text
    assert not tab.conflict_bar.isHidden()  # says the file is gone and that Save writes it again
    assert not gone.exists()
    assert win.save_current() and json.loads(gone.read_text())["category"] == "gone"
    win.watcher.stop()


def test_finding_15_same_size_same_mtime_external_edit_is_detected(qtbot, window, workspace, dialogs):
    """``cp -p`` / ``rsync -t``: new bytes, same size, old mtime. Save must ask, not overwrite."""
    tab = open_pack(qtbot, window, workspace)
    path = workspace / "rules" / "en" / "filler.json"
    before = os.stat(path)
    original = path.read_bytes()
    changed = original.replace(b'"please"', b'"PLEASE"')
    assert len(changed) == len(original) and changed != original
    path.write_bytes(changed)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    tab.edit_field(1, "/replacement", "x", False)
    assert not window.save_current()  # the recorder answers Cancel
    assert any(kind == "question" and "changed on disk" in text for kind, text in dialogs.calls)
    assert path.read_bytes() == changed


def test_finding_16_invalid_utf8_is_not_rewritten_without_asking(qtbot, window, workspace, dialogs):
    path = workspace / "rules" / "en" / "latin1.json"
    raw = b'{"language": "en", "category": "latin1", "rules": [], "description": "caf\xe9"}\n'
    path.write_bytes(raw)
    tab = window.open_file(path)
    wait_settled(qtbot, tab)
    tab.editor.insertPlainText(" ")
    assert not window.save_current()  # the recorder answers Cancel
    assert any(kind == "question" and "not valid UTF-8" in text for kind, text in dialogs.calls)
    assert path.read_bytes() == raw
    dialogs.answers["Replace invalid bytes?"] = QMessageBox.StandardButton.Save
    assert window.save_current()
    assert "\ufffd" in path.read_text(encoding="utf-8")


def test_finding_17_stale_temp_files_of_a_killed_save_are_removed(qtbot, window, workspace):
    path = workspace / "rules" / "en" / "filler.json"
    stale = path.parent / ".filler.json.k1ll3d.tmp"
    fresh = path.parent / ".filler.json.n0w.tmp"  # a save running right now elsewhere: kept
    stale.write_bytes(b"half a file")
    fresh.write_bytes(b"being written")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    tab = open_pack(qtbot, window, workspace)
    assert not stale.exists() and fresh.exists()
    tab.edit_field(1, "/replacement", "x", False)
    assert window.save_current()
    assert fresh.exists()  # still young: not ours to delete
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp") and p != fresh]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_finding_4_fifo_in_the_workspace_does_not_block_and_is_shown_refused(qtbot, window, workspace):
    fifo = workspace / "filters" / "stuck.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    window.rescan()
    qtbot.waitUntil(lambda: window.index is not None and any(f.path == fifo for f in window.index.files),
                    timeout=10000)
    entry = next(f for f in window.index.files if f.path == fifo)
    assert "FIFO" in (entry.parse_error or "")
    assert window.open_file(fifo) is None  # refused with a message, not a frozen window
    assert "FIFO" in window.statusBar().currentMessage()
    assert time.monotonic() - started < 10
