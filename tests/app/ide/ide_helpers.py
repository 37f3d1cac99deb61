"""Helpers shared by the IDE tests (waiting for workers, opening the sample pack)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def wait_settled(qtbot, tab, timeout=10000):
    """Wait until the tab's text is loaded and its parse/validation workers are idle."""
    qtbot.waitUntil(tab.is_settled, timeout=timeout)


def open_pack(qtbot, window, workspace):
    tab = window.open_file(workspace / "rules" / "en" / "filler.json")
    wait_settled(qtbot, tab)
    qtbot.waitUntil(lambda: tab.index is not None and len(tab.index) == 3, timeout=5000)
    return tab


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def screen_size() -> tuple[int, int, float]:
    """The offscreen screen this test process runs on (``tests/conftest.py``)."""
    width, _, height = os.environ.get("RULEWRIGHT_TEST_SCREEN", "1920x1080").partition("x")
    return int(width), int(height), float(os.environ.get("RULEWRIGHT_TEST_DPR", "1"))


def run_at_screen(node_id: str, size: str, dpr: float = 1.0, timeout: int = 240) -> None:
    """Run one pytest node in a fresh process whose offscreen screen is ``size`` (e.g. ``1366x768``)
    at device pixel ratio ``dpr``: a process has one screen, fixed when its QApplication starts."""
    env = dict(os.environ, RULEWRIGHT_TEST_SCREEN=size, RULEWRIGHT_TEST_DPR=str(dpr), QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", node_id],
                          cwd=Path(__file__).resolve().parents[3], env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert done.returncode == 0, f"{node_id} at {size}@{dpr:g}:\n{done.stdout[-4000:]}\n{done.stderr[-2000:]}"
