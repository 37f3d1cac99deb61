"""Keep glibc's allocator reusing the heap around large batch work, instead of mapping and
unmapping every big string.

A Caveman run over megabytes of text makes dozens of whole-text strings and byte views (each
rule's result, its UTF-16 units, its canonical case, the views its literal searches read), each
freed a step later. glibc serves an allocation above its mmap threshold (dynamic, at most 32 MB)
with a fresh mapping and unmaps it when it is freed, so each such string costs its size in page
faults. On 16 MB of mixed prose (4 bytes a character: 64 MB strings) a run faulted 400–550 K
pages, 0.8–1.1 s of system time against ~2.9 s of user time, where 1 MB took 16–28 ms (the
threshold had risen above its 4 MB strings): the run was no longer linear. With the heap serving
every allocation (and trimmed after each run, as below) a run on 16 MB faulted ~200–240 K pages
(0.4–0.5 s) and spent ~2.7 s in user time. The freed chunks one stage cannot reuse (the text's
copies come 4, 2 and 1 bytes a character) raised the peak RSS, 16 MB strict: 988 -> 1,128 MB
above the baseline, and a trim between stages returned them (~1,030 MB). With the stages'
copies since made smaller (a peak of ~600 MB on 16 MB of mixed prose), those trims cost more
than they saved: every stage faulted the returned pages in again. Without them (2026-12-06,
16 MB, alternating runs) mixed prose took 2.83–2.84 s instead of 2.90–2.96 (84 K page faults
instead of 168–184 K), agent sessions 3.47–3.50 instead of 3.53–3.72, prose 1.71–1.72 instead
of 1.76–1.86, for a peak 0–8 % higher (mixed prose 611 -> 627 MB). Where
glibc's dynamic threshold keeps the copies on the heap already, reuse only raised the peak
(mixed prose, 1 MB: 61–64 -> 64–70 MB): ``engine.caveman.compress`` pauses for huge parts only
(``HEAP_REUSE_MIN``).

While a pause is active, ``mallopt`` sets ``M_MMAP_MAX`` to 0 and ``M_TRIM_THRESHOLD`` out of
reach; when the last one ends, both get glibc's defaults back and ``malloc_trim(0)`` returns
the free heap to the system. (Setting either turns off glibc's dynamic threshold for the rest
of the process: it keeps its default, 128 KB, as a process that never tuned it starts with.)
Elsewhere than glibc this is a no-op. Nested and concurrent pauses share one count, as
``engine.gcpause`` does (``engine.nestedswitch``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine.nestedswitch import NestedSwitch

_M_TRIM_THRESHOLD = -1
_M_MMAP_MAX = -4
_DEFAULT_TRIM_THRESHOLD = 128 * 1024
_DEFAULT_MMAP_MAX = 65536
_NEVER_TRIM = 2**31 - 1


def _load_libc() -> Any:
    """glibc's handle with ``mallopt`` and ``malloc_trim``, or None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # (here: ctypes and find_library's ldconfig cost ~5 ms of every CLI start)
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        libc.gnu_get_libc_version.restype = ctypes.c_char_p
        libc.gnu_get_libc_version()  # (only glibc has it: musl and others stay untouched)
    except (OSError, AttributeError):
        return None
    return libc


_UNLOADED: Any = object()
_libc: Any = _UNLOADED  # loaded on the first pause (only parts of 8 M characters up take one)


def _handle() -> Any:
    global _libc
    if _libc is _UNLOADED:
        _libc = _load_libc()  # (two threads may both load it: the same handle either way)
    return _libc


def _reuse_heap() -> None:
    assert _libc is not None
    _libc.mallopt(_M_MMAP_MAX, 0)
    _libc.mallopt(_M_TRIM_THRESHOLD, _NEVER_TRIM)


def _restore_defaults() -> None:
    assert _libc is not None
    _libc.mallopt(_M_MMAP_MAX, _DEFAULT_MMAP_MAX)
    _libc.mallopt(_M_TRIM_THRESHOLD, _DEFAULT_TRIM_THRESHOLD)
    _libc.malloc_trim(0)


_switch = NestedSwitch(_reuse_heap, _restore_defaults)


@contextmanager
def heap_reused(active: bool = True) -> Iterator[None]:
    """Within the block, big allocations come from the heap and freed memory stays there
    (``active=False``, or not glibc: a no-op)."""
    if not active or _handle() is None:
        yield
        return
    with _switch.held():
        yield
