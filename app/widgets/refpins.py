"""Keep ``None``, ``True`` and ``False`` alive under PySide6 6.12 on Python 3.11.

PySide6-Essentials 6.12.0 (a ``cp310-abi3`` wheel) returns ``None`` from void methods without
taking a reference — harmless on Python ≥ 3.12, where ``None`` is immortal (PEP 683), but on 3.11
every call such as ``QTextCharFormat.setBackground`` or ``QPainter.drawText`` takes one reference
away from ``None``. A preview that shades a few hundred spans per keystroke reaches zero within
minutes and the interpreter aborts with "Fatal Python error: none_dealloc" (seen in this
project's GUI benchmark; a ``bool_dealloc`` at exit points at ``True``/``False`` too).

The fix is what Python 3.12 does: give these singletons a reference count no program can exhaust.
``ob_refcnt`` is the first field of every CPython object, so one addition per singleton does it.
"""

from __future__ import annotations

import ctypes
import sys

PIN = 1 << 40  # far more void calls than any session makes
_pinned = False


def pin_singletons() -> bool:
    """Raise the reference counts of ``None``/``True``/``False`` once (Python < 3.12 only)."""
    global _pinned
    if _pinned or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    for obj in (None, True, False):
        ctypes.c_ssize_t.from_address(id(obj)).value += PIN
    _pinned = True
    return True
