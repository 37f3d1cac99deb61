"""Language choice and detection (spec §5).

Hint words are whole words under JavaScript's ASCII ``\\b`` in the reference, so a keyword that
starts or ends with a non-ASCII letter (``você``) never counts (CAV-Q6); ``strict`` uses
Unicode-aware word edges instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.caveman.apply import budget_for
from engine.caveman.fast import occurrences
from engine.jsregex import JSRegExp, RegexTimeout, compile_js
from engine.jsregex.anchored import anchored_spans

SUPPORTED = ("en", "zh", "pt-BR", "es", "de", "fr", "ja", "id")

_HINT_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pt-BR", ("voce", "você", "preciso", "arquivo", "codigo", "código", "erro", "falha", "obrigado")),
    ("es", ("necesito", "archivo", "codigo", "código", "fallo", "gracias", "puedes")),
    ("de", ("ich", "datei", "fehler", "bitte", "kannst", "konfiguration", "danke")),
    ("fr", ("fichier", "erreur", "merci", "peux", "besoin")),
    ("ja", ()),
    ("id", ("saya", "kamu", "anda", "dengan", "untuk", "yang", "tidak", "bisa", r"terima\s+kasih", "dari")),
)
_HAN = re.compile("[\u4e00-\u9fff]")
_KANA = re.compile("[\u3040-\u30ff]")


def _hint_source(words: tuple[str, ...], *, unicode_edges: bool) -> tuple[str, str]:
    body = "|".join(words)
    if unicode_edges:
        return rf"(?<![\p{{L}}\p{{N}}_])(?:{body})(?![\p{{L}}\p{{N}}_])", "giu"
    return rf"\b(?:{body})\b", "gi"


@dataclass
class Detection:
    language: str
    scores: dict[str, int]


def detect_language(text: str, *, profile: str = "omniroute", timeout: float | None = None) -> Detection:
    """``detectCompressionLanguage``: Han without kana → zh; else the strictly best hint score.
    Raises ``RegexTimeout`` when a count outruns its budget (``timeout``, scaled to the text)."""
    if _HAN.search(text) and not _KANA.search(text):
        return Detection("zh", {})
    scores: dict[str, int] = {}
    for lang, words in _HINT_WORDS:
        if lang == "ja":
            scores[lang] = len(_KANA.findall(text))
            continue
        source, flags = _hint_source(words, unicode_edges=profile == "strict")
        scores[lang] = _count_matches(compile_js(source, flags), text, words, timeout)
    best, best_score = "en", 0
    for lang, score in scores.items():
        if score > best_score:
            best, best_score = lang, score
    return Detection(best, scores)


def _count_matches(rx: JSRegExp, text: str, words: tuple[str, ...], timeout: float | None) -> int:
    """``len(rx.match_all(text))`` for a hint pattern, whose every match starts with the head of one
    of its ``words`` (the word, or what stands before its first escape): the pattern is tried
    only where a head occurs in the text as the pattern reads it (case-folded), left to right,
    as JavaScript's loop finds matches. A scan of every position cost 70 ms per MB for each
    language, and 600 ms with the strict profile's Unicode word edges (a 4 MB part ran out of
    time). The languages' patterns of one profile share the text's prepared subject (the
    regex layer keeps it for a large text)."""
    heads = {rx.prepare(word.split("\\", 1)[0]) for word in words}
    target = rx.prepare(text)  # (after the heads: the pattern's own memo holds its last subject)
    positions = sorted({at for head in heads for at in occurrences(target, head)})
    budget = budget_for(text, timeout)
    try:
        return len(anchored_spans(rx.translation.compiled, target, positions, budget, linear=False))
    except TimeoutError:
        raise RegexTimeout(rx.source, rx.flags, budget or 0.0) from None


def choose_language(text: str, config: dict[str, Any], *, profile: str = "omniroute",
                    timeout: float | None = None) -> tuple[str, Detection | None]:
    """The pack language for one part: ``(language, detection or None)``."""
    detection = None
    if config.get("autoDetectLanguage"):
        detection = detect_language(text, profile=profile, timeout=timeout)
        return detection.language, detection
    detected = config.get("language")
    if detected is None:
        detected = "en"
    packs = config.get("enabledLanguagePacks")
    if packs is None:
        packs = ["en", detected]
    if detected in packs:
        return detected, None
    if "en" in packs:
        return "en", None
    return detected, None
