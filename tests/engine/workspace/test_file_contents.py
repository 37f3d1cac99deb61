"""``contents_summary``: what the delete question names before a file goes to the trash."""

from __future__ import annotations

import json

from engine.workspace.file_contents import NAMES_SHOWN, contents_summary
from engine.workspace.kinds import FileKind


def test_a_pack_names_its_rules(tmp_path):
    pack = {"rules": [{"name": "filler", "pattern": "a", "replacement": ""},
                      {"name": "hedge", "pattern": "b", "replacement": ""}]}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(pack), encoding="utf-8")
    assert contents_summary(path, FileKind.CAVEMAN_PACK) == "2 rules: filler, hedge"


def test_filters_name_their_ids_and_count_tests(tmp_path):
    filters = [{"id": "deploy-log", "tests": [{"name": "a"}, {"name": "b"}]}, {"id": "other"}]
    text = json.dumps(filters)
    assert (contents_summary(tmp_path / "gone.json", FileKind.RTK_FILTERS, text)
            == "2 filters: deploy-log, other, with 2 tests")


def test_the_buffer_wins_over_the_disk_and_long_lists_are_counted(tmp_path):
    path = tmp_path / "f.json"
    path.write_text("[]", encoding="utf-8")
    buffer = json.dumps([{"id": f"f{i}"} for i in range(NAMES_SHOWN + 3)])
    summary = contents_summary(path, FileKind.RTK_FILTERS, buffer)
    assert summary.startswith(f"{NAMES_SHOWN + 3} filters: f0, f1,") and "… (3 more)" in summary
    assert contents_summary(path, FileKind.RTK_FILTERS) == "no filters"


def test_broken_other_and_unreadable_files_say_so(tmp_path):
    broken = tmp_path / "b.json"
    broken.write_text('{"rules": [\n', encoding="utf-8")
    assert contents_summary(broken, FileKind.CAVEMAN_PACK) == "1 line of text that is not valid JSON"
    other = tmp_path / "notes.json"
    other.write_text("{}\n{}\n", encoding="utf-8")
    assert contents_summary(other, FileKind.JSON) == "2 lines of text"
    assert contents_summary(tmp_path / "missing.json", FileKind.JSON).startswith("it cannot be read (")
