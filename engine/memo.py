"""The engine's memo caches, all in one registry: ``clear()`` empties every one of them.

Every memo of the engine is made here, so none is forgotten when caches must be emptied (a test
that wants a cold start, a long-lived IDE dropping what it no longer needs) and the rules for
using them from several threads are stated once:

- ``lru(maxsize)`` decorates a pure function of hashable arguments (``functools.lru_cache``,
  registered under the function's dotted name).
- ``MemoDict(name, maxsize)`` is a bounded dict for what a decorator cannot key: entries
  checked by identity (``id(text)`` with the object kept in the value), entries stamped with a
  file state, running statistics. It reads and stores like a dict (``d.get(k)``, ``d[k] = v``);
  when full, storing a new key evicts the oldest entry.
- ``register(name, clear, size)`` adds a memo of another shape (an object with its own table).

Thread-safety. The IDE runs the engine on pool threads (highlighting, parsing, previews,
playgrounds) beside the GUI thread, so every memo may be used by several threads at once:

- ``lru``: the C implementation of ``lru_cache`` keeps its table consistent under concurrent
  calls. Two threads that miss the same key at once may both run the function; memoised
  functions are pure, so both get equal results and either may be kept.
- ``MemoDict``: a lookup is a single dict read. Storing, evicting and clearing take the memo's
  lock, so two threads never evict the same entry (the ``KeyError`` an unlocked
  ``pop(next(iter(d)))`` risks) nor grow the table past its bound. A value is shared by every
  thread that finds it: store immutable values, or values whose in-place updates may race
  harmlessly (a statistic where any recent figure will do).
- ``clear()`` empties each memo in turn; a call running meanwhile may recompute what it needs.
  Nothing else is promised: a memo is only ever a shortcut to a value the engine can compute.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
T = TypeVar("T")


@dataclass(frozen=True)
class Registered:
    """One memo in the registry: how to empty it and how many entries it holds."""

    name: str
    clear: Callable[[], None]
    size: Callable[[], int]


_REGISTRY: dict[str, Registered] = {}
_REGISTRY_LOCK = threading.Lock()


def register(name: str, clear: Callable[[], None], size: Callable[[], int]) -> None:
    """Add a memo under ``name`` (a module re-imported by a test replaces its old entry)."""
    with _REGISTRY_LOCK:
        _REGISTRY[name] = Registered(name, clear, size)


def registered() -> list[Registered]:
    """Every registered memo, in registration order."""
    with _REGISTRY_LOCK:
        return list(_REGISTRY.values())


def sizes() -> dict[str, int]:
    """Entries held by each memo, by name."""
    return {entry.name: entry.size() for entry in registered()}


def clear() -> None:
    """Empty every registered memo."""
    for entry in registered():
        entry.clear()


#: The bound of the memos kept per regex pattern (its translation, compiled form, facts, plan and
#: FastRegex): a pack's patterns stay compiled from one run to the next only while they all fit.
#: At 1,024–4,096 a pack of 5,000 rules missed every one of them on every preview (an LRU cycled
#: by more keys than it holds keeps none): 2 s a keystroke, against 0.13–0.19 s once they fit.
#: A pattern's entries take ~9 KB, so a full set is ~150 MB at most; a pack's rules are what fills it.
PATTERN_MEMO_SIZE = 16_384


def lru(maxsize: int | None = 128) -> Callable[[Callable[..., T]], functools._lru_cache_wrapper[T]]:
    """``functools.lru_cache(maxsize)`` for a pure function, registered under its dotted name
    (``maxsize=None``: unbounded, for functions of a small fixed domain such as data tables)."""

    def decorate(fn: Callable[..., T]) -> functools._lru_cache_wrapper[T]:
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        register(f"{fn.__module__}.{fn.__qualname__}", cached.cache_clear, lambda: cached.cache_info().currsize)
        return cached

    return decorate


class MemoDict(Generic[K, V]):
    """A bounded dict with a lock, registered under ``name`` (see the module docstring)."""

    __slots__ = ("_data", "_lock", "maxsize", "name")

    def __init__(self, name: str, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"memo {name!r}: maxsize must be at least 1, not {maxsize}")
        self.name = name
        self.maxsize = maxsize
        self._data: dict[K, V] = {}
        self._lock = threading.Lock()
        register(name, self.clear, self.__len__)

    @overload
    def get(self, key: K) -> V | None: ...

    @overload
    def get(self, key: K, default: V) -> V: ...

    def get(self, key: K, default: V | None = None) -> V | None:
        """The value stored for ``key``, else ``default`` (None: so None itself is never stored)."""
        return self._data.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __setitem__(self, key: K, value: V) -> None:
        self.put(key, value)

    def put(self, key: K, value: V) -> V:
        """Store ``value`` for ``key`` (evicting the oldest entries when full); returns ``value``."""
        with self._lock:
            self._store(key, value)
        return value

    def setdefault(self, key: K, value: V) -> V:
        """The value stored for ``key``; when there is none, ``value``, stored."""
        found = self._data.get(key)
        if found is not None:
            return found
        with self._lock:
            found = self._data.get(key)
            if found is None:
                self._store(key, value)
                found = value
        return found

    def _store(self, key: K, value: V) -> None:
        data = self._data  # the caller holds the lock
        if key not in data:
            while len(data) >= self.maxsize:
                del data[next(iter(data))]
        data[key] = value

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __repr__(self) -> str:
        return f"MemoDict({self.name!r}, {len(self._data)}/{self.maxsize})"
