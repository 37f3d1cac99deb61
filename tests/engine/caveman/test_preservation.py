"""Protected regions: each kind, order, placeholders, restore (spec §3)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.caveman.fast import FastRegex
from engine.caveman.preservation import (
    DEFAULT_PRESERVE_PATTERNS,
    MARKER,
    choose_seed,
    extract,
    has_structure,
    restore,
)


def kinds(text: str, *, profile: str = "omniroute", custom=()) -> list[tuple[str, str]]:
    return [(b.kind, b.content) for b in extract(text, list(custom), profile=profile).blocks]


@pytest.mark.parametrize("text, expected", [
    ("---\ntitle: x\n---\nbody", [("frontmatter", "---\ntitle: x\n---\n")]),
    ("---\ntitle: x\n---", [("frontmatter", "---\ntitle: x\n---")]),
    ("intro\n```js\nlet a = 1;\n```\nafter", [("fenced_code", "```js\nlet a = 1;\n```\n")]),
    ("~~~~\ncode\n~~~\nstill\n~~~~~\n", [("fenced_code", "~~~~\ncode\n~~~\nstill\n~~~~~\n")]),
    ("price $5 and $$x^2$$ done", [("math_block", "$$x^2$$")]),
    ("we have $a+b$ here", [("math_inline", "$a+b$")]),
    ("\\begin{eq}x\\end{eq} tail", [("latex_block", "\\begin{eq}x\\end{eq}")]),
    ("# Title\nbody", [("markdown_heading", "# Title")]),
    ("| a | b |\nrest", [("markdown_table", "| a | b |")]),
    ("#set page(width: 1cm)\nbody", [("typst_directive", "#set page(width: 1cm)")]),
    ("run `npm test` now", [("inline_code", "`npm test`")]),
    ("see [docs](http://x.io \"T\") now", [("markdown_link", "[docs](http://x.io \"T\")")]),
    ("go to HTTPS://Example.org/a. ok", [("url", "HTTPS://Example.org/a.")]),
    ("use MAX_RETRY and HTTP_2 not Foo_BAR", [("const_case", "MAX_RETRY"), ("const_case", "HTTP_2")]),
    ("read process.env.apiKey now", [("env_var", "process.env.apiKey")]),
    ("read process.env.API_KEY now", [("const_case", "API_KEY")]),  # const_case runs first
    ("echo $HOME but $home", [("env_var", "$HOME")]),
    ("bump to 1.2.3-beta.1 today", [("version", "1.2.3-beta.1")]),
    ("call os.path.join() or see a.b", [("dotted_identifier", "os.path.join()")]),
    ("then see (below) ok", [("function_call", "see (below)")]),
    ("C:\\Users\\me is here", [("file_path", "C:\\Users")]),
    ("oops TypeError: boom\nnext", [("error_message", "TypeError: boom")]),
])
def test_each_kind(text, expected):
    assert kinds(text) == expected


def test_file_path_keeps_its_leading_blank():
    assert kinds("open ./src/app.ts now") == [("file_path", " ./src/app.ts")]


def test_kinds_never_nest_and_spans_are_utf16():
    ex = extract("😀 `a` and https://x.io/`b`", [])
    assert [(b.kind, b.content, b.start, b.end) for b in ex.blocks] == [
        ("inline_code", "`a`", 3, 6), ("inline_code", "`b`", 24, 27)]
    # the URL candidate would swallow the `b` placeholder, so it stays unprotected
    assert restore(ex.text, ex) == "😀 `a` and https://x.io/`b`"


def test_quirk_q10_mismatched_latex_names_and_strict_fix():
    text = "\\begin{a}x\\end{b} y"
    assert kinds(text) == [("latex_block", "\\begin{a}x\\end{b}")]
    notes = extract(text, []).notes
    assert [n[0] for n in notes] == ["CAV-Q10"]
    assert kinds(text, profile="strict") == []


def test_quirk_q16_empty_frontmatter_and_strict_fix():
    text = "---\n---\nbody\nmore"
    assert kinds(text) == []
    assert kinds(text, profile="strict") == [("frontmatter", "---\n---\n")]
    closed_later = "---\n---\nbody\n---\ntail"
    assert kinds(closed_later) == [("frontmatter", "---\n---\nbody\n---\n")]


def test_quirk_q12_dotted_names_need_a_paren_unless_strict():
    """CAV-Q12: the reference protects a dotted identifier only before ``(``; strict protects it anyway."""
    assert kinds("the response.data field") == []
    assert kinds("the response.data field", profile="strict") == [("dotted_identifier", "response.data")]


def test_unclosed_fence_is_plain_text_and_a_later_one_pairs():
    # "```py" is not a closer (text after the run), so the first opener pairs with the last line
    assert kinds("```\nno close\n```py\nx\n```\n") == [("fenced_code", "```\nno close\n```py\nx\n```\n")]
    # a shorter run does not close; the opener stays plain and scanning resumes on the next line
    assert kinds("````\nx\n```\n") == []


def test_default_patterns_and_their_start_anchor():
    custom = [FastRegex(p, "g") for p in DEFAULT_PRESERVE_PATTERNS]
    assert ("custom", "  at ") in kinds("  at foo", custom=custom)
    # CAV-Q17: without "m" only the very start counts
    assert all(k != "custom" or "at" not in c for k, c in kinds("x\n  at foo", custom=custom))


def test_placeholder_is_never_rewrapped_and_restore_is_exact():
    seed = choose_seed("text")
    assert any(c in "abcdef" for c in seed) and len(seed) == 16
    text = "A_B then `c` and D_E"
    ex = extract(text, [])
    assert MARKER not in text and all(MARKER in b.placeholder for b in ex.blocks)
    assert restore(ex.text, ex) == text
    # a duplicated placeholder duplicates the content; a deleted one loses it
    first = ex.blocks[0]
    assert restore(ex.text + first.placeholder, ex) == text + first.content


def test_seed_avoids_the_input():
    seed = choose_seed("")
    assert choose_seed(f"xx {seed} yy") != seed


def test_structure_check():
    assert not has_structure("plain words only here")
    assert has_structure("see `code` please")
    assert has_structure("values like 1.2.3 count")


# ---------------------------------------------------------------- segments and spans from a split


def _plain_segments(text, ex):
    """The loop over placeholder matches that ``segments`` replaced."""
    out, last, contents = [], 0, [b.content for b in ex.blocks]
    for m in ex.placeholder_re.finditer(text):
        n = int(m.group(1))
        if n >= len(contents):
            continue
        if m.start() > last:
            out.append((text[last:m.start()], False))
        out.append((contents[n], True))
        last = m.end()
    if last < len(text):
        out.append((text[last:], False))
    return out


def _joined_with_spans(pieces):
    """The pieces put together, and where each protected one landed (Python indices)."""
    spans, at = [], 0
    for piece, protected in pieces:
        if protected:
            spans.append((at, at + len(piece)))
        at += len(piece)
    return "".join(piece for piece, _protected in pieces), spans


def _u16(s):
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def _plain_spans(ex):
    """The loop over placeholder matches that ``_locate`` replaced: UTF-16 spans per block."""
    by_placeholder = {b.placeholder: b for b in ex.blocks}
    spans, pos, last = {}, 0, 0
    for m in ex.placeholder_re.finditer(ex.text):
        block = by_placeholder.get(m.group(0))
        if block is None:
            continue
        pos += m.start() - last
        end = pos + len(block.content)
        spans[block.n] = (_u16(ex.original[:pos]), _u16(ex.original[:end]))
        pos, last = end, m.end()
    return spans


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(("a", " ", "😀", "é", "\n")), st.integers(0, 6), st.just("007"),
                          st.just("12")), max_size=16))
def test_segments_restore_and_block_spans_from_a_split_equal_the_match_loop(items):
    from engine.caveman.preservation import (
        Block,
        Extraction,
        _locate,
        placeholder_text,
        restore_with_spans,
        segments,
    )

    seed = "abc123def4567890"
    blocks, text, original = [], [], []
    for item in items:
        if isinstance(item, int) and item < 4:  # a block of this extraction (numbered in order)
            content = f"<{len(blocks)}😀>"
            blocks.append(Block(len(blocks), "kind", content, placeholder_text(seed, str(len(blocks)))))
            text.append(blocks[-1].placeholder)
            original.append(content)
        elif isinstance(item, int) or item in ("007", "12"):  # a placeholder of no block here
            fake = placeholder_text(seed, str(item + 90) if isinstance(item, int) else item)
            text.append(fake)
            original.append(fake)
        else:
            text.append(item)
            original.append(item)
    ex = Extraction("".join(original), "".join(text), blocks, seed)
    assert segments(ex.text, ex) == _plain_segments(ex.text, ex)
    assert segments(ex.text + "tail", ex) == _plain_segments(ex.text + "tail", ex)
    for restored_from in (ex.text, ex.text + "tail", "head" + ex.text):
        joined, spans, numbers = restore_with_spans(restored_from, ex)
        assert (joined, spans) == _joined_with_spans(_plain_segments(restored_from, ex))
        # the block each span holds, in order: the placeholders of this extraction, as they stand
        put_back = [int(m.group(1)) for m in ex.placeholder_re.finditer(restored_from)]
        assert numbers == [n for n in put_back if n < len(ex.blocks)]
        assert [joined[a:b] for a, b in spans] == [ex.blocks[n].content for n in numbers]
    expected = _plain_spans(ex)
    _locate(ex)
    assert {b.n: (b.start, b.end) for b in ex.blocks if b.n in expected} == expected


CONST_BITS = ("MAX_RETRY", "A_B", "HTTP_2", "x", " ", "`c`", "[l](u)", "# h\n", "OMNI_CAVEMAN_ABC_1", "\x00",
              "OMNI", "OMNI_X", "_", "Z9_", "😀", "é", "\n", "f(x)", "v1.2.3")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789abcdef", min_size=1, max_size=16).filter(lambda s: any(c in "abcdef" for c in s)),
       st.integers(0, 10**6), st.sampled_from(("", " ", "\x00", "_X", "A", ".")))
def test_const_case_never_matches_at_a_placeholder_start(seed, n, after):
    """Why ``const_case`` may skip the first letter of every placeholder whose seed holds a
    lowercase letter (``preservation._off_placeholders``): the JS pattern has no match there."""
    from engine.caveman.preservation import PATTERN_KINDS, placeholder_text
    from engine.jsregex import compile_js

    kind = next(k for k in PATTERN_KINDS if k.name == "const_case")
    text = "x " + placeholder_text(seed, str(n)) + after
    rx = compile_js(kind.source, "y")
    rx.last_index = 3  # the "O" of "OMNI"
    assert rx.exec(text) is None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(CONST_BITS), max_size=60))
@example(["`c`", " ", "OMNI_X", " ", "\x00", "OMNI_CAVEMAN_ABC_1", "\x00", " ", "A_B"])
def test_const_case_skipping_placeholders_changes_no_extraction(bits):
    """The same blocks, text and notes with and without the skip (input that imitates a
    placeholder with an uppercase seed included: only the extraction's own seed is skipped)."""
    import re

    import engine.caveman.preservation as preservation
    from engine.caveman.fast import FastRegex

    unit = "".join(bits) + " pad\n"
    text = unit * (FastRegex.MIN_LENGTH // len(unit) + 1)  # long enough for candidate positions
    with_skip = extract(text, [])
    saved = preservation._SEED_STOPS_RUNS
    preservation._SEED_STOPS_RUNS = re.compile("(?!)")  # no seed qualifies: every candidate is tried
    try:
        without = extract(text, [])
    finally:
        preservation._SEED_STOPS_RUNS = saved
    assert with_skip.text == without.text and with_skip.notes == without.notes
    assert [(b.kind, b.content, b.start, b.end) for b in with_skip.blocks] == \
        [(b.kind, b.content, b.start, b.end) for b in without.blocks]


def test_a_seed_without_a_lowercase_letter_is_not_skipped():
    """Without the lowercase letter a placeholder's start does match, so no skip is made."""
    from engine.caveman.preservation import PATTERN_KINDS, placeholder_text
    from engine.jsregex import compile_js

    kind = next(k for k in PATTERN_KINDS if k.name == "const_case")
    rx = compile_js(kind.source, "y")
    rx.last_index = 3
    assert rx.exec("x " + placeholder_text("0123", "5")) is not None
    assert kind.compile("0123") is kind.compile("")  # (the plain candidates)
    assert kind.compile("0a23") is not kind.compile("")


def test_placeholder_numbers_are_ascii_digits():
    """As the reference's ``\\d`` in JavaScript: a number in other digits is no placeholder (and
    Python's ``int`` would read it as one)."""
    from engine.caveman.preservation import placeholder_pattern, placeholder_text

    seed = "abc123def4567890"
    assert placeholder_pattern(seed).fullmatch(placeholder_text(seed, "12"))
    assert placeholder_pattern(seed).search(placeholder_text(seed, "\u0661\u0662")) is None
