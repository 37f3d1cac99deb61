"""engine.caveman.needles against plain ``str`` searches (the byte views must give the same
indices: ASCII bytes, UTF-16-LE with odd offsets dropped; beyond the BMP, the ASCII view for
ASCII needles without "?", and no answer for the others)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman import needles
from engine.caveman.needles import byte_view, find_all, present


def plain_find_all(text: str, needle: str) -> list[int]:
    out, i = [], text.find(needle)
    while i >= 0:
        out.append(i)
        i = text.find(needle, i + 1)
    return out


ASCII = st.text(alphabet=st.sampled_from("ab a\nAB_."), max_size=80)
# characters whose UTF-16-LE bytes look like other characters' when read at an odd offset
# (U+6100 is b"\x00a", U+0061 is b"a\x00"): a straddling hit must not be reported
BMP = st.text(alphabet=st.sampled_from("ab \u6100\u6261\u0100é\u00e9\ud800\udc00"), max_size=80)


@settings(max_examples=300, deadline=None)
@given(ASCII, st.text(alphabet=st.sampled_from("ab A."), min_size=1, max_size=4))
def test_find_all_on_ascii_is_every_overlapping_occurrence(text, needle):
    assert find_all(text, needle) == plain_find_all(text, needle)


@settings(max_examples=300, deadline=None)
@given(BMP, st.text(alphabet=st.sampled_from("ab \u6100\u6261é"), min_size=1, max_size=3))
def test_find_all_on_utf16_views_is_every_occurrence(text, needle):
    if not text.isascii():
        assert byte_view(text)[1] == 2
    assert find_all(text, needle) == plain_find_all(text, needle)


def test_a_non_ascii_needle_is_absent_from_an_ascii_text():
    assert find_all("plain text", "é") == []


def test_texts_beyond_the_bmp_have_no_view_but_ascii_needles_are_found_in_their_ascii_view():
    assert byte_view("a \U0001F600 b") is None
    assert find_all("a \U0001F600 b", "b") == [4]  # (a Python index: the emoji is one character)
    assert present("a \U0001F600 b", frozenset({"B", "b"})) == {"b"}
    # a needle the ASCII view cannot answer: "?" stands for the emoji there, é is not in it
    assert find_all("a \U0001F600 ?", "?") is None
    assert find_all("a \U0001F600 é", "é") is None
    assert present("a \U0001F600 b", frozenset({"b", "?"})) is None


ASTRAL = st.text(alphabet=st.sampled_from("ab ?\U0001F600\U0001F64F\u6100é"), max_size=80)


@settings(max_examples=300, deadline=None)
@given(ASTRAL, st.text(alphabet=st.sampled_from("ab ?"), min_size=1, max_size=3))
def test_find_all_beyond_the_bmp_is_every_occurrence_or_none(text, needle):
    found = find_all(text, needle)
    if found is None:
        assert "?" in needle and not needles.byte_view(text)
    else:
        assert found == plain_find_all(text, needle)


@settings(max_examples=200, deadline=None)
@given(ASTRAL, st.frozensets(st.text(alphabet=st.sampled_from("ab "), min_size=1, max_size=3), max_size=6))
def test_present_beyond_the_bmp_is_exact_for_ascii_keys(text, keys):
    assert present(text, keys) == {k for k in keys if k in text}


@settings(max_examples=200, deadline=None)
@given(st.one_of(ASCII, BMP), st.frozensets(st.text(alphabet=st.sampled_from("ab \u6100é"), min_size=1, max_size=3),
                                            max_size=6))
def test_present_never_claims_an_occurring_key_absent(text, keys):
    found = present(text, keys)
    assert {k for k in keys if k in text} <= found
    if text.isascii():
        assert found == {k for k in keys if k in text}  # (ASCII views are exact)


def test_present_finds_keys_across_the_first_stretch_and_in_the_rest(monkeypatch):
    monkeypatch.setattr(needles, "FIRST_STRETCH", 16)
    text = "x" * 14 + "ZEBRA" + "y" * 40 + "QUOKKA" + "y" * 10
    assert present(text, frozenset({"ZEBRA", "QUOKKA", "PANDA", "xxx"})) == {"ZEBRA", "QUOKKA", "xxx"}
    wide = "é" + text  # the UTF-16 view: the stretch is counted in characters
    assert present(wide, frozenset({"ZEBRA", "QUOKKA", "PANDA"})) == {"ZEBRA", "QUOKKA"}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab\x00é😀", max_size=8), max_size=6), st.lists(st.text(alphabet="ab\x00é😀", max_size=4),
                                                                         max_size=6), st.booleans())
def test_occurring_in_any_is_the_plain_search_of_each_text(texts, items, with_texts):
    # items equal to one of the texts are answered without a search: still exactly the plain answer
    items = items + texts if with_texts else items
    assert needles.occurring_in_any(texts, items) == {item for item in items
                                                       if item and any(item in text for text in texts)}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab\u6100\u6261é😀"), max_size=60),
       st.lists(st.text(alphabet=st.sampled_from("ab\u6100\u6261é😀"), max_size=9), min_size=5, max_size=12),
       st.sampled_from((ASCII, BMP)).flatmap(lambda s: s), st.integers(1, 4))
def test_occurring_with_long_items_checked_by_their_keys_is_the_plain_search(text, items, extra, key):
    """Items longer than the automaton's keys (shrunk here to 1–4 units so that keys collide, hits
    overlap and straddle units) are found exactly where the plain search finds them, by either
    kind of automaton (the crate's DFA for a haystack large enough, else its NFA)."""
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(needles, "KEY_UNITS", key)
        for ratio in (0, 10**9):
            patched.setattr(needles, "DFA_HAY_RATIO", ratio)
            for hay in (text, text + extra, extra):
                picks = items + [hay[i:i + 7] for i in range(0, len(hay), 5)]
                assert needles.occurring(hay, picks) == {item for item in picks if item and item in hay}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab é😀\n"), min_size=1, max_size=80),
       st.lists(st.tuples(st.integers(0, 80), st.integers(1, 6)), max_size=30), st.integers(1, 3),
       st.text(alphabet=st.sampled_from("ab é😀\n"), max_size=80))
def test_contained_in_order_groups_is_the_plain_search_per_item(source, cuts, groups, text):
    """Several item lists checked with one pass for what their windows left: each answer is
    ``item in text``, whether the text derives from the source (edited) or not."""
    lists = []
    for g in range(groups):
        items, starts, at = [], [], 0
        for a, size in sorted(cuts[g::groups]):
            a = max(a, at)
            if a + size <= len(source):
                items.append(source[a:a + size])
                starts.append(a)
                at = a + size
        lists.append((items, starts))
    for hay in (text, source.replace("a", "b"), source):
        got = needles.contained_in_order_groups(hay, lists)
        assert got == [[item in hay for item in items] for items, _starts in lists]


@settings(max_examples=300, deadline=None)
@given(BMP, st.frozensets(st.text(alphabet=st.sampled_from("ab \u6100\u6261é\ud800\udc00"), min_size=1, max_size=3),
                          max_size=8))
def test_present_on_a_text_beyond_ascii_is_exact(text, keys):
    # (searched in the UTF-8 bytes, surrogates passed: a key is reported exactly where it occurs)
    assert present("é" + text, keys) == {key for key in keys if key in "é" + text}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab é\u6100\ud800\U0001F600"), max_size=40))
def test_a_view_exactly_when_nothing_lies_beyond_the_bmp(text):
    needles.forget_views()
    assert (byte_view(text) is None) == any(ord(c) > 0xFFFF for c in text)
    assert find_all(text, "a") == plain_find_all(text, "a")  # (beyond the BMP: through the ASCII view)
    assert find_all(text, "é") == (None if any(ord(c) > 0xFFFF for c in text) else plain_find_all(text, "é"))


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab a\n😀é\ud83d", max_size=80),
       st.lists(st.text(alphabet="ab a\né😀", min_size=1, max_size=4), min_size=0, max_size=12))
def test_counts_are_str_count_of_each_distinct_item(text, items):
    """Non-overlapping counts, as ``str.count`` (``aa`` in ``aaaa`` twice, ``aba`` in ``ababa``
    once), on ASCII, UTF-8 and UTF-16 views alike."""
    from engine.caveman.needles import counts

    for hay in (text, text.replace("😀", "x").replace("\ud83d", "y"), text.encode("ascii", "replace").decode()):
        assert counts(hay, items) == {item: hay.count(item) for item in set(items)}


def test_counts_of_self_overlapping_items_through_the_automaton():
    from engine.caveman.needles import FEW_ITEMS, counts

    items = ["aa", "aba", "a", " at ", "x", "ab"][:max(FEW_ITEMS + 1, 6)]
    for hay in ("aaaa ababa  at at ", "é aaaa ababa at at  at ", "😀aaaaa ababab at at"):
        assert counts(hay, items) == {item: hay.count(item) for item in items}
