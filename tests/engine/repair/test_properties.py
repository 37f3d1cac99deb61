"""The reference's guarantees as properties (hypothesis + hypothesis-jsonschema).

* strictly valid input is returned untouched — the very same object, no changes;
* a ``repaired`` outcome always passes the schema;
* under ``strict``, nothing is claimed changed when nothing changed.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from engine.repair import run_repair
from engine.repair.jsdata import stable_serialize
from engine.repair.typebox import build_schema, check

FIELD_SCHEMAS = [
    {"type": "string"},
    {"type": "number"},
    {"type": "integer"},
    {"type": "boolean"},
    {"type": "array", "items": {"type": "string"}},
    {"type": "array", "items": {"type": "number"}},
    {"type": "object"},
    {"enum": ["a", "b"]},
]
NAMES = ["path", "command", "pattern", "offset", "labels", "edits", "meta", "flag"]


@st.composite
def object_schemas(draw):
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True))
    props = {n: draw(st.sampled_from(FIELD_SCHEMAS)) for n in names}
    required = draw(st.lists(st.sampled_from(names), unique=True))
    return {"type": "object", "properties": props, "required": required}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6)
    | st.floats(allow_nan=False, allow_infinity=False, width=32) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.sampled_from([*NAMES, "x", "file_path"]), children, max_size=4),
    max_leaves=12,
)

PREPROCESSORS = [
    {"kind": "alias", "selector": "/path", "aliases": ["file_path", "x"], "accepts": "string"},
    {"kind": "alias", "selector": "/command", "aliases": ["x"]},
    {"kind": "filesystem-path", "selector": "/path"},
    {"kind": "filesystem-path-array", "selector": "/labels"},
    {"kind": "string-or-array", "selector": "/labels"},
    {"kind": "scalar", "selector": "/offset", "scalarType": "number"},
    {"kind": "scalar", "selector": "/flag", "scalarType": "boolean"},
    {"kind": "anchor-bleed", "selector": "/pattern", "modelFamilies": ["glm"]},
    {"kind": "grammar-tokens", "selector": "", "modelFamilies": ["glm"]},
    {"kind": "structural", "builtin": "foldFlatEditFields", "selector": ""},
    {"kind": "glob", "selector": "/path"},
]

options_strategy = st.fixed_dictionaries({
    "policy": st.sampled_from(["conservative", "adaptive", "recover"]),
    "modelId": st.sampled_from(["glm-4.6", "gpt-5"]),
    "preprocessors": st.lists(st.sampled_from(PREPROCESSORS), max_size=4),
    "legacyConfig": st.sampled_from([{}, {"rootString": {"field": "path"}, "pathFields": ["path"],
                                          "fieldAliases": {"path": ["file_path"]}}]),
})

@st.composite
def instances(draw, schema):
    """A valid instance of one of our object schemas. hypothesis-jsonschema draws each field
    value; the object itself is assembled here because its object strategy does not run on the
    installed Hypothesis version."""
    out = {}
    for name, field_schema in schema["properties"].items():
        if name in schema["required"] or draw(st.booleans()):
            if field_schema == {"type": "object"}:
                out[name] = draw(st.dictionaries(st.text(max_size=5), json_values, max_size=3))
            else:
                out[name] = draw(from_schema(field_schema))
    extra = draw(st.dictionaries(st.sampled_from(["x", "note"]), json_values, max_size=2))
    return {**extra, **out}


# REPAIR_PROPERTY_EXAMPLES=2000 for a longer hunt.
EXAMPLES = int(os.environ.get("REPAIR_PROPERTY_EXAMPLES", "80"))
PROPERTY_SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                             suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(data=st.data(), schema=object_schemas(), policy=st.sampled_from(["conservative", "adaptive", "recover"]))
def test_valid_input_is_returned_untouched(data, schema, policy):
    args = data.draw(instances(schema))
    if not check(build_schema(schema), args):  # JSON Schema and TypeBox may disagree on edge values
        return
    for profile in ("pi-repair-layer", "strict"):
        result = run_repair(schema, args, {"policy": policy}, profile=profile)
        assert result.outcome == "valid"
        assert result.args is args
        assert result.changes == []
        assert result.issue_summary is None and result.retry_message is None


@PROPERTY_SETTINGS
@given(schema=object_schemas(), raw=json_values, stringify=st.booleans(), options=options_strategy,
       profile=st.sampled_from(["pi-repair-layer", "strict"]))
def test_repaired_always_validates(schema, raw, stringify, options, profile):
    args = json.dumps(raw) if stringify else raw
    result = run_repair(schema, args, options, profile=profile)
    if result.outcome == "repaired":
        assert check(build_schema(schema), result.args)
        assert result.changes
    elif result.outcome == "valid":
        assert result.changes == []
    else:
        assert result.changes == [] and result.args is args
        assert result.retry_message or result.error_message


@PROPERTY_SETTINGS
@given(schema=object_schemas(), raw=json_values, stringify=st.booleans(), options=options_strategy)
def test_strict_never_claims_a_change_that_did_not_happen(schema, raw, stringify, options):
    args = json.dumps(raw) if stringify else raw
    result = run_repair(schema, args, options, profile="strict")
    if result.outcome == "repaired":
        assert not isinstance(args, dict) or stable_serialize(result.args) != stable_serialize(args)
