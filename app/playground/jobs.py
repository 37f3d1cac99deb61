"""Where a panel's computation runs: a worker normally, the GUI thread in docs mode.

Docs mode (``rulewright gui --screenshot``) grabs the window once the workspace settles; running
the playgrounds inline there makes each screenshot show a finished, deterministic result and
leaves no pool thread alive when the process exits.
"""

from __future__ import annotations

import itertools
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.workers import Dispatcher

_inline_ids = itertools.count(1_000_000_000)


class PanelJobs(QObject):
    """``Dispatcher``'s interface (``request``, ``finished``, ``failed``, ``busy``), inline when ``inline``."""

    finished = Signal(int, object)
    failed = Signal(int, str)
    # 1 when a job starts, 0 when none is left. Not Dispatcher.busyChanged(bool): slots fed a
    # Python bool by a queued Qt signal crashed the interpreter at exit (see the report).
    activity = Signal(int)

    def __init__(self, parent: QObject, *, debounce_ms: int = 0, inline: bool = False) -> None:
        super().__init__(parent)
        self.inline = inline
        self._latest = 0  # the newest request, whichever path ran it: older answers are dropped
        self.dispatcher = Dispatcher(self, debounce_ms=debounce_ms)
        self.dispatcher.finished.connect(self._relay_finished)
        self.dispatcher.failed.connect(self._relay_failed)

    def _relay_finished(self, job: int, result: object) -> None:
        if job == self._latest:
            self.finished.emit(job, result)
        self._settled()

    def _relay_failed(self, job: int, message: str) -> None:
        if job == self._latest:
            self.failed.emit(job, message)
        self._settled()

    def _settled(self) -> None:
        if not self.dispatcher.busy:
            self.activity.emit(0)

    @property
    def busy(self) -> bool:
        return self.dispatcher.busy

    def request(self, fn: Callable[..., Any], *args: Any, immediate: bool = False) -> int:
        if not self.inline:
            self.activity.emit(1)
            self._latest = self.dispatcher.request(fn, *args, immediate=immediate)
            return self._latest
        job = self._latest = next(_inline_ids)
        try:
            result = fn(*args)
        except Exception as exc:  # shown in the panel, as a worker failure would be
            self.failed.emit(job, f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}")
        else:
            self.finished.emit(job, result)
        return job

    def cancel_pending(self) -> None:
        self.dispatcher.cancel_pending()


def docs_mode(window: Any) -> bool:
    return bool(getattr(window, "docs_mode", False))
