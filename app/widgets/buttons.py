"""A tool button with its text, in one call.

PySide6 accepts ``QToolButton(text=...)`` (Qt properties as keyword arguments), but its type
stubs do not declare property keywords; this helper says the same thing in a form the type
checker can follow.
"""

from __future__ import annotations

from PySide6.QtWidgets import QToolButton, QWidget


def text_button(text: str, parent: QWidget | None = None) -> QToolButton:
    """A ``QToolButton`` showing ``text``."""
    button = QToolButton(parent)
    button.setText(text)
    return button
