"""A process-wide setting switched on for the outermost of nested or concurrent blocks.

``engine.gcpause`` (the cyclic collector) and ``engine.heapreuse`` (glibc's allocator) both
change a setting of the whole process for a stretch of batch work, and the IDE runs such work on
several threads at once: the setting must go on when the first block begins and back off only
when the last one ends, whatever their order. That count lives here once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class NestedSwitch:
    """``held()`` blocks share one count: ``switch_on`` runs as the first begins, ``switch_off``
    as the last ends (each under the lock, so an on/off pair never interleaves with another)."""

    def __init__(self, switch_on: Callable[[], None], switch_off: Callable[[], None]) -> None:
        self._switch_on = switch_on
        self._switch_off = switch_off
        self._lock = threading.Lock()
        self._depth = 0

    @property
    def depth(self) -> int:
        """How many blocks are inside now (0: the setting is off)."""
        return self._depth

    @contextmanager
    def held(self) -> Iterator[None]:
        with self._lock:
            if self._depth == 0:
                self._switch_on()
            self._depth += 1
        try:
            yield
        finally:
            with self._lock:
                self._depth -= 1
                if self._depth == 0:
                    self._switch_off()
