"""The dark theme draws every control so that its state can be seen (two bugs seen in a real
window at 1366×768): a disabled button was the brightest control of the window, and an unticked
check box had no visible frame."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QCheckBox, QPushButton, QStyle, QStyleOptionButton, QWidget

from app.theme import apply_theme

pytestmark = pytest.mark.gui


@pytest.fixture
def dark(qtbot):
    app = QApplication.instance()
    apply_theme(app, "dark")
    try:
        yield app
    finally:
        apply_theme(app, "system")


def _middle(widget: QWidget) -> QColor:
    image = widget.grab().toImage()
    return image.pixelColor(QPoint(widget.width() // 2, 3) * image.devicePixelRatio())


def test_a_disabled_button_is_not_brighter_than_an_enabled_one(qtbot, dark):
    enabled, disabled = QPushButton("Refresh"), QPushButton("Compare…")
    disabled.setEnabled(False)
    for button in (enabled, disabled):
        qtbot.addWidget(button)
        button.resize(120, 30)
        button.setPalette(dark.palette())
    assert _middle(disabled).lightness() <= _middle(enabled).lightness()
    window = dark.palette().color(dark.palette().ColorRole.Window)
    assert abs(_middle(disabled).lightness() - window.lightness()) < 30  # (it was near white)


def test_an_unticked_check_box_has_a_frame_that_shows_on_the_base(qtbot, dark):
    box = QCheckBox("and trust it")
    qtbot.addWidget(box)
    box.setPalette(dark.palette())
    box.resize(150, 30)
    option = QStyleOptionButton()
    box.initStyleOption(option)
    indicator = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    image = box.grab().toImage()
    ratio = image.devicePixelRatio()
    edge = image.pixelColor(QPoint(indicator.left(), indicator.center().y()) * ratio)
    inside = image.pixelColor(indicator.center() * ratio)
    assert edge.lightness() - inside.lightness() > 60, (edge.name(), inside.name())
