
"""Line templates and the patterns built from them (engine.rtk.learn.normalise / noise)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.jsregex import compile_js
from engine.jsregex.backtracking import linear_attempts
from engine.rtk.learn.noise import read_lines, unit_pattern
from engine.rtk.learn.normalise import head_length, pattern_for, template, template_text, tokenize
from engine.rtk.model import is_redos_prone

# Values of each placeholder kind, and literal words: lines are built from them.
VALUES = {
    "number": st.integers(0, 10**6).map(str),
    "version": st.tuples(st.integers(0, 30), st.integers(0, 99), st.integers(0, 999)).map(
        lambda v: f"v{v[0]}.{v[1]}.{v[2]}"),
    "duration": st.tuples(st.integers(0, 99), st.integers(0, 99)).map(lambda v: f"{v[0]}.{v[1]:02d}s"),
    "size": st.tuples(st.integers(1, 999), st.sampled_from(["kB", "MB", "GiB"])).map(lambda v: f"{v[0]}{v[1]}"),
    "percent": st.integers(0, 100).map(lambda v: f"{v}%"),
    "path": st.lists(st.sampled_from(["src", "lib", "pkg", "a.py", "main.rs", "node_modules"]), min_size=2,
                     max_size=4).map("/".join),
    "hash": st.integers(16**7, 16**12).map(lambda v: format(v, "x") + "a1"),
    "url": st.sampled_from(["https://registry.npmjs.org/zod", "http://example.test/a?b=1"]),
}
WORDS = st.sampled_from(["Compiling", "Downloading", "Resolving", "Fetching", "Step", "RUN", "Installing", "ok",
                         "done", "layer", "package", "from", "in", "cached"])
PUNCT = st.sampled_from(["(", ")", "[", "]", ":", "#", "=>", "--", ","])
PIECE = st.one_of(WORDS, PUNCT, *VALUES.values())


@st.composite
def lines(draw):
    indent = draw(st.sampled_from(["", "  ", "    ", "\t"]))
    first = draw(WORDS)
    rest = draw(st.lists(PIECE, max_size=7))
    seps = draw(st.lists(st.sampled_from([" ", "  ", " "]), min_size=len(rest), max_size=len(rest)))
    return indent + first + "".join(s + p for s, p in zip(seps, rest))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines())
def test_a_template_pattern_matches_its_own_line_and_is_proved_linear(line):
    tpl = template(tokenize(line))
    for length in (head_length(tpl), len(tpl)):
        pattern = pattern_for(tpl, length, anchored_end=length == len(tpl))
        assert compile_js(pattern, "i").search(line) is not None, (line, pattern)
        assert linear_attempts(pattern, "i"), pattern
        assert not is_redos_prone(pattern), pattern


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines(), min_size=1, max_size=6), st.lists(lines(), min_size=1, max_size=6))
def test_a_unit_pattern_matches_every_line_it_was_built_from_and_no_guarded_line(unit_texts, guard_texts):
    sample = read_lines([unit_texts + guard_texts])
    unit, guard = sample[:len(unit_texts)], sample[len(unit_texts):]
    guard = [g for g in guard if g.text.strip() not in {u.text.strip() for u in unit}]
    pattern = unit_pattern(unit, guard)
    if pattern is None:  # refused: no cut of the template separates the unit from the guard
        return
    rx = compile_js(pattern, "i")
    assert all(rx.search(u.text) is not None for u in unit)
    assert not any(rx.search(g.text) is not None for g in guard)
    assert linear_attempts(pattern, "i")


def test_values_are_generalised_and_words_are_kept():
    a = template(tokenize("   Compiling serde v1.0.215 (/home/dev/ledger) in 18.42s, 16.0MB, 45%"))
    assert template_text(a) == "  Compiling serde <version> (<path>) in <duration>, <size>, <percent>"
    assert template(tokenize("   Compiling serde v2.0.1 (/srv/x) in 1.2s, 3kB, 9%")) == a
    assert template_text(template(tokenize("commit 3f9a2c1d7e at 2026-11-30T06:30:26Z"))) == \
        "commit <hash> at <timestamp>"
    assert template_text(template(tokenize("=============== 3 passed ==="))) == "===… <number> passed ===…"


def test_a_word_glued_to_a_value_is_part_of_the_value():
    assert template_text(template(tokenize("tests/test_x.py::test_total PASSED [ 10%]"))) == \
        "<path>::<var> PASSED [ <percent>]"
    assert template_text(template(tokenize("#8 naming to docker.io/library/api:latest done"))) == \
        "#<number> naming to <path>:<var> done"


def test_a_pattern_stops_after_the_first_value_that_follows_the_head():
    unit = read_lines([["   Compiling serde v1.0.215", "   Compiling proc-macro2 v1.0.92",
                        "   Compiling ledger v0.3.1 (/home/dev/ledger)"]])
    assert unit_pattern(unit, []) == r"^\s+Compiling \S"


def test_a_pattern_grows_until_it_misses_the_protected_lines():
    sample = read_lines([["Downloading zod 1.2.3 done", "Downloading react 18.1.0 done",
                          "Downloading left-pad failed: 404"]])
    pattern = unit_pattern(sample[:2], sample[2:])
    rx = compile_js(pattern, "i")
    assert rx.search("Downloading vue 3.0.0 done") and not rx.search("Downloading left-pad failed: 404")
