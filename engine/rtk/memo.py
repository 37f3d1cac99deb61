"""Answers a live preview can reuse between runs on the same output text.

The IDE's RTK preview reruns the whole engine on every Refresh, intensity or profile change and
on every edit of the open filter, usually on an unchanged output. Two pure, text-wide steps
dominate that run on a large log: command-type detection and the filter choice's whole-text
``match.patterns`` searches (one per pattern of every candidate filter). A ``RunMemo`` remembers
their answers for one subject text at a time; a run on a different text starts it afresh.

Nothing else is remembered, so results are exactly those of a run without a memo: detection is a
function of (text, command, profile) alone, and a search's yes/no of (pattern source, flags,
text). A search that ran out of time is not remembered (its warning must be reported again).
The memo is used only when installed with :func:`using_memo` (the CLI never does).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_ACTIVE: ContextVar[RunMemo | None] = ContextVar("rtk_run_memo", default=None)


class RunMemo:
    """Detections and whole-text search answers for the last subject text."""

    def __init__(self) -> None:
        self._subject: str | None = None
        self._detections: dict[tuple[str | None, str], Any] = {}
        self._searches: dict[tuple[str, str], bool] = {}
        self.hits = 0
        self._lock = threading.Lock()  # preview workers may overlap (a newer run starts before an older ends)

    def clear(self) -> None:
        """Forget the subject and every answer (``engine.memo.clear`` calls it)."""
        with self._lock:
            self._subject = None
            self._detections = {}
            self._searches = {}

    def __len__(self) -> int:
        return len(self._detections) + len(self._searches)

    def _for(self, subject: str) -> None:
        if self._subject is not subject and self._subject != subject:
            self._subject = subject
            self._detections = {}
            self._searches = {}

    def detection(self, text: str, command: str | None, profile: str, compute: Callable[[], Any]) -> Any:
        key = (command, profile)
        with self._lock:
            self._for(text)
            found = self._detections.get(key)
            if found is not None:
                self.hits += 1
                return copy.deepcopy(found)
        detection = compute()
        with self._lock:
            self._for(text)
            self._detections[key] = copy.deepcopy(detection)
        return detection

    def search(self, subject: str, source: str, flags: str) -> bool | None:
        """The remembered answer, or ``None`` when this search has not run on ``subject``."""
        with self._lock:
            if self._subject is not subject and self._subject != subject:
                return None
            found = self._searches.get((source, flags))
            if found is not None:
                self.hits += 1
            return found

    def remember(self, subject: str, source: str, flags: str, found: bool) -> None:
        with self._lock:
            self._for(subject)
            self._searches[(source, flags)] = found


def active_memo() -> RunMemo | None:
    return _ACTIVE.get()


@contextmanager
def using_memo(memo: RunMemo | None) -> Iterator[RunMemo | None]:
    """Install ``memo`` for the engine runs inside the block (in this thread/context only)."""
    token = _ACTIVE.set(memo)
    try:
        yield memo
    finally:
        _ACTIVE.reset(token)
