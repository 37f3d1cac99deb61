"""Each REP quirk: the default profile reproduces it and says so; ``strict`` applies the fix."""

from __future__ import annotations

from engine.repair import QUIRKS, run_repair

from .conftest import FILE_SCHEMA, READ_SCHEMA, rule_ids


def codes(result) -> set[str]:
    return {d.code for d in result.diagnostics}


def both(schema, args, options):
    return (run_repair(schema, args, options), run_repair(schema, args, options, profile="strict"))


def test_every_quirk_has_a_one_line_description():
    assert sorted(QUIRKS, key=lambda q: int(q[5:])) == [f"REP-Q{i}" for i in range(1, 17)]
    assert all("\n" not in text for text in QUIRKS.values())


def test_q3_retry_message_shows_preprocessed_value_strict_shows_raw():
    options = {"preprocessors": [{"kind": "alias", "selector": "/path", "aliases": ["file_path"]}]}
    quirky2, strict2 = both(FILE_SCHEMA, {"file_path": 5, "offset": []}, options)
    assert quirky2.retry_message.endswith('Received: {"offset":[],"path":5}')
    assert "REP-Q3" in codes(quirky2)
    assert strict2.retry_message.endswith('Received: {"file_path":5,"offset":[]}')


def test_q5_empty_canonical_blocks_alias():
    options = {"preprocessors": [{"kind": "alias", "selector": "/path", "aliases": ["file_path"]}]}
    quirky, strict = both(FILE_SCHEMA, {"path": "", "file_path": "/b"}, options)
    assert quirky.outcome == "unrepairable" and "REP-Q5" in codes(quirky)
    assert strict.outcome == "repaired" and strict.args == {"path": "/b"}


def test_q6_grammar_tokens_trim_without_tokens():
    options = {"modelId": "glm-4.6",
               "preprocessors": [{"kind": "grammar-tokens", "selector": "/path", "modelFamilies": ["glm"]}]}
    quirky, strict = both(FILE_SCHEMA, {"path": "  a.txt\n"}, options)
    assert quirky.args == {"path": "a.txt"} and rule_ids(quirky) == ["stripGrammarTokenLeak"]
    assert "REP-Q6" in codes(quirky)
    assert strict.outcome == "valid"


def test_q7_scalar_fighting_the_schema():
    options = {"preprocessors": [{"kind": "scalar", "selector": "/path", "scalarType": "number"}]}
    quirky, strict = both(FILE_SCHEMA, {"path": "42"}, options)
    assert quirky.outcome == "repaired" and quirky.args == {"path": "42"} and "REP-Q7" in codes(quirky)
    assert strict.outcome == "valid"


def test_q8_alias_without_accepts_moves_anything():
    options = {"preprocessors": [{"kind": "alias", "selector": "/path", "aliases": ["file_path"]}]}
    quirky, strict = both(FILE_SCHEMA, {"file_path": 42}, options)
    assert quirky.args == {"path": "42"} and "REP-Q8" in codes(quirky)
    assert strict.outcome == "unrepairable"


def test_q11_inherited_members_block_aliases():
    schema = {"type": "object", "properties": {"toString": {"type": "string"}}}
    options = {"preprocessors": [{"kind": "alias", "selector": "/toString", "aliases": ["ts"]}]}
    quirky, strict = both(schema, {"ts": "x"}, options)
    assert quirky.outcome == "valid" and "REP-Q11" in codes(quirky)
    assert strict.args == {"toString": "x"}


def test_q13_failed_candidates_emit_observations():
    def run(profile):
        seen = []
        options = {"modelId": "glm-4.6", "policyOverrides": {"allowValidValueTransforms": False},
                   "preprocessors": [{"kind": "anchor-bleed", "selector": "/path", "modelFamilies": ["glm"]}],
                   "onObservation": seen.append}
        schema = {**FILE_SCHEMA, "properties": {**FILE_SCHEMA["properties"], "labels": {"type": "string"}}}
        result = run_repair(schema, '{"path":"^/a$","labels":["x"', options, profile=profile)
        return result, seen

    quirky, seen_quirky = run("pi-repair-layer")
    strict, seen_strict = run("strict")
    assert quirky.outcome == strict.outcome
    assert len(seen_quirky) > len(seen_strict)
    assert "REP-Q13" in codes(quirky)


def test_q14_rootstring_and_q16_relative_links():
    options = {"builtinTool": "read", "policy": "conservative"}
    quirky, strict = both(READ_SCHEMA, '{"path":"/a"', options)
    assert rule_ids(quirky) == ["wrapRootStringAsObject"] and "REP-Q14" in codes(quirky)
    assert strict.outcome == "unrepairable"
    link = {"preprocessors": [{"kind": "filesystem-path", "selector": "/path"}]}
    quirky, strict = both(FILE_SCHEMA, {"path": "[a/b.ts](a/b.ts)"}, link)
    assert quirky.outcome == "valid" and "REP-Q16" in codes(quirky)
    assert strict.args == {"path": "a/b.ts"}


def test_q15_big_integers_lose_precision_only_by_default():
    quirky, strict = both(FILE_SCHEMA, '{"path":"/a","offset":12345678901234567891}', {})
    assert quirky.to_dict()["args"]["offset"] == 12345678901234567000
    assert "REP-Q15" in codes(quirky)
    assert strict.args["offset"] == 12345678901234567891


def test_strict_profile_diagnostics_carry_no_quirk_reports_for_clean_input():
    result = run_repair(FILE_SCHEMA, {"path": "/a"}, {}, profile="strict")
    assert result.diagnostics == []
