"""Rulewright's own Caveman packs (``rules/<language>/*.json``) and their samples.

What must hold for every pack we ship: ``rulewright validate`` is clean; every rule says what it
does and when it runs; every sample compresses at lite/full/ultra without a validation fallback
and never gets longer; negations, numbers and protected regions (code, URLs, paths) survive —
on the samples and, as a property, on generated sentences built from the phrases the packs target.
Runs without ../shared (only the project's own files are used).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.caveman import Compressor, PackSource, lint_idempotence
from engine.caveman.prefilter import KEYWORDS
from engine.caveman.preservation import extract
from engine.cli import main as cli_main
from engine.jsvalues import utf16_len
from engine.validate import validate_paths

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
LANGUAGES = ("en", "es", "pt-BR", "de", "fr", "id", "ja", "zh")
PREFIX = {"en": "en_", "es": "es_", "pt-BR": "pt_", "de": "de_", "fr": "fr_", "id": "id_", "ja": "ja_", "zh": "zh_"}
CATEGORIES = ("context", "dedup", "filler", "structural", "ultra")
INTENSITIES = ("lite", "full", "ultra")
SCHEMA_REF = "../../resources/schemas/caveman-pack.schema.json"

# Words that negate, per language. Counted before and after compression: never fewer afterwards.
NEGATIONS = {
    "en": r"\b(?:not|never|no|none|nothing|nobody|neither|nor|cannot)\b|n't\b",
    "es": r"(?<![\p{L}\p{N}])(?:no|nunca|jamás|ni|nada|nadie|ningún|ninguna|ninguno|tampoco|sin)(?![\p{L}\p{N}])",
    "pt-BR": r"(?<![\p{L}\p{N}])(?:não|nunca|jamais|nem|nada|ninguém|nenhum|nenhuma|sem)(?![\p{L}\p{N}])",
    "de": r"(?<![\p{L}\p{N}])(?:nicht|nie|niemals|kein|keine|keinen|keinem|keiner|keines|nichts|niemand|weder|"
          r"ohne)(?![\p{L}\p{N}])",
    "fr": r"(?<![\p{L}\p{N}])(?:ne|n['’]|pas|jamais|rien|aucun|aucune|personne|sans|ni)(?![\p{L}\p{N}])|"
          r"(?<![\p{L}\p{N}])n['’]",
    "id": r"(?<![\p{L}\p{N}])(?:tidak|tak|bukan|belum|jangan|tanpa|nggak|gak|enggak)(?![\p{L}\p{N}])",
    "ja": r"ない|なく|なかっ|ません|ず(?=[、。にとも])|無|不|未|非",
    "zh": r"不|没|无|未|非|别|莫",
}
# Fixed expressions that contain a negation morpheme but negate nothing (an apology, "very", an
# A-not-A question); they are taken out before counting.
NOT_NEGATIONS = {
    "es": r"(?i)sin embargo",
    "ja": r"非常|すみません|申し訳ありません|申し訳ない|かもしれません|ませんか",
    "zh": r"非常|((?![不没])\p{Han})[不没]\1",
}
NUMBER = re.compile(r"\d+")


def negation_count(language: str, text: str) -> int:
    import regex

    if language in NOT_NEGATIONS:
        text = regex.sub(NOT_NEGATIONS[language], " ", text)
    return len(regex.findall(NEGATIONS[language], text, flags=regex.IGNORECASE | regex.V0))


def numbers(text: str) -> Counter:
    return Counter(NUMBER.findall(text))


@cache
def source() -> PackSource:
    return PackSource.from_dir(RULES)


def pack_files(language: str) -> list[Path]:
    return sorted((RULES / language).glob("*.json"))


def all_packs() -> list[tuple[Path, dict]]:
    return [(p, json.loads(p.read_text(encoding="utf-8"))) for lang in LANGUAGES for p in pack_files(lang)]


def sample_files(language: str) -> list[Path]:
    return sorted((RULES / language / "samples").glob("*.txt"))


def role_of(sample: Path) -> str:
    """user_request → user, assistant_answer → assistant, system_prompt → system, else user."""
    for role in ("assistant", "system"):
        if sample.stem.startswith(role):
            return role
    return "user"


def run(text: str, language: str, intensity: str, role: str = "user", profile: str = "omniroute"):
    config = {"enabled": True, "minMessageLength": 0, "intensity": intensity, "compressRoles": [role],
              "language": language}
    result = Compressor(source(), config, profile=profile).compress_body(
        {"messages": [{"role": role, "content": text}]})
    return result.body["messages"][0]["content"], result


# ---------------------------------------------------------------- the packs themselves

def test_validate_is_clean():
    diagnostics = validate_paths([RULES])
    problems = [d for d in diagnostics if d.level in ("error", "warning")]
    assert problems == [], "\n".join(f"{d.path}:{d.line}:{d.column}: {d.level}: {d.message}" for d in problems)


def test_validate_cli_exit_code(capsys):
    assert cli_main(["validate", str(RULES)]) == 0
    captured = capsys.readouterr()
    assert "0 error(s), 0 warning(s)" in captured.out + captured.err


@pytest.mark.parametrize("language", LANGUAGES)
def test_language_has_the_standard_categories(language):
    names = [p.stem for p in pack_files(language)]
    assert set(names) <= set(CATEGORIES)
    assert {"filler", "dedup", "ultra"} <= set(names), names  # every language; context/structural where useful
    for path in pack_files(language):
        pack = json.loads(path.read_text(encoding="utf-8"))
        assert pack["$schema"] == SCHEMA_REF
        assert pack["language"] == language
        assert pack["category"] == path.stem
        assert pack["rules"], f"{path} has no rules"


@pytest.mark.parametrize("path,pack", all_packs(), ids=lambda v: f"{v.parent.name}/{v.name}" if isinstance(v, Path) else "")
def test_every_rule_is_documented_and_scoped(path, pack):
    prefix = PREFIX[pack["language"]]
    for i, rule in enumerate(pack["rules"]):
        where = f"{path.parent.name}/{path.name} rules[{i}] {rule.get('name')}"
        assert isinstance(rule.get("description"), str) and len(rule["description"]) >= 10, where
        assert rule.get("minIntensity") in INTENSITIES, where
        assert rule.get("context") in ("all", "user", "assistant", "system"), where
        assert rule.get("category") in ("filler", "context", "structural", "dedup", "terse", "ultra"), where
        assert "replacement" in rule or "replacementMap" in rule, where
        assert rule.get("flags", "gi") != "gi" or "flags" not in rule, f"{where}: 'gi' is the default, omit it"
        # Prefixed names are never gated by OmniRoute's English keyword prefilter (CAV-Q4, caveman.md §7.4).
        assert rule["name"].startswith(prefix), where
        assert rule["name"] not in KEYWORDS and rule["name"] != "articles", where


@pytest.mark.parametrize("language", LANGUAGES)
def test_rule_names_are_unique_per_language(language):
    names = [r.name for r in source().rules_for(language)]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_intensity_has_rules_for_every_role(language):
    """No selection falls back to OmniRoute's English list (CAV-Q3) for our languages."""
    from engine.caveman.apply import filter_rules

    rules = source().rules_for(language)
    for intensity in INTENSITIES:
        for role in ("user", "assistant", "system"):
            assert filter_rules(rules, role, intensity), (language, intensity, role)
    lite = len(filter_rules(rules, "user", "lite"))
    full = len(filter_rules(rules, "user", "full"))
    ultra = len(filter_rules(rules, "user", "ultra"))
    assert lite < full < ultra


@pytest.mark.parametrize("path,pack", all_packs(), ids=lambda v: f"{v.parent.name}/{v.name}" if isinstance(v, Path) else "")
def test_rules_are_idempotent(path, pack):
    samples = tuple(p.read_text(encoding="utf-8") for p in sample_files(pack["language"]))
    problems = lint_idempotence(pack, samples)
    assert problems == [], "\n".join(d.message for d in problems)


# ---------------------------------------------------------------- samples

@pytest.mark.parametrize("language", LANGUAGES)
def test_three_to_five_samples(language):
    samples = sample_files(language)
    assert 3 <= len(samples) <= 5, samples
    roles = {role_of(p) for p in samples}
    assert roles == {"user", "assistant", "system"}, roles


SAMPLES = [(lang, p) for lang in LANGUAGES for p in sample_files(lang)]


@pytest.mark.parametrize("profile", ("omniroute", "strict"))
@pytest.mark.parametrize("intensity", INTENSITIES)
@pytest.mark.parametrize("language,sample", SAMPLES, ids=[f"{lang}/{p.name}" for lang, p in SAMPLES])
def test_sample_compresses_without_fallback(language, sample, intensity, profile):
    text = sample.read_text(encoding="utf-8")
    out, result = run(text, language, intensity, role_of(sample), profile)
    stats = result.stats
    assert not stats.get("fallbackApplied"), stats.get("validationErrors")
    assert not stats.get("validationErrors")
    assert not [d for d in result.diagnostics if d.code in ("CAV-timeout", "CAV-Q3")]
    assert utf16_len(out) <= utf16_len(text)
    assert stats["compressedTokens"] <= stats["originalTokens"]


@pytest.mark.parametrize("language,sample", SAMPLES, ids=[f"{lang}/{p.name}" for lang, p in SAMPLES])
def test_sample_saves_tokens_at_ultra(language, sample):
    text = sample.read_text(encoding="utf-8")
    lite, _ = run(text, language, "lite", role_of(sample))
    full, _ = run(text, language, "full", role_of(sample))
    ultra, result = run(text, language, "ultra", role_of(sample))
    assert result.stats["rulesApplied"]
    assert utf16_len(ultra) <= utf16_len(full) <= utf16_len(lite) < utf16_len(text)


@pytest.mark.parametrize("intensity", INTENSITIES)
@pytest.mark.parametrize("language,sample", SAMPLES, ids=[f"{lang}/{p.name}" for lang, p in SAMPLES])
def test_sample_keeps_negations_and_numbers(language, sample, intensity):
    text = sample.read_text(encoding="utf-8")
    assert negation_count(language, text) > 0, "a sample should carry negations to check"
    assert numbers(text), "a sample should carry numbers to check"
    out, _ = run(text, language, intensity, role_of(sample))
    assert negation_count(language, out) >= negation_count(language, text)
    assert numbers(out) == numbers(text)


PROTECTED_KINDS = ("fenced_code", "inline_code", "url", "markdown_link", "file_path", "version", "const_case",
                   "error_message", "function_call", "dotted_identifier", "markdown_heading", "markdown_table")


@pytest.mark.parametrize("intensity", INTENSITIES)
@pytest.mark.parametrize("language,sample", SAMPLES, ids=[f"{lang}/{p.name}" for lang, p in SAMPLES])
def test_sample_protected_regions_survive_verbatim(language, sample, intensity):
    text = sample.read_text(encoding="utf-8")
    blocks = [b for b in extract(text, []).blocks if b.kind in PROTECTED_KINDS]
    assert any(b.kind in ("inline_code", "fenced_code") for b in blocks), "samples mix in code"
    assert any(b.kind in ("url", "file_path", "markdown_link") for b in blocks), "samples mix in URLs or paths"
    out, _ = run(text, language, intensity, role_of(sample))
    for block in blocks:
        # a file_path region starts with the blank before it; the region itself must be intact
        assert block.content.strip() in out, (block.kind, block.content)


# ---------------------------------------------------------------- properties on generated prose

# Phrases the packs rewrite, with negation words and numbers mixed in by the strategy.
PHRASES = {
    "en": ["please", "I think that", "thanks in advance", "basically", "in order to", "the configuration",
           "a function", "the database", "very", "really", "due to the fact that", "could you explain",
           "it seems like", "as well as", "make sure that", "each and every", "with", "and", "however,",
           "for example", "the response", "is able to", "probably", "just", "I would like to"],
    "es": ["por favor", "creo que", "gracias", "básicamente", "con el fin de", "la configuración", "una función",
           "la base de datos", "muy", "realmente", "debido a que", "puedes explicar", "además,", "por ejemplo",
           "es capaz de", "quizás", "para", "que", "con", "el servidor", "las dependencias"],
    "pt-BR": ["por favor", "acho que", "obrigado", "basicamente", "a fim de", "a configuração", "uma função",
              "o banco de dados", "muito", "realmente", "você pode explicar", "além disso,", "por exemplo",
              "é capaz de", "talvez", "para", "que", "com", "você", "os arquivos", "no entanto"],
    "de": ["bitte", "ich glaube,", "danke", "eigentlich", "aufgrund der Tatsache, dass", "die Konfiguration",
           "eine Funktion", "die Datenbank", "sehr", "wirklich", "kannst du mir erklären", "zum Beispiel",
           "ist in der Lage", "vielleicht", "und", "der Server", "jedoch", "möglicherweise"],
    "fr": ["s'il vous plaît", "je pense que", "merci", "en fait", "afin de", "la configuration", "une fonction",
           "la base de données", "très", "vraiment", "pouvez-vous expliquer", "de plus,", "parce que",
           "est en mesure de", "peut-être", "pour", "dans", "avec des options", "l'application", "le serveur"],
    "id": ["tolong", "saya pikir", "terima kasih", "sebenarnya", "dengan tujuan untuk", "konfigurasi",
           "sebuah fungsi", "basis data", "sangat", "apakah kamu bisa", "selain itu,", "misalnya", "yang",
           "dengan", "untuk", "mungkin", "oleh karena itu", "menggunakan", "adalah"],
    "ja": ["してください", "ありがとうございます。", "とても", "と思います", "データベース", "することができます",
           "します", "できません", "していません", "ありません", "かもしれません", "について", "です。", "非常に",
           "確認していただけますか", "アプリケーション", "また、", "よね"],
    "zh": ["请", "谢谢", "非常", "我觉得", "数据库", "进行配置", "已经", "但是", "能不能帮我", "一下", "这个",
           "可以", "需要", "的时候", "应用程序", "吧", "为什么", "是不是"],
}
NEGATION_WORDS = {
    "en": ["not", "never", "no", "don't", "cannot"],
    "es": ["no", "nunca", "jamás", "sin", "ningún"],
    "pt-BR": ["não", "nunca", "jamais", "sem", "nenhum"],
    "de": ["nicht", "nie", "kein", "keine", "ohne", "nichts"],
    "fr": ["ne", "pas", "jamais", "n'a", "rien", "sans"],
    "id": ["tidak", "bukan", "belum", "jangan", "tanpa"],
    "ja": ["ない", "ません", "不要", "未対応", "できない"],
    "zh": ["不", "没有", "无法", "未", "别"],
}
# Words no rule removes: every generated sentence says something (a message made only of
# pleasantries may legitimately compress to nothing, and then the engine keeps it whole).
CONTENT = {
    "en": ["server", "cache", "parser", "token"], "es": ["servidor", "caché", "analizador"],
    "pt-BR": ["servidor", "cache", "analisador"], "de": ["Server", "Cache", "Parser"],
    "fr": ["serveur", "cache", "analyseur"], "id": ["server", "cache", "parser"],
    "ja": ["サーバ", "キャッシュ", "パーサ"], "zh": ["服务器", "缓存", "解析器"],
}
CJK = ("ja", "zh")


@st.composite
def sentences(draw, language: str) -> str:
    words = st.one_of(st.sampled_from(PHRASES[language]), st.sampled_from(NEGATION_WORDS[language]),
                      st.integers(0, 10_000).map(str))
    parts = draw(st.lists(words, min_size=3, max_size=14))
    parts.insert(draw(st.integers(0, len(parts))), draw(st.sampled_from(CONTENT[language])))
    joiner = "、" if language == "ja" else "，" if language == "zh" else " "  # CJK: no spaces, clause commas
    end = draw(st.sampled_from(["。", "？"] if language in CJK else [".", "?", "!"]))
    return joiner.join(parts) + end


@pytest.mark.parametrize("language", LANGUAGES)
def test_property_negations_numbers_and_length_survive(language):
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(sentences(language), min_size=1, max_size=3), st.sampled_from(INTENSITIES),
           st.sampled_from(("user", "assistant", "system")))
    def check(parts, intensity, role):
        text = ("" if language in CJK else " ").join(parts)
        out, result = run(text, language, intensity, role)
        assert negation_count(language, out) >= negation_count(language, text), (text, out)
        assert numbers(out) == numbers(text), (text, out)
        assert utf16_len(out) <= utf16_len(text), (text, out)
        assert not result.stats.get("fallbackApplied"), result.stats.get("validationErrors")

    check()


@pytest.mark.parametrize("language", LANGUAGES)
def test_property_code_and_urls_around_rules_stay_verbatim(language):
    snippets = ["`const limit = 42;`", "https://example.com/docs/v2?page=3", "./src/app/config.ts",
                "`MAX_RETRY`", "`db.query(sql)`"]

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(st.one_of(st.sampled_from(PHRASES[language]), st.sampled_from(snippets)), min_size=2,
                    max_size=12), st.sampled_from(INTENSITIES))
    def check(parts, intensity):
        text = " ".join([*parts, CONTENT[language][0]]) + "."
        out, result = run(text, language, intensity)
        for snippet in snippets:
            if snippet in text:
                assert snippet in out, (snippet, text, out)
        assert not result.stats.get("fallbackApplied"), result.stats.get("validationErrors")

    check()


def test_prose_rules_fire_in_every_language():
    """A plain request in each language is actually shortened at every intensity."""
    texts = {
        "en": "Hi there! Could you please explain why the configuration is basically not loaded? Thanks!",
        "es": "¡Hola! ¿Puedes explicar por qué la configuración básicamente no se carga? ¡Gracias!",
        "pt-BR": "Olá! Você pode explicar por que a configuração basicamente não carrega? Obrigado!",
        "de": "Hallo! Kannst du mir bitte erklären, warum die Konfiguration eigentlich nicht geladen wird?",
        "fr": "Bonjour ! Pourriez-vous expliquer pourquoi la configuration ne se charge vraiment pas ? Merci !",
        "id": "Halo! Apakah kamu bisa menjelaskan kenapa konfigurasi sebenarnya tidak dimuat? Terima kasih!",
        "ja": "こんにちは。設定がとても読み込まれない理由を確認していただけますか？よろしくお願いします。",
        "zh": "你好，请问能不能帮我看一下为什么配置非常慢，没有加载？谢谢！",
    }
    for language, text in texts.items():
        for intensity in INTENSITIES:
            out, _ = run(text, language, intensity)
            assert utf16_len(out) < utf16_len(text), (language, intensity, out)
            assert negation_count(language, out) >= negation_count(language, text) > 0, (language, out)


# ---------------------------------------------------------------- phrases the packs must leave alone

# (language, text, substring — or its ultra abbreviation — that must survive at every intensity):
# places where a naive rule would change the meaning or break a word, each guarded in the packs.
KEEPS = [
    ("en", "This will help me understand the cache.", "help me understand"),
    ("en", "It appears to be slow on the second run.", "appears to be"),
    ("en", "The server which is open keeps the cache.", "which is open"),
    ("en", "Set the quality to Very High in the menu.", "Very High"),
    ("en", "Tell me what kind of file this is.", "what kind of"),
    ("en", "It returns Maybe<T> when the cache is cold.", "Maybe<T>"),
    ("en", "The handler reads response.data before the timeout.", "response.data"),
    ("en", "Type 'number' is not assignable to this field.", "'number'"),
    ("en", "We need a few more tests for the parser.", "few"),
    ("en", "It is the fastest option, rather than the default.", "rather than"),
    ("es", "El servidor puede fallar cuando la caché está llena.", "puede fallar"),
    ("es", "Puedes usar la opción --force para eso.", "Puedes usar"),
    ("es", "Usa un solo proceso para el análisis.", "solo proceso"),
    ("pt-BR", "O Spyder pode corrigir o arquivo automaticamente.", "pode corrigir"),
    ("pt-BR", "Aqui você pode inserir variáveis novas.", ("você pode inserir", "vc pode inserir")),
    ("de", "Das ist der Fehler, den ich meine.", "Das ist"),
    ("de", "Das Modell, das von dieser Datei verwendet wird, fehlt.", ", das von"),
    ("de", "Allerdings zeigen die Logs 30 Sekunden.", "Allerdings zeigen"),
    ("fr", "Je l'ai vu hier dans les journaux du serveur.", "l'ai"),
    ("fr", "Lancer un conteneur local pour le cache.", "Lancer"),
    ("fr", "Installez l'un des outils suivants pour continuer.", "l'un des"),
    ("fr", "C'est le plus rapide des trois serveurs.", "plus rapide"),
    ("id", "Kamu bisa memakai opsi ini untuk server lokal.", ("Kamu bisa memakai", "Kamu bs memakai")),
    ("ja", "ご利用ありがとうございます。設定を確認しました。", "ご利用ありがとうございます"),
    ("zh", "这是不可能的，请求已经发送了三次。", "不可能"),
    ("zh", "这是不可能的，请求已经发送了三次。", "请求"),
    ("zh", "特别是在服务器重启之后。", "特别是"),
]


@pytest.mark.parametrize("intensity", INTENSITIES)
@pytest.mark.parametrize("language,text,kept", KEEPS, ids=[f"{lang}:{kept}" for lang, _, kept in KEEPS])
def test_phrase_left_alone(language, text, kept, intensity):
    out, _ = run(text, language, intensity)
    assert any(k in out for k in ((kept,) if isinstance(kept, str) else kept)), out


def test_cjk_deletions_never_join_numbers():
    for language, text in (("zh", "重试3请5次之后再检查。"), ("ja", "3とても5回目に失敗しました。")):
        for intensity in INTENSITIES:
            out, _ = run(text, language, intensity)
            assert numbers(out) == numbers(text), out


def test_cjk_rules_leave_a_url_glued_to_text_alone():
    """OmniRoute's validator reads a URL up to the next blank; in CJK text that run continues into the
    prose, and with inline code in it the engine leaves the URL unprotected (CAV-Q13)."""
    texts = {"zh": "详情见https://example.com/docs但是非常慢，请看`npm run dev` 但是我觉得还可以。",
             "ja": "詳細はhttps://example.com/docsを確認してください`npm run dev` とても遅いと思います。"}
    for language, text in texts.items():
        for intensity in INTENSITIES:
            out, result = run(text, language, intensity)
            assert not result.stats.get("fallbackApplied"), result.stats.get("validationErrors")
            assert utf16_len(out) < utf16_len(text), out
