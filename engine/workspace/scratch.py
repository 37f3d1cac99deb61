"""What the previews and playgrounds were given, kept per workspace across restarts and crashes.

An author pastes a command's output into the RTK preview, or a request into a playground, and
edits a filter against it for an hour; closing the IDE (or a crash) used to lose that input.
Each panel's own input (``state``: named strings, no sample it merely shows) is one JSON file
per workspace and panel beside the recovery journal, rewritten atomically a moment after an
edit and removed when the panel has nothing of the user's own. Writes are sequenced: a slower
background write never replaces a newer one (the window writes synchronously on close).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path

from engine.fsutil import atomic_write_text, max_input_bytes, read_input_bytes
from engine.paths import data_dir

FORMAT = 1


def scratch_dir() -> Path:
    return data_dir() / "scratch"


class ScratchStore:
    """Panel inputs by (workspace, panel key); ``write_all`` may run on a worker thread."""

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = Path(folder) if folder is not None else scratch_dir()
        self._lock = threading.Lock()
        self._written: dict[Path, str] = {}  # what each file was last written with (no rewrite of the same)
        self._last_seq = -1

    def _file_for(self, workspace: str | os.PathLike[str], key: str) -> Path:
        digest = hashlib.sha256(os.fspath(workspace).encode("utf-8", "surrogatepass")).hexdigest()[:16]
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in key)
        return self.folder / f"{digest}-{safe}.json"

    def read(self, workspace: str | os.PathLike[str], key: str) -> dict[str, str]:
        """The state kept for ``key`` in ``workspace`` ({} when none, or unreadable)."""
        file = self._file_for(workspace, key)
        try:
            # (a state holds inputs of up to the input limit each, and JSON escapes a character in 6 bytes at most)
            raw = json.loads(read_input_bytes(file, max_bytes=8 * max_input_bytes()))
        except (OSError, ValueError, RecursionError):
            return {}
        if not isinstance(raw, dict) or raw.get("format") != FORMAT or raw.get("workspace") != os.fspath(workspace):
            return {}
        state = raw.get("state")
        if not isinstance(state, dict):
            return {}
        return {k: v for k, v in state.items() if isinstance(k, str) and isinstance(v, str)}

    def write_all(self, workspace: str | os.PathLike[str], states: Mapping[str, Mapping[str, str]],
                  seq: int = 0) -> None:
        """Keep each panel's state (an empty one removes its file). A call with an older ``seq``
        than one already written does nothing."""
        with self._lock:
            if seq < self._last_seq:
                return
            self._last_seq = seq
            for key, state in states.items():
                self._write(workspace, key, state)

    def _write(self, workspace: str | os.PathLike[str], key: str, state: Mapping[str, str]) -> None:
        file = self._file_for(workspace, key)
        if not state:
            if self._written.pop(file, None) is not None or file.exists():
                file.unlink(missing_ok=True)
            return
        body = json.dumps({"format": FORMAT, "workspace": os.fspath(workspace), "panel": key,
                           "state": dict(state)}, ensure_ascii=True, sort_keys=True)
        if self._written.get(file) == body:
            return
        atomic_write_text(file, body)
        self._written[file] = body
