"""A splitter that puts its panes side by side when wide and one above the other when narrow.

Two panes side by side each get half the width; when that half would be too narrow to read
(the rule list beside the rule form, a preview's input beside its output), stacking them gives
each the full width. The switch point is measured in average characters of the splitter's
font, not pixels, so it holds at every font size and device pixel ratio; a small hysteresis
keeps it from flipping back and forth at the boundary. The width is the one the splitter has
without the vertical scroll bar of a panel it scrolls in: that bar comes and goes with the
dock's height, and its 14 px, counted, stacked the Caveman preview's panes once Maximize
Panels made the dock short, and left them stacked once it was tall again (1280×720).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QSplitter, QWidget

HYSTERESIS_CHARS = 4


class AdaptiveSplitter(QSplitter):
    """Horizontal at ``side_by_side_chars`` average characters of width and more, else vertical."""

    def __init__(self, side_by_side_chars: int, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.side_by_side_chars = side_by_side_chars
        self._sizes: dict[Qt.Orientation, list[int]] = {}  # what the user dragged to, per orientation
        self.splitterMoved.connect(lambda _pos, _index: self._remember())

    def threshold(self) -> int:
        return self.fontMetrics().averageCharWidth() * self.side_by_side_chars

    def resizeEvent(self, event) -> None:
        width = event.size().width() + self._scroll_bar_width()
        slack = self.fontMetrics().averageCharWidth() * HYSTERESIS_CHARS
        wanted = self.orientation()
        if self.orientation() == Qt.Orientation.Horizontal and width < self.threshold() - slack:
            wanted = Qt.Orientation.Vertical
        elif self.orientation() == Qt.Orientation.Vertical and width >= self.threshold() + slack:
            wanted = Qt.Orientation.Horizontal
        super().resizeEvent(event)
        if wanted != self.orientation():
            self._remember()
            self.setOrientation(wanted)
            sizes = self._sizes.get(wanted)
            if sizes and len(sizes) == self.count():
                self.setSizes(sizes)

    def _scroll_bar_width(self) -> int:
        """The width of the shown vertical scroll bar of the scroll area this splitter is in."""
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QScrollArea):
            parent = parent.parentWidget()
        if parent is None:
            return 0
        bar = parent.verticalScrollBar()
        return bar.width() if bar.isVisible() else 0

    def _remember(self) -> None:
        self._sizes[self.orientation()] = self.sizes()
