"""Fixtures for the IDE tests: offscreen Qt, private config/data folders, no modal dialogs.

Modal dialogs would block forever offscreen (IDE-Q9): every ``QMessageBox`` helper and
``QDialog.exec`` is replaced by a recorder that answers from ``dialogs.answers`` (default: the
dialog's default button / Rejected). Tests assert on ``dialogs.calls`` — e.g. "no dialog storm".
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMessageBox

from engine.workspace.templates import example_filter, example_pack, render


@dataclass
class DialogRecorder:
    calls: list[tuple[str, str]] = field(default_factory=list)
    answers: dict[str, Any] = field(default_factory=dict)

    def question(self, _parent, title, text, buttons=None, default=None):
        self.calls.append(("question", f"{title}: {text}"))
        if title in self.answers:
            return self.answers[title]
        return default if default is not None else QMessageBox.StandardButton.No

    def note(self, kind):
        def show(_parent, title, text, *args, **kwargs):
            self.calls.append((kind, f"{title}: {text}"))
            return QMessageBox.StandardButton.Ok
        return show

    def exec_dialog(self, dialog, *args):
        self.calls.append(("exec", type(dialog).__name__))
        answer = self.answers.get(type(dialog).__name__, QDialog.DialogCode.Rejected)
        return answer(dialog) if callable(answer) else answer  # a callable fills the dialog in first

    def modal(self) -> list[tuple[str, str]]:
        return list(self.calls)


@pytest.fixture(autouse=True)
def private_dirs(tmp_path, monkeypatch):
    """Settings, data and recovery journal live in the test's temp folder."""
    monkeypatch.setenv("RULEWRIGHT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("RULEWRIGHT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture(autouse=True)
def dialogs(monkeypatch) -> DialogRecorder:
    recorder = DialogRecorder()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(recorder.question))
    for name in ("warning", "information", "critical", "about"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(recorder.note(name)))
    monkeypatch.setattr(QMessageBox, "exec", lambda self, *a: recorder.exec_dialog(self))
    monkeypatch.setattr(QDialog, "exec", lambda self, *a: recorder.exec_dialog(self))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("", False)))
    monkeypatch.setattr(QInputDialog, "getInt", staticmethod(lambda *a, **k: (1, False)))
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *a, **k: ("", False)))
    return recorder


PACK_TEXT = """{
  "language": "en",
  "category": "filler",
  "rules": [
    {"name": "basically", "pattern": "\\\\bbasically\\\\s+", "replacement": "", "flags": "gi"},
    {
      "name": "please",
      "pattern": "\\\\bplease\\\\s+",
      "replacement": "",
      "context": "user",
      "minIntensity": "full"
    },
    {"name": "just", "pattern": "\\\\bjust\\\\s+", "replacement": ""}
  ]
}
"""


@pytest.fixture
def workspace(tmp_path) -> Path:
    """A small workspace: one pack (hand-formatted, mixed one-line/multi-line rules), filters, .rtk."""
    root = tmp_path / "ws"
    (root / "rules" / "en").mkdir(parents=True)
    (root / "rules" / "de").mkdir(parents=True)
    (root / "filters").mkdir()
    (root / ".rtk").mkdir()
    (root / "rules" / "en" / "filler.json").write_text(PACK_TEXT, encoding="utf-8")
    (root / "rules" / "de" / "filler.json").write_text(render(example_pack("de", "filler")), encoding="utf-8")
    (root / "filters" / "mytool.json").write_text(render(example_filter(set())), encoding="utf-8")
    (root / ".rtk" / "filters.json").write_text(render([example_filter(set())]), encoding="utf-8")
    return root


@pytest.fixture
def window(qtbot, workspace):
    from app.mainwindow import MainWindow
    from engine.workspace.settings import Settings

    win = MainWindow(Settings())
    qtbot.addWidget(win)
    win.open_workspace(workspace, restore=False)
    win.show()
    qtbot.waitUntil(lambda: win.index is not None, timeout=10000)
    yield win
    for tab in win.document_tabs():
        tab.undo_stack.setClean()  # no "save changes?" on teardown
    win.watcher.stop()
