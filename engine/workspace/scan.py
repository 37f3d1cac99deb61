"""Find the files of a workspace and describe them for the explorer.

A workspace is any folder. Caveman packs are grouped by their ``language`` (falling back to the
folder name) and ``category``; RTK filter files are listed by name; ``.rtk/`` (project filters
and ``trust.json``) gets its own group because trust depends on it. Scanning reads each file
once with the C JSON parser (fast), never follows symlinked folders out of the workspace and
skips tool folders.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from engine.fsutil import InputRefused, read_input_bytes
from engine.workspace.kinds import FileKind, classify, items_of

SKIPPED_DIRS = {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".rulewright",
                "build", "dist"}
MAX_FILES = 5000


@dataclass
class FileEntry:
    path: Path
    kind: FileKind
    group: str  # "caveman" | "rtk" | "project" | "other"
    language: str = ""
    category: str = ""
    items: int = 0
    parse_error: str | None = None
    size: int = 0
    trust: str | None = None  # project filter files: trusted | changed | untrusted
    trust_detail: str = ""

    @property
    def name(self) -> str:
        return self.path.name


@dataclass
class WorkspaceIndex:
    root: Path
    files: list[FileEntry] = field(default_factory=list)
    truncated: bool = False

    def by_group(self, group: str) -> list[FileEntry]:
        return [f for f in self.files if f.group == group]

    def languages(self) -> dict[str, list[FileEntry]]:
        out: dict[str, list[FileEntry]] = {}
        for entry in self.by_group("caveman"):
            out.setdefault(entry.language or "?", []).append(entry)
        return dict(sorted(out.items()))

    def find(self, path: str | os.PathLike[str]) -> FileEntry | None:
        target = Path(path)
        return next((f for f in self.files if f.path == target), None)


def iter_candidate_files(root: Path) -> Iterator[Path]:
    for current, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and (not d.startswith(".") or d == ".rtk"))
        for name in sorted(files):
            if name.endswith((".json", ".toml")) and not name.startswith(("_", ".")):
                yield Path(current) / name


def describe(path: Path, text: str | None = None) -> FileEntry:
    """One explorer entry for ``path`` (``text`` overrides the disk, for unsaved buffers)."""
    size = 0
    error = None
    value = None
    parsed_ok = False
    if text is None:
        try:
            size = path.stat().st_size
            # the one bounded reader: a FIFO or device is refused unopened, never blocks the scan
            text = read_input_bytes(path).decode("utf-8", "replace")
        except OSError as exc:
            error = ("not scanned: " if isinstance(exc, InputRefused) else "") + (exc.strerror or str(exc))
    else:
        size = len(text)
    if text is not None and path.suffix == ".json":
        try:
            value = json.loads(text.lstrip("\ufeff")) if text.strip() else None
            parsed_ok = value is not None
            if not parsed_ok:
                error = "empty file"
        except ValueError as exc:
            error = str(exc)
        except RecursionError:
            error = "nesting too deep to parse"
    kind = classify(path, value, parsed_ok, text=text)
    entry = FileEntry(path, kind, _group(path, kind), parse_error=error, size=size)
    if kind == FileKind.CAVEMAN_PACK:
        lang = value.get("language") if isinstance(value, dict) else None
        cat = value.get("category") if isinstance(value, dict) else None
        entry.language = lang if isinstance(lang, str) and lang.strip() else path.parent.name
        entry.category = cat if isinstance(cat, str) and cat.strip() else path.stem
    if parsed_ok:
        entry.items = len(items_of(kind, value))
    return entry


def _group(path: Path, kind: FileKind) -> str:
    if path.parent.name == ".rtk":
        return "project"
    if kind == FileKind.CAVEMAN_PACK:
        return "caveman"
    if kind in (FileKind.RTK_FILTER, FileKind.RTK_FILTERS, FileKind.RTK_TOML):
        return "rtk"
    return "other"


def scan_workspace(root: str | os.PathLike[str]) -> WorkspaceIndex:
    root_path = Path(root)
    index = WorkspaceIndex(root_path)
    if not root_path.is_dir():
        return index
    for count, path in enumerate(iter_candidate_files(root_path)):
        if count >= MAX_FILES:
            index.truncated = True
            break
        index.files.append(describe(path))
    return index
