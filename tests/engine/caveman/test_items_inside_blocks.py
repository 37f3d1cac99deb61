"""Validation does not search for what it knows is there: an item that lies inside a protected
block the output holds as it was (``ItemsInside``; the blocks put back, less those the second
cleanup touched: ``clean_restored`` / ``untouched``). These tests hold each piece to its plain
form, and the whole flow to the same outcome with the shortcut turned off."""

from __future__ import annotations

import importlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.agent_corpus import sessions
from bench.bench_caveman import mixed_prose
from engine.caveman import Compressor, PackSource
from engine.caveman.cleanup import clean_restored, cleanup, recapitalize, untouched
from engine.caveman.validation import ItemsInside, scan_items
from engine.paths import builtin_rules_dir

from .test_cleanup import _insert_blocks
from .test_linear_validation import PIECES

compress_module = importlib.import_module("engine.caveman.compress")  # (the package exports a function by that name)

# ------------------------------------------------------------------ the pieces, each plainly


def _disjoint_spans(draw: st.DrawFn, limit: int, count: int) -> list[tuple[int, int]]:
    cuts = sorted(draw(st.lists(st.integers(0, limit), min_size=2 * count, max_size=2 * count)))
    return [(cuts[k], cuts[k + 1]) for k in range(0, len(cuts), 2)]


@st.composite
def spans_and_stretches(draw: st.DrawFn) -> tuple[list[tuple[int, int]], list[tuple[int, int]] | None]:
    spans = [span for span in _disjoint_spans(draw, 120, draw(st.integers(0, 8))) if span[0] < span[1]]
    if draw(st.booleans()) and draw(st.booleans()):
        return spans, None
    return spans, _disjoint_spans(draw, 120, draw(st.integers(0, 5)))


@settings(max_examples=400, deadline=None)
@given(spans_and_stretches())
def test_untouched_spans_are_those_no_cleaned_stretch_overlaps(case):
    spans, stretches = case
    expected = [stretches is not None and not any(c < b and a < d for c, d in stretches) for a, b in spans]
    assert untouched(spans, stretches) == expected


CLEAN_BITS = ("word", "Zed", " ", "  ", "\t", ".", ",", "!?", "...", "\n", "\n\n\n", "é")
BLOCK_BITS = (" ", "\t", ".", ",", "!", "\n", "\n\n", "a", "`x`", " ./p", "  y  ")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(CLEAN_BITS), max_size=40),
       st.lists(st.tuples(st.integers(0, 200), st.lists(st.sampled_from(BLOCK_BITS), min_size=1, max_size=5)),
                max_size=8))
def test_the_second_cleanup_leaves_the_blocks_it_says_alone_as_they_were(words, blocks):
    clean = "Start" + recapitalize(cleanup("".join(words))) + "end"
    restored, spans = _insert_blocks(clean, sorted((min(cut, len(clean) - 1), "".join(bits)) for cut, bits in blocks))
    out, stretches = clean_restored(restored, spans)
    assert out == cleanup(restored)
    if stretches is not None:  # the text outside the stretches is kept, in order
        kept = [restored[b:a] for (_, b), (a, _) in zip([(0, 0), *stretches], [*stretches, (len(restored), 0)])]
        at = 0
        for k, piece in enumerate(kept):
            found = out.find(piece, at) if k else (0 if out.startswith(piece) else -1)
            assert found >= 0
            at = found + len(piece)
        assert out.endswith(kept[-1])
    for (a, b), alone in zip(spans, untouched(spans, stretches)):
        if alone:
            assert restored[a:b] in out


@st.composite
def scanned_text_and_spans(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    text = "".join(draw(st.lists(st.sampled_from([p for p in PIECES if p not in ("😀",)]), max_size=40)))
    spans = [span for span in _disjoint_spans(draw, len(text), draw(st.integers(0, 10))) if span[0] < span[1]]
    return text, spans


@settings(max_examples=400, deadline=None)
@given(scanned_text_and_spans(), st.data())
def test_items_inside_are_those_within_a_span(case, data):
    text, spans = case
    scans = scan_items(text)
    kept = data.draw(st.lists(st.booleans(), min_size=len(spans), max_size=len(spans)))
    inside = ItemsInside(scans, [a for a, _ in spans], [b for _, b in spans])
    held = [(item, at) for _label, items, starts in scans for item, at in zip(items, starts)]
    assert inside.present() == {item for item, at in held
                                if any(a <= at and at + len(item) <= b for a, b in spans)}
    assert inside.present(kept) == {item for item, at in held
                                    if any(a <= at and at + len(item) <= b for (a, b), k in zip(spans, kept) if k)}
    for item in inside.present():
        assert any(item in text[a:b] for a, b in spans)


# ------------------------------------------------------------- the flow, with and without it

def _outcome(text: str, profile: str, shortcut: bool, monkeypatch: pytest.MonkeyPatch) -> tuple:
    if not shortcut:  # (strict knows every block put back is there: its validation is told so)
        monkeypatch.setattr(ItemsInside, "present", lambda self, kept=None: set())
        plain = compress_module.validate_blocks
        monkeypatch.setattr(compress_module, "validate_blocks",
                            lambda original, compressed, blocks, present=(): plain(original, compressed, blocks))
    cfg = {"enabled": True, "minMessageLength": 0, "compressRoles": ["user"], "intensity": "full"}
    compressor = Compressor(PackSource.from_dir(builtin_rules_dir()), cfg, profile=profile)
    result = compressor.compress_body({"messages": [{"role": "user", "content": text}]})
    monkeypatch.undo()
    stats = {k: v for k, v in result.stats.items() if k not in ("timestamp", "durationMs")}
    return result.body, stats, [(d.code, d.message) for d in result.diagnostics]


def _same_with_and_without(text: str, profile: str) -> tuple:
    with pytest.MonkeyPatch.context() as monkeypatch:
        on = _outcome(text, profile, True, monkeypatch)
        off = _outcome(text, profile, False, monkeypatch)
    assert on == off
    return on


@pytest.mark.parametrize("profile", ["omniroute", "strict"])
@pytest.mark.parametrize("make", [sessions, mixed_prose], ids=["agent sessions", "mixed prose"])
def test_the_flow_gives_the_same_outcome_without_the_shortcut(make, profile):
    """Large enough for the views on stand-ins; agent sessions fall back under omniroute, with
    CAV-Q1's check of the joined text (where every item lies in a block put back)."""
    _body, _stats, diagnostics = _same_with_and_without(make(150_000), profile)
    codes = {code for code, _message in diagnostics}
    if make is sessions and profile == "omniroute":
        assert "CAV-Q1" in codes  # (the case this covers: a fallback explained)


BITS = ("Please ", "basically ", "the ", "`code`  ", "`a ,b` ", "https://x.io/p ", "v1.2.3 ", "MAX_RETRY ",
        "f(x) ", "\n```\ncode  .\n```\n", "\n    ```\nx ,\n    ```\n", "😀", "é", " ", "  ", ". ", " ,", "\n\n\n",
        "[l](http://y.io) ", "$y$ ")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(BITS), max_size=40), st.sampled_from(("omniroute", "strict")))
def test_small_texts_give_the_same_outcome_without_the_shortcut(bits, profile):
    _same_with_and_without("".join(bits), profile)


@pytest.mark.parametrize("seed", range(3))
def test_long_texts_of_the_bits_give_the_same_outcome_without_the_shortcut(seed):
    rng = random.Random(seed)
    _same_with_and_without("".join(rng.choice(BITS) for _ in range(6_000)), "omniroute")
