"""Helpers shared by the IDE tests (waiting for workers, opening the sample pack)."""

from __future__ import annotations

import json
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
