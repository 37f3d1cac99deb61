"""The strip-ansi rewrite on a list of lines (engine.rtk.ansi)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rtk.ansi import CSI, strip_csi_lines
from engine.rtk.dedup import split_lines
from engine.rtk.detect import detect_command_type
from engine.rtk.linescan import LineScanner
from engine.rtk.stages import _Run, apply_line_filter
from engine.rtk.trace import Trace

from .helpers import make

# Pieces that form CSI sequences, near misses (OSC, a bare ESC, ESC [ without a final byte, a
# sequence cut by a line break) and plain text.
PIECES = st.sampled_from([
    "\x1b[31m", "\x1b[0m", "\x1b[1;32m", "\x1b[?25l", "\x1b[2K", "\x1b[ q", "\x1b", "\x1b[", "\x1b[12",
    "\x1b]8;;http://x\x07", "[31m", "red", " ", "\u2713", "\U0001F600", "\r", "",
])
LINES = st.lists(st.lists(PIECES, max_size=6).map("".join), max_size=10)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES)
def test_equals_stripping_each_line_and_the_joined_text(lines):
    out = strip_csi_lines(lines)
    assert out == [CSI.sub("", line) for line in lines]
    assert "\n".join(out) == CSI.sub("", "\n".join(lines))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES)
def test_hands_back_the_same_list_when_nothing_changes_and_keeps_unchanged_lines(lines):
    out = strip_csi_lines(lines)
    if out == lines:
        assert out is lines
    else:
        assert out is not lines
        assert all(after is before for before, after in zip(lines, out) if "\x1b" not in before)


def test_unchanged_when_no_line_holds_a_csi_sequence():
    lines = ["plain", "\x1b]8;;http://x\x07osc", "\x1b"]
    assert strip_csi_lines(lines) is lines


def test_traced_and_plain_runs_agree_on_a_large_coloured_log():
    lines = [f"\x1b[32mok\x1b[0m {i}" if i % 7 == 0 else f"line {i}" for i in range(500)]
    text = "\n".join(lines)
    flt = make(rules={"stripAnsi": True, "dropPatterns": ["^line 1"], "deduplicate": True})
    trace = Trace()
    traced, plain = apply_line_filter(text, flt, trace=trace), apply_line_filter(text, flt)
    assert traced.text == plain.text == "\n".join(
        CSI.sub("", line) for line in lines if not line.startswith("line 1"))
    assert traced.applied_rules == plain.applied_rules == ["t:strip-ansi", "t:strip"]
    stage = next(s for s in trace.stages if s.stage == "strip-ansi")
    assert [(event.line, event.action, event.after) for event in stage.events] == [
        (i, "changed", f"ok {i}") for i in range(0, 500, 7)]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@pytest.mark.slow
@given(LINES)
def test_heads_carried_over_the_stripping_serve_the_scanner(monkeypatch, lines):
    """Detection's heads plus the stripped lines' own cover every head after the stage, and a
    filter run handed them answers as one that reads the heads itself."""
    monkeypatch.setattr(LineScanner, "min_scan_lines", 0)  # (scan even these few lines)
    text = "\n".join(lines)
    split = split_lines(text)
    heads = detect_command_type(text, None, lines=split).line_heads
    flt = make(rules={"stripAnsi": True, "dropPatterns": ["^red", "^\\[3", "^\\u2713 ", "^ x", "^\\x1b"],
                      "maxLines": 3, "headLines": 1, "tailLines": 1},
               preserve={"errorPatterns": ["^re", "^\\x1b\\]"], "summaryPatterns": []})
    handed = apply_line_filter(text, flt, lines=split, line_heads=heads)
    own = apply_line_filter(text, flt)
    assert (handed.text, handed.applied_rules) == (own.text, own.applied_rules)
    if heads is not None:
        run = _Run(flt, "omniroute", None, headed=(split, heads))
        after = strip_csi_lines(split)
        run.carry_heads(split, after)
        carried = run.heads_of(after)
        assert carried is not None and {line[:2] for line in after} <= carried
