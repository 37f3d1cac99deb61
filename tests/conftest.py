"""Every test keeps Rulewright's per-user folders (settings, journal, trust snapshots) in its tmp_path."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_user_folders(tmp_path_factory, monkeypatch):
    base = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("RULEWRIGHT_DATA_DIR", str(base / "data"))
    monkeypatch.setenv("RULEWRIGHT_CONFIG_DIR", str(base / "config"))
