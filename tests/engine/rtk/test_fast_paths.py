"""The engine's fast paths against the plain ones: same text, same tags, same diagnostics.

The plain path is the reference's own shape: every pattern tested on every line by itself
(``LineScanner.min_scan_lines`` above any input size), and filters sorted by one comparison sort.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.jsvalues import bmp_only, utf16_len
from engine.rtk import engine as rtk_engine
from engine.rtk import stages as rtk_stages
from engine.rtk.dedup import deduplicate_lines
from engine.rtk.detect import _SPEC, _cmd, _expand
from engine.rtk.engine import RtkConfig, process_rtk_text
from engine.rtk.linescan import LineScanner, _estimated_count
from engine.rtk.select import _sort_by_comparison, sort_filters
from engine.rtk.stages import apply_line_filter
from engine.rtk.trace import Trace

from .helpers import make

# Lines shaped like test-runner and build output, plus the odd ones: blanks, whitespace-only
# lines, ANSI colour, non-ASCII and astral text, and repeats (dedup and collapse).
WORDS = st.sampled_from([
    "tests/test_a.py::test_x PASSED [ 10%]", "tests/test_b.py::test_y FAILED", "FAILED tests/test_b.py::test_y",
    "E   assert 1 == 2", "tests/test_b.py:12: AssertionError", "src/a.ts(3,4): error TS2322: nope",
    "src/b.ts:1:2 - error TS1005: ';' expected.", "Downloading pkg-1.tgz", "", "   ", "\t",
    "\x1b[32m\u2713\x1b[0m src/x.test.ts (3 tests)", "== 3 passed in 0.12s ==", "warning: unused `x`",
    "Stra\u00dfe \u00e9t\u00e9 \u017f", "\U0001F600 emoji line", "progress: [###]", "platform linux -- Python 3.12",
])
LOG = st.lists(WORDS, min_size=1, max_size=140)

FILTER = make(
    "fast-paths",
    rules={
        "stripAnsi": True,
        "replace": [{"pattern": "^(\\S+\\.py)::(\\S+) PASSED.*$", "replacement": "$1 ok $2"},
                    {"pattern": "\\s+$", "replacement": ""}],
        "dropPatterns": ["^\\s*$", "^progress:", "^\\S+ ok \\S+$", "^platform \\w+ -- Python"],
        "collapsePatterns": ["^Downloading ", "\\u2713"],
        "deduplicate": True, "maxLines": 20, "headLines": 5, "tailLines": 5,
    },
    preserve={"errorPatterns": ["^E\\s", "^FAILED ", "error TS\\d+", "^\\S+\\.py:\\d+: ", "^\\S+\\(\\d+,\\d+\\)"],
              "summaryPatterns": ["^=+ .* in [\\d.]+s"]},
)
INCLUDING = replace(FILTER, id="fast-paths-include", keep_patterns=("FAILED", "error", "^E\\s", "\\u00e9"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(LOG, st.sampled_from([FILTER, INCLUDING]), st.sampled_from(["omniroute", "strict"]))
def test_filter_pipeline_matches_the_per_line_path(monkeypatch, lines, flt, profile):
    text = "\n".join(lines)
    with monkeypatch.context() as patch:
        fast = apply_line_filter(text, flt, profile=profile)
        patch.setattr(LineScanner, "min_scan_lines", 10 ** 9)
        slow = apply_line_filter(text, flt, profile=profile)
    assert fast.to_dict() == slow.to_dict()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(LOG, st.sampled_from([None, "pytest -q", "npx tsc"]))
def test_engine_matches_the_per_line_path(monkeypatch, lines, command):
    text = "\n".join(lines)
    config = RtkConfig.from_dict({"enabled": True, "maxLinesPerResult": 30})
    with monkeypatch.context() as patch:
        fast = process_rtk_text(text, command, config, [FILTER])
        patch.setattr(LineScanner, "min_scan_lines", 10 ** 9)
        slow = process_rtk_text(text, command, config, [FILTER])
    assert fast.to_dict() == slow.to_dict()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LOG, st.sampled_from([FILTER, INCLUDING]), st.sampled_from(["omniroute", "strict"]),
       st.sampled_from(["\n", "\r\n"]))
def test_traced_run_gives_the_plain_runs_output(lines, flt, profile, newline):
    """The IDE's traced run and the plain (fast) run: same text, tags and diagnostics."""
    text = newline.join(lines)
    plain = apply_line_filter(text, flt, profile=profile)
    traced = apply_line_filter(text, flt, profile=profile, trace=Trace())
    assert traced.to_dict() == plain.to_dict()
    config = RtkConfig.from_dict({"enabled": True, "maxLinesPerResult": 30})
    engine_plain = process_rtk_text(text, "pytest", config, [flt], profile=profile).to_dict()
    engine_traced = process_rtk_text(text, "pytest", config, [flt], profile=profile, trace=Trace()).to_dict()
    engine_traced.pop("trace")
    assert engine_traced == engine_plain


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(LOG, st.sampled_from([FILTER, INCLUDING]), st.sampled_from(["omniroute", "strict"]),
       st.sampled_from(["standard", "aggressive"]))
def test_final_cap_with_the_filters_verdicts_equals_asking_again(monkeypatch, lines, flt, profile, intensity):
    """The final cap reuses the preserve-pattern verdicts the filter's line limit found; asking
    the patterns about every line again gives the same result."""
    text = "\n".join(lines)
    config = RtkConfig.from_dict({"enabled": True, "maxLinesPerResult": 12, "intensity": intensity})
    reused = process_rtk_text(text, "pytest", config, [flt], profile=profile).to_dict()
    original = rtk_engine._final_cap

    def without_verdicts(*args, **kwargs):
        return original(*args[:8])

    with monkeypatch.context() as patch:
        patch.setattr(rtk_engine, "_final_cap", without_verdicts)
        asked = process_rtk_text(text, "pytest", config, [flt], profile=profile).to_dict()
    assert reused == asked


def test_unchanged_replace_hands_its_scanner_to_the_line_stages(monkeypatch):
    """A replace rule that rewrites nothing keeps the very same lines, so the next rule and the
    drop stage reuse the prepared text instead of building their own."""
    built = []
    original_init = LineScanner.__init__

    def counting_init(self, lines, blob=None, heads=None):
        built.append(len(lines))
        original_init(self, lines, blob, heads)

    monkeypatch.setattr(LineScanner, "__init__", counting_init)
    lines = [f"line {i}" for i in range(100)] + ["", "tests/a.py::t PASSED [ 1%]"]
    result = apply_line_filter("\n".join(lines), FILTER)
    # rule 1 rewrites the PASSED line (a new scanner for rule 2); rule 2 rewrites nothing, so the
    # drop stage and the priority lines reuse rule 2's scanner.
    assert built == [102, 102]
    assert "tests/a.py ok t" not in result.text  # rewritten, then dropped by ^\S+ ok \S+$
    assert result.applied_rules[:2] == ["fast-paths:replace", "fast-paths:strip"]


IDS = st.sampled_from(["a", "A", "b", "\u00e9", "e", "E", "a-b", "a_b", "ab", "a1", "a10", "a2", "\u00c9", "z"])
FILTERS = st.lists(st.tuples(IDS, st.sampled_from(["builtin", "global", "project"]),
                             st.sampled_from(["omniroute-json", "rtk-toml-v1"]), st.integers(0, 3)),
                   max_size=14)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(FILTERS, st.sampled_from(["omniroute", "strict"]))
def test_sort_by_rank_then_ties_equals_one_comparison_sort(specs, profile):
    filters = [replace(make(fid), source=source, source_format=fmt, priority=priority)
               for fid, source, fmt, priority in specs]
    assert [id(f) for f in sort_filters(filters, profile=profile)] == \
        [id(f) for f in _sort_by_comparison(filters, profile)]


def test_sorted_order_is_remembered_per_filter_set_and_redone_when_a_filter_changes():
    filters = [replace(make(fid), priority=priority) for fid, priority in (("b", 5), ("a", 5), ("c", 9))]
    first = sort_filters(filters)
    again = sort_filters(list(filters))
    assert [f.id for f in again] == [f.id for f in first] == ["c", "a", "b"]
    assert again is not first  # a fresh list each time: callers may change it
    changed = [filters[0], filters[1], replace(filters[2], priority=1)]
    assert [f.id for f in sort_filters(changed)] == ["a", "b", "c"]
    assert [f.id for f in sort_filters(changed, profile="strict")] == ["a", "b", "c"]
    assert [f.id for f in sort_filters(filters)] == ["c", "a", "b"]


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="ab\n", max_size=2000), st.sampled_from(["a", "ab", "\n"]))
def test_estimated_count_is_exact_on_small_text(text, literal):
    assert _estimated_count(text, literal) == text.count(literal)


@pytest.mark.parametrize("literal", ["::", " PASSED", "zz"])
def test_estimated_count_of_a_large_text_is_close(literal):
    lines = [f"tests/t{i % 7}.py::case_{i} PASSED" if i % 3 else f"plain line {i}" for i in range(40_000)]
    text = "\n".join(lines)
    exact = text.count(literal)
    assert abs(_estimated_count(text, literal) - exact) <= 0.05 * exact + 1


COMMAND_SOURCES = [src for _, _, commands, _ in _SPEC for src in commands]
COMMAND = st.lists(st.sampled_from(["git", "GIT", "Git", " ", "\t", "status", "npm", "pnpm", "run", "test", "-m",
                                    "python", "pytest", "./gradlew", "gradle", "tofu", "OpenTofu", "plan", "cat",
                                    "x.json", "\u0130", "\u212a", "\u017f", "ls", "uv", "go", "a"]),
                   max_size=5).map("".join)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(COMMAND)
def test_command_heads_never_reject_a_command_the_pattern_matches(command):
    for source in COMMAND_SOURCES:
        plain = re.match(_expand(source), command, re.ASCII | re.IGNORECASE) is not None
        assert (_cmd(source)(command) is not None) == plain, (source, command)


def test_preserve_patterns_are_compiled_only_when_the_limit_cuts():
    flt = make("lazy-preserve", rules={"maxLines": 5, "headLines": 1, "tailLines": 1},
               preserve={"errorPatterns": ["(unclosed", "^keep"], "summaryPatterns": []})
    short = apply_line_filter("a\nb\nc", flt)
    assert short.text == "a\nb\nc" and short.diagnostics == []
    long = apply_line_filter("\n".join(["x"] * 8 + ["keep me"] + ["y"] * 8), flt)
    assert "keep me" in long.text.split("\n")
    assert [d.code for d in long.diagnostics if d.level == "warning"] == ["RTK-Q3"]
    assert "(unclosed" in long.diagnostics[0].message


def _naive_runs(lines: list[str], threshold: int) -> list[tuple[int, int]]:
    """Runs of equal, non-blank lines at least ``threshold`` long, one line at a time."""
    runs, start = [], 0
    for i in range(1, len(lines) + 1):
        if i == len(lines) or lines[i] != lines[start]:
            if i - start >= threshold and lines[start].strip():
                runs.append((start, i - start))
            start = i
    return runs


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "", " ", "ccc", "\u00e9"]), max_size=40), st.integers(2, 5))
def test_dedup_finds_the_runs_a_line_by_line_scan_finds(lines, threshold):
    """Runs are found from the equal-neighbour pairs at C speed; a plain scan finds the same."""
    found = deduplicate_lines(lines, threshold, profile="omniroute")
    assert found.runs == _naive_runs(lines, threshold)
    gone = {i for start, length in found.runs for i in range(start + 1, start + length)}
    assert [line for line in found.lines if not line.startswith("[")] == \
        [line for i, line in enumerate(lines) if i not in gone]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x1FFFF), max_size=30))
def test_bmp_only_agrees_with_the_utf16_length(text):
    """The string-width shortcut answers as the UTF-16 encoding does (lone surrogates included)."""
    assert bmp_only(text) == (utf16_len(text) == len(text))
    for prefix in ("", "a", "\u00e9", "\u2713", "\U0001F600", "\ud800", "\udfff\u00e9"):
        assert bmp_only(prefix + text) == (utf16_len(prefix + text) == len(prefix + text))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(WORDS, st.integers(1, 6)), min_size=1, max_size=40))
def test_dedup_runs_carry_the_line_view_to_the_limit(monkeypatch, runs):
    """Runs of repeated lines collapse before the line limit asks the preserve patterns: the
    hits found before dedup, carried over its runs, give what scanning afresh gives."""
    text = "\n".join(line for line, count in runs for _ in range(count))
    original = rtk_stages._dedup

    def dedup_then_forget_the_view(run, lines):
        out = original(run, lines)
        run.view = None  # the limit scans the deduplicated lines afresh
        return out

    carried = apply_line_filter(text, FILTER)
    with monkeypatch.context() as patch:
        patch.setattr(rtk_stages, "_dedup", dedup_then_forget_the_view)
        fresh = apply_line_filter(text, FILTER)
    assert carried.to_dict() == fresh.to_dict()
