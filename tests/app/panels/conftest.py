"""Fixtures for the panel tests: offscreen Qt, private folders, recorded (never blocking) dialogs."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.demo_workspace import write_demo_workspace


@dataclass
class Dialogs:
    """Stand-in for modal dialogs (IDE-Q9): records each call, answers from ``answers``."""

    calls: list[tuple[str, str]] = field(default_factory=list)
    answers: dict[str, Any] = field(default_factory=dict)


@pytest.fixture(autouse=True)
def private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("RULEWRIGHT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("OMNIROUTE_RTK_TRUST_PROJECT_FILTERS", raising=False)


@pytest.fixture
def dialogs(monkeypatch) -> Dialogs:
    from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

    rec = Dialogs()

    def question(_parent, title, text, *args, **kwargs):
        rec.calls.append(("question", f"{title}: {text}"))
        return rec.answers.get(title, QMessageBox.StandardButton.Cancel)

    def note(kind):
        def show(_parent, title, text, *args, **kwargs):
            rec.calls.append((kind, f"{title}: {text}"))
            return QMessageBox.StandardButton.Ok
        return show

    def exec_dialog(dialog, *args):
        rec.calls.append(("exec", type(dialog).__name__))
        answer = rec.answers.get(type(dialog).__name__)
        if callable(answer):
            return answer(dialog)
        return QDialog.DialogCode.Rejected if answer is None else answer

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    for name in ("warning", "information", "critical", "about"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(note(name)))
    monkeypatch.setattr(QDialog, "exec", exec_dialog)
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(rec.answers.get("save-as", "")), "")))
    return rec


@pytest.fixture
def demo(tmp_path) -> Path:
    return write_demo_workspace(tmp_path / "demo")


@pytest.fixture
def window(qtbot, demo, dialogs):
    from app.mainwindow import MainWindow
    from engine.workspace.settings import Settings

    win = MainWindow(Settings())
    qtbot.addWidget(win)
    win.open_workspace(demo, restore=False)
    win.show()
    qtbot.waitUntil(lambda: win.index is not None, timeout=30000)
    yield win
    for tab in win.document_tabs():
        tab.undo_stack.setClean()  # no "save changes?" on teardown
    win.watcher.stop()
