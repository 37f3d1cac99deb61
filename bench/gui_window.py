"""The main window as the GUI benchmarks drive it: private settings and data folders, and no
"save changes?" modal when it closes (the benchmarks edit documents and never save them)."""

from __future__ import annotations

from typing import Any


def bench_main_window(qtbot: Any, tmp_path: Any, monkeypatch: Any) -> Any:
    monkeypatch.setenv("RULEWRIGHT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("RULEWRIGHT_DATA_DIR", str(tmp_path / "data"))
    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
    from app.mainwindow import MainWindow
    from engine.workspace.settings import Settings

    win = MainWindow(Settings())
    qtbot.addWidget(win)
    return win
