"""The charset-led ``re`` twin (engine.jsregex.charset_led): the same matches, spans and groups
as the plain twin of the translation on any text, and only for the shape it is made for."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.jsregex import compile_js
from engine.jsregex.charset_led import charset_led_twin
from engine.jsregex.twin import re_twin

LED = [
    (r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", "g"),
    (r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", "g"),
    (r"\b(?:very|really|extremely|quite)\s+(?=[a-z])", "gi"),
    (r"\b(?:please|kindly|could you please)\b", "gi"),
    (r"\b[A-Za-z_$][A-Za-z0-9_$]*\s*\([^()\n]*\)", "g"),
    (r"\b(?:a(b)?|ab|[.x]c)(\s*)", "g"),  # groups after the first class; a non-word first class
    (r"\b(?:x|y|x)z?", "gm"),  # a class repeated among the alternatives: order kept
    (r"\b(?:a(?:b|c)d|b)e", "g"),  # a nested alternation after the first class
]
NOT_LED = [
    (r"(?:[Aa]n|[Aa])\s+", "g"),  # no leading \b
    (r"\b([Aa]n|[Aa])\s+", "g"),  # the first class sits inside a group
    (r"\b(?:an|\d+)", "g"),  # an alternative that starts with a repeat
    (r"\b(?:an|)", "g"),  # an empty alternative
    (r"\b[Aa]n", "gu"),  # u: a class may match a surrogate pair
    (r"\b.x", "g"),  # a dot, not a class
    (r"\b", "g"),
    (r"\b(?:a|(?:b|c)d)e", "g"),  # an alternative that starts with an alternation
]
ALPHABET = "aAbBcdeTtnhxyz_.$( )\n\t\u00a0é1"


@pytest.mark.parametrize(("source", "flags"), LED)
def test_made_for_the_shape(source, flags):
    assert charset_led_twin(source, flags, compile_js(source, flags).translation.emitted) is not None


@pytest.mark.parametrize(("source", "flags"), NOT_LED)
def test_no_twin_for_other_shapes(source, flags):
    assert charset_led_twin(source, flags, compile_js(source, flags).translation.emitted) is None


def test_no_twin_when_the_translation_differs():
    source, flags = LED[0]
    assert charset_led_twin(source, flags, compile_js(source, flags).translation.emitted + "x") is None


def _scan(pattern, text: str) -> list[tuple[tuple[int, int], tuple]]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


@pytest.mark.parametrize(("source", "flags"), LED)
@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=ALPHABET, max_size=60))
def test_same_matches_as_the_plain_twin(source, flags, text):
    emitted = compile_js(source, flags).translation.emitted
    plain, led = re_twin(emitted), charset_led_twin(source, flags, emitted)
    subject = text.upper() if "i" in flags else text  # (i patterns run on the canonical text)
    assert _scan(led, subject) == _scan(plain, subject)
    assert led.subn("<\\g<0>>", subject) == plain.subn("<\\g<0>>", subject)
    for pos in range(len(subject) + 1):  # a search from any position sees the text before it
        found, expected = led.search(subject, pos), plain.search(subject, pos)
        assert (found and (found.span(), found.groups())) == (expected and (expected.span(), expected.groups()))


def test_same_matches_on_prose():
    text = ("The cat and an owl. A dog? the end\tan\u00a0apple, a Bee; Then theater. MAX_RETRY_2 and "
            "_A_B a_b A1_B2 call foo (x) then bar() and $x(y) x.y(z)\n") * 40
    for source, flags in LED:
        emitted = compile_js(source, flags).translation.emitted
        subject = text.upper() if "i" in flags else text
        assert _scan(charset_led_twin(source, flags, emitted), subject) == _scan(re_twin(emitted), subject)
