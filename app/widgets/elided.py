"""A one-line label whose minimum width never grows with its text.

Paths, rule names, errors and status lines can be as long as their content; a plain ``QLabel``
asks its layout for all of that width, so one long path widened the dock, then the window,
past the screen. ``ElidedLabel`` asks for a few characters at least and its full text at best,
shows what fits with an ellipsis (in the middle for paths, at the end otherwise), and puts the
full text in its tooltip when it is cut. Rich text (``<b>…</b>``) is shown as is when it fits
and as elided plain text when it does not.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QIcon, QPainter, QTextDocument
from PySide6.QtGui import Qt as QtGui_Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

MIN_CHARS = 6  # the least it asks for: enough to show that there is text and an ellipsis


class ElidedLabel(QLabel):
    """See the module docstring. ``text()`` is the full text; ``shown()`` what is on screen."""

    def __init__(self, text: str = "", parent: QWidget | None = None, *,
                 mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight, min_chars: int = MIN_CHARS) -> None:
        super().__init__(parent)
        self._full = ""
        self._plain = ""
        self._rich = False
        self._mode = mode
        self._min_chars = min_chars
        self._own_tip = ""
        self._elided = False
        self._icon: QIcon | None = None
        self._width: int | None = None  # the text's natural width, measured once per text and font
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setText(text)

    # -- text ---------------------------------------------------------------------------------------
    def setText(self, text: str) -> None:
        text = text or ""
        if text == self._full:
            return
        self._full = text
        self._width = None
        self._rich = QtGui_Qt.mightBeRichText(text)
        if self._rich:
            doc = QTextDocument()
            doc.setHtml(text)
            self._plain = doc.toPlainText().replace("\n", " ")
        else:
            self._plain = text.replace("\n", " ")
        self.updateGeometry()
        self._refresh()

    def text(self) -> str:
        return self._full

    def plain_text(self) -> str:
        return self._plain

    def shown(self) -> str:
        """What the label displays now (the elided text when it does not fit)."""
        return super().text()

    def is_elided(self) -> bool:
        return self._elided

    def setToolTip(self, tip: str) -> None:
        self._own_tip = tip or ""
        self._refresh_tip()

    def setIcon(self, icon: QIcon | None) -> None:
        """An icon before the text (a state badge: never a font glyph that may be missing)."""
        self._icon = icon if icon is not None and not icon.isNull() else None
        self.setIndent(self._icon_size() + 4 if self._icon is not None else -1)
        self.updateGeometry()
        self._refresh()
        self.update()

    def _icon_size(self) -> int:
        return self.fontMetrics().height()

    def _indent(self) -> int:
        return self.indent() if self._icon is not None else 0

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self._icon is not None:
            size = self._icon_size()
            rect = self.contentsRect()
            painter = QPainter(self)
            self._icon.paint(painter, QRect(rect.left(), rect.top() + (rect.height() - size) // 2, size, size))
            painter.end()

    # -- size ---------------------------------------------------------------------------------------
    def _text_width(self) -> int:
        if self._width is None:
            if self._rich:
                doc = QTextDocument()
                doc.setDefaultFont(self.font())
                doc.setDocumentMargin(0)
                doc.setHtml(self._full)
                self._width = int(doc.idealWidth()) + 1
            else:
                self._width = self.fontMetrics().horizontalAdvance(self._plain)
        return self._width

    def _natural_width(self) -> int:
        margins = self.contentsMargins()
        return self._text_width() + self._indent() + margins.left() + margins.right() + 2 * self.margin()

    def sizeHint(self) -> QSize:
        return QSize(max(self._natural_width(), self.minimumSizeHint().width()), super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        margins = self.contentsMargins()
        width = (self.fontMetrics().averageCharWidth() * self._min_chars + self._indent()
                 + margins.left() + margins.right())
        return QSize(width, super().minimumSizeHint().height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._refresh()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._width = None
            self._refresh()

    # -- display ------------------------------------------------------------------------------------
    def _refresh(self) -> None:
        available = self.contentsRect().width() - 2 * self.margin() - self._indent()
        fits = not self._plain or self._text_width() <= available
        self._elided = not fits
        if fits:
            self.setTextFormat(Qt.TextFormat.AutoText)
            QLabel.setText(self, self._full)
        else:
            self.setTextFormat(Qt.TextFormat.PlainText)
            QLabel.setText(self, self.fontMetrics().elidedText(self._plain, self._mode, max(available, 0)))
        self._refresh_tip()

    def _refresh_tip(self) -> None:
        tip = self._own_tip
        if self._elided:
            tip = f"{self._plain}\n\n{tip}" if tip else self._plain
        QLabel.setToolTip(self, tip)
