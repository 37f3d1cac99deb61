"""The example workspace: copied once from the bundle to the user's data folder, then theirs."""

from __future__ import annotations

import shutil
from pathlib import Path

from engine.paths import example_workspace_dir
from engine.workspace.settings import data_dir


def user_example_workspace() -> Path:
    return data_dir() / "example-workspace"


def ensure_example_workspace(source: Path | None = None) -> Path:
    """Return the user's copy, creating it on first run.

    A missing or empty bundled example still yields an (empty) folder, so the app always has a
    workspace to open; the explorer then says how to add files.
    """
    target = user_example_workspace()
    if target.is_dir() and any(target.iterdir()):
        return target
    src = source if source is not None else example_workspace_dir()
    target.mkdir(parents=True, exist_ok=True)
    if src.is_dir():
        for item in src.iterdir():
            dest = target / item.name
            if item.is_dir():
                shutil.copytree(item, dest, dirs_exist_ok=True)
            else:
                shutil.copy2(item, dest)
    return target
