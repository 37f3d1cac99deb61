"""Rulewright's desktop app (PySide6): views and view-models over the Qt-free ``engine``.

Importing the package applies the toolkit workarounds of :mod:`app.qtfix` first (IDE-Q12 would
otherwise abort a long session), so every entry point — the GUI, the tests, the panel modules —
gets them.
"""

from app import qtfix as _qtfix

_qtfix.apply()
