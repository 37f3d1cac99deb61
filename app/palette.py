"""The command palette (Ctrl+Shift+P) and Go to File (Ctrl+P): lists filtered as you type."""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QAction, QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import (
    QDialog,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from app.widgets.empty_state import EmptyState

SHORTCUT_ROLE = Qt.ItemDataRole.UserRole + 1
Entry = tuple[str, str, str, object]  # a quick pick's row: label, detail, tooltip, what picking it gives


class _ShortcutDelegate(QStyledItemDelegate):
    """A command's label on the left, its shortcut right-aligned in the row's muted colour (a tab
    in the text aligned it to the next tab stop, which a long label ran into)."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        shortcut = index.data(SHORTCUT_ROLE) or ""
        if not shortcut:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        margin = opt.fontMetrics.horizontalAdvance("  ")
        width = opt.fontMetrics.horizontalAdvance(shortcut) + 2 * margin
        label_rect = opt.rect.adjusted(0, 0, -width, 0)
        opt.text = opt.fontMetrics.elidedText(opt.text, Qt.TextElideMode.ElideRight, label_rect.width() - margin)
        _draw(painter, opt)  # (super().paint would take the text from the index again, not elided)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.PlaceholderText
        painter.save()
        painter.setPen(opt.palette.color(role))
        painter.drawText(opt.rect.adjusted(0, 0, -margin, 0),
                         int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), shortcut)
        painter.restore()


def _draw(painter: QPainter, opt: QStyleOptionViewItem) -> None:
    style = opt.widget.style() if opt.widget is not None else None
    if style is not None:
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)


def matches(query: str, text: str) -> bool:
    """Every word of ``query`` occurs in ``text`` (case-insensitive), in any order."""
    low = text.lower()
    return all(word in low for word in query.lower().split())


def rank(query: str, label: str) -> int:
    """Lower first: a query whose words begin words of the label, then one found in the label,
    then one found only in the tooltip ("trust" puts Show Trust before Maximize Panels, whose
    tooltip mentions the Trust tab)."""
    words, low = query.lower().split(), label.lower()
    if not words:
        return 0
    starts = low.split()
    if all(any(w.startswith(word) for w in starts) for word in words):
        return 0
    return 1 if all(word in low for word in words) else 2


class QuickPick(QDialog):
    """A frameless list filtered as you type: ↑/↓ move, Enter picks. Each entry is a label, a
    detail shown right-aligned in a muted colour (a shortcut, a folder), the text the query is
    matched against, a tooltip, and what picking it gives (``chosen``)."""

    #: what an empty list says, ``{query}`` filled in (ux.md: empty states say what to do)
    nothing = "Nothing matches “{query}”."
    none_at_all = "Nothing to pick."

    def __init__(self, placeholder: str, entries: Callable[[str], list[Entry]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entries = entries  # ``(label, detail, tooltip, payload)`` of what a query matches, best first
        self.setWindowFlag(Qt.WindowType.FramelessWindowHint, True)
        self.resize(560, 380)
        self.query = QLineEdit(placeholderText=placeholder)
        self.list = QListWidget()
        self.list.setItemDelegate(_ShortcutDelegate(self.list))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(self.query)
        lay.addWidget(self.list, 1)
        self.empty = EmptyState.over(self.list)
        self.query.textChanged.connect(self.refresh)
        self.query.returnPressed.connect(self.run_current)
        self.list.itemActivated.connect(lambda _item: self.run_current())
        self.query.installEventFilter(self)
        self.chosen: object | None = None

    def refresh(self, query: str) -> None:
        self.list.clear()
        for label, detail, tip, payload in self.entries(query):
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, payload)
            item.setData(SHORTCUT_ROLE, detail)
            item.setToolTip(tip)
            self.list.addItem(item)
        if self.list.count():
            self.list.setCurrentRow(0)
            self.empty.clear()
        else:
            self.empty.show_message(self.nothing.format(query=query.strip()) if query.strip() else self.none_at_all)

    def eventFilter(self, obj, event) -> bool:
        if obj is self.query and event.type() == event.Type.KeyPress and event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up):
            step = 1 if event.key() == Qt.Key.Key_Down else -1
            row = max(0, min(self.list.currentRow() + step, self.list.count() - 1))
            self.list.setCurrentRow(row)
            return True
        return super().eventFilter(obj, event)

    def run_current(self) -> None:
        item = self.list.currentItem()
        if item is None:
            return
        self.chosen = item.data(Qt.ItemDataRole.UserRole)
        self.accept()
        self.picked(self.chosen)

    def picked(self, payload: object) -> None:
        """What picking an entry does besides closing (the palette runs the command)."""


class CommandPalette(QuickPick):
    """Every enabled action of the window, matched on its label and tooltip."""

    nothing = "No command matches “{query}”. Commands that cannot run now (no open file, no workspace) are not listed."
    none_at_all = "No command can run now."

    def __init__(self, actions: list[QAction], parent: QWidget | None = None) -> None:
        super().__init__("Type a command…", self._commands, parent)
        self.setWindowTitle("Command palette")
        self.actions_ = [a for a in actions if a.text() and a.isEnabled()]
        self.refresh("")

    @staticmethod
    def label(action: QAction) -> str:
        return action.text().replace("&", "")

    def _commands(self, query: str) -> list[Entry]:
        found = [a for a in self.actions_ if matches(query, self.label(a) + " " + a.toolTip())]
        out: list[Entry] = []
        for action in sorted(found, key=lambda a: rank(query, self.label(a))):  # (stable: menu order within a rank)
            text = self.label(action)
            if action.isCheckable():  # a toggle says which way it is now
                text += "  (on)" if action.isChecked() else "  (off)"
            out.append((text, action.shortcut().toString(QKeySequence.SequenceFormat.NativeText), action.toolTip(),
                        action))
        return out

    def picked(self, payload: object) -> None:
        if isinstance(payload, QAction):
            payload.trigger()


class FilePicker(QuickPick):
    """Go to File (Ctrl+P): the workspace's files by name, matched on their path as you type
    (it was a combo box that opened a file only when its whole relative path was typed)."""

    nothing = "No file of the workspace matches “{query}”."

    def __init__(self, paths: list[str], parent: QWidget | None = None) -> None:
        super().__init__("Type part of a file name or path…", self._files, parent)
        self.setWindowTitle("Go to file")
        self.paths = paths  # workspace-relative, with "/"
        self.refresh("")

    def _files(self, query: str) -> list[Entry]:
        found = [p for p in self.paths if matches(query, p)]
        found.sort(key=lambda p: (rank(query, posixpath.basename(p)), rank(query, p.replace("/", " ")), p))
        return [(posixpath.basename(p), posixpath.dirname(p), p, p) for p in found]
