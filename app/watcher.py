"""watchdog → Qt: file-system events arrive as signals in the GUI thread.

``WatchBridge`` must list ``QObject`` *first* among its bases, or Shiboken aborts with "You
can't initialize a QObject object twice" (IDE-Q6, as Spyder's ``WorkspaceEventHandler``). Events
come from watchdog's thread; emitting a signal queues them to the GUI thread. Atomic saves by
other editors arrive as ``moved`` with ``dest_path`` = our file, not as ``modified`` (IDE-Q5), so
every event kind reports the paths it touches. A short per-path throttle folds the burst of
events one save produces into one ``changed``.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from app.timers import single_shot


class WatchBridge(QObject, FileSystemEventHandler):  # QObject first: IDE-Q6
    raw = Signal(str, str)  # kind, path — emitted from the watchdog thread

    def __init__(self) -> None:
        QObject.__init__(self)
        FileSystemEventHandler.__init__(self)

    def on_any_event(self, event: FileSystemEvent) -> None:  # watchdog thread
        if event.event_type in ("opened", "closed", "closed_no_write"):
            return
        src = os.fsdecode(event.src_path)
        if event.event_type == "moved":
            # IDE-Q5: an atomic save is "temp file moved onto the target"
            self.raw.emit("moved-from", src)
            self.raw.emit("moved-to", os.fsdecode(getattr(event, "dest_path", "") or ""))
            return
        self.raw.emit(event.event_type, src)


class WorkspaceWatcher(QObject):
    """Watches a workspace folder; emits ``fileChanged(path)`` / ``fileRemoved(path)`` and
    ``treeChanged()`` (something was added, removed or renamed), throttled per path."""

    fileChanged = Signal(str)
    fileRemoved = Signal(str)
    treeChanged = Signal()

    def __init__(self, parent: QObject | None = None, *, throttle_ms: int = 150, polling: bool = False) -> None:
        super().__init__(parent)
        self._bridge = WatchBridge()
        self._bridge.raw.connect(self._on_raw)
        self._observer: BaseObserver | None = None
        self._root: Path | None = None
        self._polling = polling
        self._pending: dict[str, str] = {}
        self._tree_dirty = False
        self._timer = single_shot(self, throttle_ms, self._flush)

    @property
    def root(self) -> Path | None:
        return self._root

    def watch(self, root: str | os.PathLike[str]) -> None:
        self.stop()
        self._root = Path(root)
        if not self._root.is_dir():
            return
        observer: BaseObserver = PollingObserver(timeout=0.5) if self._polling else Observer()
        self._observer = observer
        observer.schedule(self._bridge, str(self._root), recursive=True)
        observer.daemon = True
        try:
            observer.start()
        except OSError:  # inotify limits reached: fall back to polling
            observer = self._observer = PollingObserver(timeout=1.0)
            observer.schedule(self._bridge, str(self._root), recursive=True)
            observer.daemon = True
            observer.start()

    def stop(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=2)
            self._observer = None

    @staticmethod
    def _relevant(path: str) -> bool:
        name = os.path.basename(path)
        if not name.endswith((".json", ".toml")) or name.startswith("."):
            return False
        parts = Path(path).parts
        return not any(p in (".git", "node_modules", "__pycache__", ".venv") for p in parts)

    @Slot(str, str)
    def _on_raw(self, kind: str, path: str) -> None:
        if not path:
            return
        if not self._relevant(path):
            return
        if kind in ("created", "deleted", "moved-from", "moved-to"):
            self._tree_dirty = True
        if kind in ("deleted", "moved-from"):
            self._pending[path] = "removed"
        else:  # modified, created, moved-to
            self._pending[path] = "changed"
        self._timer.start()

    @Slot()
    def _flush(self) -> None:
        pending, self._pending = self._pending, {}
        for path, what in pending.items():
            if what == "removed" and not os.path.exists(path):
                self.fileRemoved.emit(path)
            else:
                self.fileChanged.emit(path)
        if self._tree_dirty:
            self._tree_dirty = False
            self.treeChanged.emit()
