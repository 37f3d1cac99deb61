"""The JSON view keeps big documents' line layouts when only its width changes (no wrapping)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QPlainTextEdit

import app.jsonview as jsonview
from app.jsonview import JsonEditor

pytestmark = pytest.mark.gui


def _editor(qtbot, lines: int) -> JsonEditor:
    editor = JsonEditor()
    qtbot.addWidget(editor)
    editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    editor.setPlainText("\n".join(f'  "key{i}": "a value on line {i}",' for i in range(lines)))
    editor.resize(600, 400)
    editor.show()
    qtbot.waitExposed(editor)
    return editor


def _middle_block_keeps_its_layout_through_a_width_change(editor: JsonEditor) -> bool:
    """Lay out a block far from the view (and from the end), change the width, look again."""
    block = editor.document().findBlockByNumber(editor.blockCount() // 2)
    editor.document().documentLayout().blockBoundingRect(block)  # lays the block out
    assert block.layout().lineCount() > 0
    editor.resize(editor.width() - 180, editor.height())
    return block.layout().lineCount() > 0


def test_a_width_change_keeps_the_layouts_of_a_big_document(qtbot):
    editor = _editor(qtbot, jsonview.RELAYOUT_BLOCK_LIMIT + 1000)
    assert _middle_block_keeps_its_layout_through_a_width_change(editor)
    editor.resize(editor.width(), 300)
    assert editor.verticalScrollBar().maximum() > 0  # the scroll bars still follow the viewport


def test_a_document_below_the_limit_gets_qts_own_relayout(qtbot):
    editor = _editor(qtbot, 5000)
    assert not _middle_block_keeps_its_layout_through_a_width_change(editor)


def test_without_the_shortcut_qt_would_relayout_the_big_document(qtbot, monkeypatch):
    monkeypatch.setattr(jsonview, "RELAYOUT_BLOCK_LIMIT", 10**9)
    editor = _editor(qtbot, 25_000)
    assert not _middle_block_keeps_its_layout_through_a_width_change(editor)


def test_long_lines_of_a_big_document_still_scroll_sideways(qtbot):
    editor = _editor(qtbot, jsonview.RELAYOUT_BLOCK_LIMIT + 10)
    editor.textCursor().insertText("x" * 2000)
    editor.resize(300, 400)
    qtbot.wait(10)
    assert editor.horizontalScrollBar().maximum() > 0
