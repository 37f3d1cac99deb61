"""The Caveman preview reads its packs from disk again only when a pack file changed, and an
unsaved buffer never leaks into what it keeps."""

from __future__ import annotations

import json
import os

from engine.caveman import PackSource
from engine.workspace.previews.caveman_packs import PackOverride, pack_source


def _write(root, language, base, rules):
    folder = root / language
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{base}.json"
    path.write_text(json.dumps({"language": language, "category": base, "rules": rules}), encoding="utf-8")
    return path


def _rule(name, pattern):
    return {"name": name, "pattern": pattern, "replacement": ""}


def _names(source):
    return [r.name for r in source.rules_for("en")]


def test_the_kept_packs_equal_a_fresh_read_and_follow_every_change(tmp_path):
    path = _write(tmp_path, "en", "filler", [_rule("a", "x")])
    assert _names(pack_source(str(tmp_path), None)) == _names(PackSource.from_dir(tmp_path)) == ["a"]
    # a rewrite of the same size: the modification time tells
    path.write_text(path.read_text(encoding="utf-8").replace('"a"', '"b"'), encoding="utf-8")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    assert _names(pack_source(str(tmp_path), None)) == ["b"]
    _write(tmp_path, "en", "structural", [_rule("c", "y")])  # a new file
    assert _names(pack_source(str(tmp_path), None)) == ["b", "c"]
    (tmp_path / "en" / "structural.json").unlink()  # a removed one
    assert _names(pack_source(str(tmp_path), None)) == ["b"]


def test_an_atomic_save_is_seen(tmp_path):
    path = _write(tmp_path, "en", "filler", [_rule("a", "x")])
    assert _names(pack_source(str(tmp_path), None)) == ["a"]
    stat = path.stat()
    tmp = tmp_path / "en" / "filler.json.tmp"
    tmp.write_text(path.read_text(encoding="utf-8").replace('"a"', '"z"'), encoding="utf-8")
    os.utime(tmp, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same time and size: a new inode
    os.replace(tmp, path)
    assert _names(pack_source(str(tmp_path), None)) == ["z"]


def test_an_override_does_not_leak_into_the_kept_packs(tmp_path):
    _write(tmp_path, "en", "filler", [_rule("a", "x")])
    unsaved = json.dumps({"language": "en", "category": "filler", "rules": [_rule("unsaved", "q")]})
    with_buffer = pack_source(str(tmp_path), PackOverride("en", "filler", unsaved))
    assert _names(with_buffer) == ["unsaved"]
    assert _names(pack_source(str(tmp_path), None)) == ["a"]


def test_a_new_language_folder_is_seen_even_while_empty(tmp_path):
    _write(tmp_path, "en", "filler", [_rule("a", "x")])
    assert pack_source(str(tmp_path), None).languages() == ["en"]
    (tmp_path / "de").mkdir()
    assert pack_source(str(tmp_path), None).languages() == PackSource.from_dir(tmp_path).languages() == ["de", "en"]


def test_a_broken_buffer_is_named_as_the_editor_shows_it(tmp_path):
    """Saved or not, the open buffer is what failed: named so, at its line:col."""
    _write(tmp_path, "en", "filler", [_rule("a", "x")])
    source = pack_source(str(tmp_path), PackOverride("en", "filler", '{\n  "rules": [,]\n}'))
    problems = [str(error) for _base, error in source.files["en"] if not isinstance(error, dict)]
    assert problems == ["en/filler.json (open in the editor): Expecting value at 2:13"]
