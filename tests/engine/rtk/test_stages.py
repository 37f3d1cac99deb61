"""One filter's pipeline: every stage, its tag and its markers (rtk.md §4–§6)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.rtk.dedup import deduplicate_repeated_lines
from engine.rtk.stages import apply_line_filter
from engine.rtk.trace import Trace
from engine.rtk.truncate import smart_truncate

from .helpers import make


def run(text, **kwargs):
    return apply_line_filter(text, make(**kwargs))


def test_no_rules_keeps_lines_and_turns_crlf_into_lf():
    assert run("a\r\nb\n").text == "a\nb\n"
    assert run("a\r\nb\n").applied_rules == []


def test_strip_ansi_removes_csi_only():
    result = run("\x1b[31mred\x1b[0m \x1b]8;;http://x\x07link", rules={"stripAnsi": True})
    assert result.text == "red \x1b]8;;http://x\x07link"
    assert result.applied_rules == ["t:strip-ansi"]


def test_filter_stderr_prefix():
    assert run("stderr: boom\n  ERR | x\nerror: y", rules={"filterStderr": True}).text == "boom\nx\nerror: y"


def test_replace_is_per_line_case_sensitive_with_js_templates():
    result = run("took 12ms\nError 3ms", rules={"replace": [
        {"pattern": "(\\d+)ms", "replacement": "$1 ms"}, {"pattern": "error", "replacement": "E"},
        {"pattern": "a\\nb", "replacement": "never"}]})
    assert result.text == "took 12 ms\nError 3 ms"
    assert result.applied_rules == ["t:replace"]


def test_match_output_short_circuits_even_on_empty():
    rules = {"matchOutput": [{"pattern": "^all good$", "message": "ok"}], "dropPatterns": [".*"],
             "onEmpty": "EMPTY"}
    result = run("x\nALL GOOD\ny", rules=rules)
    assert (result.text, result.stripped_lines, result.applied_rules) == ("ok", 2, ["t:match-output"])
    assert run("x\ny", rules=rules).text == "EMPTY"


def test_unless_and_invalid_unless_rtk_q4():
    rule = {"pattern": "built", "message": "ok", "unless": "error"}
    assert run("built\nerror", rules={"matchOutput": [rule]}).text == "built\nerror"
    bad = {"pattern": "built", "message": "ok", "unless": "(unclosed"}
    result = run("built\nerror", rules={"matchOutput": [bad]})
    assert result.text == "ok" and [d.code for d in result.diagnostics] == ["RTK-Q4"]
    strict = apply_line_filter("built\nerror", make(rules={"matchOutput": [bad]}), profile="strict")
    assert strict.text == "built\nerror"


def test_drop_include_collapse():
    rules = {"dropPatterns": ["^debug"], "includePatterns": ["^(warn|info)"], "collapsePatterns": ["^warn"]}
    result = run("DEBUG 1\nwarn a\ninfo\n  warn a  \nwarn a\nother", rules=rules)
    # collapse compares trimmed text, anywhere in the output
    assert result.text == "warn a\ninfo"
    assert result.applied_rules == ["t:strip", "t:keep", "t:collapse"]
    # no include match keeps everything, and is no `keep` tag
    kept = run("a\nb", rules={"includePatterns": ["^zzz"]})
    assert kept.text == "a\nb" and kept.applied_rules == [] and kept.kept_by_rule


def test_truncate_line_by_code_points():
    assert run("abcdefgh\n\U0001F600\U0001F600\U0001F600\U0001F600\U0001F600",
               rules={"truncateLineAt": 4}).text == "a...\n\U0001F600..."
    assert run("abcdef", rules={"truncateLineAt": 2}).text == "ab"


def test_dedup_stage_and_markers():
    result = run("x\nx\nx\nx\ny", rules={"deduplicate": True})
    assert result.text == "x\n[line repeated 3x]\n[rtk:dropped 3 repeated lines]\ny"
    assert result.applied_rules == ["t:deduplicate"]
    assert deduplicate_repeated_lines("a\na").collapsed == 0
    assert deduplicate_repeated_lines("  \n  \n  \n").collapsed == 0  # blank runs stay


def test_dedup_strict_only_collapses_when_shorter_rtk_q12():
    grown = deduplicate_repeated_lines("x\nx\nx")
    assert grown.collapsed == 2 and grown.quirk_grew
    assert deduplicate_repeated_lines("x\nx\nx", profile="strict").collapsed == 0


def test_smart_truncation_head_priority_tail_and_marker():
    lines = [f"line {i}" for i in range(30)] + ["ERROR late"]
    result = run("\n".join(lines), rules={"maxLines": 6, "headLines": 2, "tailLines": 2},
                 preserve={"errorPatterns": ["error"]})
    # 31 lines, 4 kept: the priority line (also a tail line) comes before the other tail line
    assert result.text.split("\n") == ["line 0", "line 1", "[rtk:truncated 27 lines]", "ERROR late", "line 29"]
    assert result.applied_rules == ["t:truncate"]


def test_smart_truncate_by_text_rtk_q6_and_strict_order():
    text = "h\nS1\nx\nE1\nS2\ny\nE2\nt"
    priority = [lambda line: line.startswith(("E", "S"))]
    reference = smart_truncate(text, max_lines=5, preserve_head=1, preserve_tail=1, priority=priority)
    assert reference.text == "h\n[rtk:truncated 2 lines]\nS1\nE1\nS2\nE2\nt"
    dup = smart_truncate("d\na\nb\nc\nd", max_lines=3, preserve_head=1, preserve_tail=1)
    assert dup.text == "d\n[rtk:truncated 4 lines]"  # the repeated tail line vanished
    strict = smart_truncate("d\na\nb\nc\nd", max_lines=3, preserve_head=1, preserve_tail=1, profile="strict")
    assert strict.text == "d\n[rtk:truncated 3 lines]\nd"


def test_char_limit_marker_and_zero_line_marker_rtk_q7():
    # one long line: the line marker says 0 lines, then the char cut keeps 55 % of the budget
    # (50 - 26 = 24 -> 14 head units) and the last 10 units, which end inside that marker
    result = smart_truncate("a" * 100, max_chars=50)
    assert result.text == "a" * 14 + "\n[rtk:truncated by chars]\n" + "d 0 lines]"
    assert [d.code for d in result.diagnostics] == ["RTK-Q7"]
    assert smart_truncate("abc", max_chars=10).truncated is False
    assert smart_truncate("x" * 40, max_chars=20).text == "\n[rtk:truncated by chars]\n"[:20]
    # a surrogate pair may be split by the reference, never by strict
    split = smart_truncate("\U0001F600" * 40, max_chars=41)  # head = ceil(15 × 0.55) = 9 units
    assert any(0xD800 <= ord(ch) <= 0xDFFF for ch in split.text)
    kept = smart_truncate("\U0001F600" * 40, max_chars=41, profile="strict")
    assert not any(0xD800 <= ord(ch) <= 0xDFFF for ch in kept.text)


def test_on_empty_only_when_blank():
    assert run("a\nb", rules={"dropPatterns": ["."], "onEmpty": "nothing"}).text == "nothing"
    assert run("", rules={"onEmpty": "ok: empty"}).text == "ok: empty"


def test_toml_limits():
    flt = replace(make(), source_format="rtk-toml-v1", shape="toml", rtk_toml_head_lines=2,
                  rtk_toml_tail_lines=2, rtk_toml_max_lines=None)
    text = "\n".join(str(i) for i in range(10)) + "\n"
    result = apply_line_filter(text, flt)
    assert result.text == "0\n1\n... (6 lines omitted)\n8\n9"
    assert result.applied_rules == ["t:rtk-head-tail"]
    capped = replace(flt, rtk_toml_head_lines=None, rtk_toml_tail_lines=None, rtk_toml_max_lines=3)
    assert apply_line_filter(text, capped).text == "0\n1\n2\n... (7 lines truncated)"


def test_invalid_patterns_are_skipped_with_a_diagnostic_rtk_q3():
    result = run("a\nb", rules={"dropPatterns": ["[", "^a"]})
    assert result.text == "b"
    assert [d.code for d in result.diagnostics] == ["RTK-Q3"]


def test_trace_explains_dropped_and_kept_lines():
    trace = Trace()
    apply_line_filter("noise\nERROR x\nnoise", make(rules={"dropPatterns": ["^noise"]}), trace=trace)
    strip = trace.stages[0]
    assert (strip.stage, strip.lines_in, strip.lines_out, strip.tag) == ("strip", 3, 1, "t:strip")
    assert [(e.line, e.action, e.pattern, e.pointer) for e in strip.events] == [
        (0, "dropped", "^noise", "/rules/dropPatterns/0"), (2, "dropped", "^noise", "/rules/dropPatterns/0")]
    assert trace.to_dict()["stages"][0]["events"][0]["text"] == "noise"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(blacklist_characters="\r"), max_size=200))
def test_a_filter_without_rules_returns_its_input(text):
    assert run(text).text == text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["ok", "info x", "ERROR: disk full", "debug", ""]), min_size=1, max_size=80),
       st.integers(1, 30), st.integers(0, 5), st.integers(0, 5))
def test_error_lines_survive_truncation(lines, max_lines, head, tail):
    flt = make(rules={"maxLines": max_lines, "headLines": head, "tailLines": tail},
               preserve={"errorPatterns": ["^ERROR"]})
    out = apply_line_filter("\n".join(lines), flt).text.split("\n")
    if "ERROR: disk full" in lines:
        assert "ERROR: disk full" in out
