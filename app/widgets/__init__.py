"""Reusable preview widgets: shaded-span text views and QPainter charts (no QtCharts needed).

Importing the package pins ``None``/``True``/``False`` against PySide6 6.12's missing references
on Python 3.11 (see :mod:`app.widgets.refpins`); the app's start-up should call it too.
"""

from app.widgets.refpins import pin_singletons

pin_singletons()
