"""validateCompression (spec §10): scanners, texts, order; scanner equivalences."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman.validation import preview, scan_const_case, scan_urls, scan_versions, validate_compression

WORD = re.compile(r"[A-Za-z0-9_]")


def test_messages_and_order():
    original = "```\ncode\n```\nuse `x` at https://a.io and v1.2.3 with MAX_X"
    errors, warnings, missing = validate_compression(original, "nothing left")
    assert errors == [
        "fenced code block changed or missing: ``` code ``` ",
        "inline code changed or missing: `x`",
        "URL changed or missing: https://a.io",
        "version changed or missing: 2.3",  # "1" follows a word character: the scan resumes at "2"
        "CONST_CASE changed or missing: MAX_X",
        "fenced code block count dropped: 1 -> 0",
    ]
    assert missing[0] == "```\ncode\n```\n"
    assert warnings == []


def test_empty_and_longer():
    assert validate_compression("abc", "  \n")[0] == ["compressed text is empty"]
    assert validate_compression("ab", "abc")[1] == ["compressed text is longer than original"]
    assert validate_compression(1, "x")[0] == ["validation received non-string input"]


def test_validators_differ_from_extraction_cav_q13():
    # inline math: `$a $b$` is one validator item
    errors = validate_compression("cost $a $b$ here", "cost $b$ here")[0]
    assert errors == ["inline math changed or missing: $a $b$"]


def test_heading_and_table_rows():
    original = "# Title\n  | a | b |\n#NoSpace\n####### seven"
    errors = validate_compression(original, "")[0]
    assert "heading changed or missing: # Title" in errors
    assert "table row changed or missing:  | a | b |" in errors  # the whole line, indentation included
    assert not any("NoSpace" in e or "seven" in e for e in errors)


def test_preview_collapses_and_cuts_at_80_units():
    assert preview("a \n\t b") == "a b"
    assert preview("😀" * 50) == "😀" * 40


def _reference(text, pattern, keep):
    pos = 0
    while (m := pattern.search(text, pos)) is not None:
        end_ok = m.end() >= len(text) or not WORD.match(text[m.end()])
        if keep(m) and end_ok:
            yield m.group(0)
            pos = m.end()
        else:
            pos = m.start() + 1


VERSION = re.compile(r"(?<![A-Za-z0-9_])[0-9]+((?:\.[0-9]+){0,3})(?:[-+][A-Za-z0-9.-]+)?")  # (JS \d: ASCII)
CONST = re.compile(r"(?<![A-Za-z0-9_])[A-Z](?:[A-Z0-9]|_(?=[A-Z0-9]))*")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789.-+a_ xB\u0663\uff15", max_size=40))
def test_version_scanner_equals_its_definition(text):
    assert list(scan_versions(text)) == list(_reference(text, VERSION, lambda m: m.group(1)))


def test_versions_are_ascii_digits_as_in_javascript():
    # JavaScript's \d is [0-9]: an Arabic-Indic or fullwidth digit neither extends a version
    # nor is a word character after it (node: "1.2\u0663".match(...) gives "1.2")
    assert list(scan_versions("see 1.2\u0663 and 3.\uff15 and 4\u0663.5")) == ["1.2"]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="AB_1_ x-a9Z_", max_size=40))
def test_const_case_scanner_equals_its_definition(text):
    assert list(scan_const_case(text)) == list(_reference(text, CONST, lambda m: "_" in m.group(0)))


def _reference_urls(text):
    """The URL scanner as the reference words it: search ``https?://``, skip a start after a
    word character, take the body."""
    start_rx, body_rx = re.compile(r"https?://"), re.compile(r"[^ \t\n\r\f\v)\]\"'>]*")
    pos = 0
    while (m := start_rx.search(text, pos)) is not None:
        if m.start() > 0 and WORD.match(text[m.start() - 1]):
            pos = m.start() + 1
            continue
        end = body_rx.match(text, m.end()).end()
        yield text[m.start():end]
        pos = end


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(("http", "https", "://", "s", "x", "h", " ", ")", "/a", ":", "_")), max_size=30))
def test_url_scanner_equals_its_definition(pieces):
    text = "".join(pieces)
    assert list(scan_urls(text)) == list(_reference_urls(text))


def _reference_inline_code(text):
    """The inline-code scanner as the reference words it: from a backtick, the next backtick;
    an empty or multi-line content resumes at that next backtick, an item after it."""
    i = 0
    while (a := text.find("`", i)) >= 0 and (b := text.find("`", a + 1)) >= 0:
        content = text[a + 1:b]
        if content and "\n" not in content:
            yield text[a:b + 1]
            i = b + 1
        else:
            i = a + 1


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="``\n ab", max_size=40))
def test_inline_code_scanner_equals_its_definition(text):
    from engine.caveman.validation import scan_inline_code

    assert list(scan_inline_code(text)) == list(_reference_inline_code(text))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aé😀\ud800", max_size=12), st.text(alphabet="aé😀\ud800", max_size=12))
def test_longer_in_utf16_units_without_encoding(text, than):
    from engine.caveman.validation import _longer

    units = lambda s: len(s.encode("utf-16-le", "surrogatepass")) // 2  # noqa: E731
    assert _longer(text, than) == (units(text) > units(than))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(("```\ncode\n```\n", "`x`", "https://a.io/b", "[l](u)", "# H\n", "| a | b |\n",
                                 "$$x$$", "$y$", "\\begin{a}z\\end{a}", "v1.2.3", "MAX_RETRY", "x", " ", "\n", "é",
                                 "😀", "MAX_", "1.2")), max_size=25))
def test_finders_say_where_each_item_stands(pieces):
    # (validation's windows start from there; the items are the scanners')
    from engine.caveman.validation import FINDERS

    text = "".join(pieces)
    for _label, find in FINDERS:
        for at, item in find(text):
            assert text.startswith(item, at)
        ats = [at for at, _item in find(text)]
        assert ats == sorted(ats)


# ---------------------------------------------------------------- limits in UTF-16 units

EMOJI = "\U0001F600"  # one Python character, two UTF-16 units


def test_the_scanners_limits_count_utf16_units_as_javascript_does():
    """A link's target must close within 2000 units, its label hold at most 1000, inline math
    close within 160: an emoji counts twice (checked on OmniRoute's engine)."""
    from engine.caveman.validation import scan_inline_math, scan_links

    assert list(scan_links(f"[x](a {EMOJI * 900})")) == [f"[x](a {EMOJI * 900})"]  # 1,808 units
    assert list(scan_links(f"[x](a {EMOJI * 1000})")) == []  # 1,011 characters, but 2,008 units
    assert list(scan_links(f"[{EMOJI * 400}](a b)")) == [f"[{EMOJI * 400}](a b)"]
    assert list(scan_links(f"[{EMOJI * 600}](a b)")) == []  # a label of 1,200 units
    assert list(scan_inline_math(f"$a {EMOJI * 70} b$")) == [f"$a {EMOJI * 70} b$"]
    assert list(scan_inline_math(f"$a {EMOJI * 100} b$")) == []  # 205 units before the closing $


def test_an_item_javascript_does_not_see_does_not_make_the_part_fall_back():
    """The link's target (with a space: not protected, CAV-Q13) loses "basically"; 1,000 emoji
    on, OmniRoute sees no link and keeps the compressed text; 900 on, the part falls back."""
    from .helpers import pack, rule, run

    filler = pack(rule("filler", r"\bbasically\s+"))
    out, result = run(f"Check [x](basically {EMOJI * 1000}) now, basically fine.", filler)
    assert not result.stats.get("fallbackApplied") and "basically" not in out
    out, result = run(f"Check [x](basically {EMOJI * 900}) now, basically fine.", filler)
    assert result.stats.get("fallbackApplied") and out.count("basically") == 2
    out, result = run(f"Cost $a {EMOJI * 100} basically b$ is basically fine.", filler)
    assert not result.stats.get("fallbackApplied")


_PIECES = ("`x é`", "[é](http://a.io/é)", "https://b.io/😀", " v1.2.3", " MAX_É", " $a 😀 b$", "$$ Ω $$",
           "\\begin{eq} é \\end{eq}", "# head é\n", "| a | é |\n", "é", "😀", "Ω", " ", "\n", "word", ".", "_X",
           "\n```\né 😀 ß\n```\n", "\n```\nplain\n```\n", "\x01")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_scanning_the_stand_in_view_finds_what_scanning_the_text_finds(pieces):
    """``scan_items`` on ``Extraction.ascii_original`` (the original's units on ASCII stand-ins)
    gives the items the scan of the text itself gives."""
    from engine.caveman.preservation import extract
    from engine.caveman.validation import scan_items

    text = "".join(pieces)
    view = extract(text, [], profile="omniroute").ascii_original  # (none after a fenced block)
    if view is None:
        return
    assert view[1].isascii()
    assert [(label, items) for label, items, _at in scan_items(text, view)] == \
        [(label, items) for label, items, _at in scan_items(text)]
