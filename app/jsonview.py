"""The raw JSON (or TOML) view: highlighted text, line numbers, underlined diagnostics, find/replace.

The editor never owns the truth: the document tab feeds it splices and listens to its edits.
Qt's own undo is off — Ctrl+Z/Ctrl+Shift+Z go to the document's ``QUndoStack`` so the visual and
JSON views share one history. Big texts load in chunks from a timer so the GUI thread never
stalls (a single ``setPlainText`` of 2 MB takes ~0.35 s).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QRect, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import (
    QColor,
    QKeySequence,
    QPainter,
    QResizeEvent,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QToolButton,
    QToolTip,
    QWidget,
)

from app.highlight import LazyHighlighter
from app.icons import icon
from app.theme import tints
from app.timers import single_shot
from app.widgets.buttons import text_button

CHUNK = 32 * 1024
MAX_UNDERLINES = 2000
RELAYOUT_BLOCK_LIMIT = 20_000  # lines above which a width change skips Qt's full re-layout (NoWrap)


@dataclass(frozen=True)
class Mark:
    """A diagnostic as the editor shows it: Qt positions (UTF-16) and the tooltip text."""

    start: int
    end: int
    level: str
    text: str


class _Gutter(QWidget):
    def __init__(self, editor: JsonEditor) -> None:
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event) -> None:
        self.editor.paint_gutter(event)


class JsonEditor(QPlainTextEdit):
    undoRequested = Signal()
    redoRequested = Signal()
    loaded = Signal()

    def __init__(self, parent: QWidget | None = None, lexer: str = "json") -> None:
        super().__init__(parent)
        self.setUndoRedoEnabled(False)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabChangesFocus(False)
        self.highlighter = LazyHighlighter(self, lexer)
        self._gutter = _Gutter(self)
        self._marks: list[Mark] = []
        self._mark_selections: list[QTextEdit.ExtraSelection] = []
        self._find_selections: list[QTextEdit.ExtraSelection] = []
        self._loading: list[str] = []
        self._load_timer = QTimer(self)
        self._load_timer.setInterval(0)
        self._load_timer.timeout.connect(self._load_next_chunk)
        self.loading = False
        self.blockCountChanged.connect(self._update_gutter_width)
        self.updateRequest.connect(self._update_gutter)
        self.cursorPositionChanged.connect(self._refresh_selections)
        self._update_gutter_width()

    # -- loading ---------------------------------------------------------------------------------
    def load_text(self, text: str) -> None:
        """Show ``text``; big texts arrive chunk by chunk (read-only until ``loaded``)."""
        self._load_timer.stop()
        self.highlighter.applying = True
        try:
            if len(text) <= CHUNK:
                self.setPlainText(text)
                self.loading = False
                self.setReadOnly(False)
                self.highlighter.applying = False
                self.highlighter.reset(text)
                self.loaded.emit()
                return
            self.clear()
        finally:
            self.highlighter.applying = False
        self.loading = True
        self.setReadOnly(True)
        self._loading = [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)]
        self._loading.reverse()
        self._load_timer.start()

    @Slot()
    def _load_next_chunk(self) -> None:
        if not self._loading:
            self._load_timer.stop()
            self.loading = False
            self.setReadOnly(False)
            self.moveCursor(QTextCursor.MoveOperation.Start)
            self.highlighter.reset(None)
            self.loaded.emit()
            return
        chunk = self._loading.pop()
        self.highlighter.applying = True
        try:
            cursor = QTextCursor(self.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(chunk)
        finally:
            self.highlighter.applying = False

    # -- programmatic edits -----------------------------------------------------------------------
    def replace_range(self, start16: int, end16: int, text: str) -> None:
        """Replace Qt positions ``start16..end16`` with ``text`` keeping the view where it was."""
        bar = self.verticalScrollBar()
        hbar = self.horizontalScrollBar()
        v, h = bar.value(), hbar.value()
        cursor = QTextCursor(self.document())
        cursor.setPosition(start16)
        cursor.setPosition(end16, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(text)
        bar.setValue(v)
        hbar.setValue(h)

    def go_to(self, line: int, column: int = 1, select_to: tuple[int, int] | None = None) -> None:
        """Put the caret on 1-based ``line`` and UTF-16 ``column`` and scroll it into view."""
        doc = self.document()
        block = doc.findBlockByNumber(max(0, line - 1))
        if not block.isValid():
            block = doc.lastBlock()
        pos = block.position() + max(0, min(column - 1, block.length() - 1))
        cursor = self.textCursor()
        cursor.setPosition(pos)
        if select_to is not None:
            end_block = doc.findBlockByNumber(max(0, select_to[0] - 1))
            if end_block.isValid():
                end = end_block.position() + max(0, min(select_to[1] - 1, end_block.length() - 1))
                if end > pos:
                    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        self.setTextCursor(cursor)
        self.centerCursor()
        self.setFocus()

    # -- keys ---------------------------------------------------------------------------------------
    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.StandardKey.Undo):
            self.undoRequested.emit()
            return
        if event.matches(QKeySequence.StandardKey.Redo) or (
                event.key() == Qt.Key.Key_Z and event.modifiers() == (Qt.KeyboardModifier.ControlModifier
                                                                     | Qt.KeyboardModifier.ShiftModifier)):
            self.redoRequested.emit()
            return
        super().keyPressEvent(event)

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and (
                event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo)):
            event.accept()  # handle undo/redo ourselves even though Qt's undo is off
            return True
        if event.type() == QEvent.Type.ToolTip:
            cursor = self.cursorForPosition(event.pos() - QRect(self.viewport().geometry()).topLeft())
            mark = self.mark_at(cursor.position())
            if mark is not None:
                QToolTip.showText(event.globalPos(), mark.text, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    # -- diagnostics --------------------------------------------------------------------------------
    def set_marks(self, marks: list[Mark]) -> None:
        self._marks = sorted(marks, key=lambda m: m.start)[:MAX_UNDERLINES]
        t = tints()
        colors = {"error": t.error, "warning": t.warning, "info": t.info}
        selections = []
        doc_end = max(0, self.document().characterCount() - 1)
        for mark in self._marks:
            sel = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            fmt.setUnderlineColor(QColor(colors.get(mark.level, t.info)))
            fmt.setToolTip(mark.text)
            sel.format = fmt
            cursor = QTextCursor(self.document())
            start = min(mark.start, doc_end)
            end = min(max(mark.end, start + 1), doc_end)
            if end <= start:  # at the very end: underline the last character instead
                start = max(0, end - 1)
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor
            selections.append(sel)
        self._mark_selections = selections
        self._refresh_selections()
        self._gutter.update()

    def marks(self) -> list[Mark]:
        return list(self._marks)

    def mark_at(self, pos: int) -> Mark | None:
        for mark in self._marks:
            if mark.start <= pos <= max(mark.end, mark.start + 1):
                return mark
        return None

    def set_find_selections(self, selections: list[QTextEdit.ExtraSelection]) -> None:
        self._find_selections = selections
        self._refresh_selections()

    @Slot()
    def _refresh_selections(self) -> None:
        if self.loading:
            return
        line = QTextEdit.ExtraSelection()
        line.format.setBackground(QColor(tints().current_line))
        line.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        line.cursor = self.textCursor()
        line.cursor.clearSelection()
        self.setExtraSelections([line, *self._find_selections, *self._mark_selections])

    # -- gutter ---------------------------------------------------------------------------------------
    def gutter_width(self) -> int:
        digits = len(str(max(1, self.blockCount())))
        return 14 + self.fontMetrics().horizontalAdvance("9") * max(3, digits)

    @Slot()
    def _update_gutter_width(self, *_args) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    @Slot(QRect, int)
    def _update_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self._gutter.scroll(0, dy)
        else:
            self._gutter.update(0, rect.y(), self._gutter.width(), rect.height())

    def resizeEvent(self, event) -> None:
        old, new = event.oldSize(), event.size()
        if (old.width() != new.width() and self.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap
                and self.blockCount() > RELAYOUT_BLOCK_LIMIT):
            # QPlainTextEdit re-lays out every block when the width changes (~30 ms for a 2 MB
            # file, on every resize step and on the first show of the JSON view). Unwrapped lines
            # do not depend on the width, so the base class only hears about the height. The cost:
            # after the view narrows, the horizontal scroll range may reach past the widest line.
            event = QResizeEvent(new, QSize(new.width(), old.height()))
        super().resizeEvent(event)
        cr = self.contentsRect()
        self._gutter.setGeometry(QRect(cr.left(), cr.top(), self.gutter_width(), cr.height()))

    def paint_gutter(self, event) -> None:
        painter = QPainter(self._gutter)
        pal = self.palette()
        painter.fillRect(event.rect(), pal.alternateBase())
        t = tints()
        marked_lines: dict[int, str] = {}
        doc = self.document()
        for mark in self._marks[:500]:
            number = doc.findBlock(mark.start).blockNumber()
            if marked_lines.get(number) != "error":
                marked_lines[number] = mark.level
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        height = self.fontMetrics().height()
        current = self.textCursor().blockNumber()
        while block.isValid() and top <= event.rect().bottom():
            if block.isVisible() and top + height >= event.rect().top():
                number = block.blockNumber()
                level = marked_lines.get(number)
                if level:
                    painter.fillRect(0, top, 3, height, QColor({"error": t.error, "warning": t.warning}.get(level, t.info)))
                painter.setPen(pal.text().color() if number == current else pal.placeholderText().color())
                painter.drawText(0, top, self._gutter.width() - 6, height,
                                 Qt.AlignmentFlag.AlignRight, str(number + 1))
            top += round(self.blockBoundingRect(block).height())
            block = block.next()
        painter.end()


STATUS_ROOM = "9999 replaced · 1000+ matches"  # the find bar status's longest usual text


class FindBar(QWidget):
    """Find / replace in the JSON view (Ctrl+F, Ctrl+H); Enter = next, Shift+Enter = previous."""

    closed = Signal()

    def __init__(self, editor: JsonEditor, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.find_edit = QLineEdit(placeholderText="Find")
        self.replace_edit = QLineEdit(placeholderText="Replace with")
        self.case = QCheckBox("Aa")
        self.case.setToolTip("Match case")
        self.status = QLabel()
        # as wide as its longest usual text from the start: a count that grew or shrank moved
        # the find and replace boxes under the pointer as the user typed
        self.status.setMinimumWidth(self.status.fontMetrics().horizontalAdvance(STATUS_ROOM) + 8)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.addWidget(self.find_edit, 2)
        prev_btn, next_btn = text_button("↑"), text_button("↓")
        prev_btn.setToolTip("Previous match (Shift+Enter)")
        next_btn.setToolTip("Next match (Enter)")
        lay.addWidget(prev_btn)
        lay.addWidget(next_btn)
        lay.addWidget(self.case)
        lay.addWidget(self.replace_edit, 2)
        one, every = text_button("Replace"), text_button("All")
        lay.addWidget(one)
        lay.addWidget(every)
        lay.addWidget(self.status)
        close = QToolButton()
        close.setIcon(icon("clear"))
        close.setToolTip("Close (Esc)")
        lay.addWidget(close)
        prev_btn.clicked.connect(lambda: self.find_next(backward=True))
        next_btn.clicked.connect(lambda: self.find_next())
        one.clicked.connect(self.replace_one)
        every.clicked.connect(self.replace_all)
        close.clicked.connect(self.close_bar)
        self.find_edit.returnPressed.connect(lambda: self.find_next())
        self.find_edit.textChanged.connect(self._needle_changed)
        self.case.toggled.connect(self._needle_changed)
        # the matches follow the text: after a Replace All, an undo or typing, the count and the
        # highlights were those of the text before (never stale: ux.md)
        self._recount = single_shot(self, 250, self._highlight_all)
        editor.document().contentsChanged.connect(self._text_changed)
        self._replaced: tuple[int, int] | None = None  # (how many, the document's revision after)

    def open(self, replace: bool = False) -> None:
        self.replace_edit.setVisible(True)
        self.show()
        selected = self.editor.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.find_edit.setText(selected)
        (self.replace_edit if replace and self.find_edit.text() else self.find_edit).setFocus()
        self.find_edit.selectAll()

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            self.find_next(backward=True)
            return
        super().keyPressEvent(event)

    def close_bar(self) -> None:
        self.editor.set_find_selections([])
        self.hide()
        self.editor.setFocus()
        self.closed.emit()

    def _flags(self, backward: bool = False) -> QTextDocument.FindFlag:
        flags = QTextDocument.FindFlag(0)
        if self.case.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        if backward:
            flags |= QTextDocument.FindFlag.FindBackward
        return flags

    def find_next(self, backward: bool = False) -> bool:
        needle = self.find_edit.text()
        if not needle:
            return False
        doc = self.editor.document()
        found = doc.find(needle, self.editor.textCursor(), self._flags(backward))
        if found.isNull():  # wrap around
            start = QTextCursor(doc)
            if backward:
                start.movePosition(QTextCursor.MoveOperation.End)
            found = doc.find(needle, start, self._flags(backward))
        if found.isNull():
            self.status.setText("no match")
            return False
        self.editor.setTextCursor(found)
        self.editor.centerCursor()
        return True

    def replace_one(self) -> None:
        cursor = self.editor.textCursor()
        needle = self.find_edit.text()
        same = cursor.selectedText() == needle if self.case.isChecked() else \
            cursor.selectedText().lower() == needle.lower()
        if cursor.hasSelection() and same:
            cursor.insertText(self.replace_edit.text())
        self.find_next()

    def replace_all(self) -> int:
        """Replace every match as ONE edit (one undo step)."""
        needle = self.find_edit.text()
        if not needle:
            return 0
        doc = self.editor.document()
        cursor = QTextCursor(doc)
        hits = []
        while True:
            cursor = doc.find(needle, cursor, self._flags())
            if cursor.isNull():
                break
            hits.append((cursor.selectionStart(), cursor.selectionEnd()))
        if not hits:
            self.status.setText("no match")
            return 0
        first, last = hits[0][0], hits[-1][1]
        block = QTextCursor(doc)
        block.setPosition(first)
        block.setPosition(last, QTextCursor.MoveMode.KeepAnchor)
        # Qt positions are UTF-16 (IDE-Q2): slice the selection in UTF-16 units
        original = block.selectedText().replace("\u2029", "\n").encode("utf-16-le", "surrogatepass")

        def piece(a: int, b: int | None) -> str:
            return original[2 * (a - first) : None if b is None else 2 * (b - first)].decode("utf-16-le", "surrogatepass")

        pieces, prev = [], first
        for a, b in hits:
            pieces.append(piece(prev, a))
            pieces.append(self.replace_edit.text())
            prev = b
        pieces.append(piece(prev, None))
        block.insertText("".join(pieces))
        self._replaced = (len(hits), doc.revision())
        self._highlight_all()
        return len(hits)

    def _needle_changed(self, *_args) -> None:
        self._replaced = None  # (what was replaced was another search's)
        self._highlight_all()

    def _text_changed(self) -> None:
        if self.isVisible() and self.find_edit.text():
            self._recount.start()

    @Slot()
    def _highlight_all(self, *_args) -> None:
        needle = self.find_edit.text()
        selections: list[QTextEdit.ExtraSelection] = []
        if needle:
            doc = self.editor.document()
            cursor = QTextCursor(doc)
            fmt = QTextCharFormat()
            fmt.setBackground(QColor("#f6d55c" if not tints().dark else "#6b5b1d"))
            while len(selections) < 1000:
                cursor = doc.find(needle, cursor, self._flags())
                if cursor.isNull():
                    break
                sel = QTextEdit.ExtraSelection()
                sel.cursor, sel.format = QTextCursor(cursor), fmt
                selections.append(sel)
            count = f"{len(selections)}{'+' if len(selections) == 1000 else ''} matches"
            replaced = self._replaced
            # "N replaced" stays until the text changes again (an undo of it included)
            if replaced is not None and replaced[1] == self.editor.document().revision():
                count = f"{replaced[0]} replaced · {count}"
            self.status.setText(count)
        else:
            self.status.setText("")
        self.editor.set_find_selections(selections)
