"""The trusted version of a project filter file beside the bytes under review, for a reviewer who
wants to read the change itself rather than its summary (the Trust panel's Compare)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from engine.rtk.snapshot import FileSnapshot
    from engine.rtk.trust_history import TrustedContent
    from engine.workspace.panel_models.trust_panel import TrustFileView


class LaidOut(NamedTuple):
    trusted: str
    now: str


@dataclass(frozen=True)
class TrustedVersusNow:
    """One file's trusted bytes (left) and the bytes now on disk (right), both as reviewed. Made
    from what the review read (nothing decoded until asked: the panel asks whether there is one
    on every change of its buttons)."""

    name: str
    found: TrustedContent
    snapshot: FileSnapshot

    @cached_property
    def trusted(self) -> str:
        return self.found.text

    @cached_property
    def now(self) -> str:
        return self.snapshot.text

    @property
    def origin(self) -> str:  # where the trusted bytes were found: git | snapshot
        return self.found.origin

    @property
    def detail(self) -> str:  # which commit, or which snapshot file
        return self.found.detail

    def formatted(self) -> LaidOut | None:
        """Both sides laid out alike (JSON, two-space indent, keys in their order, repeated keys
        kept): a re-indented or minified file then shows only what changed. None when either
        side is not JSON (a TOML file, or a broken one: compare it as it is)."""
        trusted, now = formatted_json(self.trusted), formatted_json(self.now)
        if trusted is None or now is None:
            return None
        return LaidOut(trusted, now)


def trusted_versus_now(f: TrustFileView) -> TrustedVersusNow | None:
    """The comparison for a file that changed after trust and whose trusted bytes were found."""
    since, snap = f.since_trust, f.snapshot
    if since is None or snap is None or since.found is None:
        return None
    return TrustedVersusNow(Path(f.path).name, since.found, snap)


def compare_refusal(present: list[TrustFileView], path: str | None = None) -> str | None:
    """Why there is nothing to compare among the project filter files read (``path``: only that
    one), or None when one of them has a trusted version to set beside it."""
    chosen = [f for f in present if path is None or f.path == path]
    if any(trusted_versus_now(f) is not None for f in chosen):
        return None
    if chosen:
        return "; ".join(why_not_comparable(f) for f in chosen)
    if path is not None:
        return f".rtk/{Path(path).name} does not exist"
    return "this workspace has no .rtk/filters.json or .rtk/filters.toml"


def why_not_comparable(f: TrustFileView) -> str:
    """Why a present file has no trusted version to set beside it."""
    if f.verdict == "trusted":
        return f"{Path(f.path).name} is unchanged since it was trusted"
    if f.verdict == "changed":
        return (f"the trusted version of {Path(f.path).name} was not found (not in the project's git history, "
                "no snapshot in Rulewright's data folder)")
    return f"{Path(f.path).name} was never trusted: there is no trusted version to compare with"


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as its key/value pairs, in order, repeats included (``json`` keeps only the
    last of a repeated key: the one that runs, but the reviewer should see both)."""


def formatted_json(text: str) -> str | None:
    try:
        value = json.loads(text, object_pairs_hook=_Pairs)
    except ValueError:
        return None
    lines: list[str] = []
    _emit(value, 0, "", lines, last=True)
    return "\n".join(lines) + "\n"


def _emit(value: Any, depth: int, head: str, lines: list[str], *, last: bool) -> None:
    pad, comma = "  " * depth, "" if last else ","
    if isinstance(value, _Pairs) and value:
        lines.append(f"{pad}{head}{{")
        for i, (key, item) in enumerate(value):
            _emit(item, depth + 1, json.dumps(key, ensure_ascii=False) + ": ", lines, last=i == len(value) - 1)
        lines.append(f"{pad}}}{comma}")
    elif isinstance(value, list) and not isinstance(value, _Pairs) and value:
        lines.append(f"{pad}{head}[")
        for i, item in enumerate(value):
            _emit(item, depth + 1, "", lines, last=i == len(value) - 1)
        lines.append(f"{pad}]{comma}")
    else:
        empty = "{}" if isinstance(value, _Pairs) else "[]" if isinstance(value, list) else None
        lines.append(f"{pad}{head}{empty or json.dumps(value, ensure_ascii=False)}{comma}")


def filter_place(text: str, filter_id: str) -> tuple[int, int] | None:
    """1-based (line, column) of the filter ``filter_id`` in a filter file's text: in JSON (an
    array of filters, or one filter object) the first object with that ``id``; in RTK TOML v1 its
    first ``[filters.ID]`` header. None when it is not there or the text reads as neither."""
    from engine.jsontree import LineIndex, parse

    parsed = parse(text)
    if parsed.ok and parsed.root is not None:
        root = parsed.root
        for node in root.items if root.kind == "array" else [root]:
            id_node = node.child("id") if node.kind == "object" else None
            if id_node is not None and id_node.value == filter_id:
                return LineIndex(text).position(node.start)
        return None
    return _toml_place(text, filter_id)


def _toml_place(text: str, filter_id: str) -> tuple[int, int] | None:
    from engine.jsontree import LineIndex
    from engine.rtk.toml_spans import SpanError, split

    try:
        spans = split(text).spans
    except SpanError:
        return None
    header = next((s.header for s in spans if s.kind == "filter" and s.owner == filter_id), None)
    return None if header is None else LineIndex(text).position(header)
