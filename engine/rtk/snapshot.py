"""One read of a project filter file, and which of the two formats it is.

Both the trust decision (``trust``) and the trust history (``trust_history``) work from these
snapshots, so they live below both: trust history can then be imported by trust without a cycle.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from engine.fsutil import read_input_bytes
from engine.rtk.hashing import decode_like_node, raw_sha256

Format = Literal["omniroute-json", "rtk-toml-v1"]


def format_of(filter_path: str | os.PathLike[str]) -> Format:
    return "rtk-toml-v1" if str(filter_path).lower().endswith(".toml") else "omniroute-json"


@dataclass(frozen=True)
class FileSnapshot:
    """One read of a filter file. The trust decision, the review shown, the filters applied and
    the hash written all come from these bytes, never from a second read (a file swapped in
    between would otherwise be applied or trusted unseen)."""

    path: Path
    data: bytes

    @property
    def format(self) -> Format:
        return format_of(self.path)

    @property
    def text(self) -> str:
        return decode_like_node(self.data)

    @property
    def sha256(self) -> str:
        return raw_sha256(self.data)


def snapshot_file(path: str | os.PathLike[str]) -> FileSnapshot:
    """Read ``path`` once (OSError as is)."""
    file = Path(path)
    return FileSnapshot(file, read_file_bytes(file))


def read_file_bytes(path: Path) -> bytes:
    """The one place trust reads a filter file's bytes: through the bounded reader (a FIFO,
    device or ``/dev/zero`` symlink is refused at once, more than the input limit is never read)."""
    return read_input_bytes(path)
