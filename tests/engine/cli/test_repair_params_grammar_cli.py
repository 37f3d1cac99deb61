"""``rulewright repair``, ``params`` and ``grammar``: files that are not what they should be."""

from __future__ import annotations

import json

from .helpers import rulewright


def test_repair_schema_with_invalid_utf8_is_located_not_a_traceback(tmp_path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_bytes(b'{"type": "object", "description": "caf\xe9"}')
    result = rulewright("repair", "--schema", str(schema), "-", stdin='{"a": 1}')
    assert result.code == 1
    assert "Traceback" not in result.err
    assert result.err.startswith(f"{schema}:1:39: error: invalid UTF-8")


def test_repair_malformed_schema_names_the_schema_file(tmp_path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text('{"type": {}}', encoding="utf-8")
    result = rulewright("repair", "--schema", str(schema), "-", stdin='{"a": 1}')
    assert result.code == 1
    assert result.err.startswith(f"{schema}:1:1: error: the schema cannot be used")


def test_repair_arguments_not_json_point_at_line_and_column(tmp_path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text('{"type": "object"}', encoding="utf-8")
    result = rulewright("repair", "--schema", str(schema), "-", stdin='{\n  "a": ,\n}')
    assert result.code == 1
    assert result.err.startswith("<stdin>:2:8: error: arguments are not JSON")


def test_params_invalid_utf8_and_missing_file_are_located(tmp_path) -> None:
    payload = tmp_path / "payload.json"
    payload.write_bytes(b'{"provider": "\xff"}')
    bad = rulewright("params", str(payload))
    assert bad.code == 1 and "Traceback" not in bad.err
    assert bad.err.startswith(f"{payload}:1:15: error: invalid UTF-8")
    missing = rulewright("params", str(tmp_path / "nope.json"))
    assert missing.code == 1
    assert missing.err.startswith(f"{tmp_path / 'nope.json'}:1:1: error: cannot read")


def test_grammar_binary_and_oversized_input_are_refused(tmp_path) -> None:
    binary = tmp_path / "out.bin"
    binary.write_bytes(b"text\x00more")
    result = rulewright("grammar", str(binary))
    assert result.code == 1
    assert result.err.startswith(f"{binary}:1:5: error: binary file")
    big = tmp_path / "big.txt"
    big.write_text("x" * 3 * 1024 * 1024, encoding="utf-8")
    limited = rulewright("grammar", str(big), env={"RULEWRIGHT_MAX_FILE_MB": "1"})
    assert limited.code == 1
    assert "Rulewright reads files up to 1 MB" in limited.err


def test_grammar_jsonl_fields_of_other_types_are_read_as_the_reference_reads_them() -> None:
    lines = [json.dumps({"text": "hi", "knownTools": 5}),
             json.dumps({"text": "hi", "existingToolCalls": ["x"]}),
             json.dumps({"text": 7}),
             json.dumps({"text": "plain text", "modelId": "qwen3", "knownTools": ["read"]})]
    result = rulewright("grammar", "--jsonl", stdin="\n".join(lines) + "\n")
    responses = [json.loads(line) for line in result.out.splitlines()]
    assert len(responses) == 4
    # optional scenario fields are never errors (issue 22): no tools, a nameless toolCall part, no text part
    assert responses[0]["knownTools"] == [] and "error" not in responses[0]
    assert responses[1]["content"][1] == {"type": "toolCall"}
    assert responses[2]["calls"] == [] and responses[2]["content"] == [{"type": "text", "text": 7}]
    assert "error" not in responses[3] and responses[3]["changed"] is False


def test_repair_jsonl_bad_requests_are_answered_in_words_and_the_batch_goes_on() -> None:
    schema = {"type": "object", "properties": {"path": {"type": "string"}}}
    lines = [json.dumps({"schema": "not a schema", "args": {}}),
             json.dumps({"schema": schema, "args": {}, "profile": "nope"}),
             json.dumps({"schema": {"type": {}}, "args": {"a": 1}}),
             json.dumps({"args": {}}),
             json.dumps({"schema": schema, "args": {"path": "a"}})]
    result = rulewright("repair", "--jsonl", stdin="\n".join(lines) + "\n")
    responses = [json.loads(line) for line in result.out.splitlines()]
    assert len(responses) == 5
    assert responses[0] == {"error": '"schema" must be a JSON Schema (an object or a boolean)'}
    assert responses[1]["error"].startswith('unknown profile "nope"')
    assert responses[2]["error"].startswith("the schema cannot be used")
    assert responses[3] == {"error": 'request needs a "schema"'}
    assert responses[4]["threw"] is False and responses[4]["returned"] == {"path": "a"}


def test_repair_reads_standard_input_once(tmp_path) -> None:
    schema_text = '{"type": "object", "properties": {"path": {"type": "string"}}}'
    args = tmp_path / "args.json"
    args.write_text('{"path": "a"}', encoding="utf-8")
    schema_from_stdin = rulewright("repair", "--schema", "-", str(args), stdin=schema_text)
    assert schema_from_stdin.code == 0, schema_from_stdin.err
    both = rulewright("repair", "--schema", "-", stdin=schema_text)   # arguments default to stdin too
    assert both.code == 2
    assert "standard input (-) can be read only once (--schema and ARGS_FILE)" in both.err
