"""Atomic writes: the target is either the old or the new content, never half of one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.fsutil import atomic_write_bytes, atomic_write_text


def test_replaces_content_and_keeps_mode(tmp_path: Path) -> None:
    target = tmp_path / "filters.json"
    target.write_text("old")
    os.chmod(target, 0o640)
    atomic_write_text(target, "new ✓")
    assert target.read_text(encoding="utf-8") == "new ✓"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["filters.json"]


def test_failed_write_leaves_old_file_and_no_temp(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "pack.json"
    target.write_text("keep me")

    def explode(*_args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", explode)
    with pytest.raises(OSError):
        atomic_write_bytes(target, b"half")
    assert target.read_text() == "keep me"
    assert [p.name for p in tmp_path.iterdir()] == ["pack.json"]


def test_creates_missing_parent_folders(tmp_path: Path) -> None:
    target = tmp_path / ".rtk" / "trust.json"
    atomic_write_text(target, "{}")
    assert target.read_text() == "{}"
