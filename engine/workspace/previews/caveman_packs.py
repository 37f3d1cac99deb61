"""The rule packs a Caveman preview runs: the packs on disk, with the open (unsaved) buffer in
place of its file, read again only when a pack file changed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine import memo
from engine.jsvalues import JsonValue

if TYPE_CHECKING:
    from engine.caveman import PackSource


@dataclass
class PackOverride:
    """An open (possibly unsaved) pack buffer that replaces ``<language>/<base>.json`` on disk."""

    language: str
    base: str
    text: str


def without_unfinished_rules(pack: JsonValue) -> tuple[JsonValue, list[str]]:
    """A pack without the rules whose pattern is still empty (a rule just added), and their names.

    OmniRoute refuses a whole pack with an empty pattern; the preview runs the rest of the open
    pack instead, and says which rules it left out (the validator flags them where they are).
    """
    rules = pack.get("rules") if isinstance(pack, dict) else None
    if not isinstance(pack, dict) or not isinstance(rules, list):
        return pack, []
    unfinished = [r for r in rules if isinstance(r, dict) and r.get("pattern") == ""]
    if not unfinished:
        return pack, []
    names = [name if isinstance(name := r.get("name"), str) else "(unnamed)" for r in unfinished]
    return {**pack, "rules": [r for r in rules if not (isinstance(r, dict) and r.get("pattern") == "")]}, names


def pack_source(root: str | None, override: PackOverride | None) -> PackSource:
    """The packs the preview runs: ``root`` on disk with the open buffer in place of its file."""
    from engine.caveman import PackSource
    from engine.caveman.packs import PackError

    source = _packs_on_disk(root) if root else PackSource()
    if override is not None:
        try:
            obj: Any = without_unfinished_rules(json.loads(override.text))[0]
        except json.JSONDecodeError as exc:
            # (the buffer in the editor, saved or not: its line:col is where the editor shows it)
            obj = PackError(f"{override.language}/{override.base}.json (open in the editor): {exc.msg} "
                            f"at {exc.lineno}:{exc.colno}")
        files = list(source.files.get(override.language, []))
        for i, (base, _old) in enumerate(files):
            if base == override.base:
                files[i] = (override.base, obj)
                break
        else:
            from engine.jsvalues import js_sort_key

            files.append((override.base, obj))
            files.sort(key=lambda entry: js_sort_key(entry[0] + ".json"))
        source.files[override.language] = files
    return source


_FilesState = tuple[tuple[str, str, int, int, int], ...]
MAX_DISK_PACKS = 8
_DISK_PACKS: memo.MemoDict[str, tuple[_FilesState, PackSource]] = memo.MemoDict(  # root → (files' state, PackSource)
    f"{__name__}._DISK_PACKS", MAX_DISK_PACKS)


def _packs_on_disk(root: str) -> PackSource:
    """``PackSource.from_dir(root)``, read again only when a pack file under ``root`` was added,
    removed or rewritten (the preview runs at each keystroke; reading and parsing the 40 files
    of our built-in packs cost ~2.4 ms of its ~20). Returns a source of its own: the files
    lists are copies (an override replaces entries), the parsed packs are shared (only read)."""
    from engine.caveman import PackSource

    state = _pack_files_state(root)
    cached = _DISK_PACKS.get(root)
    if cached is None or cached[0] != state:
        cached = _DISK_PACKS[root] = (state, PackSource.from_dir(root))
    loaded = cached[1]
    return PackSource(files={lang: list(entries) for lang, entries in loaded.files.items()}, origin=loaded.origin)


def _pack_files_state(root: str) -> _FilesState:
    """(language folder, file name, inode, mtime, size) of every ``*.json`` under ``root``: an
    atomic save (a new inode) or any rewrite changes it."""
    import os

    out: list[tuple[str, str, int, int, int]] = []
    try:
        languages = [entry for entry in os.scandir(root) if entry.is_dir()]
    except OSError:
        return ()
    for lang in languages:
        out.append((lang.name, "", 0, 0, 0))  # (a language folder counts even while it is empty)
        try:
            entries = list(os.scandir(lang.path))
        except OSError:
            out.append((lang.name, "", -1, -1, -1))  # (unreadable: from_dir decides what it is)
            continue
        for entry in entries:
            if entry.name.endswith(".json"):
                try:
                    st = entry.stat()
                except OSError:
                    st = None
                out.append((lang.name, entry.name, st.st_ino, st.st_mtime_ns, st.st_size) if st
                           else (lang.name, entry.name, -1, -1, -1))
    return tuple(sorted(out))
