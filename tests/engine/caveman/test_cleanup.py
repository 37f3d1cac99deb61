"""Cleanup and recapitalisation after the rules (spec §9): whitespace scans, sentence capitals, CAV-Q14."""

from __future__ import annotations

import pytest

from engine.caveman.cleanup import cleanup, cleanup_segments, recapitalize


def test_steps_in_order():
    assert cleanup("a  b\t\tc") == "a b c"
    assert cleanup("a , b ; c\t!") == "a, b; c!"
    assert cleanup("wait... what?! really!?") == "wait. what! really?"
    assert cleanup("line one  \nline two\t\nthree") == "line one\nline two\nthree"
    assert cleanup("\n\nhead\n\n\n\n\nbody\n\n") == "head\n\nbody"
    assert cleanup("end \u00a0 ") == "end"  # ends with a blank: JS trimEnd (NBSP included)
    assert cleanup("end \n \u00a0") == "end\n \u00a0"  # NBSP is not a blank for step 4


def test_single_tab_survives():
    assert cleanup("a\tb") == "a\tb"


def test_crlf_is_ignored_unless_strict():
    """CAV-Q14: the reference's cleanup ignores ``\\r``; strict (``crlf``) reads ``\\r\\n`` as a line break."""
    text = "one \r\ntwo\r\n\r\n\r\n\r\nthree"
    assert cleanup(text) == text
    assert cleanup(text, crlf=True) == "one\r\ntwo\r\n\r\nthree"


def test_recapitalize_positions():
    assert recapitalize("hello. world! yes? no.  two\n  indented\nélan") == \
        "Hello. World! Yes? No.  two\n  Indented\nélan"


def test_segment_cleanup_leaves_protected_pieces_alone():
    pieces = [("text  ,", False), ("  code  ...\n", True), ("\n\n\nmore  ", False)]
    assert cleanup_segments(pieces) == "text,  code  ...\n\n\nmore"


# ---------------------------------------------------------------- differential: byte views vs regex

import re  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from engine.caveman.cleanup import collapse_spaces  # noqa: E402


def plain_collapse_spaces(text: str) -> str:
    """Steps 1–3 as the spec words them, one regex per step."""
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"[ \t]+([,.;:!?])", r"\1", text)
    return re.sub(r"[.!?]{2,}", lambda m: m.group(0)[-1], text)


def plain_recapitalize(text: str) -> str:
    text = re.sub(r"^[a-z]", lambda m: m.group(0).upper(), text)
    text = re.sub(r"([.!?][ \t])([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
    return re.sub(r"(\n[ \t]*)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)


PIECES = (" ", "  ", "\t", " \t ", ",", ".", ";", ":", "!", "?", "...", "?!", "\n", "\n ", "\n\t\t", "\r\n",
          "a", "word", "Zed", "é", "ünï", "ß", "\u00a0", "\u2028", "😀", "\ud83d", "x.y", "1.2")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60))
def test_byte_view_scans_equal_the_regex_steps(pieces):
    text = "".join(pieces)
    assert collapse_spaces(text) == plain_collapse_spaces(text)
    assert recapitalize(text) == plain_recapitalize(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(" \t\n\r.,;:!?aZé😀\ud83dq\u00a0"), max_size=80))
def test_byte_view_scans_on_arbitrary_strings(text):
    assert collapse_spaces(text) == plain_collapse_spaces(text)
    assert recapitalize(text) == plain_recapitalize(text)


def plain_cleanup(text: str, crlf: bool = False) -> str:
    """``cleanupArtifacts``'s character scans (spec §9.1), one step at a time (``crlf``: the strict CAV-Q14 fix)."""
    text = plain_collapse_spaces(text)
    if crlf:
        if any(s in text for s in (" \n", "\t\n", " \r\n", "\t\r\n")):
            text = re.sub(r"[ \t]+(?=\r?\n|\Z)", "", text)
    elif " \n" in text or "\t\n" in text:
        text = "\n".join(re.sub(r"[ \t]+$", "", line) for line in text.split("\n"))
    if text.endswith((" ", "\t")):
        text = text.rstrip(" \t\n\r\v\f\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
                           "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
    if crlf:
        text = re.sub(r"(?:\r?\n){3,}", lambda m: "\r\n\r\n" if "\r" in m.group(0) else "\n\n", text)
    else:
        text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from((*PIECES, " \n", "\t\n", " \r\n", "\n\n\n", "x ")), max_size=60))
def test_cleanup_equals_the_spec_steps(pieces):
    text = "".join(pieces)
    assert cleanup(text) == plain_cleanup(text)
    assert cleanup(text, crlf=True) == plain_cleanup(text, crlf=True)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(" \t\n\r\r\n.!a"), max_size=80), st.booleans())
def test_cleanup_equals_the_spec_steps_on_line_break_soup(text, crlf):
    # blank runs, trailing blanks and blank-line runs found from their line breaks
    assert cleanup(text, crlf=crlf) == plain_cleanup(text, crlf=crlf)
    assert cleanup_segments([(text, False), ("P", True), (text, False)], crlf=crlf) \
        == plain_cleanup_segments([(text, False), ("P", True), (text, False)], crlf=crlf)


def plain_cleanup_segments(pieces, crlf=False):
    """The strict per-piece cleanup (CAV-Q1 fix) one regex per step on every unprotected piece."""
    from engine.jsvalues import js_trim_end

    out, last = [], len(pieces) - 1
    for i, (piece, protected) in enumerate(pieces):
        if not protected:
            piece = plain_collapse_spaces(piece)
            piece = re.sub(r"[ \t]+(?=\r?\n)" if crlf else r"[ \t]+(?=\n)", "", piece)
            piece = (re.sub(r"(?:\r?\n){3,}", lambda m: "\r\n\r\n" if "\r" in m.group(0) else "\n\n", piece)
                     if crlf else re.sub(r"\n{3,}", "\n\n", piece))
            if i == 0:
                piece = piece.lstrip("\n")
            if i == last:
                piece = (js_trim_end(piece) if piece.endswith((" ", "\t")) else piece).rstrip("\n")
        out.append(piece)
    return "".join(out)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from((*PIECES, " \n", "\t\n", "\n\n\n", "x ")), max_size=12)
                          .map("".join), st.booleans()), max_size=8), st.booleans())
@pytest.mark.slow
def test_segment_cleanup_equals_the_plain_steps(pieces, crlf):
    from engine.caveman.cleanup import cleanup_segments

    assert cleanup_segments(pieces, crlf=crlf) == plain_cleanup_segments(pieces, crlf=crlf)


# ---------------------------------------------------------------- cleanup after restore

from engine.caveman.cleanup import cleanup_restored  # noqa: E402

CLEAN_ALPHABET = " \t\n\r.,;:!?aZé\u00a0\u2028"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(CLEAN_ALPHABET), max_size=80))
def test_cleanup_leaves_its_recapitalised_result_unchanged(text):
    # what cleanup_restored relies on: the first cleanup's text holds nothing for a second one
    clean = recapitalize(cleanup(text))
    assert cleanup(clean) == clean


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(CLEAN_ALPHABET), max_size=60),
       st.lists(st.tuples(st.integers(min_value=0, max_value=60),
                          st.text(alphabet=st.sampled_from(CLEAN_ALPHABET + "`x"), min_size=1, max_size=8)),
                max_size=6))
@pytest.mark.slow
def test_cleanup_after_restore_equals_a_full_cleanup(text, blocks):
    clean = recapitalize(cleanup(text))
    restored, spans = _insert_blocks(clean, sorted((min(cut, len(clean)), content) for cut, content in blocks))
    assert cleanup_restored(restored, spans) == cleanup(restored)


def _insert_blocks(clean: str, blocks: list[tuple[int, str]]) -> tuple[str, list[tuple[int, int]]]:
    """``clean`` with each block's content put back at its cut (sorted), as restore does, and
    the spans the blocks then take."""
    pieces, spans, last, at = [], [], 0, 0
    for cut, content in blocks:
        pieces += [clean[last:cut], content]
        at += cut - last
        spans.append((at, at + len(content)))
        at += len(content)
        last = cut
    pieces.append(clean[last:])
    return "".join(pieces), spans


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(("word", "Zed", "x", " ", "  ", "\t", ".", ",", "!?", "...", "\n", "\n\n\n", "é",
                                 "\r", "\u00a0")), max_size=40),
       st.lists(st.tuples(st.integers(min_value=0, max_value=200),
                          st.lists(st.sampled_from((" ", "\t", ".", ",", ":", "!", "\n", "\n\n", "a", "`x`", " ./p")),
                                   min_size=1, max_size=6)),
                max_size=8))
@pytest.mark.slow
def test_cleaning_only_around_touched_blocks_equals_a_full_cleanup(words, blocks):
    # ordinary words at both ends: the blocks are cleaned in stretches, not by a whole pass
    clean = "Start" + recapitalize(cleanup("".join(words))) + "end"
    restored, spans = _insert_blocks(
        clean, sorted((min(cut, len(clean) - 1), "".join(content)) for cut, content in blocks))
    assert cleanup_restored(restored, spans) == cleanup(restored)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(CLEAN_ALPHABET + "\x00"), max_size=80))
def test_led_patterns_match_as_their_plain_forms(text):
    # (the forms re gives a literal or one-class lead: the same matches, found faster)
    from engine.caveman import cleanup as c

    raw = text.encode("utf-8", "surrogatepass")
    for led, plain, subject in ((c._CLEANUP_TRIGGER, r"[ \t][ \t,.;:!?\n]|[.!?][.!?]|\n\n\n", text),
                                (c._BLANK_LINES, r"\n{3,}", text), (c._BLANK_RUN_VIEW, rb"  +", raw),
                                (c._PUNCT_RUN_VIEW, rb"\.\.+", raw)):
        assert [m.span() for m in led.finditer(subject)] == [m.span() for m in re.finditer(plain, subject)]


def test_cleanup_after_restore_skips_only_when_nothing_touches_a_block():
    text = "Alpha beta. Gamma X delta"
    at = text.index("X")
    assert cleanup_restored(text, [(at, at + 1)]) == text
    for content in ("  x", "x .", "..", "x\n\n\ny", " \n"):
        restored = text[:at] + content + text[at + 1:]
        assert cleanup_restored(restored, [(at, at + len(content))]) == cleanup(restored) != restored
    joined = "Alpha " + " end"  # a block that ends in a blank next to one outside it
    assert cleanup_restored(joined, [(0, 6)]) == "Alpha end"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(CLEAN_ALPHABET + "\x00"), min_size=1, max_size=12), max_size=8),
       st.booleans())
def test_cleaning_pieces_in_one_pass_equals_cleaning_each(pieces, crlf):
    # (joined by NUL: no step acts across it; a piece holding a NUL is cleaned on its own)
    from engine.caveman.cleanup import _inline_steps, _inline_steps_each

    assert _inline_steps_each(pieces, crlf=crlf) == [_inline_steps(piece, crlf=crlf) for piece in pieces]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(CLEAN_ALPHABET), max_size=60))
def test_cleanup_both_ways_equals_two_cleanups(text):
    # (CAV-Q14's check: the in-line steps made once for both)
    from engine.caveman.cleanup import cleanup_both

    assert cleanup_both(text) == (cleanup(text), cleanup(text, crlf=True))


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(("\r\n", "\n", "\r", " ", "\t", "a", ".", "\r\n\r\n\r\n", "\n\n\n", " \r\n")),
                max_size=30))
def test_cleanup_both_ways_agrees_where_line_breaks_mix(bits):
    # (both results from one pass where no blank stands before a \r\n and no run of three
    # line breaks holds a \r; each way on its own where one does)
    from engine.caveman.cleanup import cleanup_both

    text = "".join(bits)
    assert cleanup_both(text) == (cleanup(text), cleanup(text, crlf=True))


# ------------------------------------- the pieces of a cleaned text need no cleaning of their own

from engine.caveman.preservation import Block, Extraction, placeholder_text, segments  # noqa: E402

SEED = "abc0123456789def"


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from((*PIECES, " \n", "\t\n", "\n\n\n", "x ", "  .", " ,")),
                          st.integers(min_value=0, max_value=5)), max_size=50),
       st.lists(st.text(alphabet=st.sampled_from(CLEAN_ALPHABET + "`x"), min_size=1, max_size=8), min_size=6,
                max_size=6), st.booleans())
def test_cleanup_segments_of_a_cleaned_text_is_its_pieces_joined(items, contents, crlf):
    """What CAV-Q1's check (``Compressor._explain_fallback``) and strict's restore rely on:
    after the first cleanup and recapitalisation, cleaning the unprotected pieces again changes
    nothing, so the text with its protected pieces left alone is the pieces put together."""
    blocks = [Block(n, "kind", content, placeholder_text(SEED, str(n))) for n, content in enumerate(contents)]
    work = "".join(blocks[item].placeholder if isinstance(item, int) else item for item in items)
    clean = recapitalize(cleanup(work, crlf=crlf))
    pieces = segments(clean, Extraction(work, work, blocks, SEED))
    assert cleanup_segments(pieces, crlf=crlf) == "".join(piece for piece, _protected in pieces)


def test_the_fallen_back_explanation_checks_the_pieces_joined():
    """A part whose second cleanup altered a protected block (CAV-Q1) is explained with the
    joined pieces, as ``cleanup_segments`` would give them."""
    from tests.engine.caveman.helpers import codes, pack, rule, run

    text = "Please  see `a  b` and `x ...` now.\n\n\n\nDone  ."
    _out, result = run(text, pack(rule("please", r"\bPlease\s+", "")), profile="omniroute")
    assert "CAV-Q1" in codes(result)
