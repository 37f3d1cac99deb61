"""Compiled-pattern caches must never hand one rule's regex to another rule.

``RuleRunner`` once keyed its compiled regexes by ``id(rule)`` without keeping the rule alive:
after a rule was dropped and collected, a new rule could be born at the same address and be
given the dead rule's regex. The IDE creates rules on the fly in one long-lived process.
"""

from __future__ import annotations

import gc

import pytest

from engine.caveman.apply import RuleRunner
from engine.caveman.packs import Rule


@pytest.mark.slow
def test_a_new_rule_never_gets_a_collected_rules_regex():
    runner = RuleRunner()
    wrong = []
    for i in range(150):
        word = f"token{i}x"
        rule = Rule(name=f"r{i}", pattern=rf"\b{word}\b", flags="g", replacement="<hit>")
        text = f"a {word} b"
        out = runner.apply(rule, text).after
        if out != "a <hit> b":
            wrong.append((i, out))
        del rule
        gc.collect()
    assert wrong == []


@pytest.mark.slow
def test_sticky_rules_keep_their_own_state_per_rule_object():
    """A ``y`` rule's ``lastIndex`` belongs to its rule object (JSR-Q8): two rule objects with the
    same pattern do not share it, and a collected one does not pass it on."""
    runner = RuleRunner()
    outs = []
    for _ in range(50):
        rule = Rule(name="sticky", pattern="ab", flags="y", replacement="X")
        outs.append(runner.apply(rule, "abab").after)  # a fresh rule: lastIndex 0, first "ab" replaced
        del rule
        gc.collect()
    assert outs == ["Xab"] * 50


@pytest.mark.slow
def test_a_large_packs_patterns_stay_compiled_from_one_run_to_the_next(tmp_path):
    """The per-pattern memos were bounded at 1,024–4,096 entries: a pack with more rules than
    that cycled them and every run (every preview keystroke) compiled every pattern again."""
    import json

    from engine.caveman import PackSource, compress_text
    from engine.caveman.apply import _stateless_regexp
    from engine.jsregex.translate import _translate_cached

    count = 4_500  # (more than any bound before)
    rules = [{"name": f"r{i}", "pattern": rf"\bword{i}\b", "replacement": f"w{i}"} for i in range(count)]
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "big.json").write_text(json.dumps({"language": "en", "category": "big", "rules": rules}),
                                              encoding="utf-8")
    packs = PackSource.from_dir(tmp_path)
    config = {"enabled": True, "minMessageLength": 0, "intensity": "full", "compressRoles": ["user"]}
    text = "Please say word7 and word4400 twice: word7."
    first = compress_text(text, packs, config).body["messages"][0]["content"]
    assert "w7" in first and "w4400" in first
    translated, compiled = _translate_cached.cache_info().misses, _stateless_regexp.cache_info().misses
    assert compress_text(text, packs, config).body["messages"][0]["content"] == first
    assert _translate_cached.cache_info().misses == translated
    assert _stateless_regexp.cache_info().misses == compiled
