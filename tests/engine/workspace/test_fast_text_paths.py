"""The O(edit) text paths used on every keystroke agree with the straightforward whole-text ones."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.jsonedit import Splice
from engine.jsontree import LineIndex, cp_to_utf16, has_astral, position_of, utf16_len, utf16_to_cp
from engine.workspace.document import Document, merged_splices

TEXT = st.text(alphabet="ab\n…é😀", max_size=14)


@st.composite
def splice_of(draw, text: str) -> Splice:
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, len(text)))
    return Splice(start, end, draw(st.text(alphabet="abc…", max_size=4)))


@given(st.data(), TEXT)
def test_merged_splices_equal_the_two_edits(data, before: str) -> None:
    first = data.draw(splice_of(before))
    mid = first.apply(before)
    second = data.draw(splice_of(mid))
    after = second.apply(mid)
    forward, inverse = merged_splices(first, first.inverse(before), second, second.inverse(mid), after)
    assert forward.apply(before) == after
    assert inverse.apply(after) == before
    assert (forward.start == forward.end and not forward.insert) == (before == after)


@given(TEXT, st.integers(-20, 20))
def test_utf16_helpers_match_an_encoder(text: str, index: int) -> None:
    units = len(text.encode("utf-16-le")) // 2
    assert utf16_len(text) == units
    assert has_astral(text) == (units != len(text))
    assert cp_to_utf16(text, index) == len(text[:index].encode("utf-16-le")) // 2
    if index >= 0 and not has_astral(text):
        assert utf16_to_cp(text, index) == min(index, len(text))


def test_utf16_helpers_on_a_big_bmp_text() -> None:
    big = '{"label": "id=…"},\n' * 100_000
    assert not has_astral(big) and utf16_len(big) == len(big)
    assert has_astral(big + "😀") and utf16_len(big + "😀") == len(big) + 2
    assert cp_to_utf16(big + "😀x", len(big) + 2) == len(big) + 3


@given(st.text(alphabet="ab\n…😀", max_size=20), st.integers(-3, 25))
def test_position_of_matches_the_line_index(text: str, offset: int) -> None:
    assert position_of(text, offset) == LineIndex(text).position(offset)


@given(st.data(), TEXT)
def test_document_keeps_its_utf16_bookkeeping_across_edits(data, text: str) -> None:
    doc = Document(None, text)
    for _ in range(data.draw(st.integers(1, 4))):
        doc.apply(data.draw(splice_of(doc.text)))
        units = len(doc.text.encode("utf-16-le")) // 2
        assert doc.utf16_len() == units
        index = data.draw(st.integers(-3, len(doc.text) + 3))
        assert doc.cp_to_utf16(index) == cp_to_utf16(doc.text, index)
        offset = data.draw(st.integers(0, units + 2))
        assert doc.utf16_to_cp(offset) == utf16_to_cp(doc.text, offset)
    doc.text = "😀" + text
    assert doc.utf16_len() == len(doc.text.encode("utf-16-le")) // 2
