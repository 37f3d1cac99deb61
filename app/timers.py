"""The single-shot timer every debounce, deadline and "after this event" step is made of."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer


def single_shot(parent: QObject, interval_ms: int, slot: Callable[[], object]) -> QTimer:
    """A timer owned by ``parent`` that calls ``slot`` once, ``interval_ms`` after its latest
    ``start()`` (a start while it runs moves the moment on: a debounce). Interval 0: after the
    events already queued."""
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(interval_ms)
    timer.timeout.connect(slot)
    return timer
