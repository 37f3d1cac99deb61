"""Envelope recovery: decoding layers, control characters, singleton unwrap, limits, truncation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.repair import run_repair
from engine.repair.envelope import escape_control_characters, recover_envelope, resolve_limits

from .conftest import FILE_SCHEMA, rule_ids


def test_stringified_object_is_decoded_with_pipeline_note():
    result = run_repair(FILE_SCHEMA, '{"path":"/x"}', {"toolName": "read"})
    assert result.outcome == "repaired"
    assert result.args == {"path": "/x"}
    assert rule_ids(result) == ["envelope.decode-json"]
    assert result.changes[0].note == ('Parsed your JSON-stringified arguments for tool "read". Send the '
                                      "arguments as a JSON object next time, not a string.")
    assert result.issue_summary is None


def test_three_layers_decode_but_four_do_not():
    import json

    text = '{"path":"/x"}'
    for _ in range(2):
        text = json.dumps(text)
    assert rule_ids(run_repair(FILE_SCHEMA, text)) == ["envelope.decode-json"] * 3
    assert run_repair(FILE_SCHEMA, json.dumps(text)).outcome == "unrepairable"


def test_control_character_escaped_and_recorded_once():
    result = run_repair(FILE_SCHEMA, '{"path":"/tmp/a\tb"}')
    assert result.args == {"path": "/tmp/a\tb"}
    assert rule_ids(result) == ["envelope.decode-json", "envelope.escape-control-character"]


def test_escape_scanner_only_touches_string_literals():
    assert escape_control_characters('{"a":"x\ny"}') == '{"a":"x\\u000ay"}'
    assert escape_control_characters('{"a":"q\\"\x01"}') == '{"a":"q\\"\\u0001"}'
    assert escape_control_characters('{\n"a":1}') == '{\n"a":1}'


def test_singleton_array_unwrapped_but_not_longer_arrays_or_named_envelopes():
    assert rule_ids(run_repair(FILE_SCHEMA, [{"path": "/x"}])) == ["envelope.unwrap-singleton-object-array"]
    assert run_repair(FILE_SCHEMA, [{"path": "/x"}, {"path": "/y"}]).outcome == "unrepairable"
    assert run_repair(FILE_SCHEMA, {"arguments": {"path": "/x"}}).outcome == "unrepairable"


def test_size_limit_skips_decoding_but_schema_stage_still_parses_root():
    result = run_repair(FILE_SCHEMA, '{"path":"/x"}', {"limits": {"maxInputBytes": 12}})
    assert rule_ids(result) == ["parseJsonStringifiedRootObject"]
    assert result.issue_summary == "(root)|type|object"


def test_depth_limit_counts_leaf_values():
    limits = resolve_limits({"maxNestingDepth": 2})
    assert recover_envelope({"a": {"b": 1}}, limits).limited is False
    assert recover_envelope({"a": {"b": {"c": 1}}}, limits).limited is True


def test_truncated_object_completed_only_when_policy_allows():
    adaptive = run_repair(FILE_SCHEMA, '{"path":"/srv/a')
    assert adaptive.outcome == "repaired"
    assert adaptive.args == {"path": "/srv/a"}
    assert rule_ids(adaptive) == ["envelope.complete-truncated-object"]
    conservative = run_repair(FILE_SCHEMA, '{"path":"/srv/a', {"policy": "conservative"})
    assert conservative.outcome == "unrepairable"
    assert conservative.args == '{"path":"/srv/a'


def test_truncation_suffix_list_is_fixed():
    assert run_repair(FILE_SCHEMA, '{"path":"/a","labels":["x"').args == {"path": "/a", "labels": ["x"]}
    assert run_repair(FILE_SCHEMA, '{"path":"/a","labels":["x').outcome == "unrepairable"


def test_max_candidates_zero_disables_completion():
    result = run_repair(FILE_SCHEMA, '{"path":"/x"', {"limits": {"maxCandidates": 0}})
    assert result.outcome == "unrepairable"


def _reference_scanner(text: str) -> str:
    """The reference's character scanner, written out as the oracle for the fast version."""
    out, in_string, escaped = [], False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            elif ch < " ":
                out.append(f"\\u{ord(ch):04x}")
                continue
        elif ch == '"':
            in_string = True
        out.append(ch)
    return "".join(out)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from('"\\{}:ab\n\t\x01 ,'), max_size=40))
def test_fast_escaper_matches_reference_scanner(text):
    assert escape_control_characters(text) == _reference_scanner(text)
