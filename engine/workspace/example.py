"""The example workspace: copied once from the bundle to the user's data folder, then theirs."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from engine.paths import data_dir, example_workspace_dir


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
    _remember_bundled_trust(target)
    return target


def _remember_bundled_trust(workspace: Path) -> None:
    """Keep the example's project filter files as trust snapshots, as trusting them here would:
    its ``trust.json`` was written when the bundle was made, so without them a reviewer who edits
    a trusted filter is shown the whole risk summary instead of what changed since trust (a
    snapshot is only ever used for a stored hash its bytes hash to)."""
    from engine.rtk.snapshot import snapshot_file
    from engine.rtk.sources import custom_files
    from engine.rtk.trust_history import remember_trusted

    for _scope, path in custom_files(workspace, None):  # (its project filter files, as RTK finds them)
        try:
            remember_trusted(snapshot_file(path))  # (a failure only means the whole summary is shown)
        except OSError:
            continue


def example_changes(source: Path | None = None) -> list[tuple[str, str]]:
    """What the user changed in their copy, against the bundle: ``(relative path, how)`` with how
    one of ``changed``, ``added`` (only in the copy) or ``deleted`` (only in the bundle)."""
    target = user_example_workspace()
    src = source if source is not None else example_workspace_dir()
    if not target.is_dir():
        return []  # no copy yet: nothing of the user's to list

    def files(root: Path) -> dict[str, Path]:
        if not root.is_dir():
            return {}
        return {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()}

    mine, bundled = files(target), files(src)
    out = []
    for rel in sorted(mine.keys() | bundled.keys()):
        if rel not in bundled:
            out.append((rel, "added"))
        elif rel not in mine:
            out.append((rel, "deleted"))
        elif mine[rel].read_bytes() != bundled[rel].read_bytes():
            out.append((rel, "changed"))
    return out


def reset_example_workspace(source: Path | None = None) -> Path | None:
    """Put a fresh copy of the bundled example in place; returns where the old copy was moved
    (nothing is deleted: the user's edits stay in that folder), or None when there was none."""
    target = user_example_workspace()
    backup = None
    if target.exists():
        stamp = time.strftime("%Y%m%d-%H%M%S")
        backup = target.with_name(f"{target.name}.before-reset-{stamp}")
        n = 2
        while backup.exists():
            backup = target.with_name(f"{target.name}.before-reset-{stamp}-{n}")
            n += 1
        target.rename(backup)
    ensure_example_workspace(source)
    return backup
