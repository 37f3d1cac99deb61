"""Small QPainter charts: horizontal bars (savings per rule / category) and a funnel (lines per
RTK stage). PySide6-Essentials has no QtCharts, and these two shapes need little code.

Both widgets follow the palette (light and dark), show the exact number beside every bar, give a
tooltip per item (every number explains itself) and emit a signal when an item is clicked, so
the panel can jump to the rule or stage behind it.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QMouseEvent, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    tip: str = ""
    key: str = ""  # what a click selects (rule name, category, stage)
    text: str = ""  # the value as shown; default: the number


def _accent(widget: QWidget, alpha: int = 255) -> QColor:
    color = QColor(widget.palette().color(QPalette.ColorRole.Highlight))
    color.setAlpha(alpha)
    return color


def _elide(fm: QFontMetrics, text: str, width: int) -> str:
    return fm.elidedText(text, Qt.TextElideMode.ElideMiddle, max(10, width))


class _ChartBase(QWidget):
    itemClicked = Signal(str)  # the item's key

    def __init__(self, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.empty_text = "Nothing to show yet"
        self._items: list[Bar] = []
        self._rects: list[QRectF] = []
        self._hover = -1
        self._selected = ""
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    # -- data -------------------------------------------------------------------------------------
    def items(self) -> list[Bar]:
        return list(self._items)

    def set_items(self, items: list[Bar]) -> None:
        self._items = list(items)
        self._hover = -1
        self.updateGeometry()
        self.update()

    def set_selected(self, key: str) -> None:
        self._selected = key
        self.update()

    def item_at(self, pos: QPointF) -> int:
        for i, rect in enumerate(self._rects):
            if rect.contains(pos):
                return i
        return -1

    # -- events -----------------------------------------------------------------------------------
    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        index = self.item_at(event.position())
        if index != self._hover:
            self._hover = index
            self.update()
        if index >= 0:
            item = self._items[index]
            QToolTip.showText(event.globalPosition().toPoint(), item.tip or f"{item.label}: {self._value_text(item)}",
                              self)
        else:
            QToolTip.hideText()

    def leaveEvent(self, _event) -> None:
        self._hover = -1
        self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        index = self.item_at(event.position())
        if index >= 0 and event.button() == Qt.MouseButton.LeftButton:
            item = self._items[index]
            self.itemClicked.emit(item.key or item.label)

    @staticmethod
    def _value_text(item: Bar) -> str:
        if item.text:
            return item.text
        return f"{item.value:g}"

    def shown_title(self) -> str:
        """The title as painted: elided to the chart's width in its bold font (two charts side by
        side in a narrow preview dock cut "Tokens saved per category" at the dock's edge)."""
        font = QFont(self.font())
        font.setBold(True)
        return QFontMetrics(font).elidedText(self.title, Qt.TextElideMode.ElideRight, max(0, self.width() - 12))

    def _paint_title(self, p: QPainter, fm: QFontMetrics) -> float:
        if not self.title:
            return 4.0
        font = p.font()
        font.setBold(True)
        p.setFont(font)
        p.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        p.drawText(QRectF(6, 2, self.width() - 12, fm.height() + 4), Qt.AlignmentFlag.AlignLeft
                   | Qt.AlignmentFlag.AlignVCenter, self.shown_title())
        font.setBold(False)
        p.setFont(font)
        return fm.height() + 8.0

    def _paint_empty(self, p: QPainter, top: float) -> None:
        p.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        p.drawText(QRectF(0, top, self.width(), self.height() - top), Qt.AlignmentFlag.AlignCenter, self.empty_text)


class BarChart(_ChartBase):
    """Horizontal bars, largest first as given: label on the left, value on the right."""

    def __init__(self, title: str = "", parent: QWidget | None = None, *, max_bars: int = 12) -> None:
        super().__init__(title, parent)
        self.max_bars = max_bars

    def sizeHint(self) -> QSize:
        fm = self.fontMetrics()
        rows = max(1, min(len(self._items), self.max_bars))
        return QSize(320, int((fm.height() + 8) * (rows + 1) + 12))

    def minimumSizeHint(self) -> QSize:
        return QSize(160, self.fontMetrics().height() * 3)

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = self.fontMetrics()
        top = self._paint_title(p, fm)
        items = self._items[: self.max_bars]
        self._rects = []
        if not items:
            self._paint_empty(p, top)
            return
        row_h = fm.height() + 8
        label_w = min(max(fm.horizontalAdvance(i.label) for i in items) + 12, int(self.width() * 0.42))
        value_w = max(fm.horizontalAdvance(self._value_text(i)) for i in items) + 10
        bar_x = label_w + 6
        bar_max = max(10.0, self.width() - bar_x - value_w - 8)
        peak = max((abs(i.value) for i in items), default=0) or 1.0
        text_color = self.palette().color(QPalette.ColorRole.WindowText)
        for n, item in enumerate(items):
            y = top + n * row_h
            row = QRectF(0, y, self.width(), row_h)
            self._rects.append(row)
            if n == self._hover or (self._selected and (item.key or item.label) == self._selected):
                p.fillRect(row, _accent(self, 40))
            p.setPen(text_color)
            p.drawText(QRectF(6, y, label_w - 6, row_h), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                       _elide(fm, item.label, label_w - 8))
            width = bar_max * abs(item.value) / peak
            bar = QRectF(bar_x, y + 4, max(width, 1.0 if item.value else 0.0), row_h - 8)
            color = _accent(self, 220) if item.value >= 0 else QColor("#c0504d")
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(color)
            p.drawRoundedRect(bar, 2, 2)
            p.setPen(text_color)
            p.drawText(QRectF(bar_x + width + 6, y, value_w + 4, row_h),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self._value_text(item))
        hidden = len(self._items) - len(items)
        if hidden > 0:
            p.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            p.drawText(QRectF(6, top + len(items) * row_h, self.width() - 12, row_h),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, f"… and {hidden} more")


class FunnelChart(_ChartBase):
    """Lines through the RTK stages: one centred band per step, width ∝ lines, joined by
    trapezoids so the narrowing reads at a glance; the label says ``stage  n lines (−k)``."""

    def __init__(self, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        # as tall as its steps need, no taller: it sits above the text it explains
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)

    def set_items(self, items: list[Bar]) -> None:
        super().set_items(items)
        # every step visible even when a splitter is short of room (at most ~12 rows tall)
        self.setMinimumHeight(min(self.sizeHint().height(), self.fontMetrics().height() * 18))

    def sizeHint(self) -> QSize:
        fm = self.fontMetrics()
        title = fm.height() + 8 if self.title else 4
        return QSize(320, int(title + (fm.height() + 10) * max(2, len(self._items)) + 4))

    def minimumSizeHint(self) -> QSize:
        return QSize(160, self.fontMetrics().height() * 4)

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = self.fontMetrics()
        top = self._paint_title(p, fm)
        self._rects = []
        items = self._items
        if not items:
            self._paint_empty(p, top)
            return
        gap = 6.0  # the trapezoids between bands show the narrowing
        band_h = max(float(fm.height() + 6), (self.height() - top - 6 - gap * (len(items) - 1)) / len(items))
        band_h = min(band_h, fm.height() + 4.0)
        label_w = min(max(fm.horizontalAdvance(self._label(i, n)) for n, i in enumerate(items)) + 16,
                      int(self.width() * 0.5))
        area_w = max(40.0, self.width() - label_w - 12)
        cx = 6 + area_w / 2
        peak = max((i.value for i in items), default=0) or 1.0
        text_color = self.palette().color(QPalette.ColorRole.WindowText)
        previous: QRectF | None = None
        for n, item in enumerate(items):
            y = top + n * (band_h + gap)
            width = max(2.0, area_w * item.value / peak)
            band = QRectF(cx - width / 2, y, width, band_h)
            row = QRectF(0, y, self.width(), band_h)
            self._rects.append(row)
            if previous is not None:
                path = QPainterPath(QPointF(previous.left(), previous.bottom()))
                path.lineTo(previous.right(), previous.bottom())
                path.lineTo(band.right(), band.top())
                path.lineTo(band.left(), band.top())
                path.closeSubpath()
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(_accent(self, 50))
                p.drawPath(path)
            selected = n == self._hover or (self._selected and (item.key or item.label) == self._selected)
            p.setPen(QPen(_accent(self), 2) if selected else Qt.PenStyle.NoPen)
            p.setBrush(_accent(self, 230 if selected else 170))
            p.drawRoundedRect(band, 3, 3)
            p.setPen(text_color)
            p.drawText(QRectF(area_w + 14, y, label_w, band_h), Qt.AlignmentFlag.AlignLeft
                       | Qt.AlignmentFlag.AlignVCenter, _elide(fm, self._label(item, n), label_w - 4))
            previous = band

    def _label(self, item: Bar, n: int) -> str:
        text = f"{item.label}  {self._value_text(item)}"
        if n > 0:
            delta = item.value - self._items[n - 1].value
            if delta:
                text += f" ({'+' if delta > 0 else '−'}{abs(delta):g})"
        return text
