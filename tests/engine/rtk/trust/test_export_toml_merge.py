"""TOML export onto an existing rtk TOML v1 file keeps the text of every filter it does not change
(comments, spacing, key order) and the preamble byte for byte, as the JSON merge does (issue 16)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.rtk.export import export_toml
from engine.rtk.export_plan import plan_toml
from engine.rtk.toml_io import TomlTest, parse_rtk_toml, render_filter
from engine.rtk.toml_spans import split

PREAMBLE = "# Team filters — reviewed weekly\n\nschema_version   =  1    # rtk TOML v1\n"

GIT = '''
# ---- git ----
# keeps commit lines only
[filters.git-log]
match_command = '^git\\s+log'     # aligned on purpose
description="git log"
strip_lines_matching = [
    '^Author:',   # who
    "^Date:",
]

[[tests.git-log]]
expected = """
commit 1
"""
name = "drops author"
input = """
commit 1
Author: x
[not a header]
"""
'''

ODD = '''
  [filters."odd.name"]
  max_lines=3
  match_command = "^odd"
'''

PING = '''

[filters.ping]
replace = [ { pattern = 'a', replacement = "b" } ]
match_command = '^ping'
'''

MAKE = '''
[filters.make]
match_command = '^make\\b'
on_empty = "make: ok"
'''

GRADLE = """
[filters.gradle]
match_command = '^gradle'
[[filters.gradle.match_output]]   # array-of-tables form, spread over sub-tables
pattern = 'BUILD SUCCESSFUL'
message = "gradle: ok"
[[filters.gradle.match_output]]
message = "gradle: up to date"
pattern = 'UP-TO-DATE'
"""

EPILOGUE = "\n# end of file: add new filters above\n"

CHUNKS = {"git-log": GIT, "odd.name": ODD, "ping": PING, "make": MAKE, "gradle": GRADLE}
HAND = PREAMBLE + "".join(CHUNKS.values()) + EPILOGUE


def _write(tmp_path, text=HAND):
    target = tmp_path / "filters.toml"
    target.write_bytes(text.encode())
    return target


def _old(text=HAND):
    return parse_rtk_toml(text, run_tests=False)


def test_the_hand_written_file_is_cut_where_the_rule_says():
    doc = split(HAND)
    assert HAND[:doc.preamble_end] == PREAMBLE
    assert [(s.owner, s.kind) for s in doc.spans] == [("git-log", "filter"), ("git-log", "tests"),
                                                     ("odd.name", "filter"), ("ping", "filter"),
                                                     ("make", "filter"), ("gradle", "filter"),
                                                     ("gradle", "filter"), ("gradle", "filter")]
    assert "".join(doc.span_text(s) for s in doc.spans[:2]) == GIT  # the comments above go with the table
    assert HAND[doc.epilogue_start:] == EPILOGUE


def test_one_replaced_and_one_added_filter_leave_every_other_byte_alone(tmp_path):
    target = _write(tmp_path)
    old = _old()
    tables = {"ping": {"match_command": "^ping\\b", "max_lines": 5},
              "cargo": {"match_command": "^cargo\\s+build", "strip_lines_matching": ["^\\s+Compiling"]}}
    tests = {"cargo": [TomlTest("quiet", "   Compiling a\nFinished\n", "Finished\n")]}
    plan = plan_toml(tables, tests, target)
    assert (plan.mode, plan.replaced, plan.added, plan.kept) == ("merge", ["ping"], ["cargo"],
                                                                 ["git-log", "odd.name", "make", "gradle"])
    assert not plan.notes and not plan.rewrite_reason  # no "rewritten in Rulewright's layout" warning
    text = plan.text
    assert text.startswith(PREAMBLE + GIT + ODD)
    assert MAKE + GRADLE in text and text.endswith(EPILOGUE)
    assert text.index(ODD) < text.index("[filters.ping]") < text.index(MAKE) < text.index("[filters.cargo]")
    assert "replace = [ { pattern" not in text  # the replaced filter's old body is gone
    assert "\n\n[filters.ping]\nmatch_command = '^ping\\b'\nmax_lines = 5\n" in text  # its leading blank lines stay
    back = parse_rtk_toml(text, run_tests=False)
    assert list(back.tables) == ["git-log", "odd.name", "ping", "make", "gradle", "cargo"]
    assert back.tables["ping"] == tables["ping"] and back.tables["cargo"] == tables["cargo"]
    for fid in ("git-log", "odd.name", "make", "gradle"):
        assert back.tables[fid] == old.tables[fid] and back.tests[fid] == old.tests[fid]
    assert back.tests["cargo"] == tests["cargo"]


def test_an_unchanged_export_writes_the_file_back_identically(tmp_path):
    target = _write(tmp_path)
    old = _old()
    plan = plan_toml({"odd.name": old.tables["odd.name"]}, {}, target)
    assert plan.unchanged == ["odd.name"] and plan.text == HAND


def test_replacing_a_filter_whose_tests_stand_elsewhere_drops_them_there(tmp_path):
    text = PREAMBLE + "\n[filters.a]\nmatch_command = '^a'\n\n[filters.b]\nmatch_command = '^b'\n" \
        "\n# tests of a\n[[tests.a]]\nname = 'old'\ninput = 'x'\nexpected = 'x'\n"
    target = _write(tmp_path, text)
    plan = plan_toml({"a": {"match_command": "^a2"}}, {"a": [TomlTest("new", "y", "y")]}, target)
    back = parse_rtk_toml(plan.text, run_tests=False)
    assert list(back.tables) == ["a", "b"] and back.tests["a"] == [TomlTest("new", "y", "y")]
    assert "name = 'old'" not in plan.text and "\n[filters.b]\nmatch_command = '^b'\n" in plan.text


def test_replace_mode_removes_filters_and_keeps_unchanged_text(tmp_path):
    target = _write(tmp_path)
    old = _old()
    plan = plan_toml({"make": old.tables["make"], "git-log": old.tables["git-log"]},
                     {"git-log": old.tests["git-log"]}, target, replace=True)
    assert plan.removed == ["odd.name", "ping", "gradle"] and plan.unchanged == ["make", "git-log"]
    assert plan.text == PREAMBLE + MAKE + GIT + EPILOGUE  # export order, each filter's text verbatim
    assert not plan.notes


def test_crlf_files_stay_crlf(tmp_path):
    crlf = HAND.replace("\n", "\r\n")
    target = _write(tmp_path, crlf)
    plan = plan_toml({"new": {"match_command": "^new"}}, {}, target)
    assert plan.text.startswith(crlf[:crlf.index("\r\n# end of file")])
    assert "\n" not in plan.text.replace("\r\n", "")
    assert list(parse_rtk_toml(plan.text, run_tests=False).tables)[-1] == "new"


def test_a_file_without_a_final_newline_gets_one_before_the_new_filter(tmp_path):
    text = PREAMBLE + MAKE.rstrip("\n")
    plan = plan_toml({"new": {"match_command": "^new"}}, {}, _write(tmp_path, text))
    assert plan.text == text + "\n\n[filters.new]\nmatch_command = '^new'\n" and not plan.notes


def test_a_replaced_filter_drops_its_array_of_tables_and_keeps_its_comment(tmp_path):
    plan = plan_toml({"gradle": {"match_command": "^gradlew?"}}, {}, _write(tmp_path))
    assert "UP-TO-DATE" not in plan.text and "array-of-tables form" not in plan.text
    assert plan.text.endswith(MAKE + "\n[filters.gradle]\nmatch_command = '^gradlew?'\n" + EPILOGUE)
    git = plan_toml({"git-log": {"match_command": "^git log"}}, {}, _write(tmp_path)).text
    assert git.startswith(PREAMBLE + "\n# ---- git ----\n# keeps commit lines only\n[filters.git-log]\n")


def test_a_file_that_cannot_be_cut_is_rewritten_with_a_warning_saying_why(tmp_path):
    text = "schema_version = 1\n# hand-made\n[filters]\na.match_command = '^a'\nb.match_command = '^b'\n"
    target = _write(tmp_path, text)
    plan = plan_toml({"b": {"match_command": "^b2"}}, {}, target)
    assert [n.message for n in plan.notes] == [
        "the TOML file is rewritten in Rulewright's layout, so its comments and formatting are not kept: "
        "the table [filters] is not a [filters.ID] or [[tests.ID]] table"]
    assert list(parse_rtk_toml(plan.text, run_tests=False).tables) == ["a", "b"]
    assert plan.lines()[-1] == ("  REWRITE: the whole file in Rulewright's layout, its comments and formatting "
                                "lost (the table [filters] is not a [filters.ID] or [[tests.ID]] table)")
    assert plan.to_dict()["rewriteReason"] == plan.rewrite_reason


def test_root_dotted_filters_fall_back_too(tmp_path):
    text = "schema_version = 1\nfilters.a.match_command = '^a'\n"
    plan = plan_toml({"b": {"match_command": "^b"}}, {}, _write(tmp_path, text))
    assert "dotted keys or inline tables at the top level" in plan.notes[0].message
    assert list(parse_rtk_toml(plan.text, run_tests=False).tables) == ["a", "b"]


def test_the_cli_path_merges_a_toml_source_into_the_hand_written_file(tmp_path):
    target = _write(tmp_path)
    source = tmp_path / "src" / "ping.toml"
    source.parent.mkdir()
    source.write_text("schema_version = 1\n\n[filters.ping]\nmatch_command = '^ping\\s'\n")
    result = export_toml([source], target)
    assert result.plan.replaced == ["ping"]
    written = target.read_text()
    assert written.startswith(PREAMBLE + GIT + ODD) and written.endswith(MAKE + GRADLE + EPILOGUE)


IDS = list(CHUNKS)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(IDS), unique=True), st.lists(st.sampled_from(["n1", "n2", "n3"]), unique=True))
def test_random_replacements_never_lose_a_filter_and_keep_unchanged_spans(replaced, added):
    old = _old()
    tables = {fid: {"match_command": f"^{fid}-new"} for fid in [*replaced, *added]}
    with tempfile.TemporaryDirectory() as tmp:
        target = _write(Path(tmp))
        plan = plan_toml(tables, {}, target)
    assert not plan.notes
    back = parse_rtk_toml(plan.text, run_tests=False)
    assert list(back.tables) == [*IDS, *added]
    assert plan.text.startswith(PREAMBLE) and plan.text.endswith(EPILOGUE)
    for fid in IDS:
        if fid in replaced:
            assert back.tables[fid] == tables[fid] and back.tests[fid] == []
        else:
            assert CHUNKS[fid] in plan.text  # its span, byte for byte
            assert back.tables[fid] == old.tables[fid] and back.tests[fid] == old.tests[fid]


@settings(max_examples=60, deadline=None)
@given(st.permutations(IDS), st.integers(0, len(IDS)), st.sets(st.sampled_from(IDS)))
def test_random_replace_mode_keeps_exactly_the_export_in_its_order(order, count, changed):
    old = _old()
    exported = [*order[:count], "n1"]
    tables = {fid: ({"match_command": f"^{fid}-new"} if fid in changed or fid not in old.tables
                    else old.tables[fid]) for fid in exported}
    tests = {fid: old.tests[fid] for fid in exported if fid in old.tables and fid not in changed}
    with tempfile.TemporaryDirectory() as tmp:
        plan = plan_toml(tables, tests, _write(Path(tmp)), replace=True)
    assert not plan.notes
    back = parse_rtk_toml(plan.text, run_tests=False)
    assert list(back.tables) == exported and back.tables == tables
    assert sorted(plan.removed) == sorted(set(IDS) - set(exported))
    for fid in plan.unchanged:
        assert CHUNKS[fid] in plan.text


TRIVIA = st.lists(st.sampled_from(["", "# note", "  # [filters.fake] in a comment", "\t", "#"]), max_size=3)
SAMPLE = st.lists(st.sampled_from([*"ab[]#\"'\\ \n=.{}", '"""', "'''", "\n[filters.x]\n"]), max_size=12).map("".join)


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(TRIVIA, SAMPLE), min_size=1, max_size=4), TRIVIA, st.data())
def test_random_documents_cut_losslessly_and_merge_safely(filters, tail, data):
    ids = [f"f{n}" for n in range(len(filters))]
    chunks = {}
    for fid, (lead, sample) in zip(ids, filters, strict=True):
        body = render_filter(fid, {"match_command": f"^{fid}"}, [TomlTest("t", sample, sample)])
        chunks[fid] = "".join(line + "\n" for line in lead) + body
    text = "schema_version = 1\n" + "".join(chunks.values()) + "".join(line + "\n" for line in tail)
    doc = split(text)
    assert text[:doc.preamble_end] + "".join(doc.span_text(s) for s in doc.spans) \
        + text[doc.epilogue_start:] == text
    assert doc.owners() == ids
    replaced = data.draw(st.sets(st.sampled_from(ids)))
    with tempfile.TemporaryDirectory() as tmp:
        plan = plan_toml({fid: {"match_command": "^new"} for fid in replaced}, {}, _write(Path(tmp), text))
    assert not plan.notes and list(parse_rtk_toml(plan.text, run_tests=False).tables) == ids
    for fid in set(ids) - replaced:
        assert chunks[fid] in plan.text


def test_a_dry_run_names_the_whole_rewrite_before_anything_is_written(tmp_path, capsys):
    text = "schema_version = 1\n# hand\n[filters]\nmake.match_command = '^make'\n"
    target = _write(tmp_path, text)
    source = tmp_path / "new.toml"
    source.write_text("schema_version = 1\n\n[filters.cargo]\nmatch_command = '^cargo'\n")
    assert main(["export", str(source), "-o", str(target), "--toml", "--dry-run", "--allow-failing"]) == 0
    err = capsys.readouterr().err
    assert "rewritten in Rulewright's layout" in err and "the table [filters] is not" in err
    assert target.read_text() == text
