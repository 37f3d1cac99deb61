"""A dialog's first size: what it asks for, inside the screen it opens on (1280×720 included),
leaving room for the window manager's frame and panels."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

FRAME_MARGIN = (40, 60)  # (width, height) left for a title bar, borders and a panel


def fit_to_screen(widget: QWidget, width: int, height: int) -> None:
    """Resize ``widget`` to ``width`` × ``height``, cut to its screen's available area."""
    screen = widget.screen()
    if screen is not None:
        area = screen.availableGeometry()
        width = min(width, area.width() - FRAME_MARGIN[0])
        height = min(height, area.height() - FRAME_MARGIN[1])
    widget.resize(width, height)
