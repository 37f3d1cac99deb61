"""Importing provider request bodies into the params payload (engine.params.request_import)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.params import build_params_report
from engine.params.request_import import (
    ANTHROPIC,
    CHAT,
    RESPONSES,
    RequestImportError,
    detect_format,
    import_request,
)
from engine.workspace.panel_models.params_playground import run_params_view

CHAT_BODY = {"model": "gpt-4o", "messages": [{"role": "system", "content": "Be terse."},
                                             {"role": "user", "content": "hi"}],
             "temperature": 0.2, "max_completion_tokens": 500, "reasoning_effort": "low", "stop": "END",
             "seed": 3, "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}],
             "tool_choice": "auto", "web_search_options": {}, "service_tier": "flex"}
RESPONSES_BODY = {"model": "gpt-5", "instructions": "Be terse.", "input": "hi",
                  "reasoning": {"effort": "high", "summary": "auto"}, "text": {"verbosity": "low"},
                  "tools": [{"type": "web_search"}], "max_output_tokens": 2000}
ANTHROPIC_BODY = {"model": "claude-sonnet-4-5-20250929", "system": [{"type": "text", "text": "Be terse."}],
                  "messages": [{"role": "user", "content": "hi"}], "max_tokens": 16000,
                  "thinking": {"type": "enabled", "budget_tokens": 12000}, "top_k": 5,
                  "tools": [{"type": "web_search_20250305", "name": "web_search"}], "metadata": {"user_id": "u"}}


def test_formats_are_told_apart_and_cherry_payloads_are_not_requests():
    assert detect_format(CHAT_BODY) == CHAT
    assert detect_format(RESPONSES_BODY) == RESPONSES
    assert detect_format(ANTHROPIC_BODY) == ANTHROPIC
    assert detect_format({"model": "claude-x", "messages": [], "max_tokens": 5, "top_k": 1}) == ANTHROPIC
    assert detect_format({"provider": {"id": "openai"}, "model": {"id": "openai::x"}, "assistant": None}) is None
    assert detect_format({"messages": []}) is None
    with pytest.raises(RequestImportError, match="needs a \"model\" string"):
        import_request({"prompt": "x"})


def _where(result, key):
    return dict(result.mapped).get(key) or ""


def test_chat_completions_mapping_says_what_went_where_and_what_did_not():
    r = import_request(CHAT_BODY)
    settings = r.payload["assistant"]["settings"]
    assert (settings["temperature"], settings["enableTemperature"]) == (0.2, True)
    assert (settings["maxTokens"], settings["enableMaxTokens"]) == (500, True)
    assert settings["reasoning_effort"] == "low" and settings["enableWebSearch"] is True
    assert {"name": "stopSequences", "type": "json", "value": '["END"]'} in settings["customParameters"]
    assert r.payload["assistant"]["prompt"] == "Be terse."
    assert r.payload["provider"]["settings"] == {"serviceTier": "flex"}
    assert r.payload["model"]["apiModelId"] == "gpt-4o" and "web-search" in r.payload["model"]["capabilities"]
    assert "customParameters seed" in _where(r, "seed")
    unmapped = dict(r.unmapped)
    assert "MCP servers" in unmapped["tools"] and "tool_choice" in unmapped and "messages" in unmapped
    report = build_params_report(r.payload)
    assert report["options"]["standardParams"] == {"seed": 3, "stopSequences": ["END"]}
    assert report["options"]["providerOptions"]["openai"]["reasoningEffort"] == "low"
    assert "webSearch" in report["plugins"]


def test_responses_mapping():
    r = import_request(RESPONSES_BODY)
    assert r.payload["provider"]["defaultChatEndpoint"] == "openai-responses"
    assert r.payload["assistant"]["settings"]["reasoning_effort"] == "high"
    assert dict(r.unmapped).keys() >= {"input", "reasoning.summary"}
    report = build_params_report(r.payload)
    assert report["options"]["providerOptions"]["openai"]["textVerbosity"] == "low"


def test_anthropic_mapping_turns_the_budget_into_the_nearest_effort():
    r = import_request(ANTHROPIC_BODY)
    settings = r.payload["assistant"]["settings"]
    assert settings["reasoning_effort"] == "high"  # 12000 / 16000 = .75, nearest .8
    assert {"name": "topK", "type": "number", "value": 5} in settings["customParameters"]
    assert r.payload["assistant"]["prompt"] == "Be terse."
    unmapped = dict(r.unmapped)
    assert "budget" in unmapped["thinking.budget_tokens"] and "metadata" in unmapped
    report = build_params_report(r.payload)
    assert report["options"]["providerOptions"]["anthropic"]["thinking"]["type"] == "enabled"
    assert report["options"]["standardParams"] == {"topK": 5}


def test_the_view_model_runs_a_pasted_request_and_keeps_the_mapping():
    view = run_params_view(json.dumps(CHAT_BODY))
    assert view.ok and view.imported is not None and view.imported.format == CHAT
    assert view.report["sdkConfig"]["providerId"] == "openai-chat"  # the chat endpoint's SDK id
    broken = run_params_view(json.dumps(CHAT_BODY)[:-3])
    assert not broken.ok and broken.imported is None


def test_every_bundled_template_still_reads_as_a_payload():
    folder = Path(__file__).resolve().parents[3] / "resources" / "samples" / "params"
    for path in sorted(folder.glob("*.json")):
        assert detect_format(json.loads(path.read_text(encoding="utf-8"))) is None, path.name
