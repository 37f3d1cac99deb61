"""A panel whose content scrolls when its dock is smaller than the content's minimum.

A dock's minimum size is its panel's; a preview with a chart, two text views and a table
summed to ~450 px of minimum height, which pushed the main window past a 720 px screen. Inside
a scroll area the panel asks for almost nothing and shows scroll bars only when the user makes
its dock smaller than the content needs; at every normal size it looks exactly as before.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget


def scroll_body(panel: QWidget) -> QWidget:
    """Fill ``panel`` with a frameless scroll area and return the widget to lay the content out in."""
    area = QScrollArea(panel)
    area.setObjectName("panelScroll")
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    body = QWidget()
    body.setObjectName("panelBody")
    area.setWidget(body)
    outer = QVBoxLayout(panel)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.addWidget(area)
    return body
