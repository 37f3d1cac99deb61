"""The ``repair`` command: human summary, --json, exit codes, --jsonl batch requests."""

from __future__ import annotations

import io
import json

from engine.cli import main
from engine.cli.batch import run_jsonl
from engine.cli.repair import handle_request

from .conftest import READ_SCHEMA


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_json_output_for_a_repaired_call(tmp_path, capsys):
    schema = write(tmp_path, "schema.json", READ_SCHEMA)
    args = write(tmp_path, "args.json", {"file_path": "/a", "offset": None})
    assert main(["repair", "--schema", schema, "--preset", "read", args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == "repaired"
    assert out["args"] == {"path": "/a"}
    assert [c["ruleId"] for c in out["changes"]] == ["preprocess.exact-alias", "dropNullOrUndefinedField"]
    assert out["threw"] is False


def test_unrepairable_exits_1_with_retry_message_on_stderr(tmp_path, capsys):
    schema = write(tmp_path, "schema.json", READ_SCHEMA)
    args = write(tmp_path, "args.json", {"nothing": 1})
    assert main(["repair", "--schema", schema, args]) == 1
    captured = capsys.readouterr()
    assert "outcome: unrepairable" in captured.out
    assert captured.err.startswith('Invalid input for tool "tool". Fix these issues and retry:')


def test_passthrough_config_returns_raw_input(tmp_path, capsys):
    schema = write(tmp_path, "schema.json", READ_SCHEMA)
    config = write(tmp_path, "config.json", {"unrepairable": "passthrough"})
    args = write(tmp_path, "args.json", 42)
    assert main(["repair", "--schema", schema, "--config", config, args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == "unrepairable" and out["returned"] == 42


def test_raw_string_arguments_and_policy_flags(tmp_path, capsys):
    schema = write(tmp_path, "schema.json", READ_SCHEMA)
    args = write(tmp_path, "args.txt", '{"path":"/srv/a"')
    assert main(["repair", "--schema", schema, "--raw", args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["args"] == {"path": "/srv/a"}
    assert main(["repair", "--schema", schema, "--raw", "--policy", "conservative", args]) == 1


def test_bad_json_reports_location_without_traceback(tmp_path, capsys):
    schema = write(tmp_path, "schema.json", '{"type": "object",\n  oops}')
    args = write(tmp_path, "args.json", {})
    assert main(["repair", "--schema", schema, args]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{schema}:2:3: error: schema is not JSON")
    assert "Traceback" not in err


def test_missing_schema_is_a_usage_error(capsys):
    assert main(["repair"]) == 2


def test_handle_request_contract():
    response = handle_request({"schema": READ_SCHEMA, "args": {"path": "^/x$"},
                               "options": {"builtinTool": "read", "modelId": "glm-4.6", "policy": "conservative"}})
    assert response["outcome"] == "valid"
    assert response["observations"] == ["stripAnchorBleed"]
    assert response["threw"] is False
    failed = handle_request({"schema": READ_SCHEMA, "args": None, "options": {}})
    assert failed["threw"] is True
    assert failed["errorMessage"] == failed["retryMessage"]


def test_jsonl_batch_keeps_going_after_a_bad_request():
    lines = [json.dumps({"schema": READ_SCHEMA, "args": {"path": "/a"}}),
             json.dumps({"schema": READ_SCHEMA, "args": {}, "options": {"builtinTool": "nope"}}),
             json.dumps({"schema": READ_SCHEMA, "args": '{"path":"/b"}'})]
    out = io.StringIO()
    run_jsonl(handle_request, io.StringIO("\n".join(lines) + "\n"), out)
    responses = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r.get("outcome") for r in responses] == ["valid", None, "repaired"]
    assert "builtinTool" in responses[1]["error"]


def test_retry_message_with_a_cut_surrogate_pair_still_prints(tmp_path, capsys):
    schema = write(tmp_path, "schema.json", READ_SCHEMA)
    args = write(tmp_path, "args.json", {"note": "😀" * 200})
    assert main(["repair", "--schema", schema, "--tool", "read", args]) == 1
    err = capsys.readouterr().err
    assert err.startswith('Invalid input for tool "read"')
    assert "\\ud83d…" in err


def test_explain_prints_the_trace(tmp_path, capsys):
    schema = write(tmp_path, "schema.json", READ_SCHEMA)
    args = write(tmp_path, "args.json", {"path": "/a", "offset": None})
    assert main(["repair", "--schema", schema, "--explain", args]) == 0
    out = capsys.readouterr().out
    assert "  schema-repair: pass 1: dropNullOrUndefinedField" in out
    assert "  [schema-repair] dropNullOrUndefinedField: Dropped null `offset`" in out
