"""Pack validation (OmniRoute's texts, with pointers) and loading order."""

from __future__ import annotations

import json

import pytest

from engine.caveman import PackError, PackSource, check_pack, validate_rule_pack
from engine.caveman.packs import load_fallback_rules, normalize_key

from .helpers import pack, rule


def messages(obj) -> list[str]:
    return [m for _p, m in validate_rule_pack(obj)]


def test_non_objects_fail_with_one_message():
    for value in (None, 3, "x", True):
        assert messages(value) == ["Rule pack must be an object"]
    # an array passes the object test and then fails the field checks (as in JS)
    assert messages([]) == ["language must be a non-empty string", "category must be a non-empty string",
                            "rules must be an array"]


def test_each_rule_check_has_the_reference_text_and_a_pointer():
    bad = {"language": " ", "category": "filler", "rules": [
        "nope",
        {"name": "", "pattern": "(unclosed"},
        {"name": "a", "pattern": "x", "flags": 3, "replacement": 5},
        {"name": "b", "pattern": "x", "replacementMap": {" ": "y", "k": 1}},
        {"name": "c", "pattern": "x", "replacementMap": []},
        {"name": "d", "pattern": "x", "replacement": "", "context": "tool", "category": "misc",
         "minIntensity": "max"},
        {"name": "e", "pattern": "x", "flags": "gg", "replacement": ""},
    ]}
    found = validate_rule_pack(bad)
    assert ("/language", "language must be a non-empty string") in found
    assert ("/rules/0", "rules[0] must be an object") in found
    assert ("/rules/1/name", "rules[1].name must be a non-empty string") in found
    assert ("/rules/1/pattern",
            "rules[1].pattern is invalid: Invalid regular expression: /(unclosed/gi: Unterminated group") in found
    assert ("/rules/1", "rules[1] must define replacement or replacementMap") in found
    assert ("/rules/2/flags", "rules[2].flags must be a string") in found
    assert ("/rules/2/replacement", "rules[2].replacement must be a string") in found
    assert ("/rules/3/replacementMap/ ", "rules[3].replacementMap contains an empty key") in found
    assert ("/rules/3/replacementMap/k", "rules[3].replacementMap.k must be a string") in found
    assert ("/rules/4/replacementMap", "rules[4].replacementMap must be an object") in found
    assert ("/rules/5/context", "rules[5].context is invalid") in found
    assert ("/rules/5/category", "rules[5].category is invalid") in found
    assert ("/rules/5/minIntensity", "rules[5].minIntensity is invalid") in found
    assert ("/rules/6/flags",
            "rules[6].pattern is invalid: Invalid flags supplied to RegExp constructor 'gg'") in found


def test_check_pack_returns_located_errors_and_accepts_schema_key():
    good = {"$schema": "../_schema.json", **pack(rule("a", r"\ba\b"))}
    assert check_pack(good) == []
    diags = check_pack(pack(rule("a", "(")))
    assert [(d.pointer, d.code, d.level) for d in diags] == [("/rules/0/pattern", "CAV-pack", "error")]
    extra = pack(rule("a", "x", owner="me"))  # OmniRoute ignores unknown keys; the schema names them
    assert check_pack(extra) == []
    assert [(d.pointer, d.level) for d in check_pack(extra, with_schema=True)] == [("/rules/0/owner", "warning")]
    sticky = pack(rule("s", "x", flags="y"))
    assert check_pack(sticky) == []
    assert [d.code for d in check_pack(sticky, profile="strict")] == ["JSR-Q8"]


def test_folder_loading_order_and_lazy_failure(tmp_path):
    lang = tmp_path / "xx"
    lang.mkdir()
    (lang / "b.json").write_text(json.dumps(pack(rule("from_b", "b"), category="b")))
    (lang / "a.json").write_text(json.dumps(pack(rule("from_a1", "a"), rule("from_a2", "a2"), category="a")))
    (lang / "notes.txt").write_text("ignored")
    broken = tmp_path / "yy"
    broken.mkdir()
    (broken / "filler.json").write_text(json.dumps(pack(rule("bad", "("), language="yy")))
    source = PackSource.from_dir(tmp_path)
    assert [r.name for r in source.rules_for("xx")] == ["from_a1", "from_a2", "from_b"]
    assert [r.source for r in source.rules_for("xx")] == ["xx/a", "xx/a", "xx/b"]
    assert source.rules_for("missing") == []
    with pytest.raises(PackError, match=r"^Invalid Caveman rule pack yy/filler: rules\[0\]\.pattern is invalid"):
        source.rules_for("yy")


def test_missing_root_is_an_empty_source(tmp_path):
    assert PackSource.from_dir(tmp_path / "nothing").files == {}


def test_in_memory_packs_act_as_files_and_defaults_apply():
    source = PackSource.from_packs([pack(rule("z", "z"), category="zeta"), pack(rule("a", "a"), category="alpha")])
    rules = source.rules_for("xx")
    assert [r.name for r in rules] == ["a", "z"]
    assert (rules[0].flags, rules[0].context, rules[0].category, rules[0].min_intensity) == ("gi", "all", "filler", "lite")


def test_replacement_map_keys_are_normalised_later_wins():
    source = PackSource.from_packs([pack(rule("m", "x", None, replacementMap={"  Good\tMorning ": "1", "good morning": "2"}))])
    assert dict(source.rules_for("xx")[0].replacement_map) == {"good morning": "2"}
    assert normalize_key("\u00a0Hello \u2003 World\n") == "hello world"


def test_fallback_rules_file(tmp_path):
    path = tmp_path / "fallback.json"
    path.write_text(json.dumps({"rules": [
        {"name": "m", "pattern": r"\bfoo\b", "flags": "gi", "context": "all", "minIntensity": "lite",
         "map": {"foo": "F"}, "miss": "empty"}]}))
    (only,) = load_fallback_rules(path)
    assert (only.map_mode, only.miss, dict(only.replacement_map)) == ("fallback", "empty", {"foo": "F"})
