"""ASCII stand-ins (``engine.caveman.standins``): when they are used, and that the rules then
give exactly what they give on the real text."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman import Compressor, PackSource
from engine.caveman.packs import Rule
from engine.caveman.standins import STAND_INS, stand_ins
from engine.jsvalues import to_utf16_units
from tests.engine.caveman.helpers import pack, rule

PLAIN = [Rule("filler", r"\b(?:basically|really)\b\s*", flags="gi", replacement=""),
         Rule("articles", r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", flags="g", replacement="")]


def _units(text: str) -> str:
    return to_utf16_units(text)


def test_a_few_symbols_get_stand_ins_and_come_back():
    text = _units("the 😀 reaction: ΔT was 5 ms — done")
    found = stand_ins(text, PLAIN)
    assert found is not None and len(found.units) == 4  # two surrogates, Δ, the dash
    ascii_text = found.to_ascii(text)
    assert ascii_text.isascii() and len(ascii_text) == len(text)
    assert set(found.marks) <= set(STAND_INS)
    assert found.back(ascii_text) == text


@pytest.mark.parametrize("text, rules, why", [
    ("plain ascii", PLAIN, "nothing to stand in for"),
    ("a\u00a0b é", PLAIN, "a JavaScript blank"),
    ("a \u2028 b", PLAIN, "a line terminator"),
    ("5 \u212a", PLAIN, "Kelvin lower-cases to ASCII k"),
    ("x é", [Rule("acute", "é", flags="g", replacement="e")], "a rule names the unit"),
    ("x é", [Rule("any_latin", "[\u00c0-\u024f]+", flags="g", replacement="")], "a class holds the unit, not its stand-in"),
    ("x é", [Rule("controls", "[\\x01-\\x1f]", flags="g", replacement="")], "a class holds every stand-in, not the unit"),
    ("x é", [Rule("code_points", "x", flags="gu", replacement="")], "u: code points, not units"),
    ("x é", [Rule("twice", r"(\w)\1", flags="gi", replacement="")], "a back-reference under i"),
    ("".join(chr(0x4E00 + i) for i in range(len(STAND_INS) + 1)), PLAIN, "more units than stand-ins"),
])
def test_no_stand_ins_where_they_would_not_be_exact(text, rules, why):
    assert stand_ins(_units(text), rules) is None, why


def test_case_folding_is_judged_on_the_canonical_image():
    # under i the parsed class is a case-folded image: δ (whose image is Δ) is in [Δ]/i
    assert stand_ins(_units("x δ"), [Rule("delta", "Δ", flags="gi", replacement="")]) is None
    assert stand_ins(_units("x δ"), [Rule("delta", "Δ", flags="g", replacement="")]) is not None  # not without i


def test_stand_ins_avoid_what_the_text_and_the_replacements_hold():
    text = _units("\x01 é ü")
    rules = [Rule("mark", "x", flags="g", replacement="\x02"), Rule("mapped", "y", flags="g", replacement_map={"y": "\x03"})]
    found = stand_ins(text, rules)
    assert found is not None and not {"\x01", "\x02", "\x03"} & set(found.marks)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab .\n😀Δ—é\x01"), max_size=80))
def test_to_ascii_and_back_is_the_identity(text):
    units = _units(text)
    found = stand_ins(units, PLAIN)
    if found is not None:
        assert found.back(found.to_ascii(units)) == units and found.to_ascii(units).isascii()


# ------------------------------------------------------------- the rules give the same result

RULES = pack(
    rule("filler", r"\b(?:basically|really|just)\b\s*", flags="gi"),
    rule("articles", r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", "", flags="g"),
    rule("polite", r"(?<!\w)please[,!.]?\s+", "", flags="gi"),
    rule("swap", r"(\w+) of (\w+)", "$2's $1", flags="g"),
    rule("dots", r"[.]{2,}", "…", flags="g"),
    rule("non_letters", r"[^a-z\s]{3,}", "#", flags="g"),
    rule("any_two", r"x..y", "xy", flags="g"),
    rule("first_only", r"ok\s+", "OK ", flags=""),
    rule("mapped", r"\b(?:utilize|in order to)\b", None, flags="gi",
         replacementMap={"utilize": "use", "in order to": "to"}),
    rule("line_start", r"^\s*(?:so|well),?\s+", "", flags="gim"),
    rule("tail", r"\s+$", "", flags="g"),
)
BITS = ("the ", "a ", "The ", "basically ", "please, ", "Please ", "top of tree ", "x😀😀y ", "xΔΔy ", "ok ",
        "...", "so ", "well, ", "utilize ", "In order to ", "😀", "Δ", "δ", "—", "é", "ü", "ß", "\n", "\n\n",
        "`code` ", "http://a.io/😀 ", "x", " ", "!!!", "\u00a0", "\u212a")


def _both(text: str, profile: str, monkeypatch) -> tuple:
    cfg = {"enabled": True, "minMessageLength": 0, "compressRoles": ["user"], "language": "xx", "intensity": "full"}
    source = PackSource.from_packs([RULES])
    out = []
    for use in (True, False):
        monkeypatch.setattr(Compressor, "use_stand_ins", use)
        compressor = Compressor(source, cfg, profile=profile)
        result = compressor.compress_body({"messages": [{"role": "user", "content": text}]})
        stats = {k: v for k, v in result.stats.items() if k not in ("timestamp", "durationMs")}
        part = compressor.compress_part(text, "user")  # (the rules' own output, before cleanup)
        out.append((part.after_rules, result.body, stats, [(d.code, d.message) for d in result.diagnostics]))
    return out[0], out[1]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(BITS), max_size=50), st.sampled_from(("omniroute", "strict")))
def test_rules_on_stand_ins_give_the_same_result(bits, profile):
    with pytest.MonkeyPatch.context() as monkeypatch:
        with_stand_ins, without = _both("".join(bits), profile, monkeypatch)
    assert with_stand_ins == without


@pytest.mark.parametrize("seed", range(4))
def test_rules_on_stand_ins_give_the_same_result_on_large_texts(seed, monkeypatch):
    """Long enough for the planned paths (literal indexes, anchored candidates, full scans)."""
    rng = random.Random(seed)
    bits = [b for b in BITS if b not in ("\u00a0", "\u212a")]  # (those turn stand-ins off)
    text = "".join(rng.choice(bits) for _ in range(12_000))
    cfg_units = _units(text)
    assert stand_ins(cfg_units, [Rule(r["name"], r["pattern"], flags=r.get("flags", "gi"), replacement=r.get("replacement"),
                                      replacement_map=r.get("replacementMap")) for r in RULES["rules"]]) is not None
    with_stand_ins, without = _both(text, "omniroute" if seed % 2 else "strict", monkeypatch)
    assert with_stand_ins == without
