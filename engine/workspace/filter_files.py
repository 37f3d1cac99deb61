"""Which workspace files are RTK filter files, and where each filter sits in a JSON filter file."""

from __future__ import annotations

import json
from pathlib import Path

from engine.fsutil import read_input_bytes
from engine.workspace.kinds import FileKind, classify

FILTER_KINDS = (FileKind.RTK_FILTER, FileKind.RTK_FILTERS, FileKind.RTK_TOML)


def filter_files_of(root: Path, entries: list[tuple[Path, FileKind]] | None = None) -> list[Path]:
    """The workspace's RTK filter files (JSON filters, filter arrays, TOML), sorted by path.

    ``entries`` are (path, kind) pairs from a workspace scan; without them the folder is walked.
    """
    if entries is None:
        from engine.workspace.scan import scan_workspace

        entries = [(f.path, f.kind) for f in scan_workspace(root).files]
    # (a scan's kinds already know an rtk TOML file by its tables: ``kinds.classify(text=)``)
    return sorted(p for p, kind in entries if kind in FILTER_KINDS)


def own_filter_files(root: Path, entries: list[tuple[Path, FileKind]]) -> tuple[str, ...]:
    """The workspace's filter files outside ``.rtk/`` (the project's own are read from there), as
    the RTK preview has them compete: from a scan's (path, kind) entries."""
    rtk = root / ".rtk"
    return tuple(str(p) for p in filter_files_of(root, entries) if rtk not in p.parents)


def is_filter_file(path: Path) -> bool:
    """Whether ``path`` (on disk) is an RTK filter file the tests runner would read."""
    return classify_path(path) in FILTER_KINDS


def filter_pointers(value: object) -> dict[str, str]:
    """filter id -> JSON pointer of its object in a filter file (single object or array)."""
    if isinstance(value, dict):
        return {value["id"]: ""} if isinstance(value.get("id"), str) else {}
    if isinstance(value, list):
        return {v["id"]: f"/{i}" for i, v in enumerate(value) if isinstance(v, dict) and isinstance(v.get("id"), str)}
    return {}


def classify_path(path: Path) -> FileKind:
    """Kind of a file on disk, from one read (used to offer 'add test' only on filter files)."""
    try:
        data = read_input_bytes(path)
    except OSError:
        return classify(path, None, False)
    try:
        return classify(path, json.loads(data.decode("utf-8").lstrip("\ufeff")), True)
    except (ValueError, RecursionError):  # (not JSON: an rtk TOML file says so by its tables)
        return classify(path, None, False, text=data.decode("utf-8", "replace"))
