"""Fixtures for the preview panel tests: private config/data folders and a small temp workspace
(``tests.support.preview_samples``; nothing from ../shared)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import pytest

from tests.support.preview_samples import write_pack_root, write_preview_workspace


@pytest.fixture(autouse=True)
def private_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("RULEWRIGHT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture
def pack_root(tmp_path) -> Path:
    return write_pack_root(tmp_path / "packs")


@pytest.fixture
def workspace(tmp_path) -> Path:
    return write_preview_workspace(tmp_path / "ws")
