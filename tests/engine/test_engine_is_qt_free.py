"""The engine never imports Qt: every module imported in a fresh interpreter, then checked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"

PROBE = r"""
import importlib, pkgutil, sys
import engine
failed = []
for info in pkgutil.walk_packages(engine.__path__, "engine."):
    if info.name.endswith("__main__"):  # running it would start the GUI
        continue
    try:
        importlib.import_module(info.name)
    except Exception as exc:  # an import error is its own failure, reported below
        failed.append(f"{info.name}: {exc!r}")
qt = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "PyQt5", "PyQt6", "app"))
print("QT:" + ",".join(qt))
print("FAILED:" + " | ".join(failed))
"""


def test_no_engine_module_imports_qt() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    lines = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    assert lines["QT"] == "", f"engine pulled in Qt/app modules: {lines['QT']}"
    assert lines["FAILED"] == "", f"engine modules fail to import: {lines['FAILED']}"


def test_no_qt_import_statement_in_engine_sources() -> None:
    offenders = [str(p) for p in ENGINE.rglob("*.py")
                 if any(token in p.read_text(encoding="utf-8") for token in ("import PySide6", "from PySide6"))]
    assert offenders == []


def test_headless_subcommand_does_not_load_qt() -> None:
    probe = ("import sys, io; from engine.cli import main; sys.stdin = io.StringIO('');"
             "code = main(['validate', '--help']) if False else None;"
             "import engine.cli.validate, engine.validate;"
             "print(any(m.startswith('PySide6') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"
