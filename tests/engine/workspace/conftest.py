"""Fixtures for the workspace view-model tests: the preview samples' pack folder and workspace
(``tests.support.preview_samples``), written to the test's temp folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.preview_samples import write_pack_root, write_preview_workspace


@pytest.fixture
def pack_root(tmp_path) -> Path:
    return write_pack_root(tmp_path / "packs")


@pytest.fixture
def workspace(tmp_path) -> Path:
    return write_preview_workspace(tmp_path / "ws")
