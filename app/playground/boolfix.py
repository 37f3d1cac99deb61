"""The ``bool`` sibling of IDE-Q12 (see :mod:`app.qtfix`, which handles ``None``).

PySide6/Shiboken 6.12.0 on CPython 3.11 returns ``True`` from ``SignalInstance.emit`` without
taking a reference: every ``signal.emit(...)`` made from Python lowers ``sys.getrefcount(True)``
by one. The count starts around 1 500 in the app, so after that many emits (a few minutes of
typing: every edit emits several signals) the interpreter aborts with "Fatal Python error:
bool_dealloc". Shiboken treats the bools as immortal, which they only are from CPython 3.12 on.

The fix is :mod:`app.qtfix`'s: give ``True`` and ``False`` a reference count no program can
exhaust. It is measured, not assumed (nothing happens where emit does not leak), idempotent, and
a no-op on CPython >= 3.12. It belongs in ``app.qtfix`` beside the ``None`` fix; it lives here
until it moves there, applied when the panels of part 2b are imported.
"""

from __future__ import annotations

import ctypes
import sys

IMMORTAL_REFCOUNT = 1 << 48


def emit_leaks_true() -> bool:
    """True when emitting a Python-declared signal drops a reference to ``True`` (measured)."""
    from PySide6.QtCore import QObject, Signal

    class _Probe(QObject):
        ping = Signal(int)

    probe = _Probe()
    before = sys.getrefcount(True)
    for n in range(64):
        probe.ping.emit(n)
    return sys.getrefcount(True) < before - 32


def make_bools_immortal() -> bool:
    """Raise the reference counts of ``True`` and ``False`` out of reach; True if applied."""
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    for value in (True, False):
        if sys.getrefcount(value) < IMMORTAL_REFCOUNT // 2:
            ctypes.c_ssize_t.from_address(id(value)).value += IMMORTAL_REFCOUNT  # ob_refcnt comes first
    return True


def apply() -> bool:
    if sys.implementation.name == "cpython" and sys.version_info < (3, 12) and emit_leaks_true():
        return make_bools_immortal()
    return False


apply()
