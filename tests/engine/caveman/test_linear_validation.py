"""Validation and the fence scan are linear in the text; these tests hold them to the plain,
obviously correct forms kept here (a search of the whole output per item, a walk of every later
line per opener), on texts built to exercise the shortcuts: items kept in order, moved,
duplicated, dropped; fences closed, unclosed, nested, of other lengths."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman import needles
from engine.caveman.fences import _CLOSE, _OPEN, fence_spans, fence_spans_each, split_lines
from engine.caveman.validation import (
    SCANNERS,
    preview,
    scan_items,
    scan_items_joined,
    validate_blocks,
    validate_compression,
)
from engine.jsvalues import js_trim, utf16_len


def plain_fence_spans(text: str) -> list[tuple[int, int]]:
    lines = split_lines(text)
    starts, pos = [], 0
    for line in lines:
        starts.append(pos)
        pos += len(line)
    spans, i = [], 0
    while i < len(lines):
        opener = _OPEN.match(lines[i])
        if opener is None:
            i += 1
            continue
        char, size = opener.group(1)[0], len(opener.group(1))
        close_at = -1
        for j in range(i + 1, len(lines)):
            body = lines[j][:-1] if lines[j].endswith("\n") else lines[j]
            closer = _CLOSE.fullmatch(body)
            if closer and closer.group(1)[0] == char and len(closer.group(1)) >= size:
                close_at = j
                break
        if close_at < 0:
            i += 1
            continue
        spans.append((starts[i], starts[close_at] + len(lines[close_at])))
        i = close_at + 1
    return spans


def plain_validate(original: str, compressed: str):
    errors, missing = [], []
    if original and not js_trim(compressed):
        errors.append("compressed text is empty")
    for label, scan in SCANNERS:
        for item in scan(original):
            if item not in compressed:
                errors.append(f"{label} changed or missing: {preview(item)}")
                missing.append(item)
    before, after = len(plain_fence_spans(original)), len(plain_fence_spans(compressed))
    if before > after:
        errors.append(f"fenced code block count dropped: {before} -> {after}")
    warnings = ["compressed text is longer than original"] if utf16_len(compressed) > utf16_len(original) else []
    return errors, warnings, missing


FENCE_LINES = ("```", "````", "~~~", "```js", "   ```", "    ```", "~~~~ ", "``` \t", "code", "", "`x`", " ~~~",
               "```\r", "\t~~~~", "``` \u2028", "~~~x",
               "``` ```", "a```", "  ~~~ ~~~", "````` x", "\u00a0```", "```\t\u2029", "`` ```", "~~~```",
               "   ````", " \t ~~~", "\t\t\t\t```")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FENCE_LINES), max_size=40), st.booleans())
def test_fence_spans_equal_the_walk_of_later_lines(lines, final_newline):
    text = "\n".join(lines) + ("\n" if final_newline else "")
    assert fence_spans(text) == plain_fence_spans(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="`~ \t\n\ra\u2028\u00a0", max_size=80))
def test_fence_spans_equal_the_walk_on_any_text_of_fence_characters(text):
    assert fence_spans(text) == plain_fence_spans(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from(FENCE_LINES), max_size=8), st.booleans()), max_size=8),
       st.lists(st.text(alphabet="`~ \t\n\ra", max_size=12), max_size=4))
def test_fence_spans_of_many_texts_at_once_are_each_texts_own(texts, odd):
    """One scan of the texts joined by line breaks: a run at a text's start, a closer at its end
    without a line break, an opener whose closer is in the next text."""
    each = ["\n".join(lines) + ("\n" if final_newline else "") for lines, final_newline in texts] + odd
    expected = [plain_fence_spans(text) for text in each]
    assert fence_spans_each(each) == expected
    import engine.caveman.fences as fences_module

    default = fences_module.DENSE_RUNS
    fences_module.DENSE_RUNS = 10**9  # (the joined scan however dense the runs, not each text alone)
    try:
        assert fence_spans_each(each) == expected
    finally:
        fences_module.DENSE_RUNS = default


PIECES = ("Please ", "note ", "`a()`", "`b`", "https://x.io/p", "[l](http://y.io)", "v1.2.3", "MAX_RETRY",
          "# Head\n", "| a | b |\n", "$$x$$", "\\begin{a}z\\end{a}", "$y$ ", "\n", "```\ncode\n```\n", "😀",
          "é", " ", "  ", ". ")


def _edit(pieces: list[str], ops: list[int]) -> str:
    """A 'compressed' text: each piece kept, dropped, doubled or swapped with the next (by op)."""
    out = list(pieces)
    for k, op in enumerate(ops[:len(out)]):
        if op == 1:
            out[k] = ""
        elif op == 2:
            out[k] = out[k] * 2
        elif op == 3 and k + 1 < len(out):
            out[k], out[k + 1] = out[k + 1], out[k]
        elif op == 4:
            out[k] = out[k].replace(" ", "")
    return "".join(out)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60), st.lists(st.integers(0, 8), max_size=60))
def test_validation_equals_a_search_of_the_whole_output_per_item(pieces, ops):
    original = "".join(pieces)
    compressed = _edit(pieces, ops)
    assert validate_compression(original, compressed) == plain_validate(original, compressed)


@contextmanager
def _windows_of(size: int) -> Iterator[None]:
    default = needles.WHOLE_TEXT_WINDOW
    needles.WHOLE_TEXT_WINDOW = size
    try:
        yield
    finally:
        needles.WHOLE_TEXT_WINDOW = default


def _both_windows() -> Iterator[int]:
    """Each test of the windows runs with a short text as one window (the default) and with the
    windows' walk (no text short enough)."""
    for size in (needles.WHOLE_TEXT_WINDOW, -1):
        with _windows_of(size):
            yield size


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab`. 😀é", max_size=200),
       st.lists(st.tuples(st.integers(0, 200), st.text(alphabet="ab`. 😀é", min_size=1, max_size=6)), max_size=40))
@pytest.mark.slow
def test_contained_in_order_answers_plain_containment(text, placed):
    placed.sort()
    starts = [s for s, _ in placed]
    items = [i for _, i in placed]
    for _window in _both_windows():
        assert needles.contained_in_order(text, items, starts) == [item in text for item in items]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab`.\x00 é😀", max_size=300), st.lists(st.text(alphabet="ab`.\x00 é😀", max_size=5),
                                                             max_size=30))
def test_occurring_answers_plain_containment(text, items):
    assert needles.occurring(text, items) == {item for item in items if item and item in text}


@pytest.mark.slow
def test_validation_of_many_repeated_items_is_linear():
    """The issue's case: thousands of items, the text repeated (the same item at many places), the
    output shorter: a search per item from the start was quadratic. Items that moved far still
    count as kept."""
    unit = "Please see `f{0}()` at https://e.io/{0} and v1.{0}.2 or MAX_{0}_X. "
    original = "".join(unit.format(i % 500) for i in range(20_000))  # ~1.3 MB, each item 40 times
    compressed = original.replace("Please see ", "See ")
    moved = compressed[len(compressed) // 2:] + compressed[:len(compressed) // 2]
    for out in (compressed, moved):
        assert validate_compression(original, out)[0] == []
    broken = compressed.replace("`f7()`", "`g7()`")
    errors = validate_compression(original, broken)[0]
    assert errors == ["inline code changed or missing: `f7()`"] * 40  # (the stats keep one of each)


class _Block:
    def __init__(self, n, kind, content, start):
        self.n, self.kind, self.content, self.start = n, kind, content, start


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.lists(st.integers(0, 8), max_size=40))
def test_strict_block_validation_equals_plain_containment(pieces, ops):
    original = "".join(pieces)
    compressed = _edit(pieces, ops)
    blocks, at = [], 0
    for piece in pieces:
        if re.search(r"[`$\\|#\[]|https?:", piece):
            blocks.append(_Block(len(blocks), "kind", piece, at))
        at += len(piece)
    blocks.reverse()  # as extraction gives them: not in text order
    errors, _ = validate_blocks(original, compressed, blocks)
    expected = (["compressed text is empty"] if original and not js_trim(compressed) else []) + [
        f"kind changed or missing: {preview(b.content)}" for b in blocks if b.content not in compressed]
    assert errors == expected


def _plain_lines(text: str, pattern: str, keep) -> list[str]:
    out = []
    for m in re.finditer(pattern, text, re.M):
        end = text.find("\n", m.start())
        line = text[m.start():] if end < 0 else text[m.start():end]
        if keep(line, m):
            out.append(line)
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(("#", "## ", "#######  x", "# x", "|", " | a |", "\t|x|", "a | b |", "\n", "\r",
                                 " ", "x", "#\t", "||")), max_size=30))
def test_heading_and_table_scans_equal_a_multiline_regex(pieces):
    from engine.caveman.validation import WS6, scan_headings, scan_table_rows

    text = "".join(pieces)
    assert list(scan_headings(text)) == _plain_lines(
        text, r"^#{1,6}[ \t\r\f\v]", lambda line, m: line[m.end() - m.start():].strip(WS6) != "")
    assert list(scan_table_rows(text)) == _plain_lines(
        text, r"^[ \t]*\|", lambda line, m: line.count("|", m.end() - 1 - m.start()) >= 2)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60), st.lists(st.integers(0, 8), max_size=60),
       st.integers(0, 3))
def test_validation_fails_exactly_when_validation_has_errors(pieces, ops, checks):
    from engine.caveman.validation import scan_items, validation_fails

    original = "".join(pieces)
    compressed = _edit(pieces, ops)
    expected = bool(validate_compression(original, compressed)[0])
    assert validation_fails(original, compressed) == expected
    scans = scan_items(original)
    groups = [(items, starts) for _label, items, starts in scans]
    for _window in _both_windows():
        assert needles.all_contained_in_order(compressed, groups, checks) == all(
            all(kept) for kept in needles.contained_in_order_groups(compressed, groups))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab`. 😀é\ud83d", max_size=200),
       st.lists(st.tuples(st.integers(0, 200), st.text(alphabet="ab`. 😀é\ud83d", max_size=6)), max_size=40),
       st.integers(0, 3))
def test_all_contained_in_order_is_every_item_kept(text, placed, checks):
    placed.sort()
    groups = [([i for _, i in placed], [s for s, _ in placed])]
    for _window in _both_windows():
        assert needles.all_contained_in_order(text, groups, checks) == \
            all(needles.contained_in_order_groups(text, groups)[0])


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(alphabet=" \t\n\r\f\vab😀é", min_size=80, max_size=480),
                 st.text(alphabet=" \t\nab", min_size=100, max_size=900),
                 st.text(alphabet="ab😀\ud83d", min_size=70, max_size=130)))
def test_preview_of_a_long_item_from_its_head_equals_the_whole(item):
    flat = re.sub(r"[ \t\n\r\f\v]+", " ", item)
    assert preview(item) == flat.encode("utf-16-le", "surrogatepass")[:160].decode("utf-16-le", "surrogatepass")


def plain_math_blocks(text: str):
    """The reference's scan: from each ``$$``, the next ``$$`` closes an item within 10000."""
    i = 0
    while True:
        a = text.find("$$", i)
        if a < 0:
            return
        b = text.find("$$", a + 2)
        if b < 0:
            return
        if b - (a + 2) > 10000:
            i = a + 2
            continue
        yield a, text[a:b + 2]
        i = b + 2


def plain_inline_math(text: str):
    """The reference's scan, a character at a time."""
    n, i = len(text), 0
    while True:
        i = text.find("$", i)
        if i < 0:
            return
        nxt = text[i + 1:i + 2]
        if (i > 0 and text[i - 1] == "$") or not nxt or nxt in " \t\n\r\f\v" or nxt == "$" \
                or (nxt.isascii() and nxt.isdigit()):
            i += 1
            continue
        j, limit, end = i + 1, min(n, i + 1 + 160), -1
        while j < limit:
            c = text[j]
            if c == "\n":
                break
            if c == "\\":
                j += 2
                continue
            if c == "$" and text[j - 1] not in " \t\n\r\f\v" and text[j + 1:j + 2] != "$":
                end = j + 1
                break
            j += 1
        if end < 0:
            i += 1
            continue
        yield i, text[i:end]
        i = end


MATH_BITS = ("$", "$$", "$$$", "\\", "\\$", " ", "\t", "\n", "x", "ab", "1", "٣", "😀", "\u00a0", "x" * 70, " " * 40)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(MATH_BITS), max_size=40))
def test_math_scans_equal_the_reference_walks(bits):
    from engine.caveman.validation import find_inline_math, find_math_blocks

    text = "".join(bits)
    assert list(find_math_blocks(text)) == list(plain_math_blocks(text))
    assert list(find_inline_math(text)) == list(plain_inline_math(text))


@pytest.mark.parametrize("gap", [9_998, 9_999, 10_000, 10_001])
def test_math_blocks_close_within_ten_thousand(gap):
    from engine.caveman.validation import find_math_blocks

    for text in ("$$" + "x" * gap + "$$ and $$y$$", "a $$$" + "x" * gap + "$$$ $$", "$$" + "x" * gap + "$$" * 3):
        assert list(find_math_blocks(text)) == list(plain_math_blocks(text))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="$$`~ab\\[]{}:/ é😀", max_size=60), st.text(alphabet="$`~ab\\[]{}:/é", min_size=1, max_size=4),
       st.integers(0, 2))
def test_contains_answers_plain_containment(text, needle, where):
    from engine.caveman.fences import HEAD, contains

    # (a needle past the head that is searched first, in it, or nowhere)
    text = ("x" * HEAD + text) if where == 1 else (text + "x" * HEAD if where == 2 else text)
    assert contains(text, needle) == (needle in text)


FENCE_BLOCKS = ("```\ncode\n```\n", "~~~~\nx ```\n~~~~\n", "````js\n```\n````\n", "   ```\n  a\n   ```\n",
                "```\n~~~\n```", "~~~\n```\n~~~ \n")
GAPS = ("text\n", "a ``b`` c\n", "x", "\n", "`", "``", "~~", "see ```inline``` here\n", "  ```\n", "é😀\n", "")


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(GAPS), st.one_of(st.none(), st.sampled_from(FENCE_BLOCKS))), max_size=12))
def test_fence_count_of_blocks_is_the_scans_count_where_it_answers(pieces):
    from engine.caveman.fences import fence_count_of_blocks

    text, spans = "", []
    for gap, block in pieces:
        text += gap
        if block is not None:
            spans.append((len(text), len(text) + len(block)))
            text += block
    # (each block is a fence span where it came from: the scan of it alone finds it whole)
    assert all(fence_spans(text[a:b]) == [(0, b - a)] for a, b in spans)
    counted = fence_count_of_blocks(text, spans)
    if counted is not None:
        assert counted == len(fence_spans(text))


def test_fence_count_of_blocks_answers_for_blocks_on_their_own_lines():
    from engine.caveman.fences import fence_count_of_blocks

    text = "intro\n" + FENCE_BLOCKS[0] + "middle\n" + FENCE_BLOCKS[1] + "end"
    a = text.index("```")
    b = a + len(FENCE_BLOCKS[0])
    c = text.index("~~~~")
    spans = [(a, b), (c, c + len(FENCE_BLOCKS[1]))]
    assert fence_count_of_blocks(text, spans) == 2 == len(fence_spans(text))
    assert fence_count_of_blocks(text + "\n```\n", spans) is None  # (a run outside the blocks)
    assert fence_count_of_blocks("x" + text[a:], [(1, 1 + b - a)]) is None  # (not at a line start)


def plain_links(text: str):
    """The reference's scan (spec §10's table), a ``[`` at a time."""
    i = 0
    while True:
        a = text.find("[", i)
        if a < 0:
            return
        b = text.find("]", a + 1)
        if b < 0:
            return
        label = text[a + 1:b]
        if len(label) > 1000 or "\n" in label or text[b + 1:b + 2] != "(":
            i = a + 1
            continue
        window = text[b + 2:b + 2 + 2000]
        close, newline = window.find(")"), window.find("\n")
        if close < 0 or 0 <= newline < close:
            i = a + 1
            continue
        yield a, text[a:b + 2 + close + 1]
        i = b + 2 + close + 1


def plain_latex(text: str):
    """The reference's scan: ``\\begin{env}`` to the first ``\\end{env}`` within 10000."""
    i = 0
    while True:
        a = text.find("\\begin{", i)
        if a < 0:
            return
        m = re.compile(r"[A-Za-z*]{1,50}\}").match(text, a + 7)
        if m is None:
            i = a + 7
            continue
        name, after = m.group(0)[:-1], m.end()
        close = text.find("\\end{" + name + "}", after)
        if close < 0 or close - after > 10000:
            i = after
            continue
        end = close + len("\\end{") + len(name) + 1
        yield a, text[a:end]
        i = end


def plain_const_case(text: str):
    """The reference's scan, a character at a time: an uppercase letter after no word
    character, then uppercase letters, digits and underscores each followed by one of those."""
    upper, word = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", re.compile(r"[A-Za-z0-9_]")
    run = upper + "0123456789"
    i, n = 0, len(text)
    while i < n:
        if text[i] not in upper or (i > 0 and word.match(text[i - 1])):
            i += 1
            continue
        j = i + 1
        while j < n and (text[j] in run or (text[j] == "_" and j + 1 < n and text[j + 1] in run)):
            j += 1
        if "_" in text[i:j] and not (j < n and word.match(text[j])):
            yield i, text[i:j]
            i = j
        else:
            i += 1


SCAN_BITS = ("[", "]", "(", ")", "[a](b)", "](", "\n", "x" * 40, " ", "A", "B_", "_", "A_B", "1", "a", "é",
             "😀", "\\begin{", "\\begin{a}", "\\end{a}", "\\end{b}", "a}", "*}", "x" * 600)


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(SCAN_BITS), max_size=60))
def test_link_latex_and_const_case_scans_equal_the_reference_walks(bits):
    from engine.caveman.validation import find_const_case, find_latex, find_links

    text = "".join(bits)
    assert list(find_links(text)) == list(plain_links(text))
    assert list(find_latex(text)) == list(plain_latex(text))
    assert list(find_const_case(text)) == list(plain_const_case(text))


@pytest.mark.parametrize("label, gap", [(999, 1_999), (1_000, 1_998), (1_001, 10), (5, 2_000)])
def test_links_at_their_limits(label, gap):
    from engine.caveman.validation import find_links

    for text in (f"[{'x' * label}]({'y' * gap})", f"[[{'x' * label}]({'y' * gap}) [a](b)", f"[a\n[{'x' * label}](c)"):
        assert list(find_links(text)) == list(plain_links(text))


@pytest.mark.parametrize("gap", [9_998, 9_999, 10_000, 10_001])
def test_latex_blocks_close_within_ten_thousand(gap):
    from engine.caveman.validation import find_latex

    for text in (f"\\begin{{a}}{'x' * gap}\\end{{a}}", f"\\begin{{a}}\\begin{{a}}{'x' * gap}\\end{{a}} \\end{{a}}"):
        assert list(find_latex(text)) == list(plain_latex(text))


@pytest.mark.parametrize("unit", ["[", "A_", "\\begin{a}", "[a]"])
def test_scans_of_a_repeated_unclosed_opener_touch_each_character_a_bounded_number_of_times(unit):
    """Hostile input (1 MB of one opener and one closer at the end): the reference's walks search
    from every opener to the far closer. Counted, not timed: the characters the ``str`` searches
    and slices of the scans read (a ``str`` subclass cannot count ``re``'s reads, which are
    linear scans)."""
    from engine.caveman.validation import find_const_case, find_latex, find_links

    text = unit * (200_000 // len(unit)) + "]\\end{a}"
    for scan in (find_links, find_latex, find_const_case):
        read = _count_reads(scan, text)
        assert read <= 40 * len(text), (scan.__name__, read)


def _count_reads(scan, text: str) -> int:
    """How many characters ``scan``'s ``find``/``startswith`` calls and slices of ``text`` cover."""
    read = [0]

    class Counted(str):
        def find(self, sub, start=0, end=None):  # type: ignore[override]
            found = str.find(self, sub, start, len(self) if end is None else end)
            stop = (len(self) if end is None else min(end, len(self))) if found < 0 else found + len(sub)
            read[0] += max(0, stop - start)
            return found

        def __getitem__(self, key):  # type: ignore[override]
            out = str.__getitem__(self, key)
            read[0] += len(out)
            return out

    list(scan(Counted(text)))
    return read[0]


# ------------------------------------------------------------ every scanner over texts joined

CROSSING_BITS = ["```", "```\n", "~~~\n", "\n", " ", "  ", "x", "$$", "$", "$x$", "\\", "\\begin{a}", "\\end{a}",
                 "\\end{b}", "[a]", "(b)", "](", "http://a.b", "https://c", "1.2", "v1.2.3", "A_B", "_", "# h",
                 "#", "|a|", "|", "---\n", "\t", "é", "`a`", "`"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(CROSSING_BITS), max_size=12).map("".join), min_size=2, max_size=6))
def test_every_scanner_over_texts_joined_finds_what_it_finds_in_each(texts):
    """``scan_items_joined``: each text no item ran into or out of gets what ``scan_items``
    finds in it alone (items and where they stand)."""
    joined = scan_items_joined(texts)
    assert len(joined) == len(texts)
    for text, scans in zip(texts, joined):
        if scans is not None:
            assert scans == scan_items(text), (texts, text)


def test_a_fence_closed_at_a_texts_end_is_cut_at_its_own_end():
    texts = ["```\ncode\n```", "```\nmore\n```\n", "tail"]
    joined = scan_items_joined(texts)
    assert joined == [scan_items(t) for t in texts]
    assert joined[0] == [("fenced code block", ["```\ncode\n```"], [0])]


def test_an_item_that_runs_into_the_next_text_leaves_both_to_be_scanned_alone():
    texts = ["a $$ b", "c $$ d", "e `f` g"]
    joined = scan_items_joined(texts)
    assert joined[:2] == [None, None]  # (the math block $$ b\nc $$ ran across)
    assert joined[2] == scan_items(texts[2])
