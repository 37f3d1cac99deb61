"""File writes that never leave a half-written file behind."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to a temp file beside ``path``, fsync it, then rename over ``path``."""
    target = Path(path)
    if target.exists() and not target.is_file():
        # os.replace would swap a device or pipe (e.g. /dev/null, as root) for a regular file
        raise OSError(errno.EINVAL, "not a regular file (a folder, device or pipe); refusing to replace it",
                      str(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    atomic_write_bytes(path, text.encode(encoding, "surrogatepass"))
