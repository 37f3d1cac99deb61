"""Language choice and detection (spec §5).

Hint words are whole words under JavaScript's ASCII ``\\b`` in the reference, so a keyword that
starts or ends with a non-ASCII letter (``você``) never counts (CAV-Q6); ``strict`` uses
Unicode-aware word edges instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.jsregex import compile_js

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


def detect_language(text: str, *, profile: str = "omniroute") -> Detection:
    """``detectCompressionLanguage``: Han without kana → zh; else the strictly best hint score."""
    if _HAN.search(text) and not _KANA.search(text):
        return Detection("zh", {})
    scores: dict[str, int] = {}
    for lang, words in _HINT_WORDS:
        if lang == "ja":
            scores[lang] = len(_KANA.findall(text))
            continue
        source, flags = _hint_source(words, unicode_edges=profile == "strict")
        scores[lang] = len(compile_js(source, flags).match_all(text))
    best, best_score = "en", 0
    for lang, score in scores.items():
        if score > best_score:
            best, best_score = lang, score
    return Detection(best, scores)


def choose_language(text: str, config: dict[str, Any], *, profile: str = "omniroute") -> tuple[str, Detection | None]:
    """The pack language for one part: ``(language, detection or None)``."""
    detection = None
    if config.get("autoDetectLanguage"):
        detection = detect_language(text, profile=profile)
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
