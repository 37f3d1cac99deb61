"""Files in and out: writes that never leave a half-written file behind, and the one bounded
reader every input path (files, project files, standard input, ``--jsonl`` lines) goes through."""

from __future__ import annotations

import errno
import glob
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


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


STALE_TEMP_SECONDS = 60.0  # a temp file this old is no save in progress: its writer died


def clean_stale_temps(path: str | os.PathLike[str], *, older_than: float = STALE_TEMP_SECONDS) -> list[Path]:
    """Delete the temp files ``atomic_write_bytes`` left beside ``path`` when a save was killed
    halfway (``.<name>.<random>.tmp``, regular files, older than ``older_than`` seconds so a save
    running right now in another process keeps its own). Returns what was removed."""
    import time

    target = Path(path)
    removed: list[Path] = []
    try:
        candidates = list(target.parent.glob(f".{glob.escape(target.name)}.*.tmp"))
    except OSError:
        return removed
    now = time.time()
    for candidate in candidates:
        try:
            info = candidate.lstat()
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > older_than:
                candidate.unlink()
                removed.append(candidate)
        except OSError:
            continue
    return removed


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    atomic_write_bytes(path, text.encode(encoding, "surrogatepass"))


# ------------------------------------------------------------------ bounded reads of user input

DEFAULT_MAX_MB = 16


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """``a`` and ``b`` name the same file (links and letter case as the file system has them);
    where one does not exist, their resolved paths are compared."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def max_input_bytes() -> int:
    """``RULEWRIGHT_MAX_FILE_MB`` (default 16) in bytes; a value that is not a positive number is ignored.

    Read on every call so one limit holds for every command, every ``--jsonl`` line and the IDE,
    and a test (or the IDE's settings) can change it without re-importing anything.
    """
    try:
        megabytes = float(os.environ.get("RULEWRIGHT_MAX_FILE_MB", DEFAULT_MAX_MB))
    except ValueError:
        megabytes = float(DEFAULT_MAX_MB)
    if not 0 < megabytes < float("inf"):
        megabytes = float(DEFAULT_MAX_MB)
    return max(1, int(megabytes * 1024 * 1024))


def limit_words(max_bytes: int) -> str:
    megabytes = max_bytes / 1048576
    shown = f"{megabytes:.0f}" if megabytes >= 1 and megabytes == int(megabytes) else f"{megabytes:.3g}"
    return f"Rulewright reads files up to {shown} MB (set RULEWRIGHT_MAX_FILE_MB to change)"


class InputRefused(OSError):
    """A file or stream Rulewright will not read: not a regular file, too large, a symlink loop.

    An ``OSError`` (``errno``, ``strerror``, ``filename`` set) so every ``except OSError`` that
    already turns a missing file into a diagnostic handles these too; ``code`` is the
    diagnostic code (``file-too-large``, ``not-regular-file``, ``symlink-loop``, ``io``).
    """

    def __init__(self, err: int, message: str, filename: str, code: str) -> None:
        super().__init__(err, message, filename)
        self.code = code


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def _refuse_mode(mode: int, shown: str) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise InputRefused(errno.EISDIR, "is a folder, not a file", shown, "io")
    raise InputRefused(errno.EINVAL, f"is {_kind(mode)}, not a regular file; Rulewright reads regular files only",
                       shown, "not-regular-file")


def _os_refusal(exc: OSError, shown: str) -> OSError:
    """A symlink loop said as such; any other error (``FileNotFoundError`` …) stays what it is."""
    if exc.errno == errno.ELOOP:
        return InputRefused(errno.ELOOP, "symlink loop (too many levels of symbolic links)", shown, "symlink-loop")
    return exc


def too_large(shown: str, max_bytes: int, size: int | None = None) -> InputRefused:
    what = f"{size / 1048576:.1f} MB" if size is not None else f"more than {max_bytes} bytes"
    return InputRefused(errno.EFBIG, f"input is {what}; {limit_words(max_bytes)}", shown, "file-too-large")


def read_input_bytes(path: str | os.PathLike[str], *, max_bytes: int | None = None) -> bytes:
    """The bytes of a regular file, at most ``max_bytes`` (default: ``max_input_bytes()``).

    Never blocks and never reads without bound: the path is ``stat``-ed first (a FIFO, device or
    socket is refused without being opened), opened with ``O_NONBLOCK`` (a FIFO swapped in
    after the check cannot hang the open) and checked again on the opened descriptor; then at
    most ``max_bytes + 1`` bytes are read, so a file that grows meanwhile is refused, not
    swallowed. Raises ``InputRefused`` (an ``OSError``) with a message fit for a diagnostic.
    """
    limit = max_input_bytes() if max_bytes is None else max_bytes
    shown = os.fspath(path)
    fd = _open_regular_fd(path, shown)
    try:
        with _said_as_refusal(shown):
            info = os.fstat(fd)
            _refuse_mode(info.st_mode, shown)
            if info.st_size > limit:
                raise too_large(shown, limit, info.st_size)
            data = _read_fd(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise too_large(shown, limit)
    return data


def _open_regular_fd(path: str | os.PathLike[str], shown: str) -> int:
    """A read-only descriptor of ``path``, refused unopened when it is not a regular file, and
    opened with ``O_NONBLOCK`` so a FIFO swapped in after the check cannot hang the open."""
    with _said_as_refusal(shown):
        _refuse_mode(os.stat(path).st_mode, shown)
        return os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                       | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


@contextmanager
def _said_as_refusal(shown: str) -> Iterator[None]:
    """An ``OSError`` that means a refusal (a symlink loop) raised as ``InputRefused``; any other
    (``FileNotFoundError`` …) passes through as it is."""
    try:
        yield
    except InputRefused:
        raise
    except OSError as exc:
        refusal = _os_refusal(exc, shown)
        if refusal is exc:
            raise
        raise refusal from None


def open_input_stream(path: str | os.PathLike[str]) -> BinaryIO:
    """A regular file opened for reading in bounded pieces (``iter_bounded_lines``): the same
    refusals as ``read_input_bytes``, for inputs read line by line instead of whole (a JSONL
    corpus larger than the per-file limit)."""
    shown = os.fspath(path)
    fd = _open_regular_fd(path, shown)
    try:
        _refuse_mode(os.fstat(fd).st_mode, shown)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _read_fd(fd: int, at_most: int) -> bytes:
    chunks: list[bytes] = []
    left = at_most
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_stream_bytes(stream: BinaryIO, shown: str = "<stdin>", *, max_bytes: int | None = None) -> bytes:
    """At most ``max_bytes`` from a binary stream (standard input); more is refused, not read on."""
    limit = max_input_bytes() if max_bytes is None else max_bytes
    chunks: list[bytes] = []
    left = limit + 1
    while left > 0:
        chunk = stream.read(min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    data = b"".join(chunks)
    if len(data) > limit:
        raise too_large(shown, limit)
    return data


def read_input_text(path: str | os.PathLike[str], *, errors: str = "strict", max_bytes: int | None = None) -> str:
    """``read_input_bytes`` decoded as UTF-8 (a BOM is kept: callers decide what it means)."""
    return read_input_bytes(path, max_bytes=max_bytes).decode("utf-8", errors)


def iter_bounded_lines(stream: BinaryIO, *, max_bytes: int | None = None) -> Iterator[bytes | InputRefused]:
    """Lines of a binary stream, each at most ``max_bytes``; a longer line yields an ``InputRefused``
    in its place and is skipped to its end in bounded pieces (the batch goes on)."""
    limit = max_input_bytes() if max_bytes is None else max_bytes
    number = 0
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit and not (len(line) == limit + 1 and line.endswith(b"\n")):
            while not line.endswith(b"\n"):
                line = stream.readline(1 << 20)
                if not line:
                    break
            yield too_large(f"<stdin>:{number}", limit)
            continue
        yield line


def missing_reason(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` cannot be found, in words (a symlink loop or a dangling symlink is said as
    such, not as "no such file"); None when it exists."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink loop (too many levels of symbolic links)"
        if os.path.islink(path):
            return f"dangling symlink (its target {os.readlink(path)!r} does not exist)"
        if exc.errno == errno.ENOENT:
            return "no such file or folder"
        return f"cannot read: {exc.strerror or exc}"
    return None
