"""The layout building blocks: labels that elide, controls that flow, splitters that stack, icons."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from app.icons import SYMBOL_ICONS, icon, split_symbol
from app.widgets.adaptive import AdaptiveSplitter
from app.widgets.elided import ElidedLabel
from app.widgets.flow import FlowBox
from app.widgets.page_tabs import PageSizedTabs

pytestmark = pytest.mark.gui

LONG_PATH = "/home/someone/" + "a-very-long-folder-name/" * 12 + "rules"


def test_an_elided_label_asks_for_the_same_minimum_whatever_its_text(qtbot):
    label = ElidedLabel("short", mode=Qt.TextElideMode.ElideMiddle)
    qtbot.addWidget(label)
    minimum = label.minimumSizeHint().width()
    label.setText(f"running rule x from {LONG_PATH}")
    assert label.minimumSizeHint().width() == minimum  # no widget's minimum grows with its text
    assert label.sizeHint().width() > 10 * minimum  # it still asks for the room when there is some
    label.resize(300, label.sizeHint().height())
    label.show()
    qtbot.waitExposed(label)
    assert label.is_elided() and "…" in label.shown() and len(label.shown()) < len(label.text())
    assert label.text() == f"running rule x from {LONG_PATH}" and LONG_PATH in label.toolTip()
    label.resize(label.sizeHint().width() + 20, label.height())
    qtbot.waitUntil(lambda: not label.is_elided())
    assert label.shown() == label.text() and label.toolTip() == ""


def test_rich_text_shows_as_rich_when_it_fits_and_plain_when_cut(qtbot):
    label = ElidedLabel("<b>Input</b> · 118 tokens")
    qtbot.addWidget(label)
    label.resize(label.sizeHint().width() + 10, 30)
    label.show()
    qtbot.waitExposed(label)
    assert label.shown() == "<b>Input</b> · 118 tokens" and label.textFormat() == Qt.TextFormat.AutoText
    label.resize(label.minimumSizeHint().width(), 30)
    qtbot.waitUntil(label.is_elided)
    assert "<b>" not in label.shown() and label.textFormat() == Qt.TextFormat.PlainText
    assert label.toolTip() == "Input · 118 tokens"


def test_a_flow_box_wraps_into_rows_and_its_minimum_is_its_widest_item(qtbot):
    host = QWidget()
    qtbot.addWidget(host)
    lay = QVBoxLayout(host)
    box = FlowBox()
    buttons = [QPushButton(f"button number {i}") for i in range(6)]
    for b in buttons:
        box.addWidget(b)
    lay.addWidget(box)
    lay.addStretch(1)
    widest = max(b.sizeHint().width() for b in buttons)
    assert box.minimumSizeHint().width() == widest
    host.resize(sum(b.sizeHint().width() for b in buttons) + 80, 300)
    host.show()
    qtbot.waitExposed(host)
    one_row = {b.y() for b in buttons}
    assert len(one_row) == 1
    host.resize(widest + 30, 300)
    qtbot.waitUntil(lambda: len({b.y() for b in buttons}) == len(buttons))  # one per row
    # then its parent gives it the rows' height (the box asks again after the resize)
    qtbot.waitUntil(lambda: box.height() >= sum(b.height() for b in buttons))
    assert all(b.geometry().bottom() < box.height() for b in buttons)


def test_an_adaptive_splitter_stacks_its_panes_when_narrow(qtbot):
    splitter = AdaptiveSplitter(60)
    qtbot.addWidget(splitter)
    splitter.addWidget(QLabel("list"))
    splitter.addWidget(QLabel("form"))
    chars = splitter.fontMetrics().averageCharWidth()
    splitter.resize(chars * 90, 300)
    splitter.show()
    qtbot.waitExposed(splitter)
    assert splitter.orientation() == Qt.Orientation.Horizontal
    splitter.resize(chars * 40, 300)
    qtbot.waitUntil(lambda: splitter.orientation() == Qt.Orientation.Vertical)
    splitter.resize(chars * 61, 300)  # inside the hysteresis band: stays stacked
    qtbot.wait(20)
    assert splitter.orientation() == Qt.Orientation.Vertical
    splitter.resize(chars * 90, 300)
    qtbot.waitUntil(lambda: splitter.orientation() == Qt.Orientation.Horizontal)


def _tall(height: int) -> QWidget:
    """A page as tall as its layout's content, as a playground is."""
    page, content = QWidget(), QWidget()
    content.setFixedHeight(height)
    QVBoxLayout(page).addWidget(content)
    page.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
    return page


def test_a_page_sized_tab_widget_is_as_small_as_its_current_page_allows(qtbot):
    """A hidden tall page no longer holds the tab widget up; shown, it does; taken out, it has
    its own size policy again."""
    tabs = PageSizedTabs()
    qtbot.addWidget(tabs)
    short, tall = _tall(40), _tall(400)
    tabs.addTab(short, "short")
    tabs.addTab(tall, "tall")
    assert tabs.currentWidget() is short
    assert tabs.minimumSizeHint().height() < 200
    assert tall.sizePolicy().verticalPolicy() == QSizePolicy.Policy.Ignored
    tabs.setCurrentWidget(tall)
    assert tabs.minimumSizeHint().height() >= 400
    assert tall.sizePolicy().verticalPolicy() == QSizePolicy.Policy.Fixed
    assert short.sizePolicy().verticalPolicy() == QSizePolicy.Policy.Ignored
    tabs.removeTab(tabs.indexOf(short))  # (the widget lives on, as a panel moved to another dock)
    assert short.sizePolicy().verticalPolicy() == QSizePolicy.Policy.Fixed
    short.deleteLater()


def test_every_badge_symbol_has_a_bundled_icon(qapp):
    for symbol, name in SYMBOL_ICONS.items():
        assert not icon(name).isNull() and not icon(name).pixmap(16, 16).isNull(), symbol
        assert split_symbol(f"{symbol} word") == (name, "word")
    assert split_symbol("plain text") == (None, "plain text")
    assert not icon("clear").isNull()


def test_a_badge_leaves_room_for_its_bold_letters(qtbot):
    """A badge asks for more than its bold text's advance: the ink of the last letter runs past
    it, and the last letter of "— no project filters" was cut in the Trust panel."""
    from app.playground.common import Badge

    badge = Badge("— no project filters", "muted")
    qtbot.addWidget(badge)
    badge.show()
    qtbot.waitExposed(badge)
    advance = badge.fontMetrics().horizontalAdvance(badge.plain_text())
    margins = badge.contentsMargins()
    assert badge.sizeHint().width() >= advance + margins.left() + margins.right() + 2
    badge.resize(badge.sizeHint())
    assert not badge.is_elided() and badge.contentsRect().width() >= advance + 2


def test_a_chart_title_is_elided_to_the_charts_width(qtbot):
    """Two charts side by side in a narrow dock: a title wider than its chart ends in an ellipsis
    instead of running past the dock's edge."""
    from app.widgets.charts import BarChart

    chart = BarChart("Tokens saved per category")
    qtbot.addWidget(chart)
    chart.resize(900, 120)
    assert chart.shown_title() == "Tokens saved per category"
    chart.resize(90, 120)
    shown = chart.shown_title()
    assert shown.endswith("…") and len(shown) < len(chart.title)
