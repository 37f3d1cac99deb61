"""The previews' and playgrounds' own inputs, kept across restarts and crashes.

A panel takes part by having ``scratch_key`` (its file's name), ``scratch_state()`` (its inputs
that are the user's own, as named strings; {} when it shows only a sample),
``restore_scratch(state)`` (an empty state: let go of the user's own input, back to a sample)
and a ``scratchChanged`` signal. The keeper reads the states a second after the last change
(reading a 1 MB input costs ~20 ms, so not on every keystroke) and writes them off the GUI
thread (``engine.workspace.scratch``); on close, and before another workspace opens, it writes
at once. The states of a workspace come back when it opens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Signal

from app.timers import single_shot
from app.workers import Dispatcher
from engine.workspace.scratch import ScratchStore

if TYPE_CHECKING:
    from pathlib import Path

SAVE_AFTER_MS = 1000


class ScratchPanel(Protocol):
    scratch_key: str
    scratchChanged: Any  # a Signal()

    def scratch_state(self) -> dict[str, str]: ...

    def restore_scratch(self, state: dict[str, str]) -> None: ...


class ScratchKeeper(QObject):
    failed = Signal(str)  # a state could not be written (the window says so)

    def __init__(self, store: ScratchStore | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store or ScratchStore()
        self.workspace: Path | None = None
        self._panels: list[ScratchPanel] = []
        self._seq = 0
        self._restoring = False
        self._timer = single_shot(self, SAVE_AFTER_MS, self._save_later)
        self._saver = Dispatcher(self)
        self._saver.failed.connect(lambda _job, message: self._failed(message))

    def add(self, panel: ScratchPanel) -> None:
        self._panels.append(panel)
        panel.scratchChanged.connect(self._changed)

    def _changed(self) -> None:
        if not self._restoring and self.workspace is not None:
            self._timer.start()

    @property
    def pending(self) -> bool:
        """A change not yet handed to the writer, or a write still running."""
        return self._timer.isActive() or self._saver.busy

    def _states(self) -> dict[str, dict[str, str]]:
        return {panel.scratch_key: panel.scratch_state() for panel in self._panels}

    def _save_later(self) -> None:
        if self.workspace is None:
            return
        self._seq += 1
        self._saver.request(self.store.write_all, str(self.workspace), self._states(), self._seq)

    def flush(self) -> None:
        """Write the current states now (closing, or another workspace opening)."""
        self._timer.stop()
        if self.workspace is None:
            return
        self._seq += 1
        try:
            self.store.write_all(str(self.workspace), self._states(), self._seq)
        except OSError as exc:
            self._failed(str(exc))

    def open(self, workspace: Path) -> None:
        """``workspace`` is the one now open: its panels' kept states come back. Coming from
        another workspace, a panel whose new workspace kept nothing lets go of the input it had
        there (``restore_scratch({})``): that input is kept with its own workspace, and shown
        here it looked like this one's."""
        switched = self.workspace is not None and self.workspace != workspace
        self.workspace = workspace
        self._restoring = True
        try:
            for panel in self._panels:
                state = self.store.read(str(workspace), panel.scratch_key)
                if state or switched:
                    panel.restore_scratch(state)
        finally:
            self._restoring = False

    def _failed(self, message: str) -> None:
        self.failed.emit(message.splitlines()[0] if message else "unknown error")
