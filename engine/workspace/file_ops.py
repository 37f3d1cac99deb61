"""Renaming a workspace file from the explorer: a new name in the same folder, never over
another file."""

from __future__ import annotations

import os
from pathlib import Path

from engine.fsutil import same_file
from engine.workspace.templates import check_file_name


class FileOpError(Exception):
    """Why the operation was not done; the message is shown to the user as it is."""


def renamed_path(path: Path, new_name: str) -> Path:
    """The path ``path`` gets as ``new_name`` (its suffix kept when none is typed); raises
    ``FileOpError`` for a name that is empty, has a folder in it, or is taken."""
    name = new_name.strip()
    if "/" in name or "\\" in name:
        raise FileOpError("a name, not a path: the file stays in its folder")
    stem, dot, _suffix = name.rpartition(".")
    if not dot or not stem:
        name, stem = name + path.suffix, name
    problem = check_file_name(stem)
    if problem:
        raise FileOpError(f"'{new_name.strip()}': {problem}")
    target = path.with_name(name)
    if target == path:
        raise FileOpError("that is its name already")
    if target.exists() and not same_file(target, path):  # (a change of letter case only is a rename)
        raise FileOpError(f"{target.name} already exists here")
    return target


def rename_file(path: Path, new_name: str) -> Path:
    """Rename ``path`` to ``new_name`` in its folder and return the new path. Where the file
    system allows, a hard link then an unlink: a file that appeared under the new name meanwhile
    is never replaced (a plain rename would overwrite it)."""
    target = renamed_path(path, new_name)
    try:
        if target.exists():  # the same file, another letter case: only rename can do it
            os.rename(path, target)
            return target
        try:
            os.link(path, target)
        except FileExistsError:
            raise FileOpError(f"{target.name} already exists here") from None
        except OSError:  # no hard links here (some network and FAT file systems)
            if target.exists():
                raise FileOpError(f"{target.name} already exists here") from None
            os.rename(path, target)
        else:
            os.unlink(path)
    except FileOpError:
        raise
    except OSError as exc:
        raise FileOpError(f"could not rename {path.name}: {exc.strerror or exc}") from None
    return target
