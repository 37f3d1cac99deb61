"""Language detection (spec §5) counts each language's hint words only where one can start; these
tests hold it to the plain count of every match, and a part whose detection runs out of time to
an error that leaves the part as it was (never a traceback)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman import Compressor, PackSource
from engine.caveman import language as lang_module
from engine.caveman.language import _HINT_WORDS, _KANA, Detection, _hint_source, detect_language
from engine.jsregex import RegexTimeout, compile_js

from .helpers import pack, rule


def plain_detection(text: str, profile: str) -> Detection:
    """The reference's reading: every match of each hint pattern, counted."""
    if lang_module._HAN.search(text) and not _KANA.search(text):
        return Detection("zh", {})
    scores = {}
    for lang, words in _HINT_WORDS:
        if lang == "ja":
            scores[lang] = len(_KANA.findall(text))
            continue
        source, flags = _hint_source(words, unicode_edges=profile == "strict")
        scores[lang] = len(compile_js(source, flags).match_all(text, timeout=60))
    best, score = "en", 0
    for lang, count in scores.items():
        if count > score:
            best, score = lang, count
    return Detection(best, scores)


# hint words in every case, inside and beside words, with what the word edges and the case
# folding read differently: non-ASCII letters, the long s and Kelvin sign, digits, an emoji
BITS = ("você ", "voce ", "VOCÊ", "código", "codigo ", "ich ", "Ich", "ICH", "which ", "bitte", "Danke.", "saya ",
        "SAYA", "yang", "dari", "terima", "kasih", " ", "  ", "\n", "é", "ſ", "\u212a", "_", "1", "x", "😀",
        "\u00a0", "archivo", "gracias,", "fichier", "merci!", "untuk", "ſaya", "kannſt", "\u3042", "\U00010400",
        "\U00010428", "\ud800")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(BITS), max_size=40), st.sampled_from(("omniroute", "strict")))
def test_detection_counts_every_hint_match(bits, profile):
    text = "".join(bits)
    assert detect_language(text, profile=profile) == plain_detection(text, profile)


@pytest.mark.parametrize("profile", ["omniroute", "strict"])
def test_detection_of_long_mixed_text_counts_every_hint_match(profile):
    text = "".join(BITS[k % len(BITS)] + BITS[(k * 7) % len(BITS)] for k in range(3000)) * 3
    assert detect_language(text, profile=profile) == plain_detection(text, profile)


def test_detection_of_a_large_part_does_not_run_out_of_time():
    # a scan of every position took ~0.6 s per MB for each language with the strict profile's
    # Unicode word edges: a 4 MB part raised RegexTimeout out of the CLI
    text = "Necesito el archivo de configuración, gracias. " * 90_000
    assert detect_language(text, profile="strict").language == "es"
    assert detect_language(text, profile="omniroute").language == "es"


def test_a_detection_that_runs_out_of_time_leaves_the_part_and_says_so(monkeypatch):
    def stalled(rx, *_args):
        raise RegexTimeout(rx.source, rx.flags, 0.25)

    monkeypatch.setattr(lang_module, "_count_matches", stalled)
    source = PackSource.from_packs([pack(rule("please", r"\bplease\b\s*", "", flags="gi"))])
    config = {"enabled": True, "minMessageLength": 0, "autoDetectLanguage": True, "language": "xx"}
    text = "please read the file"
    result = Compressor(source, config).compress_body({"messages": [{"role": "user", "content": text}]})
    assert result.body["messages"][0]["content"] == text
    [diag] = [d for d in result.diagnostics if d.code == "CAV-timeout"]
    assert "language detection" in diag.message and "left unchanged" in diag.message
