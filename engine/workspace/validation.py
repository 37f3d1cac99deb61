"""Diagnostics for editor buffers and whole workspaces, from the shared validator.

The IDE shows exactly what ``rulewright validate`` prints (``engine.validate``), run on the
unsaved text of open documents. Diagnostics without a line get one from the span tree, so every
entry in the panel can jump to its place. Trust verdicts come from ``engine.rtk.trust``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine import jsontree
from engine.diagnostics import Diagnostic, sort_key
from engine.fsutil import read_input_bytes

if TYPE_CHECKING:
    from engine.workspace.scan import WorkspaceIndex


def _fallback(path: Path, text: str) -> list[Diagnostic]:
    """JSON syntax only: shown beside the message when the shared validator itself fails."""
    if path.suffix != ".json":
        return []
    result = jsontree.parse(text)
    if result.error is None:
        return []
    line, column = jsontree.LineIndex(text).position(result.error.offset)
    return [Diagnostic(result.error.message, "error", "json-syntax", str(path), line, column, source="json")]


def validate_text(path: str | os.PathLike[str], text: str | None = None, *,
                  profile: str = "omniroute") -> list[Diagnostic]:
    """Diagnostics for ``path`` with ``text`` as its content (None: read the disk)."""
    p = Path(path)
    if text is None:
        try:
            text = read_input_bytes(p).decode("utf-8", "replace")
        except OSError as exc:
            return [Diagnostic(f"cannot read: {exc.strerror or exc}", "error", "io", str(p), 1, 1)]
    from engine.validate import validate_file

    try:
        found = validate_file(p, text=text, profile=profile)
    except ImportError:
        raise  # a broken installation, not a validator bug: it must not look like a result
    except Exception as exc:  # a validator bug must not take the editor down; say so instead
        return [*_fallback(p, text),
                Diagnostic(f"validator failed: {type(exc).__name__}: {exc}", "warning", "internal", str(p), 1, 1)]
    return [d if d.path else d.with_location(path=str(p)) for d in found]


def validate_many(paths: list[Path], buffers: Mapping[Path, str],
                  profile: str = "omniroute") -> dict[Path, list[Diagnostic]]:
    """Per-file diagnostics for a workspace; ``buffers`` (unsaved texts) win over the disk."""
    out: dict[Path, list[Diagnostic]] = {}
    for path in paths:
        out[path] = sorted(validate_text(path, buffers.get(path), profile=profile), key=sort_key)
    for path, text in buffers.items():
        if path not in out:
            out[path] = sorted(validate_text(path, text, profile=profile), key=sort_key)
    return out


@dataclass(frozen=True)
class TrustInfo:
    verdict: str  # trusted | changed | untrusted | n/a
    detail: str


def trust_of(path: str | os.PathLike[str], *, buffer_differs: bool = False) -> TrustInfo:
    """Trust verdict of a project filter file (``.rtk/filters.json|toml``) as OmniRoute decides it.

    ``buffer_differs``: the editor holds unsaved edits, so trust is already gone for what the
    user sees (the reference would notice only on reload; verify-trust §4.4 asks to show it now).
    """
    p = Path(path)
    if p.parent.name != ".rtk" or p.name not in ("filters.json", "filters.toml"):
        return TrustInfo("n/a", "only project filter files (.rtk/filters.json|toml) need trust")
    from engine.rtk.trust import decide_trust, snapshot_file
    from engine.rtk.trust_history import keep_verified_copy

    try:
        snap = snapshot_file(p)
    except OSError:
        snap = None  # (decide_trust reads it again and says it is unreadable)
    try:
        decision = decide_trust(p, environ={}, data=None if snap is None else snap.data)
    except Exception as exc:
        return TrustInfo("untrusted", f"trust check failed: {exc}")
    verdict = decision.verdict
    if snap is not None:
        keep_verified_copy(snap, decision.stored, verdict)  # (what an edit will be compared with)
    detail = decision.message or "hash matches .rtk/trust.json"
    if buffer_differs and verdict == "trusted":
        return TrustInfo("changed", "unsaved edits: the saved file is trusted, your version is not yet")
    return TrustInfo(verdict, f"{detail} ({decision.reason})")


def validate_version(version: int, path: str, text: str, profile: str = "omniroute") -> tuple[int, list[Diagnostic]]:
    """Helper-process job for an editor buffer: its diagnostics, tagged with the buffer version."""
    return version, validate_text(path, text, profile=profile)


def scan_and_validate(root: Path, buffers: Mapping[Path, str],
                      profile: str = "omniroute") -> tuple[WorkspaceIndex, dict[Path, list[Diagnostic]]]:
    """Helper-process job for a workspace: the explorer index and every file's diagnostics."""
    from engine.fsutil import max_input_bytes
    from engine.workspace.scan import scan_workspace

    index = scan_workspace(root)
    for entry in index.files:
        if entry.group == "project" and entry.path.name in ("filters.json", "filters.toml"):
            info = trust_of(entry.path, buffer_differs=entry.path in buffers)
            entry.trust, entry.trust_detail = info.verdict, info.detail
    paths = [f.path for f in index.files if f.size <= max_input_bytes()]
    return index, validate_many(paths, buffers, profile=profile)
