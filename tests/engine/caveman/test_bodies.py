"""Caveman on whole request bodies (caveman.md §2.3) and Codex token counts (§13.2)."""

from __future__ import annotations

import pytest

from engine.bodies import adapt_body
from engine.caveman import Compressor, PackSource
from engine.o200k import estimate_body_tokens, is_codex_body

from .helpers import pack, rule

PACK = pack(rule("drop-really", r"\breally ", ""))


def run_body(body, *, roles=("user",), profile="omniroute"):
    from engine.cli.compress import compress_request_body

    cfg = {"enabled": True, "minMessageLength": 0, "compressRoles": list(roles), "language": "xx"}
    return compress_request_body(Compressor(PackSource.from_packs([PACK]), cfg, profile=profile), body, profile)


def test_responses_user_message_is_compressed_and_restored():
    out = run_body({"model": "gpt-5", "instructions": "really keep", "input": "It is really fine"})
    assert out["body"] == {"model": "gpt-5", "instructions": "really keep", "input": "It is fine"}
    assert out["compressed"] is False or out["originalTokens"] >= out["compressedTokens"]


def test_kiro_prompts_are_never_exposed_in_omniroute():
    body = {"conversationState": {"currentMessage": {"userInputMessage": {
        "content": "It is really long", "userInputMessageContext": {"toolResults": [
            {"status": "success", "content": [{"text": "It is really done"}]}]}}}}}
    omni = run_body(body, roles=("user", "tool"))
    state = omni["body"]["conversationState"]["currentMessage"]["userInputMessage"]
    assert state["content"] == "It is really long"
    assert state["userInputMessageContext"]["toolResults"][0]["content"][0]["text"] == "It is done"
    assert "CAV-Q22" in [d["code"] for d in omni["diagnostics"]]
    strict = run_body(body, roles=("user", "tool"), profile="strict")
    assert strict["body"]["conversationState"]["currentMessage"]["userInputMessage"]["content"] == "It is long"


def test_output_text_parts_are_counted_but_compressed_only_in_strict():
    body = {"input": [{"type": "message", "role": "assistant",
                       "content": [{"type": "output_text", "text": "It is really so"}]}]}
    omni = run_body(body, roles=("assistant",))
    assert omni["body"] == body and "CAV-Q24" in [d["code"] for d in omni["diagnostics"]]
    strict = run_body(body, roles=("assistant",), profile="strict")
    assert strict["body"]["input"][0]["content"][0]["text"] == "It is so"


def test_not_adapted_body_gets_the_disabled_path_counts():
    body = {"input": 5}
    out = run_body(body)
    assert out["body"] == body and out["originalTokens"] == out["compressedTokens"] == 3  # ceil(len('{"input":5}')/4)


@pytest.mark.parametrize("body,codex", [
    ({"provider": " Codex "}, True), ({"provider": "cx"}, True), ({"model": "cx/gpt-5"}, True),
    ({"model": "gpt-5.1-codex-max"}, True), ({"model": "gpt-5"}, False), ({"provider": 1}, False), ([], False)])
def test_codex_marking(body, codex):
    assert is_codex_body(body) is codex


def test_o200k_counts_of_a_codex_body():
    body = {"model": "gpt-5-codex", "input": [{"type": "reasoning", "id": "rs_2", "summary": []}]}
    # o200k splits this JSON text (79 UTF-16 units, 20 by length/4) into 29 tokens
    assert estimate_body_tokens(body) == 29
    assert estimate_body_tokens({**body, "model": "gpt-5"}) == 19  # ceil(73 / 4)


def test_o200k_pattern_is_tiktokens_own(monkeypatch):
    from tiktoken_ext import openai_public

    from engine.o200k import O200K_PATTERN

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", lambda *a, **k: {})
    assert openai_public.o200k_base()["pat_str"] == O200K_PATTERN


def test_adapted_body_never_mutates_the_input():
    body = {"input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "really x"}]}]}
    snapshot = repr(body)
    adapted = adapt_body(body)
    adapted.restore({**adapted.body, "messages": [{"role": "user", "content": [{"type": "input_text", "text": "x"}]}]})
    assert repr(body) == snapshot
