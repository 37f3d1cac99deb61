"""Resetting the example workspace lists the user's edits and moves them aside, never deletes."""

from __future__ import annotations

from engine.workspace.example import (
    ensure_example_workspace,
    example_changes,
    reset_example_workspace,
    user_example_workspace,
)


def test_changes_are_listed_and_kept_in_the_moved_copy(tmp_path):
    bundle = tmp_path / "bundle"
    (bundle / "rules").mkdir(parents=True)
    (bundle / "rules" / "a.json").write_text("{}", encoding="utf-8")
    (bundle / "gone.txt").write_text("x", encoding="utf-8")
    assert example_changes(bundle) == []  # no copy yet: nothing of the user's
    copy = ensure_example_workspace(bundle)
    assert example_changes(bundle) == []
    (copy / "rules" / "a.json").write_text('{"mine": 1}', encoding="utf-8")
    (copy / "new.txt").write_text("mine", encoding="utf-8")
    (copy / "gone.txt").unlink()
    assert example_changes(bundle) == [("gone.txt", "deleted"), ("new.txt", "added"), ("rules/a.json", "changed")]
    backup = reset_example_workspace(bundle)
    assert backup is not None and (backup / "rules" / "a.json").read_text(encoding="utf-8") == '{"mine": 1}'
    assert (backup / "new.txt").exists()
    assert user_example_workspace() == copy and example_changes(bundle) == []
    assert reset_example_workspace(bundle) != backup  # a second reset never overwrites the first copy
