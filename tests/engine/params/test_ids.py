"""Id forms, vendor tests and the thinking-budget table (spec §1.10, §9.5)."""

import pytest

from engine.params import ids


def m(uid, api=None, **kw):
    out = {"id": uid, "providerId": uid.split("::")[0], "name": kw.pop("name", "x"),
           "capabilities": []}
    if api is not None:
        out["apiModelId"] = api
    out.update(kw)
    return out


def test_raw_and_base_ids():
    model = m("router::Vendor/Some-Model:free")
    assert ids.raw_id(model) == "Vendor/Some-Model:free"
    assert ids.base_id(model) == "some-model"
    assert ids.base_id(m("p::x", api="accounts/fireworks/models/llama-v3p1-8b")) == "llama-v3.1-8b"
    assert ids.base_id(m("p::qwen3:cloud")) == "qwen3"


@pytest.mark.parametrize("base,expected", [
    ("gpt-4o", True), ("chatgpt-4o", False), ("my-gpt4o-deployment", False), ("o3-mini", True),
    ("openai/gpt-5", True), ("gpt_4", False),
])
def test_openai_vendor_is_a_whole_word(base, expected):
    assert ids.is_openai_id(base.split("/")[-1]) is expected


def test_anthropic_vendor_rejects_region_prefixes():  # PAR-Q17
    assert ids.is_anthropic(m("b::anthropic.claude-3-haiku"))
    assert not ids.is_anthropic(m("b::us.anthropic.claude-3-haiku"))
    with ids.region_prefix_stripped(True):
        assert ids.is_anthropic(m("b::us.anthropic.claude-3-haiku"))


def test_vendor_tests_accept_provider_ids():
    assert ids.is_kimi(m("moonshot::anything"))
    assert ids.is_glm(m("zhipu::anything"))
    assert ids.is_deepseek(m("x::r1", name="My DeepSeek"))
    assert not ids.is_deepseek(m("x::r1"))


@pytest.mark.parametrize("model_id,limits", [
    ("claude-opus-4-7", (1024, 128000)),
    ("claude-opus-4-7-20260101", (1024, 128000)),
    ("claude-opus-4-7@x", (1024, 128000)),
    ("claude-sonnet-4-20250514", (1024, 64000)),
    ("anthropic.claude-sonnet-4-20250514-v1:0", (1024, 64000)),
    ("claude-sonnet-4-latest", (1024, 64000)),
    ("vendor::claude-3-7-sonnet-20250219", (1024, 64000)),
    ("gemini-2.5-flash", (0, 24576)),
    ("gemini-2.5-flash-lite", (512, 24576)),
    ("gemini-3-pro-preview", (128, 32768)),
    ("qwen3.5-plus", (0, 81920)),
    ("qwen3-32b", (1024, 38912)),
    ("qwen3-max", (0, 81920)),
    ("doubao-seed-1-6-250615", (0, 30720)),
    ("doubao-seed-1-6-flash-thinking", (0, 30720)),
    ("mimo-v2.5-pro", (0, 30720)),
    ("kimi-k2.5", (0, 30720)),
    ("gemma-4-26b", (1024, 30720)),
])
def test_table_hits(model_id, limits):
    assert ids.token_limits(model_id) == limits


@pytest.mark.parametrize("model_id", [
    "claude-opus-4-70", "claude-opus-4-7.1", "claude-sonnet-4-123", "claude-sonnet-4:free",
    "doubao-seed-1-6-thinking", "doubao-seed-1-6-thinking-250715", "mimo-v2.5-flash",
    "mimo-v2.5-pro-x", "gpt-4o", "claude-:haiku-4-6",
])
def test_table_misses(model_id):
    assert ids.token_limits(model_id) is None


def test_qwen3_row_is_not_followed_by_max():
    assert ids.token_limits("qwen3-maxi") is None  # neither row 18 nor row 21
    assert ids.token_limits("qwen3-8b") == (1024, 38912)


def test_raw_budget_formula():
    assert ids.raw_budget((1024, 64000), 0.8) == 51404
    assert ids.raw_budget((0, 24576), 0.05) == 1228


@pytest.mark.parametrize("base,expected", [
    ("deepseek-v4", True), ("deepseek-v4.1-flash", True), ("deepseek-v4:latest", True),
    ("deepseek-v10", True), ("deepseek-v4x", False), ("deepseek-v4-", False),
    ("deepseek-v4.1.2", False), ("deepseek-v3", False), ("deepseek-v04", False),
])
def test_deepseek_v4_plus(base, expected):
    assert ids.is_deepseek_v4_plus(m(f"p::{base}")) is expected


@pytest.mark.parametrize("base,expected", [
    ("deepseek-v3.1", True), ("deepseek-v3.1-terminus", True), ("deepseek-v3", False),
    ("deepseek-v3.2-speciale", False), ("deepseek-v3-0324", False), ("deepseek-v3.10", False),
    ("deepseek-chat", True),
])
def test_deepseek_hybrid(base, expected):
    assert ids.is_deepseek_hybrid(m(f"p::{base}")) is expected


@pytest.mark.parametrize("base,expected", [
    ("claude-sonnet-4-5", True), ("claude-sonnet-4-5-20250929", True),
    ("claude-sonnet-4x5", True),  # any character between -4 and 5: a reference quirk
    ("claude-sonnet-4-5@20250929", False), ("anthropic.claude-sonnet-4-5-20250929-v1:0", False),
])
def test_claude45_pattern(base, expected):
    assert ids.is_claude45_id(base) is expected
