"""The precomputed Unicode tables (engine/jsregex/unicode_tables.py) match their generator."""

from __future__ import annotations

import unicodedata

import regex
from hypothesis import given
from hypothesis import strategies as st

from engine.jsregex import charset, compile_js, unicode_data, unicode_tables
from engine.jsregex import gen_unicode_tables as gen


def test_installed_unicode_data_is_the_one_the_tables_were_checked_with():
    """pyproject pins `regex` exactly, so this never turns into a skip: a different `regex` (or a
    Python with other ``unicodedata``) fails here, with the way to fix it, instead of letting the
    two tests below silently compare nothing."""
    installed = (regex.__version__, unicodedata.unidata_version)
    assert installed == (unicode_tables.REGEX_VERSION, unicode_tables.UNIDATA_VERSION), (
        f"tables were generated with regex/unicodedata {unicode_tables.REGEX_VERSION}/"
        f"{unicode_tables.UNIDATA_VERSION}, installed {installed[0]}/{installed[1]}: install the pinned regex "
        "(pyproject.toml), or run `python -m engine.jsregex.gen_unicode_tables`, review the diff against V8 "
        "and move the pin")


def test_regenerating_gives_the_shipped_module():
    assert gen.TARGET.read_text(encoding="utf-8") == gen.render()


def test_loaded_tables_equal_the_computed_ones():
    classes = gen.case_classes()
    assert unicode_data.unicode_canon_changes() == gen.unicode_canon_changes(classes)
    assert unicode_data.legacy_canon_changes() == gen.legacy_canon_changes(classes)
    assert unicode_data.canon_table(False) == dict(gen.legacy_canon_changes(classes))
    assert unicode_data.property_ranges("Changes_When_NFKC_Casefolded", None) == gen.changes_when_nfkc_casefolded()
    assert unicode_tables.REGEX_VERSION and unicode_tables.UNIDATA_VERSION


@given(st.lists(st.tuples(st.integers(0, 0x10FFFF), st.integers(-300, 300)), max_size=60))
def test_runs_round_trip(raw):
    pairs = tuple((c, c + d) for c, d in sorted(dict(raw).items()))
    runs = gen.to_runs(pairs)
    assert unicode_data._from_runs(runs) == pairs
    assert all(count >= 1 and step >= 1 for _, count, step, _ in runs)


def test_canonicalize_examples():
    # Non-u Canonicalize: toUppercase when a single unit, never non-ASCII → ASCII.
    assert unicode_data.canon(ord("a"), False) == ord("A")
    assert unicode_data.canon(0x17F, False) == 0x17F  # ſ upper-cases to ASCII S: unchanged
    assert unicode_data.canon(0xDF, False) == 0xDF  # ß upper-cases to two units: unchanged
    assert unicode_data.canon(0x131, False) == 0x131  # ı → I would be non-ASCII → ASCII
    # u-mode: the smallest member of the simple case-folding class.
    assert unicode_data.canon(0x17F, True) == ord("S")
    assert unicode_data.canon(0x212A, True) == ord("K")
    assert unicode_data.canon(0x130, True) == 0x130  # İ folds only to itself
    assert compile_js("\u017f", "iu").test("s") and not compile_js("\u017f", "i").test("s")


def test_cwkcf_property_uses_the_table():
    rx = compile_js(r"^\p{CWKCF}+$", "u")
    assert rx.test("A\u00ad")  # upper-case letter, soft hyphen (a default ignorable)
    assert not rx.test("a")


_RANGES = st.lists(st.tuples(st.integers(0, 0x10FFFF), st.integers(0, 0x3000)), max_size=8).map(
    lambda pairs: charset.normalize((lo, min(lo + n, 0x10FFFF)) for lo, n in pairs))


@given(_RANGES, st.booleans())
def test_image_equals_the_definition(ranges, unicode_mode):
    changes = unicode_data.unicode_canon_changes() if unicode_mode else unicode_data.legacy_canon_changes()
    naive = charset.union(ranges, tuple((t, t) for c, t in changes if charset.contains(ranges, c)))
    assert charset.image(ranges, changes) == naive


def test_all_code_points_in_order():
    s = unicode_data._all_code_points()
    assert len(s) == 0x110000
    assert all(ord(s[c]) == c for c in (0, 0x41, 0xD800, 0xDBFF, 0xDC00, 0xFFFF, 0x10000, 0x10FFFF))
    assert s == "".join(map(chr, range(0x110000)))
