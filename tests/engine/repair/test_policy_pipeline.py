"""Policies, owner hook, presets, passthrough and the public API surface."""

from __future__ import annotations

import pytest

from engine.repair import (
    RepairResult,
    UnrepairableToolInputError,
    adapt_result,
    model_matches_families,
    policy_observes_valid_values,
    resolve_repair_policy,
    run_repair,
)

from .conftest import EDIT_SCHEMA, FILE_SCHEMA, READ_SCHEMA, rule_ids


def test_policy_flags():
    assert resolve_repair_policy("conservative").allow_truncated_envelope_completion is False
    assert resolve_repair_policy().profile == "adaptive"
    assert resolve_repair_policy("recover").grammar_mode == "recover"
    unknown = resolve_repair_policy("adaptve")
    assert unknown.allow_valid_value_transforms is None and unknown.grammar_mode is None
    with pytest.raises(ValueError):
        resolve_repair_policy("adaptve", strict=True)
    assert policy_observes_valid_values("conservative") and not policy_observes_valid_values("adaptive")
    assert model_matches_families("GLM-4.6", ["glm"]) and not model_matches_families("GLM-4.6", ["/glm/"])
    assert not model_matches_families("", ["glm"])


def test_unknown_policy_behaves_like_conservative_and_is_reported():
    result = run_repair(FILE_SCHEMA, '{"path":"/a"', {"policy": "adaptve"})
    assert result.outcome == "unrepairable"
    assert result.policy == "adaptve"
    assert any(d.code == "REP-Q10" for d in result.diagnostics)


def test_owner_hook_runs_after_envelope_and_is_invisible():
    result = run_repair(READ_SCHEMA, "/etc/hosts",
                        {"ownerPrepareArguments": lambda v: {"path": v} if isinstance(v, str) else v})
    assert result.outcome == "valid"
    assert result.args == {"path": "/etc/hosts"}
    assert any(d.code == "REP-Q12" for d in result.diagnostics)
    strict = run_repair(READ_SCHEMA, "/etc/hosts", {"ownerShim": {"kind": "rootStringTo", "field": "path"}},
                        profile="strict")
    assert strict.outcome == "repaired" and rule_ids(strict) == ["ownerPrepareArguments"]


def test_throwing_owner_hook_is_swallowed():
    def boom(_value):
        raise RuntimeError("owner bug")

    args = {"path": "/a"}
    result = run_repair(READ_SCHEMA, args, {"ownerPrepareArguments": boom})
    assert result.outcome == "valid" and result.args is args


def test_builtin_edit_preset_folds_flat_fields_and_aliases():
    args = {"file_path": "/a.ts", "old_string": "x", "new_string": "y"}
    result = run_repair(EDIT_SCHEMA, args, {"builtinTool": "edit"})
    assert result.outcome == "repaired"
    assert result.args == {"path": "/a.ts", "edits": [{"oldText": "x", "newText": "y"}]}
    assert rule_ids(result) == ["preprocess.exact-alias", "foldFlatEditFields"]


def test_builtin_legacy_config_is_shallow_merged():
    result = run_repair({"type": "object", "required": ["command"], "properties": {"command": {"type": "string"}}},
                        {"script": 42}, {"builtinTool": "bash", "legacyConfig": {"fieldAliases": {"command": ["run"]}}})
    assert result.outcome == "unrepairable"


def test_rootstring_swallows_truncated_json_under_conservative():
    raw = '{"path":"/srv/a"'
    result = run_repair(READ_SCHEMA, raw, {"builtinTool": "read", "policy": "conservative"})
    assert result.args == {"path": raw}
    assert any(d.code == "REP-Q14" for d in result.diagnostics)
    strict = run_repair(READ_SCHEMA, raw, {"builtinTool": "read", "policy": "conservative"}, profile="strict")
    assert strict.outcome == "unrepairable"


def test_adapter_throws_or_passes_through():
    result = run_repair(READ_SCHEMA, None)
    assert isinstance(result, RepairResult) and result.outcome == "unrepairable"
    with pytest.raises(UnrepairableToolInputError) as info:
        adapt_result(result, None)
    assert info.value.result is result
    assert str(info.value).startswith('Invalid input for tool "tool"')
    assert adapt_result(result, None, unrepairable="passthrough") is None


def test_callbacks_receive_observations_and_outcome_once():
    outcomes, observations = [], []
    run_repair(FILE_SCHEMA, {"path": "^/x$"}, {
        "policy": "conservative", "modelId": "glm-4.6",
        "preprocessors": [{"kind": "anchor-bleed", "selector": "/path", "modelFamilies": ["glm"]}],
        "onObservation": observations.append, "onOutcome": outcomes.append,
    })
    assert len(outcomes) == 1 and outcomes[0].outcome == "valid"
    assert observations == [{"channel": "tool", "stage": "valid-value", "ruleId": "stripAnchorBleed",
                             "toolName": "tool", "outcome": "detected"}]


def test_result_to_dict_is_plain_json():
    import json

    result = run_repair(FILE_SCHEMA, {"path": "/a", "offset": None})
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["changes"][0]["ruleId"] == "dropNullOrUndefinedField"


def test_unknown_builtin_tool_and_profile_are_rejected():
    with pytest.raises(ValueError):
        run_repair(FILE_SCHEMA, {}, {"builtinTool": "rm"})
    with pytest.raises(ValueError):
        run_repair(FILE_SCHEMA, {}, profile="lenient")


def test_legacy_facade_renames_decode_and_lists_unique_rules():
    from engine.repair import repair_tool_input

    result = repair_tool_input("read", READ_SCHEMA, '{"path":"/a","offset":null,"limit":null}')
    assert result.outcome == "repaired"
    assert result.rules_fired == ["parseJsonStringifiedRootObject", "dropNullOrUndefinedField"]
    assert len(result.notes) == 3


def test_regex_timeout_fails_closed_with_a_diagnostic(monkeypatch):
    import engine.jsregex
    from engine.jsregex import RegexTimeout

    def slow(source, flags="", timeout=None):
        raise RegexTimeout(source, flags, 0.25)

    monkeypatch.setattr(engine.jsregex, "compile_js", slow)
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "(a+)+$"}}}
    result = run_repair(schema, {"a": "aaaa!"})
    assert result.outcome == "unrepairable"
    assert [d.code for d in result.diagnostics] == ["REP-REGEX"]
    assert "(a+)+$" in result.diagnostics[0].message


def test_trace_explains_each_stage():
    result = run_repair(READ_SCHEMA, '{"file_path":"/a","offset":null', {"builtinTool": "read"})
    lines = [f"{t.stage}: {t.message}" for t in result.trace]
    assert lines[:2] == ["envelope: 1 truncation candidate(s), tried first", "envelope: trying truncation candidate 1"]
    assert "preprocess: anchor-bleed at /path: skipped, the model id does not match its model families" in lines
    assert any(line.startswith("schema-repair: pass 1: dropNullOrUndefinedField") for line in lines)
    assert lines[-1] == "final-validation: outcome repaired"
    assert result.to_dict()["trace"][-1] == {"stage": "final-validation", "message": "outcome repaired",
                                             "data": {"changes": 3}}


def test_every_emitted_rule_id_is_in_the_catalogue():
    from engine.repair import RULES

    results = [
        run_repair(FILE_SCHEMA, '["{\\"path\\":\\"/a\\tb\\"}"]'),
        run_repair(FILE_SCHEMA, '[{"path":"/a","labels":"x","meta":"{}","offset":null}]'),
        run_repair(READ_SCHEMA, "x", {"builtinTool": "read"}),
        run_repair(EDIT_SCHEMA, {"file_path": "/a", "old_string": "x", "new_string": "y"}, {"builtinTool": "edit"}),
        run_repair(READ_SCHEMA, "/a", {"ownerShim": {"kind": "rootStringTo", "field": "path"}}, profile="strict"),
    ]
    emitted = {c.rule_id for r in results for c in r.changes}
    assert emitted <= set(RULES)
    assert all(RULES[rule].stage == c.stage for r in results for c in r.changes for rule in [c.rule_id])
