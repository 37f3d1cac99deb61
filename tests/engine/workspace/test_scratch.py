"""The panels' kept inputs: per workspace and panel, atomic, sequenced, tolerant of bad files."""

from __future__ import annotations

import json

from engine.workspace.scratch import ScratchStore


def test_a_state_is_kept_per_workspace_and_panel(tmp_path):
    store = ScratchStore(tmp_path / "scratch")
    store.write_all("/ws/a", {"rtk-preview": {"command": "git status", "output": "On branch main\n😀"},
                              "caveman-preview": {}})
    assert store.read("/ws/a", "rtk-preview") == {"command": "git status", "output": "On branch main\n😀"}
    assert store.read("/ws/b", "rtk-preview") == {} and store.read("/ws/a", "caveman-preview") == {}
    assert len(list((tmp_path / "scratch").glob("*.json"))) == 1
    store.write_all("/ws/a", {"rtk-preview": {}})  # nothing of the user's own any more: the file goes
    assert store.read("/ws/a", "rtk-preview") == {} and not list((tmp_path / "scratch").glob("*.json"))


def test_an_older_write_never_replaces_a_newer_one(tmp_path):
    store = ScratchStore(tmp_path)
    store.write_all("/ws", {"p": {"text": "newer"}}, seq=2)
    store.write_all("/ws", {"p": {"text": "older"}}, seq=1)  # (a background save that finished late)
    assert store.read("/ws", "p") == {"text": "newer"}
    assert ScratchStore(tmp_path).read("/ws", "p") == {"text": "newer"}  # (on disk, for the next start)


def test_bad_files_read_as_nothing(tmp_path):
    store = ScratchStore(tmp_path)
    store.write_all("/ws", {"p": {"text": "x"}})
    (file,) = tmp_path.glob("*.json")
    for broken in ("{", "[]", json.dumps({"format": 99, "workspace": "/ws", "state": {"text": "x"}}),
                   json.dumps({"format": 1, "workspace": "/other", "state": {"text": "x"}}),
                   json.dumps({"format": 1, "workspace": "/ws", "state": ["x"]})):
        file.write_text(broken, encoding="utf-8")
        assert ScratchStore(tmp_path).read("/ws", "p") == {}, broken
    file.write_text(json.dumps({"format": 1, "workspace": "/ws", "state": {"text": "x", "n": 3}}), encoding="utf-8")
    assert ScratchStore(tmp_path).read("/ws", "p") == {"text": "x"}  # (strings only)
