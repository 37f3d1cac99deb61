"""Pieces both preview panels use: an option combo, the notes list, a banner and the hook that
ties a panel to the main window's active editor tab without the window knowing about it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QListWidget, QListWidgetItem, QSizePolicy, QWidget

from app.icons import SymbolIconDelegate
from app.theme import stripe_style, tints
from app.widgets.elided import ElidedLabel
from app.widgets.elided_combo import ElidedComboBox
from engine.workspace.previews.marks import Note

if TYPE_CHECKING:
    from app.document_tab import DocumentTab
    from app.mainwindow import MainWindow


def option_combo(values: Sequence[str], current: str, tip: str) -> QComboBox:
    combo = ElidedComboBox()
    combo.addItems(list(values))
    if current in values:
        combo.setCurrentText(current)
    combo.setToolTip(tip)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
    return combo


def follow_default(window: Any, combo: QComboBox, setting: str, *, open_ended: bool = False) -> None:
    """``combo`` was seeded from the Settings default ``setting`` (a preview's profile,
    intensity or language): a new default (Settings ▸ OK) moves it too, unless the user chose
    another value in the preview, which then stays theirs. ``open_ended``: the combo lists what
    is known so far (the languages of the packs seen), and a new default not among them is added."""
    settings, applied = getattr(window, "settings", None), getattr(window, "settingsApplied", None)
    if settings is None or applied is None:
        return
    seen = [str(getattr(settings, setting))]

    def follow() -> None:
        new = str(getattr(settings, setting))
        if new != seen[0] and combo.currentText() == seen[0]:
            if combo.findText(new) < 0 and open_ended:
                combo.addItem(new)
            if combo.findText(new) >= 0:
                combo.setCurrentText(new)
        seen[0] = new

    applied.connect(follow)


class Banner(ElidedLabel):
    """A one-line message above the result: the verdict that matters most (elided; the whole
    message in its tooltip)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.hide()

    def show_message(self, text: str, level: str = "info") -> None:
        if not text:
            self.hide()
            return
        self.setStyleSheet(stripe_style(level))
        self.setText(text)
        self.show()


class NotesList(QListWidget):
    """Quirks and problems in plain words; each row names its code (hover shows the level)."""

    noteActivated = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setAlternatingRowColors(True)
        self.setItemDelegate(SymbolIconDelegate(self))  # the level symbol drawn as its icon
        self.itemActivated.connect(lambda item: self.noteActivated.emit(item.data(Qt.ItemDataRole.UserRole)))

    def set_notes(self, notes: Sequence[Note], empty: str = "No quirks or problems for this text.") -> None:
        self.clear()
        t = tints()
        for note in notes:
            mark = {"error": "✖", "warning": "⚠"}.get(note.level, "ℹ")
            item = QListWidgetItem(f"{mark} {note.code}: {note.text}")
            item.setData(Qt.ItemDataRole.UserRole, note)
            item.setToolTip(f"{note.level} · {note.code}" + (f" · rule {note.rule}" if note.rule else ""))
            if note.level == "error":
                item.setForeground(QColor(t.error))
            elif note.level == "warning":
                item.setForeground(QColor(t.warning))
            self.addItem(item)
        if not notes:
            item = QListWidgetItem(empty)
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.addItem(item)


class ActiveTabHook(QObject):
    """Follows ``window.tabs``: calls ``on_change(tab)`` when the active document changes and
    ``on_edit(tab)`` when it is edited; ``on_select(tab, row, previous)`` when its visual list
    selection moves (``previous`` is -1 for the automatic first selection). Uses only the window's public signals (``tabs.currentChanged``) and the tab's
    (``edited``, ``visual.currentChanged``)."""

    def __init__(self, window: MainWindow, on_change: Callable[[Any], None], on_edit: Callable[[Any], None],
                 on_select: Callable[[Any, int, int], None]) -> None:
        super().__init__(window)
        self.window = window
        self._on_change, self._on_edit, self._on_select = on_change, on_edit, on_select
        self._hooked: set[int] = set()
        self._rows: dict[int, int] = {}
        window.tabs.currentChanged.connect(self._changed)

    def current(self) -> DocumentTab | None:
        return self.window.current_tab()

    def _changed(self, _index: int) -> None:
        tab = self.current()
        if tab is not None and id(tab) not in self._hooked:
            self._hooked.add(id(tab))
            tab.edited.connect(lambda t=tab: self._edited(t))
            if tab.visual is not None:
                tab.visual.currentChanged.connect(lambda row, t=tab: self._selected(t, row))
            key = id(tab)
            tab.destroyed.connect(lambda _o=None: self._forget(key))
        self._on_change(tab)

    def _forget(self, key: int) -> None:
        self._hooked.discard(key)
        self._rows.pop(key, None)

    def _edited(self, tab: DocumentTab) -> None:
        if tab is self.current():
            self._on_edit(tab)

    def _selected(self, tab: DocumentTab, row: int) -> None:
        previous = self._rows.get(id(tab), -1)
        self._rows[id(tab)] = row
        if tab is self.current():
            self._on_select(tab, row, previous)


def item_value(tab: DocumentTab, row: int) -> Any:
    """The parsed value of list item ``row`` of a tab (None when the index is stale or missing)."""
    index = tab.index
    if index is None or index.stale or not 0 <= row < len(index.values):
        return None
    return index.values[row]



def present_for_docs(window: MainWindow) -> None:
    """Docs-mode screenshots of a preview: the preview dock gets the room (about half the width,
    the bottom panels shrunk to their minimum) so input, output and the lists are readable. Only
    in docs mode; an interactive window keeps the layout the user made."""

    if not getattr(window, "docs_presents_preview", False):
        return  # a screenshot of the editor (``--open``) keeps the default layout: editor first

    def apply() -> None:
        explorer = window.explorer_dock.width() if window.explorer_dock.isVisible() else 0
        window.resizeDocks([window.right_dock], [max(560, (window.width() - explorer) * 11 // 20)],
                           Qt.Orientation.Horizontal)
        if window.bottom_dock.isVisible():
            window.resizeDocks([window.bottom_dock], [1], Qt.Orientation.Vertical)

    QTimer.singleShot(0, apply)
