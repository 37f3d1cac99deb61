"""What an empty panel says, and the buttons that do it (ux.md: "Empty states say what to do").

One widget for every empty list, tree and table of the IDE: a short sentence plus buttons wired
to the window's own actions, so the button does exactly what the menu item or shortcut does.
It can lie over a view's viewport (:meth:`EmptyState.over`), which leaves the panel's layout and
headers untouched and goes away as soon as the view gets content. Colours come from the
application palette, so it follows the light/dark theme.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Union

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

#: A window action, or a (label, callable) pair for a one-off step such as "open this recent folder".
EmptyAction = Union[QAction, tuple[str, Callable[[], object]]]  # noqa: UP007 (runtime alias)


def action_label(action: QAction) -> str:
    """The action's menu text without mnemonics, with its shortcut the way the menus show it."""
    text = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
    shortcut = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    return f"{text}  ({shortcut})" if shortcut else text


class EmptyState(QWidget):
    """A centred sentence and a row of action buttons; hidden while there is content."""

    def __init__(self, parent: QWidget | None = None, *, vertical: bool = False, inline: bool = False) -> None:
        super().__init__(parent)
        self.vertical = vertical  # narrow docks (the explorer) stack their buttons
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.buttons: list[QPushButton] = []
        self._row = QVBoxLayout() if vertical else QHBoxLayout()
        self._row.setSpacing(6)
        lay = QVBoxLayout(self)
        lay.addStretch(1)
        if inline:
            # one line, the buttons after the sentence: a short view (a list a few rows high at
            # 1280×720) clipped the button of the stacked layout
            lay.setContentsMargins(12, 2, 12, 2)
            line = QHBoxLayout()
            line.addWidget(self.label, 1)
            line.addLayout(self._row)
            lay.addLayout(line)
        else:
            lay.setContentsMargins(12, 12, 12, 12)
            lay.addWidget(self.label)
            lay.addLayout(self._row)
        lay.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.hide()

    @classmethod
    def over(cls, view: QAbstractScrollArea, *, vertical: bool = False, inline: bool = False) -> EmptyState:
        """An empty state lying over ``view``'s viewport (it follows the viewport's size);
        ``inline``: the sentence and its buttons on one line (a view that may be short)."""
        viewport = view.viewport()
        state = cls(viewport, vertical=vertical, inline=inline)
        state.setFont(QApplication.font())  # not the view's font (a code view's is monospace)
        # a layout on the viewport keeps the overlay its size (no event filter: Python overrides
        # called on every event cost more, and bool returns hit IDE-Q13)
        fit = QGridLayout(viewport)
        fit.setContentsMargins(0, 0, 0, 0)
        fit.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        fit.addWidget(state, 0, 0)
        return state

    def text(self) -> str:
        return self.label.text()

    def show_message(self, text: str, actions: Sequence[EmptyAction | None] = ()) -> None:
        """Say ``text`` and offer ``actions`` (``None`` entries are skipped: an action not built yet)."""
        self.label.setText(text)
        self.label.setVisible(bool(text))
        while self._row.count():  # the previous message's stretches and buttons
            item = self._row.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()  # deleteLater waits for the outer event loop (docs mode has none)
                widget.deleteLater()
        self.buttons = [self._button(a) for a in actions if a is not None]
        self._row.addStretch(1)  # buttons centred
        for button in self.buttons:
            self._row.addWidget(button, 0, Qt.AlignmentFlag.AlignHCenter if self.vertical else Qt.AlignmentFlag(0))
            button.show()  # a layout shows widgets added to a visible parent only after an event-loop turn
        self._row.addStretch(1)
        self.setVisible(True)
        self.raise_()

    def clear(self) -> None:
        """There is content: get out of the way."""
        self.hide()

    @staticmethod
    def _button(action: EmptyAction) -> QPushButton:
        if isinstance(action, QAction):
            button = QPushButton(action_label(action))
            button.setToolTip(action.toolTip())
            button.setEnabled(action.isEnabled())
            button.clicked.connect(action.trigger)
        else:
            label, run = action
            button = QPushButton(label)
            button.clicked.connect(lambda *_checked, f=run: f())
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        button.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        return button
