"""What a workspace file holds, in words, for a question that would remove or rename it.

"Never drop a user's filter or rule without showing it first": before a file goes to the
trash, the question names its rules or filters (and their tests), read from the buffer the user
sees when the file is open, else from disk.
"""

from __future__ import annotations

from pathlib import Path

from engine.fsutil import read_input_bytes
from engine.workspace.items import ItemIndex
from engine.workspace.kinds import FileKind

NAMES_SHOWN = 12  # more are counted, not listed


def contents_summary(path: Path, kind: FileKind, text: str | None = None) -> str:
    """``2 rules: team_update_opener, team_as_discussed`` or ``1 filter (deploy-log) with 2
    tests``; for a file without items, its size; for one that cannot be read, why."""
    if text is None:
        try:
            text = read_input_bytes(path).decode("utf-8", errors="replace")
        except (OSError, ValueError) as exc:
            return f"it cannot be read ({getattr(exc, 'strerror', None) or exc})"
    if kind.has_items:
        index, parsed = ItemIndex.scan(kind, text)
        if index is not None:
            return _items(kind, index.values)
        if not parsed.ok:
            return f"{_size(text)} that is not valid JSON"
    return _size(text)


def _items(kind: FileKind, values: list[object]) -> str:
    noun = "rule" if kind is FileKind.CAVEMAN_PACK else "filter"
    key = "name" if kind is FileKind.CAVEMAN_PACK else "id"
    names = [str(v.get(key) or "(unnamed)") if isinstance(v, dict) else "(not an object)" for v in values]
    if not names:
        return f"no {noun}s"
    shown = ", ".join(names[:NAMES_SHOWN]) + (f", … ({len(names) - NAMES_SHOWN} more)" if len(names) > NAMES_SHOWN else "")
    words = f"{len(names)} {noun}{'s' if len(names) != 1 else ''}: {shown}"
    if kind is not FileKind.CAVEMAN_PACK:
        tests = sum(len(t) for v in values if isinstance(v, dict) and isinstance(t := v.get("tests"), list))
        words += f", with {tests} test{'s' if tests != 1 else ''}"
    return words


def _size(text: str) -> str:
    lines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    return f"{lines} line{'s' if lines != 1 else ''} of text"
