"""Which separators a pattern sees as a text's edge (``engine.jsregex.edges``), checked
against the matches the regex layer itself finds in the texts joined and alone."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.jsregex import compile_js
from engine.jsregex.edges import separators_for, start_twin

NL, NUL, RS = "\n", "\x00", "\x1e"
BOTH = (NL, NUL, RS)


@pytest.mark.parametrize("pattern, flags, expected, why", [
    (r"\b(?:basically|really)\b\s*", "gi", BOTH, "a line break read by \\s is seen in the match"),
    (r"\b(?:[Aa]n|[Tt]he)\s+(?=[a-z])", "g", BOTH, "the lookahead's body holds no line break"),
    (r"(?<![a-z])\bsimply\b", "gi", BOTH, "nor the lookbehind's"),
    (r"(?<!make\s)\bsure\b", "gi", (NUL, RS), "a lookbehind that reads a line break, not NUL nor RS"),
    (r"(?<![^a-z])sure", "gi", (), "a lookbehind that reads either"),
    (r"(?<=.)x", "g", (NL,), "a dot reads no line break (but NUL and RS)"),
    (r"(?<=.)x", "gs", (), "a dot under s reads both"),
    (r"^- ", "gm", (NL,), "^ with m: a line break is a line's edge"),
    (r"^-(?!\s)", "gm", (), "^ with m needs the line break a lookahead would read"),
    (r"^(?:Hi|Hello)\s*", "gi", (), "^ without m holds at the joined text's start alone"),
    (r"done\.?$", "g", (), "$ without m"),
    (r"(?:^|\s)(\.{0,2}/[\w./\-]+)", "g", (NL,), "^ without m, where \\s takes the separator instead"),
    (r"(^|\s)/x\1", "g", (), "… but not when a back-reference repeats that group"),
    (r"(?:^|x)/", "g", (), "… nor when no alternative can take it"),
    (r"(\w+) \1", "g", BOTH, "a back-reference consumes what it repeats"),
    (r"\bfoo\b", "gi", BOTH, "a constant"),
    (r"\bfoo\b", "i", (), "not global: one match per part"),
    (r"\bfoo\b", "gy", (), "sticky: lastIndex is state"),
    (r"\bfoo\b", "gu", (), "u: code points"),
    (r"x*", "g", BOTH, "empty matches (one at each part's end)"),
])
def test_which_separators_a_pattern_sees_as_an_edge(pattern, flags, expected, why):
    assert separators_for(pattern, flags) == expected, why




def _matches(source: str, flags: str, text: str) -> list[tuple[int, str]]:
    """Every match of JavaScript's replace loop: (offset, matched)."""
    found: list[tuple[int, str]] = []
    compile_js(source, flags).replace(text, lambda m: found.append((m.index, m.match)) or m.match)
    return found


# patterns with every construct the analysis weighs, and texts with every character it cares about
PATTERNS = [
    (r"\b(?:ab|b)\b\s*", "gi"), (r"(?<![a-z])b+", "g"), (r"(?<!a\s)\bb", "g"), (r"a(?=\s)", "g"),
    (r"(?<=.)b", "g"), (r"(?<=.)b", "gs"), (r"^a+", "gm"), (r"b$", "gm"), (r"^a", "g"), (r"(?:^|\s)(/\w+)", "g"),
    (r"(^|\s)a\1", "g"), (r"[^ab]+", "g"), (r"a[\s\S]*?b", "g"), (r"(\w)\1", "g"), (r"b*", "g"),
    (r"\s+$", "gm"), (r"a.b", "g"), (r"\Ba\B", "g"),
]
CHARACTERS = "ab /\n\t.\x00\x1e"


def _layout(texts: list[str]) -> tuple[list[int], list[int]]:
    """Where each text starts in the join, and where its separator stands."""
    starts = [sum(len(t) + 1 for t in texts[:k]) for k in range(len(texts))]
    return starts, [s + len(t) for s, t in zip(starts, texts)]


def _crossed(found: list[tuple[int, str]], starts: list[int], ends: list[int]) -> set[int]:
    """The texts a match holding a separator touched: from the one it starts in to the one it ends in."""
    out: set[int] = set()
    for at, m in found:
        first = max(k for k, s in enumerate(starts) if s <= at)
        if at + len(m) > ends[first] and first + 1 < len(starts):
            out.update(k for k in range(first, len(starts)) if starts[k] <= at + len(m))
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet=CHARACTERS, max_size=8), min_size=2, max_size=5),
       st.integers(0, len(PATTERNS) - 1))
@example(["a", "/ab"], PATTERNS.index((r"(?:^|\s)(/\w+)", "g")))  # (^ held at the text's start alone)
@example(["a", "b"], PATTERNS.index((r"(?<!a\s)\bb", "g")))  # (a lookbehind that would read "a\n")
def test_each_texts_matches_in_the_joined_text_are_its_own(texts, which):
    """On every separator it gives, a text no match ran into or out of has, in the joined text,
    exactly the matches it has alone (texts may hold the separators themselves)."""
    source, flags = PATTERNS[which]
    alone = [_matches(source, flags, t) for t in texts]
    starts, ends = _layout(texts)
    for separator in separators_for(source, flags):
        found = _matches(source, flags, separator.join(texts))
        for k in set(range(len(texts))) - _crossed(found, starts, ends):
            mine = [(at - starts[k], m) for at, m in found if starts[k] <= at <= ends[k]]
            assert mine == alone[k], (source, flags, repr(separator), texts, k)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=CHARACTERS, max_size=8), min_size=2, max_size=5))
def test_a_start_twin_matches_at_each_texts_start_what_the_pattern_does(texts):
    starts, ends = _layout(texts)
    for source, flags in [(r"^a+\s*", "g"), (r"^\s*(?:ab|a):?", "gi"), (r"^(?:a|b)\b", "g")]:
        twin = start_twin(source, flags)
        assert twin == flags + "m"
        found = _matches(source, twin, "\n".join(texts))
        for k in set(range(len(texts))) - _crossed(found, starts, ends):
            head = [m for at, m in found if at == starts[k]]
            assert head == [m for _at, m in _matches(source, flags, texts[k])], (source, texts, k)


def test_no_start_twin_where_the_pattern_is_not_anchored_at_the_start_alone():
    assert start_twin(r"^a|b", "g") is None  # (an alternative not anchored)
    assert start_twin(r"^a$", "g") is None  # (another line anchor)
    assert start_twin(r"^a(?=\s)", "g") is None  # (a lookahead that would read the line break)
    assert start_twin(r"^a", "gm") is None  # (already m)
