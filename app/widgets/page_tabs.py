"""A tab widget as small as its current page allows, not as its largest hidden page does.

``QStackedLayout`` takes the largest minimum size over all its pages, shown or not. A hidden
Repair playground (357 px at least) kept the editor area that tall whatever tab was shown, so on
a 1280×720 screen Maximize Panels gave the Trust tab 40 % of the height instead of 70 %. A page
whose size policy is ``Ignored`` adds nothing to that maximum, so the hidden pages are given that
policy and the shown one its own back.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtWidgets import QSizePolicy, QTabWidget, QWidget

_OWN_POLICY = "_rulewright_own_size_policy"  # (a page's policy, kept on it while it is hidden)


class PageSizedTabs(QTabWidget):
    """``QTabWidget`` whose minimum size is that of its current page."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._pages: list[QWidget] = []
        self.currentChanged.connect(lambda _index: self._size_by_current())

    def tabInserted(self, index: int) -> None:
        super().tabInserted(index)
        self._size_by_current()

    def tabRemoved(self, index: int) -> None:
        super().tabRemoved(index)
        self._size_by_current()

    def _size_by_current(self) -> None:
        pages = [page for i in range(self.count()) if (page := self.widget(i)) is not None]
        present = set(map(id, pages))
        for page in self._pages:  # (a page taken out, to another dock, gets its own policy back)
            if id(page) not in present and shiboken6.isValid(page):
                _wear_own(page)
        self._pages = pages
        current = self.currentWidget()
        for page in self._pages:
            if page is current:
                _wear_own(page)
            elif page.property(_OWN_POLICY) is None:
                page.setProperty(_OWN_POLICY, page.sizePolicy())
                page.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.updateGeometry()


def _wear_own(page: QWidget) -> None:
    own = page.property(_OWN_POLICY)
    if own is not None:
        page.setSizePolicy(own)
        page.setProperty(_OWN_POLICY, None)
