"""One open file: its text, what it was on disk, and edits as splices.

The text is the single source of truth: the JSON view shows it, the visual editor reads the
parsed tree and writes back through :mod:`engine.jsonedit`. Every change is a
``Splice`` so the undo stack can store just the edited range (a 2 MB file does not get copied
per keystroke). Line endings are normalised to ``\\n`` in memory, as Qt shows them, and restored
on save; a BOM stays in the text and is written back.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from engine import jsontree
from engine.fsutil import atomic_write_bytes, clean_stale_temps, read_input_bytes
from engine.jsonedit import Splice
from engine.workspace.kinds import FileKind, classify


@dataclass(frozen=True)
class DiskState:
    """What the file looked like when we last read or wrote it."""

    sha256: str
    size: int
    mtime_ns: int

    @classmethod
    def of_bytes(cls, data: bytes, path: Path | None) -> DiskState:
        mtime = 0
        if path is not None:
            try:
                mtime = path.stat().st_mtime_ns
            except OSError:
                mtime = 0
        return cls(hashlib.sha256(data).hexdigest(), len(data), mtime)


def decode(data: bytes) -> tuple[str, str, bool]:
    """(text with ``\\n`` line ends, the file's newline, lossy) for raw file bytes."""
    try:
        text = data.decode("utf-8")
        lossy = False
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        lossy = True
    newline = "\r\n" if "\r\n" in text else "\n"
    if newline == "\r\n":
        text = text.replace("\r\n", "\n")
    return text, newline, lossy


def minimal_splice(old: str, new: str) -> Splice:
    """The smallest single splice turning ``old`` into ``new`` (common prefix/suffix trimmed)."""
    if old == new:
        return Splice(0, 0, "")
    limit = min(len(old), len(new))
    lo = 0
    # compare in chunks first: fast on big texts where the change is local
    step = 4096
    while lo + step <= limit and old[lo : lo + step] == new[lo : lo + step]:
        lo += step
    while lo < limit and old[lo] == new[lo]:
        lo += 1
    hi = 0
    max_hi = limit - lo
    while hi + step <= max_hi and old[len(old) - hi - step : len(old) - hi] == new[len(new) - hi - step : len(new) - hi]:
        hi += step
    while hi < max_hi and old[len(old) - hi - 1] == new[len(new) - hi - 1]:
        hi += 1
    return Splice(lo, len(old) - hi, new[lo : len(new) - hi])


def merged_splices(first: Splice, first_inverse: Splice, second: Splice, second_inverse: Splice,
                   current: str) -> tuple[Splice, Splice]:
    """(forward, inverse) of ``first`` followed by ``second``, given the text after both.

    Only the window the two splices touch is rebuilt and compared (on a 2 MB file a keystroke
    must not copy and compare megabytes); outside it the texts before and after are identical.
    """
    lo = min(first.start, second.start)
    hi_mid = max(first.start + len(first.insert), second.end)  # in the text between the two edits
    hi_now = hi_mid - (second.end - second.start) + len(second.insert)
    now = current[lo:hi_now]
    mid = Splice(second_inverse.start - lo, second_inverse.end - lo, second_inverse.insert).apply(now)
    before = Splice(first_inverse.start - lo, first_inverse.end - lo, first_inverse.insert).apply(mid)
    fwd = minimal_splice(before, now)
    inv = minimal_splice(now, before)
    return Splice(lo + fwd.start, lo + fwd.end, fwd.insert), Splice(lo + inv.start, lo + inv.end, inv.insert)


QUICK_PARSE_LIMIT = 512 * 1024


def quick_kind(path: Path, text: str) -> FileKind:
    """Classify by location, else by content with the C parser (only for texts up to 512 KB:
    the structure scan of big files refines the kind off the GUI thread)."""
    by_place = classify(path, None, False, text=text)
    if by_place in (FileKind.TRUST, FileKind.RTK_FILTERS, FileKind.RTK_TOML, FileKind.OTHER):
        return by_place
    if len(text) > QUICK_PARSE_LIMIT:
        return by_place
    try:
        value = json.loads(text.lstrip("\ufeff"))
    except ValueError:
        return by_place
    return classify(path, value, True)


class Document:
    def __init__(self, path: str | os.PathLike[str] | None, text: str = "", *, newline: str = "\n",
                 disk: DiskState | None = None, lossy: bool = False) -> None:
        self.path = Path(path) if path is not None else None
        self._text = ""
        self._astral = 0  # characters outside the BMP (two UTF-16 units each), kept per edit
        self.text = text
        self.newline = newline
        self.disk = disk
        self.lossy = lossy  # the file was not valid UTF-8: saving would change bytes we never showed
        self.version = 0
        self._parsed: tuple[int, jsontree.ParseResult] | None = None
        self._kind = classify(self.path or "untitled.json", None, False, text=text)

    # -- loading and saving -------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Document:
        p = Path(path)
        data = read_input_bytes(p)
        clean_stale_temps(p)  # what a save killed halfway left beside the file (the file itself is whole)
        text, newline, lossy = decode(data)
        doc = cls(p, text, newline=newline, disk=DiskState.of_bytes(data, p), lossy=lossy)
        doc._kind = quick_kind(p, text)
        return doc

    def encode(self, text: str | None = None) -> bytes:
        body = self.text if text is None else text
        if self.newline != "\n":
            body = body.replace("\n", self.newline)
        return body.encode("utf-8", "surrogatepass")

    def save(self, path: str | os.PathLike[str] | None = None) -> DiskState:
        """Write atomically (temp file + rename) and remember what is now on disk."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no file name")
        data = self.encode()
        clean_stale_temps(target)
        atomic_write_bytes(target, data)
        self.path = target
        self.disk = DiskState.of_bytes(data, target)
        self.lossy = False
        self.refresh_kind()
        return self.disk

    def moved_to(self, path: str | os.PathLike[str]) -> None:
        """The file was renamed on disk (its bytes unchanged): the document follows it."""
        self.path = Path(path)
        self.refresh_kind()

    def read_disk(self) -> tuple[str, DiskState] | None:
        """The file's current text and state, or None when it is gone/unreadable."""
        if self.path is None:
            return None
        try:
            data = read_input_bytes(self.path)
        except OSError:
            return None
        text, _newline, _lossy = decode(data)
        return text, DiskState.of_bytes(data, self.path)

    def changed_on_disk(self) -> bool:
        """True when the bytes on disk differ from what we loaded or saved (not just the mtime)."""
        # size and mtime alone miss ``cp -p`` / ``rsync -t`` (same size, mtime carried over): the
        # content hash decides, always
        if self.path is None or self.disk is None:
            return False
        try:
            return hashlib.sha256(read_input_bytes(self.path)).hexdigest() != self.disk.sha256
        except OSError:
            return True

    def reload(self) -> None:
        """Replace the text with the disk's (the caller has made sure nothing unsaved is lost)."""
        if self.path is None:
            return
        data = read_input_bytes(self.path)
        text, newline, lossy = decode(data)
        self.newline, self.lossy = newline, lossy
        self.disk = DiskState.of_bytes(data, self.path)
        self.set_text(text)

    def matches_disk(self) -> bool:
        return self.disk is not None and hashlib.sha256(self.encode()).hexdigest() == self.disk.sha256

    # -- editing ------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        return self._text

    @text.setter
    def text(self, text: str) -> None:
        self._text = text
        self._astral = jsontree.astral_count(text)

    def apply(self, splice: Splice) -> Splice:
        """Apply ``splice``; return its inverse (what undo applies)."""
        if not 0 <= splice.start <= splice.end <= len(self._text):
            raise ValueError(f"splice {splice.start}..{splice.end} outside a text of {len(self._text)}")
        inverse = splice.inverse(self._text)
        self._astral += jsontree.astral_count(splice.insert) - jsontree.astral_count(inverse.insert)
        self._text = splice.apply(self._text)
        self.version += 1
        return inverse

    # -- UTF-16 offsets (Qt's) without scanning a big text on every keystroke ----------------------
    def utf16_len(self) -> int:
        return len(self._text) + self._astral

    def cp_to_utf16(self, index: int) -> int:
        """UTF-16 offset of code-point ``index`` (``jsontree.cp_to_utf16`` of the text)."""
        if self._astral == 0:
            return len(range(len(self._text))[:index])
        return jsontree.cp_to_utf16(self._text, index)

    def utf16_to_cp(self, units: int) -> int:
        """Code-point index of UTF-16 offset ``units`` (``jsontree.utf16_to_cp`` of the text)."""
        if self._astral == 0:
            return max(0, min(units, len(self._text)))
        return jsontree.utf16_to_cp(self._text, units)

    def set_text(self, text: str) -> Splice:
        return self.apply(minimal_splice(self.text, text))

    # -- structure ----------------------------------------------------------------------------
    def parsed(self) -> jsontree.ParseResult:
        """Span tree of the current text (parsed on first request per version)."""
        if self._parsed is None or self._parsed[0] != self.version:
            self._parsed = (self.version, jsontree.parse(self.text))
        return self._parsed[1]

    def adopt_parse(self, version: int, result: jsontree.ParseResult) -> bool:
        """Accept a tree parsed elsewhere (a worker) if it is for the current text."""
        if version != self.version:
            return False
        self._parsed = (version, result)
        return True

    def has_parse(self) -> bool:
        return self._parsed is not None and self._parsed[0] == self.version

    @property
    def kind(self) -> FileKind:
        return self._kind

    def refresh_kind(self, result: jsontree.ParseResult | None = None) -> FileKind:
        """Re-classify from the path and (when valid) the parsed value; broken text keeps the kind."""
        path = self.path or Path("untitled.json")
        if result is None and path.suffix == ".json":
            result = jsontree.shallow_parse(self.text)  # C speed: values without a span tree
        if result is not None and result.ok:
            self._kind = classify(path, result.value, True)
        elif self._kind in (FileKind.JSON, FileKind.OTHER):
            self._kind = classify(path, None, False, text=self.text)  # (a TOML file typed into rtk's shape)
        return self._kind

    @property
    def display_name(self) -> str:
        return self.path.name if self.path else "untitled"
