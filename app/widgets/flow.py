"""A layout that places its items in rows and starts a new row when the width runs out.

The preview panels' option rows (sample, language, intensity, role, profile, scope, refresh)
asked for their summed width as the panel's minimum, which kept the preview dock wide and the
editor narrow. In a ``FlowLayout`` the minimum width is the widest single item and the height
follows the width (``heightForWidth``), as in Qt's flow layout example.
"""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLayout, QLayoutItem, QSizePolicy, QStyle, QWidget


class FlowLayout(QLayout):
    """Items left to right, wrapping; an item with horizontal stretch takes the rest of its row."""

    def __init__(self, parent: QWidget | None = None, spacing: int = -1) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._do_layout(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._do_layout(rect, apply=True)

    def sizeHint(self) -> QSize:
        width = sum(i.sizeHint().width() for i in self._visible()) + self._gap() * max(len(self._visible()) - 1, 0)
        m = self.contentsMargins()
        return QSize(width + m.left() + m.right(), self.heightForWidth(width + m.left() + m.right()))

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._visible():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _visible(self) -> list[QLayoutItem]:
        return [i for i in self._items if not i.isEmpty()]

    def _gap(self) -> int:
        if self._spacing >= 0:
            return self._spacing
        parent = self.parentWidget()
        if parent is None:
            return 6
        return parent.style().pixelMetric(QStyle.PixelMetric.PM_LayoutHorizontalSpacing, None, parent)

    def _do_layout(self, rect: QRect, *, apply: bool) -> int:
        m: QMargins = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        gap = self._gap()
        rows: list[list[QLayoutItem]] = [[]]
        used = 0
        for item in self._visible():
            w = item.sizeHint().width()
            if rows[-1] and used + gap + w > area.width():
                rows.append([])
                used = 0
            used += (gap if rows[-1] else 0) + w
            rows[-1].append(item)
        y = area.y()
        for row in rows:
            if not row:
                continue
            height = max(i.sizeHint().height() for i in row)
            if apply:
                self._place_row(row, area, y, height, gap)
            y += height + gap
        return y - gap - rect.y() + m.bottom() if rows[0] else m.top() + m.bottom()

    @staticmethod
    def _place_row(row: list[QLayoutItem], area: QRect, y: int, height: int, gap: int) -> None:
        widths = [min(i.sizeHint().width(), area.width()) for i in row]
        spare = area.width() - sum(widths) - gap * (len(row) - 1)
        widgets = [i.widget() for i in row]
        growers = [k for k, widget in enumerate(widgets)
                   if widget is not None and widget.sizePolicy().horizontalStretch() > 0]
        for k in growers:
            widths[k] += spare // len(growers) if spare > 0 else 0
        x = area.x()
        for item, w in zip(row, widths, strict=True):
            w = max(w, min(item.minimumSize().width(), area.width()))
            h = height if item.sizeHint().height() < height and _fills(item) else item.sizeHint().height()
            item.setGeometry(QRect(QPoint(x, y + (height - h) // 2), QSize(w, h)))
            x += w + gap


class FlowBox(QWidget):
    """A widget holding a :class:`FlowLayout` that tells its parents a plain minimum height.

    Height-for-width does not survive a ``QScrollArea`` with ``widgetResizable`` well: the area
    then sizes its content by the layouts' *preferred* heights and scrolls a panel that would
    fit. So this box does not report height-for-width; after each resize it sets its minimum
    height to what its rows need at that width (one more layout pass when the rows change).
    """

    def __init__(self, parent: QWidget | None = None, spacing: int = -1) -> None:
        super().__init__(parent)
        self.flow = FlowLayout(self, spacing)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def addWidget(self, widget: QWidget) -> None:
        self.flow.addWidget(widget)

    def hasHeightForWidth(self) -> bool:
        return False

    def sizeHint(self) -> QSize:
        hint = self.flow.sizeHint()
        return QSize(hint.width(), self._height_at(self.width() if self.isVisible() else hint.width()))

    def minimumSizeHint(self) -> QSize:
        return QSize(self.flow.minimumSize().width(), self._height_at(self.width() if self.isVisible() else 0))

    def _height_at(self, width: int) -> int:
        return self.flow.heightForWidth(max(width, self.flow.minimumSize().width()))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._height_at(event.size().width()) != event.size().height():
            self.updateGeometry()  # the rows changed: the parent layout asks again


def _fills(item: QLayoutItem) -> bool:
    w = item.widget()
    return w is not None and w.sizePolicy().verticalPolicy() != QSizePolicy.Policy.Fixed


def labelled(text: str, widget: QWidget, *, stretch: int = 0) -> QWidget:
    """``text`` and ``widget`` side by side as one flow item, so a label never wraps away from its field."""
    box = QWidget()
    lay = QHBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    label = QLabel(text)
    label.setBuddy(widget)
    lay.addWidget(label)
    lay.addWidget(widget, 1)
    if stretch:
        policy = box.sizePolicy()
        policy.setHorizontalStretch(stretch)
        box.setSizePolicy(policy)
    return box
