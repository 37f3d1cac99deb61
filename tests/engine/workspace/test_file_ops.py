"""Renaming from the explorer: same folder, suffix kept, never over another file."""

from __future__ import annotations

import os

import pytest

from engine.workspace.file_ops import FileOpError, rename_file, renamed_path


def test_rename_keeps_the_folder_and_the_suffix(tmp_path):
    path = tmp_path / "filler.json"
    path.write_text("{}", encoding="utf-8")
    target = rename_file(path, "hedging")
    assert target == tmp_path / "hedging.json" and target.read_text(encoding="utf-8") == "{}"
    assert not path.exists()
    assert rename_file(target, "hedging.toml") == tmp_path / "hedging.toml"


@pytest.mark.parametrize(("name", "why"), [
    ("", "a name is required"), ("sub/x", "a name, not a path"), ("..\\x", "a name, not a path"),
    ("-x", "starting with a letter or digit"), ("filler", "its name already"), ("other", "other.json already exists"),
])
def test_bad_or_taken_names_are_refused_and_nothing_moves(tmp_path, name, why):
    path = tmp_path / "filler.json"
    path.write_text("mine", encoding="utf-8")
    (tmp_path / "other.json").write_text("theirs", encoding="utf-8")
    with pytest.raises(FileOpError, match=why.replace(".", r"\.")):
        rename_file(path, name)
    assert path.read_text(encoding="utf-8") == "mine"
    assert (tmp_path / "other.json").read_text(encoding="utf-8") == "theirs"


def test_a_file_that_appears_under_the_new_name_meanwhile_is_not_replaced(tmp_path, monkeypatch):
    path = tmp_path / "filler.json"
    path.write_text("mine", encoding="utf-8")
    target = renamed_path(path, "new")
    real_link = os.link

    def racing_link(src, dst, *args, **kwargs):
        target.write_text("theirs", encoding="utf-8")  # created between the check and the link
        return real_link(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "link", racing_link)
    with pytest.raises(FileOpError, match="already exists"):
        rename_file(path, "new")
    assert target.read_text(encoding="utf-8") == "theirs" and path.read_text(encoding="utf-8") == "mine"
