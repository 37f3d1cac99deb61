"""When the file changed on disk under unsaved edits: a bar with choices, and a side-by-side diff."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.theme import mono_font, tints
from engine.workspace.diffrows import side_by_side, summary


class ConflictBar(QFrame):
    """A non-modal bar above the editor: nothing is decided behind the user's back."""

    reloadRequested = Signal()
    keepRequested = Signal()
    compareRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        pal = self.palette()
        pal.setColor(self.backgroundRole(), QColor("#fff3cd" if not tints().dark else "#4a3f1a"))
        self.setPalette(pal)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.reload_button = QPushButton("Reload from disk")
        self.reload_button.setToolTip("Replace your version with the file on disk (undoable with Ctrl+Z)")
        self.keep_button = QPushButton("Keep mine")
        self.keep_button.setToolTip("Keep your version; saving will overwrite the file on disk")
        self.compare_button = QPushButton("Compare…")
        self.compare_button.setToolTip("Show both versions side by side")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        lay.addWidget(self.message, 1)
        for b in (self.compare_button, self.keep_button, self.reload_button):
            lay.addWidget(b)
        self.reload_button.clicked.connect(self.reloadRequested)
        self.keep_button.clicked.connect(self.keepRequested)
        self.compare_button.clicked.connect(self.compareRequested)
        self.hide()

    def show_conflict(self, message: str, *, can_reload: bool = True) -> None:
        self.message.setText(message)
        self.reload_button.setEnabled(can_reload)
        self.compare_button.setEnabled(can_reload)
        self.show()


class DiffDialog(QDialog):
    """Mine (left) vs disk (right); removed/inserted rows are tinted *and* marked with -/+."""

    def __init__(self, mine: str, disk: str, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Compare — {title}")
        self.resize(1100, 700)
        rows = side_by_side(mine, disk)
        self.rows = rows
        table = QTableWidget(len(rows), 4)
        table.setHorizontalHeaderLabels(["", "Your version (unsaved)", "", "On disk"])
        table.verticalHeader().setVisible(False)
        header = table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        font: QFont = mono_font()
        t = tints()
        removed, inserted = QColor(t.removed), QColor(t.inserted)
        for r, row in enumerate(rows):
            left_mark = "-" if row.tag in ("replace", "delete") else ""
            right_mark = "+" if row.tag in ("replace", "insert") else ""
            cells = [f"{left_mark}{row.left_no or ''}", row.left, f"{right_mark}{row.right_no or ''}", row.right]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setFont(font)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                if c < 2 and left_mark:
                    item.setBackground(removed)
                if c >= 2 and right_mark:
                    item.setBackground(inserted)
                table.setItem(r, c, item)
        first_change = next((i for i, row in enumerate(rows) if row.tag != "equal"), 0)
        first_item = table.item(first_change, 1) if rows else None
        if first_item is not None:
            table.scrollToItem(first_item)
        self.table = table
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(summary(rows)))
        lay.addWidget(table, 1)
        lay.addWidget(buttons)
