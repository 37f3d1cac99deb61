"""Syntax colouring survives replacing a pane's whole text (a playground template load)."""

from __future__ import annotations

import json

import pytest

from app.playground.common import json_pane, set_pane_text

pytestmark = pytest.mark.gui


def _uncoloured_lines(pane) -> list[int]:
    """Visible, non-blank lines that have no colour formats on their layout."""
    out = []
    block = pane.firstVisibleBlock()
    height = pane.viewport().height()
    while block.isValid():
        if pane.blockBoundingGeometry(block).translated(pane.contentOffset()).top() > height:
            break
        if block.text().strip() and not block.layout().formats():
            out.append(block.blockNumber())
        block = block.next()
    return out


def test_template_load_keeps_every_line_coloured(qtbot):
    pane = json_pane()
    qtbot.addWidget(pane)
    pane.resize(500, 700)
    pane.show()
    first = json.dumps({"provider": {"id": "openai", "type": "openai"}, "model": {"id": "gpt-4o"},
                        "assistant": {"settings": {"temperature": 0.2}}}, indent=2)
    # the second template shares lines at the same line numbers ("{", "  },", closing braces…)
    second = json.dumps({"provider": {"id": "anthropic", "type": "anthropic"}, "model": {"id": "claude"},
                         "assistant": {"settings": {"temperature": 0.2}}}, indent=2)
    set_pane_text(pane, first)
    qtbot.waitUntil(lambda: not _uncoloured_lines(pane), timeout=5000)
    set_pane_text(pane, second)
    qtbot.wait(300)
    qtbot.waitUntil(lambda: not _uncoloured_lines(pane), timeout=5000)
    set_pane_text(pane, first)  # and back: every line is a line seen before
    qtbot.wait(300)
    qtbot.waitUntil(lambda: not _uncoloured_lines(pane), timeout=5000)
