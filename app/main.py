"""Start the desktop app: QApplication, main window, and the docs-mode screenshot path."""

from __future__ import annotations

import argparse
import os
import sys


def launch(args: argparse.Namespace) -> int:
    if args.screenshot and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Rulewright")
    window = QMainWindow()
    window.setWindowTitle("Rulewright")
    width, _, height = (args.size or "1400x900").partition("x")
    window.resize(int(width), int(height))
    window.show()
    if args.screenshot:
        app.processEvents()
        ok = window.grab().save(args.screenshot)
        return 0 if ok else 1
    return app.exec()
