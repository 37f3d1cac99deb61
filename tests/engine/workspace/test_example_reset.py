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


def test_the_examples_trusted_filters_are_remembered_so_a_reviewer_sees_what_changed():
    """Its trust.json was written with the bundle: the first copy keeps the trusted bytes as a
    trust snapshot, so after an edit the review compares with them (not the whole summary)."""
    import json

    from engine.rtk.snapshot import snapshot_file
    from engine.rtk.trust_diff import diff_since_trust

    copy = ensure_example_workspace()
    filters = copy / ".rtk" / "filters.json"
    assert diff_since_trust(snapshot_file(filters)).verdict == "trusted"
    doc = json.loads(filters.read_text(encoding="utf-8"))
    doc[0]["priority"] += 1  # (the file is a list of filters)
    filters.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    diff = diff_since_trust(snapshot_file(filters))
    assert diff.verdict == "changed" and diff.found is not None and diff.found.origin == "snapshot"
    assert any("priority" in line for line in diff.format())
    assert diff.current_risk is None  # (the whole summary is only for a change with nothing to compare with)
