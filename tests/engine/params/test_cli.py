"""``rulewright params``: summary, --json, --profile, --jsonl and bad input handling."""

import io
import json

from engine.cli import main
from engine.cli.batch import run_jsonl
from engine.cli.params import handle_request

from .payloads import THINKING, assistant, model, payload, provider


def sample():
    prov = provider("anthropic", endpoint="anthropic-messages", family="anthropic",
                    preset="anthropic")
    mod = model("anthropic::claude-haiku-4-5", caps=("function-call", "reasoning"),
                reasoning=THINKING)
    return payload(prov, mod, assistant(prompt="Be brief.", reasoning_effort="low"))


def test_summary_output(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(sample()))
    assert main(["params", str(path)]) == 0
    out = capsys.readouterr().out
    assert "sdk provider   anthropic" in out
    assert "+ anthropic-headers" in out and "[param plugin: not on the chat path]" in out
    assert "- openrouter-reasoning" in out
    assert "| Be brief." in out


def test_json_output_and_profile(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(sample()))
    assert main(["params", str(path), "--json", "--profile", "strict"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["profile"] == "strict"
    assert report["options"]["headers"] == {"anthropic-beta": "interleaved-thinking-2025-05-14"}


def test_bad_payload_gives_path_line_col_and_exit_1(tmp_path, capsys):
    data = sample()
    data["model"]["capabilities"] = "function-call"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, indent=2))
    assert main(["params", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:")
    assert "error: /model/capabilities: capabilities must be an array" in err
    assert "Traceback" not in err
    line = int(err.split(":")[1])
    assert '"capabilities"' in path.read_text().splitlines()[line - 1]


def test_not_json_and_missing_file(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text("{\n  nope")
    assert main(["params", str(path)]) == 1
    assert f"{path}:2:" in capsys.readouterr().err
    assert main(["params", str(tmp_path / "absent.json")]) == 1


def test_jsonl_batch_keeps_going_after_an_error():
    good = json.dumps(sample())
    lines = io.StringIO(good + "\n" + json.dumps({"provider": 3}) + "\n" + good + "\n")
    out = io.StringIO()
    run_jsonl(handle_request, stdin=lines, stdout=out)
    responses = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(responses) == 3
    assert "sdkConfig" in responses[0] and "sdkConfig" in responses[2]
    assert responses[1]["error"] and responses[1]["pointer"] == "/provider"


def test_vertex_error_message_matches_the_reference():
    data = sample()
    data["provider"] = provider("vertexai", endpoint="google-generate-content",
                                family="google-vertex", auth="iam-gcp")
    assert handle_request(data)["error"] == "VertexAI requires iam-gcp auth configuration."
