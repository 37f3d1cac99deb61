"""Grouping (rtk.md §7.5): normal forms, thresholds read like JavaScript, and the quirks."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rtk.engine import process_rtk_text
from engine.rtk.grouping import group_similar_lines, grouping_threshold, normal_form


@pytest.mark.parametrize("line,form", [
    ("2026-05-14T09:02:56Z worker 3 ok", "<N> worker <N> ok"),
    ("[2026-05-14  09:02:56] x", "[<N>] x"),
    ("commit 4f1c2a9 v1.2.3 at 10.0.0.1", "commit <N> <N> at <N>"),
    ("12ms node1 -3 50%", "12ms node1 -<N> <N>%"),
    ("  a \t  b  ", "a b"),
    ("facade", "<N>"),
])
def test_normal_form(line, form):
    assert normal_form(line) == form


def test_strict_hex_ids_need_a_digit():
    assert normal_form("facade", profile="strict") == "facade"


@pytest.mark.parametrize("raw,expected", [(None, 3), (4.7, 4), (0, 2), (-5, 2), (True, 2), ("4", 4), (" 6 ", 6),
                                          ("", 2), ("0x10", 16), ([], 2), ([5], 5)])
def test_threshold_conversion(raw, expected):
    assert grouping_threshold(raw) == expected


@pytest.mark.parametrize("raw", ["many", [1, 2], {}, "Infinity"])
def test_threshold_nan_switches_grouping_off(raw):
    t = grouping_threshold(raw)
    assert math.isnan(t) or t == math.inf
    assert group_similar_lines("a 1\na 2\na 3\na 4", t).grouped == 0


def test_strict_threshold_is_normalised():
    assert grouping_threshold("many", profile="strict") == 3
    assert grouping_threshold(4.7, profile="strict") == 4


def test_runs_keep_their_first_line_and_count():
    out = group_similar_lines("start\nline 1\nline 2\nline 3\nend", 3)
    assert out.text == "start\nline 1 [rtk:grouped \u00d73]\nend"
    assert (out.grouped, out.runs) == (2, [(1, 3)])


def test_blank_runs_group_in_omniroute_only():
    text = "a\n\n \n\t\nb"
    out = group_similar_lines(text, 3)
    assert out.text == "a\n [rtk:grouped \u00d73]\nb" and [d.code for d in out.diagnostics] == ["RTK-Q17"]
    assert group_similar_lines(text, 3, profile="strict").grouped == 0


def test_no_run_leaves_text_byte_for_byte():
    text = "a\r\nb\r\n"
    assert group_similar_lines(text, 2).text == text


@given(st.lists(st.sampled_from(["x 1", "x 2", "y", "", "z 9"]), min_size=1, max_size=30), st.integers(2, 5))
def test_grouping_keeps_each_runs_first_line_and_accounts_for_every_line(lines, threshold):
    out = group_similar_lines("\n".join(lines), threshold)
    emitted = out.text.split("\n")
    assert len(emitted) == len(lines) - out.grouped
    for start, _length in out.runs:
        assert lines[start] + " [rtk:grouped" in out.text


def test_engine_groups_document_reads_in_omniroute_but_not_strict():
    text = "\n".join(f"item {i}" for i in range(5))
    cfg = {"enabled": True, "enableGrouping": True}
    omni = process_rtk_text(text, None, cfg)
    assert omni.document_read and "rtk-grouping" in omni.techniques_used
    assert "RTK-Q18" in [d.code for d in omni.diagnostics]
    assert "rtk-grouping" not in process_rtk_text(text, None, cfg, profile="strict").techniques_used
