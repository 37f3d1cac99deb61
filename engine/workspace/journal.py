"""Crash recovery: unsaved buffers journaled beside the settings, restored on the next start.

One JSON file per edited document, named by a hash of its path, rewritten atomically a moment
after each edit and deleted on save, revert or close-without-saving. A journal entry remembers
the SHA-256 of the file as it was loaded, so the restore prompt can say when the file on disk
has moved on since.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from engine.fsutil import atomic_write_text, max_input_bytes, read_input_bytes

FORMAT = 1


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class JournalEntry:
    path: str  # the document's file
    text: str  # the unsaved buffer
    base_sha256: str | None  # hash of the file's bytes when the buffer was loaded (None: new file)
    workspace: str | None = None
    written_at: float = 0.0
    format: int = FORMAT

    def disk_changed(self) -> bool:
        """Has the file on disk changed since the buffer was loaded?"""
        try:
            current = sha256_bytes(read_input_bytes(self.path))
        except OSError:
            return self.base_sha256 is not None
        return current != self.base_sha256


class RecoveryJournal:
    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)

    def _file_for(self, path: str | os.PathLike[str]) -> Path:
        digest = hashlib.sha256(os.fspath(path).encode("utf-8", "surrogatepass")).hexdigest()[:24]
        return self.folder / f"{digest}.json"

    def write(self, path: str | os.PathLike[str], text: str, base_sha256: str | None,
              workspace: str | os.PathLike[str] | None = None) -> Path:
        entry = JournalEntry(os.fspath(path), text, base_sha256,
                             os.fspath(workspace) if workspace else None, time.time())
        target = self._file_for(path)
        atomic_write_text(target, json.dumps(asdict(entry), ensure_ascii=True))
        return target

    def discard(self, path: str | os.PathLike[str]) -> bool:
        """Forget the entry for ``path``; True when there was one."""
        try:
            self._file_for(path).unlink()
        except FileNotFoundError:
            return False
        return True

    def entries(self, workspace: str | os.PathLike[str] | None = None) -> list[JournalEntry]:
        """Readable entries (for ``workspace`` only, when given), oldest first."""
        out: list[JournalEntry] = []
        if not self.folder.is_dir():
            return out
        wanted = os.fspath(workspace) if workspace else None
        for file in sorted(self.folder.glob("*.json")):
            try:
                # an entry holds a buffer of up to the input limit, ``\uXXXX``-escaped (≤ 6 bytes a char)
                raw = json.loads(read_input_bytes(file, max_bytes=8 * max_input_bytes()))
                entry = JournalEntry(**{k: raw[k] for k in ("path", "text", "base_sha256", "workspace",
                                                            "written_at", "format") if k in raw})
            except (OSError, ValueError, TypeError, KeyError, RecursionError):
                continue
            if entry.format != FORMAT:
                continue
            if wanted is not None and entry.workspace not in (None, wanted):
                continue
            out.append(entry)
        return sorted(out, key=lambda e: e.written_at)
