"""A combo box that elides its current choice instead of cutting it.

A non-editable ``QComboBox`` narrower than its current text draws as much of it as fits and
stops mid-letter, with no sign that more follows: the Caveman preview's sample box showed
"en/team-standup · work" at 1920×1080, and a combo of the grammar playground showed
"unknown-tool tex" for "unknown-tool text: preserve". ``ElidedComboBox`` draws the choice with
an ellipsis (in the middle by default: sample names differ at their ends, and "· workspace" /
"· built-in" says where one comes from) and puts the whole choice in its tooltip while it is
cut. Its popup lists every item whole, as any combo box's does.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter, QWidget


class ElidedComboBox(QComboBox):
    def __init__(self, parent: QWidget | None = None, *,
                 mode: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle) -> None:
        super().__init__(parent)
        self._mode = mode
        self._own_tip = ""
        self._tip = ""
        self.elided = False  # the choice is drawn with an ellipsis (app.layout_report reads it)

    def setToolTip(self, tip: str) -> None:
        self._own_tip = self._tip = tip
        super().setToolTip(tip)

    def shown_text(self) -> str:
        """The current choice as drawn: whole, or elided to the width its text field has."""
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        width = field.width() - (self.iconSize().width() + 4 if not option.currentIcon.isNull() else 0)
        return self.fontMetrics().elidedText(option.currentText, self._mode, max(0, width))

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        shown = self.shown_text()
        whole = option.currentText
        self.elided = shown != whole
        tip = (f"{whole}\n{self._own_tip}" if self._own_tip else whole) if self.elided else self._own_tip
        if tip != self._tip:
            self._tip = tip
            super().setToolTip(tip)
        option.currentText = shown
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)
