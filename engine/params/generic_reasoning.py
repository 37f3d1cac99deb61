"""``getReasoningEffort``: the generic reasoning params of spec §9.6 (first match wins)."""

from __future__ import annotations

import math
import re
from typing import Any

from engine.params import ids
from engine.params.jsv import UNDEFINED, get, truthy
from engine.params.options_context import OptionsContext, effort_ratio

NOT_ENABLE_THINKING = ("ollama", "lmstudio", "nvidia", "gpustack")
QWEN_EXCLUDED_WORDS = ("coder", "asr", "tts", "reranker", "embedding", "instruct", "thinking")


def is_enable_thinking_provider(provider: dict[str, Any]) -> bool:
    return get(provider, "id") not in NOT_ENABLE_THINKING


def is_thinking_token_qwen(model: dict[str, Any]) -> bool:
    base = ids.base_id(model)
    return (ids.is_qwen(model) and not any(w in base for w in QWEN_EXCLUDED_WORDS)
            and ids.has_thinking_limits(model))


def is_always_think_qwen(model: dict[str, Any]) -> bool:
    base = ids.base_id(model)
    return base.startswith("qwen3") and "thinking" in base


def is_none_capable_gpt(model: dict[str, Any]) -> bool:
    base = ids.base_id(model)
    if re.search(r"gpt-5\.\d", base) is None:
        return False
    if "chat" in base or "pro" in base:
        return False
    return not ("codex" in base and re.search(r"gpt-5\.[12](?!\d)", base))


def _budget(model: dict[str, Any], effort: object, *, on_raw: bool = False) -> int | None:
    model_id = ids.table_raw_id(model) if on_raw else ids.table_base_id(model)
    limits = ids.token_limits(model_id)
    if limits is None:
        return None
    return ids.raw_budget(limits, effort_ratio(effort))


def _max_tokens(settings: dict[str, Any]) -> float:
    value = get(settings, "maxTokens")
    return value if truthy(value) and isinstance(value, (int, float)) else 4096


def _doubao_effort_model(base: str) -> bool:
    return re.search(r"seed-1[.-]6-251015|seed-2[.-]0|seed-1[.-]8", base) is not None


def _doubao_auto_capable(base: str) -> bool:
    return re.search(r"seed-1[.-]6(?![.-]?thinking)", base) is not None


def generic_reasoning_params(ctx: OptionsContext) -> dict[str, Any]:
    model, provider, settings = ctx.model, ctx.provider, ctx.settings
    pid = get(provider, "id")
    mpid = get(model, "providerId")
    effort = ctx.effort
    base = ids.base_id(model)
    tt = ids.thinking_token

    if pid == "groq":
        return {}
    if not ids.is_reasoning_model(model):
        return {}
    if ids.is_deep_research(model):
        return {"reasoning_effort": "medium"}
    if ids.effort_unset(effort) or effort == "default":
        return {}
    hybrid = ids.is_deepseek_hybrid(model)
    v4 = ids.is_deepseek_v4_plus(model)
    qwen_tt = is_thinking_token_qwen(model)
    if effort == "none":
        if mpid == "openrouter":
            if is_none_capable_gpt(model):
                return {"reasoning": {"effort": "none"}}
            return {"reasoning": {"enabled": False, "exclude": True}}
        if mpid == "nvidia":
            if qwen_tt:
                return {"chat_template_kwargs": {"enable_thinking": False}}
            if hybrid or tt(ids.is_kimi, model):
                return {"chat_template_kwargs": {"thinking": False}}
            if tt(ids.is_glm, model):
                return {"chat_template_kwargs": {"enable_thinking": False}}
        if ((is_enable_thinking_provider(provider) and (qwen_tt or tt(ids.is_hunyuan, model)))
                or (pid == "dashscope" and (hybrid or tt(ids.is_glm, model)
                                            or tt(ids.is_kimi, model)))
                or (pid == "silicon" and (hybrid or tt(ids.is_glm, model)))):
            return {"enable_thinking": False}
        if pid == "together":
            return {"reasoning": {"enabled": False}}
        if tt(ids.is_gemini, model):
            if ids.unique_has_gemini_then_flash(model):
                return {"extra_body": {"google": {"thinking_config": {"thinking_budget": 0}}}}
            return {}
        if tt(ids.is_doubao, model) or tt(ids.is_glm, model) or tt(ids.is_kimi, model):
            if pid == "cerebras":
                return {"disable_reasoning": True}
            return {"thinking": {"type": "disabled"}}
        if v4:
            return {"thinking": {"type": "disabled"}}
        if hybrid:
            return {}
        if is_none_capable_gpt(model):
            return {"reasoningEffort": "none"}
        if ids.is_qwen35_plus_id(base):
            return {"chat_template_kwargs": {"enable_thinking": False}}
        if "mistral-small-2603" in base:
            return {"reasoningEffort": "none"}
        return {}

    ratio = effort_ratio(effort)
    budget = _budget(model, effort)
    if pid == "poe":
        if ids.is_openai(model) and ids.is_reasoning_model(model):
            return {"extra_body": {"reasoning_effort": "medium" if effort == "auto" else effort}}
        if tt(ids.is_anthropic, model):
            raw = _budget(model, effort, on_raw=True)
            if raw is None:
                return {}
            value = math.floor(max(1024, min(raw, _max_tokens(settings) * ratio)))
            return {"extra_body": {"thinking_budget": value}}
        if tt(ids.is_gemini, model):
            raw = _budget(model, effort, on_raw=True)
            value = -1 if effort == "auto" or raw is None else raw
            return {"extra_body": {"thinking_budget": value}}
        return {}
    if mpid == "openrouter":
        if "grok-4-fast" in base and "non-reasoning" not in base:
            return {"reasoning": {"enabled": True}}
        if ids.is_effort_model(model) or ids.has_thinking_limits(model):
            return {"reasoning": {"effort": "medium" if effort == "auto" else effort}}
    if mpid == "nvidia":
        if qwen_tt:
            kwargs: dict[str, Any] = {} if is_always_think_qwen(model) else {"enable_thinking": True}
            kwargs["thinking_budget"] = budget if budget is not None else UNDEFINED
            return {"chat_template_kwargs": kwargs}
        if hybrid or tt(ids.is_kimi, model):
            return {"chat_template_kwargs": {"thinking": True}}
        if tt(ids.is_glm, model):
            return {"chat_template_kwargs": {"enable_thinking": True}}
    if mpid == "silicon":
        if hybrid or tt(ids.is_glm, model) or qwen_tt or tt(ids.is_hunyuan, model):
            return {"enable_thinking": True,
                    "thinking_budget": max(budget, 32768) if budget else UNDEFINED}
        return {}
    if v4:
        return {"thinking": {"type": "enabled"},
                "reasoning_effort": "max" if effort == "xhigh" else "high"}
    if hybrid:
        if pid == "dashscope":
            return {"enable_thinking": True, "incremental_output": True}
        if pid in ("new-api", "cherryin"):
            return {"extra_body": {"thinking": {"type": "enabled"}}}
        if pid in ("openrouter", "together"):
            return {"reasoning": {"enabled": True}}
        return {"thinking": {"type": "enabled"}}
    if pid == "dashscope" and ((ids.is_qwen(model) and ids.is_reasoning_model(model))
                               or tt(ids.is_glm, model) or tt(ids.is_kimi, model)):
        return {"enable_thinking": True,
                "thinking_budget": budget if budget is not None else UNDEFINED}
    if pid == "together":
        mapped = {"minimal": "low", "xhigh": "high", "auto": "medium"}.get(effort, effort)
        return {"reasoningEffort": mapped, "reasoning": {"enabled": True}}
    if ids.is_qwen(model) and ids.is_reasoning_model(model):
        inner: dict[str, Any] = {} if is_always_think_qwen(model) else {"enable_thinking": True}
        inner["thinking_budget"] = budget if budget is not None else UNDEFINED
        if is_enable_thinking_provider(provider):
            return inner
        return {"chat_template_kwargs": inner}
    if tt(ids.is_hunyuan, model) and is_enable_thinking_provider(provider):
        return {"enable_thinking": True}
    if ids.is_effort_model(model):
        supported = [e for e in ids.supported_efforts(model) if e != "default"]
        if effort in supported:
            return {"reasoningEffort": effort}
        if supported:
            if effort not in ids.EFFORT_RATIOS and not ctx.strict:  # strict: schema:enum
                ctx.quirk("PAR-Q23", f"free-form effort {effort!r} is accepted; the first "
                                     f"supported effort {supported[0]!r} is used")
            return {"reasoningEffort": supported[0]}
        return {}
    if "mistral-small-2603" in base:
        return {"reasoningEffort": "high"}
    if tt(ids.is_gemini, model):
        if ids.is_gemini3_id(base) and "image" not in base:
            return {"reasoningEffort": effort}
        if effort == "auto":
            return {"extra_body": {"google": {"thinking_config": {
                "thinking_budget": -1, "include_thoughts": True}}}}
        return {"extra_body": {"google": {"thinking_config": {
            "thinking_budget": budget if budget is not None else -1, "include_thoughts": True}}}}
    if tt(ids.is_anthropic, model):
        if budget is None:
            return {"thinking": {"type": "enabled", "budget_tokens": UNDEFINED}}
        value = math.floor(max(1024, min(budget, _max_tokens(settings) * ratio)))
        return {"thinking": {"type": "enabled", "budget_tokens": value}}
    if tt(ids.is_doubao, model):
        if _doubao_effort_model(base):
            return {"reasoningEffort": effort}
        if effort == "high":
            return {"thinking": {"type": "enabled"}}
        if effort == "auto" and _doubao_auto_capable(base):
            return {"thinking": {"type": "auto"}}
        return {}
    if tt(ids.is_glm, model):
        return {} if pid == "cerebras" else {"thinking": {"type": "enabled"}}
    if tt(ids.is_mimo, model) or tt(ids.is_kimi, model):
        return {"thinking": {"type": "enabled"}}
    return {}
