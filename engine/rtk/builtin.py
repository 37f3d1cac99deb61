"""The built-in filters of a folder, loaded once per process and reloaded when a file changes.

Shared by the CLI (a ``--jsonl`` batch loads them once) and the IDE's previews.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from engine import memo

if TYPE_CHECKING:
    from engine.diagnostics import Diagnostic
    from engine.rtk.model import RtkFilter

_BUILTIN_CACHE: memo.MemoDict[tuple[str, str], tuple[float, list[RtkFilter], list[Diagnostic]]] = memo.MemoDict(
    f"{__name__}._BUILTIN_CACHE", 16)  # (folder, profile) → (stamp, filters, diagnostics)


def load_builtin(folder: str | os.PathLike[str], profile: str) -> tuple[list[RtkFilter], list[Diagnostic]]:
    """Built-in filters of a folder, cached per process (a batch loads them once)."""
    from engine.rtk.model import load_filter_dir

    key = (str(folder), profile)
    try:
        stamp = max((p.stat().st_mtime for p in Path(folder).glob("*.json")), default=0.0)
    except OSError:
        stamp = -1.0
    cached = _BUILTIN_CACHE.get(key)
    if cached is not None and cached[0] == stamp:
        return cached[1], cached[2]
    filters, diagnostics = load_filter_dir(folder, profile=profile, source="builtin")
    _BUILTIN_CACHE[key] = (stamp, filters, diagnostics)
    return filters, diagnostics
