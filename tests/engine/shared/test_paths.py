"""engine.paths: where the bundled data is, and what it holds."""

from __future__ import annotations

from engine.paths import builtin_languages, builtin_rules_dir


def test_the_bundled_languages_are_the_pack_folders():
    languages = builtin_languages()
    assert languages == sorted(languages) and {"en", "de", "pt-BR"} <= set(languages)
    for language in languages:
        assert any((builtin_rules_dir() / language).glob("*.json"))
