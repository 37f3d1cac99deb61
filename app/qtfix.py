"""Work around toolkit bugs once, for every view (the ``IDE-Qn`` list in ide-patterns §14).

IDE-Q12: PySide6/Shiboken 6.12.0 on CPython 3.11 drops one reference to ``None`` every time a
Python call returns from a C++ method declared ``void`` (``timer.setInterval(5)`` 1000 times
lowers ``sys.getrefcount(None)`` by 1000). Shiboken 6.12 treats ``None`` as immortal, which it
only is from CPython 3.12 on. A GUI makes millions of such calls, so after a few minutes the
count reaches zero and the interpreter aborts with "Fatal Python error: none_dealloc". We make
``None`` immortal the way CPython 3.12 does: by giving it a reference count no program can
exhaust. Nothing else changes; on CPython ≥ 3.12 this does nothing.

IDE-Q13, its ``bool`` sibling: every ``signal.emit(...)`` made from Python returns ``True``
without taking a reference, so ``sys.getrefcount(True)`` (about 1,500 in the app) runs out after
that many emits and the interpreter aborts with "bool_dealloc". Same cure for ``True``/``False``.
Both fixes are measured (applied only where the leak happens) and idempotent.
"""

from __future__ import annotations

import ctypes
import sys

IMMORTAL_REFCOUNT = 1 << 48


def none_refcount_is_leaking() -> bool:
    """True when this interpreter/toolkit pair has the IDE-Q12 bug (measured, not assumed)."""
    from PySide6.QtCore import QTimer

    timer = QTimer()
    before = sys.getrefcount(None)
    for _ in range(64):
        timer.setInterval(5)
    return sys.getrefcount(None) < before - 32


def make_none_immortal() -> bool:
    """Raise ``None``'s reference count out of reach (CPython < 3.12 only); True if applied."""
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    if sys.getrefcount(None) >= IMMORTAL_REFCOUNT // 2:
        return True  # already done
    refcount = ctypes.c_ssize_t.from_address(id(None))  # ob_refcnt is PyObject's first field
    refcount.value += IMMORTAL_REFCOUNT
    return True


def emit_leaks_true() -> bool:
    """True when emitting a Python-declared signal drops a reference to ``True`` (IDE-Q13)."""
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


def apply() -> None:
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return
    if none_refcount_is_leaking():
        make_none_immortal()
    if emit_leaks_true():
        make_bools_immortal()
