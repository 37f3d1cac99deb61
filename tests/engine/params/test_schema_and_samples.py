"""The payload schema and the playground templates in resources/samples/params."""

import json

import pytest

from engine.params import build_params_report
from engine.paths import resources_dir
from engine.schemas import load_schema, validate_against

from .payloads import assistant, model, payload, provider

SAMPLES = sorted((resources_dir() / "samples" / "params").glob("*.json"))


def test_schema_is_valid_draft_2020_12():
    from jsonschema import Draft202012Validator

    schema = load_schema("params-payload")
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"].endswith("2020-12/schema")


def test_there_are_templates_for_the_main_provider_families():
    names = {p.stem for p in SAMPLES}
    assert {"openai-responses", "anthropic-messages", "gemini", "openrouter", "ollama",
            "azure-openai", "aws-bedrock", "vertexai-claude"} <= names


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_sample_validates_and_builds(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert validate_against("params-payload", data) == []
    report = build_params_report(data)
    assert report["sdkConfig"]["providerId"]
    assert "<apiKey>" not in json.dumps(report["sdkConfig"]["providerSettings"].get("apiKey"))


def test_schema_flags_what_zod_rejects_but_the_pipeline_still_runs():
    data = payload(provider(), model("p::m"), assistant(maxToolCalls=0))
    findings = validate_against("params-payload", data)
    assert [f.pointer for f in findings] == ["/assistant/settings/maxToolCalls"]
    assert build_params_report(data)["options"]["stopWhenStepCount"] == 20


def test_partial_endpoint_configs_are_accepted():  # PAR-Q23: validated entry by entry
    data = payload(provider(), model("p::m"), assistant())
    assert validate_against("params-payload", data) == []
    data["provider"]["endpointConfigs"]["not-an-endpoint"] = {}
    assert validate_against("params-payload", data)
