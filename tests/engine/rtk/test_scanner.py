"""The blob line scanner must answer exactly what a per-line ``pattern.test(line)`` answers."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.rtk.engine as engine_module
from engine.rtk.detect import detect_command_type
from engine.rtk.engine import RtkConfig, process_rtk_text
from engine.rtk.linescan import LineScanner
from engine.rtk.patterns import compile_list
from engine.rtk.priority import DEFAULT_PRIORITY, default_priority_lines

from .helpers import make

# Patterns that stress every path: anchored literals, required literals, classes that cross line
# breaks (\s, [^x]), empty matches, $ at line ends, alternation, backreferences, lookarounds
# (per-line path), case folding, non-ASCII and astral text.
PATTERNS = [
    "^\\s*$", "^\\s+$", "^$", "^E\\s+", "^FAILED ", "error", "ERROR", "^\\S+::\\S+ PASSED", "^\\S+\\.py:\\d+: ",
    "a\\s+b", "x[^y]*y", "", "$", "^", "\\s$", "^(?:ab|cd)", "^a|b$", "(\\w)\\1", "(?<=a)b", "b(?!c)",
    "\u00e9t\u00e9", "\u2713 ", "\U0001F600", "^..$", "k", "s\\b", "\\d{2,}", "^\\s{2}\\S+", "end\\s*$",
    "ab.*cd", "\u00e9.*\u00c9", "PASSED.*::", "^a.*b", "\U0001F600.*x",
    # line-start scan (``\\n(?:…)``): classes and \\s that may run into the next line, a backreference,
    # empty lines, $ right after ^; and leading-literal blob scans.
    "^\\S+\\s+x", "^a\\s*$", "^[^x]*y", "^\\s", "^.*$", "^(?:a|b\\s)+c", "^(\\S)\\s*\\1", "^=*\\s",
    "^\\S+::\\S+\\s+PASSED$", "e\\s+\\d", "s+\\s*$", ":{2}\\S", "\\.\\s", "e?x", "a{0,2}b",
    # lookarounds: line-local ones are scanned, the others tested line by line
    "^(?!a)\\S+", "x(?=\\s*y)", "(?<!\\S)a", "a(?=.)", "a(?!.)", "(?<=^|:)e", "^(?=.*PASSED).*::", "s(?=$)",
    "(?<=\\bk)s", "(?<=a\\s)b", "(?<![a-z])E", "^(?!.* -> )\\w+", ":(?=\\S)", "(?<=[.:])\\s",
    # top-level alternation split into its alternatives (not when a backreference ties them)
    "^a\\s*$|x\\s+y", "PASSED|^E|\\d$", "[|]|k", "x|", "(a)|\\1b", "^\\s|e\\s|(?=x)", "\\u2713|\\u00e9", "\\u2713 |x\\u00e9",
    # a leading group of alternatives distributed over the rest
    "(?:^|:\\s)\\w*(?:PASSED|e)\\b", "(a|\\s)+x", "(?:^|k)\\s*$", "(e|(s|x))y?", "(a|b)c\\1",
    # line heads (``^x+``, ``^x{n,}``) and literals read through plain groups
    "^k+s", "^\\.{2,}x", "^=+\\s", "^(\\S+\\.py) x", "^(?:ab)c", "(\\S+:)(\\d)", "^(?<n>ab)\\s",
]
# (U+0085 and U+FEFF are where `regex`'s own \\s differs from JavaScript's: a text holding one
# must not be scanned with the native classes.)
ALPHABET = st.sampled_from([*"abcdeEkKsxy:.-_ =12\t", "\u00e9", "\u00c9", "\u017f", "\u212a", "\u2713",
                            "\U0001F600", "PASSED", "FAILED", "::", "\r", "\x85", "\ufeff", "\u00a0", ".py"])
LINE = st.lists(ALPHABET, max_size=12).map("".join)


@pytest.fixture(autouse=True)
def _always_scan(monkeypatch):
    """The blob paths are what these tests check: scan even the few lines hypothesis makes."""
    monkeypatch.setattr(LineScanner, "min_scan_lines", 0)


def per_line(pattern, lines):
    return [i for i, line in enumerate(lines) if pattern.test(line)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINE, min_size=1, max_size=12), st.sampled_from(["i", ""]))
def test_scanner_hits_equal_per_line_tests(lines, flags):
    patterns, invalid = compile_list(PATTERNS, flags)
    assert invalid == []
    scanner = LineScanner(lines)
    for pattern in patterns:
        assert scanner.hits(pattern) == per_line(pattern, lines), pattern.source


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.lists(LINE, min_size=1, max_size=12), st.integers(1, 12), st.sampled_from(["i", ""]))
def test_default_threshold_gives_the_same_hits(lines, copies, flags):
    """Small inputs are tested line by line, larger ones scanned: both answer the same."""
    many = lines * copies
    patterns, _ = compile_list(PATTERNS, flags)
    for pattern in patterns:
        expected = per_line(pattern, many)
        for threshold in (0, 48, len(many) + 1):
            scanner = LineScanner(many)
            scanner.min_scan_lines = threshold
            assert scanner.hits(pattern) == expected, (pattern.source, threshold)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINE, min_size=1, max_size=12))
def test_superset_mode_never_misses_a_line(lines):
    patterns, _ = compile_list(PATTERNS, "g")
    scanner = LineScanner(lines)
    for pattern in patterns:
        assert set(per_line(pattern, lines)) <= set(scanner.hits(pattern, exact=False)), pattern.source


PRIORITY_WORDS = st.sampled_from([
    "error", "ErRoR", "err", "fail", "FAILED", "fai", "exception", "Traceback", "trace", "ts", "TS", "Ts",
    "1", "12", "1234", "\u2716", "\u2715", "\u0130", "\u017f", "\u212a", "\U0001F600", "\ud800", " ", "x", "\r",
])


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(PRIORITY_WORDS, max_size=8).map("".join), max_size=12))
def test_default_priority_lines_equal_the_pattern_per_line(lines):
    """The lower-cased-bytes search finds exactly the lines ``DEFAULT_PRIORITY`` matches."""
    assert default_priority_lines(lines) == [i for i, line in enumerate(lines) if DEFAULT_PRIORITY.search(line)]


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINE, min_size=1, max_size=12), st.sampled_from(["i", ""]))
def test_hits_with_the_heads_detection_read_equal_per_line_tests(lines, flags):
    """A scanner handed detection's line heads (one- and two-character ones mixed) answers as
    one that reads them itself; detection hands none when the output has other line breaks."""
    text = "\n".join(lines)
    heads = detect_command_type(text, None, lines=lines).line_heads
    if heads is None:
        assert any(c in text for c in "\r\u2028\u2029")
        return
    assert heads == frozenset({line[:2] for line in lines} | {line[:1] for line in lines})
    patterns, _ = compile_list(PATTERNS, flags)
    scanner = LineScanner(lines, heads=heads)
    for pattern in patterns:
        assert scanner.hits(pattern) == per_line(pattern, lines), pattern.source


def test_the_engine_hands_the_filter_stage_the_heads_detection_read():
    lines = [f"== {i} passed" if i % 5 else f"FAILED t{i}" for i in range(200)]
    text = "\n".join(lines)
    config = RtkConfig.from_dict({"enabled": True})
    flt = make(match={"commands": ["^pytest"]}, rules={"dropPatterns": ["^== 1", "^zz", "^FAILED t1"], "maxLines": 40})
    handed = []
    original = LineScanner.__init__

    def spy(self, lines, blob=None, heads=None):
        handed.append(heads)
        original(self, lines, blob, heads)

    def without_heads(*args, **kwargs):
        return replace(detect_command_type(*args, **kwargs), line_heads=None)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LineScanner, "__init__", spy)
        shared = process_rtk_text(text, "pytest", config, [flt])
        patch.setattr(engine_module, "detect_command_type", without_heads)
        handed_before = len(handed)
        own = process_rtk_text(text, "pytest", config, [flt])
    assert shared.filter is flt
    assert handed[0] == frozenset({line[:2] for line in lines} | {line[:1] for line in lines})
    assert handed[handed_before:] and all(heads is None for heads in handed[handed_before:])
    assert (shared.text, shared.rules_applied) == (own.text, own.rules_applied)
    assert "t:strip" in shared.rules_applied
