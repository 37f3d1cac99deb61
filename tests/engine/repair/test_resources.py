"""The shipped repair samples and the repair-config JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from engine.repair import run_repair
from engine.repair.typebox import build_schema, check

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = sorted((ROOT / "resources" / "samples" / "repair").glob("*.json"))
CONFIG_SCHEMA = json.loads((ROOT / "resources" / "schemas" / "repair-config.schema.json").read_text("utf-8"))


def test_config_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(CONFIG_SCHEMA)


def test_config_schema_accepts_unknown_kinds_and_rejects_typos():
    validator = jsonschema.Draft202012Validator(CONFIG_SCHEMA)
    assert validator.is_valid({"preprocessors": [{"kind": "future-kind", "selector": "/x"}]})
    assert not validator.is_valid({"policy": "adaptve"})
    assert not validator.is_valid({"preprocessors": [{"kind": "scalar", "selector": "/n", "scalarType": "integer"}]})
    assert not validator.is_valid({"limits": {"maxBytes": 5}})


def test_there_are_samples_for_the_common_failures():
    names = {p.stem for p in SAMPLES}
    assert {"stringified-arguments", "claude-code-field-names", "markdown-linked-paths",
            "glm-grammar-tokens", "kimi-anchor-bleed", "truncated-json"} <= names


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_each_sample_is_well_formed_and_repairs(path):
    sample = json.loads(path.read_text("utf-8"))
    assert set(sample) == {"title", "description", "schema", "args", "options"}
    jsonschema.Draft202012Validator(CONFIG_SCHEMA).validate(sample["options"])
    result = run_repair(sample["schema"], sample["args"], sample["options"])
    assert result.outcome == "repaired"
    assert check(build_schema(sample["schema"]), result.args)
