"""Capability providerOptions: the per-family builders (spec §9.4–§9.6).

Each builder returns ``(key, options)``: one top-level providerOptions entry. The generic
reasoning rules of §9.6 live in :mod:`engine.params.generic_reasoning`.
"""

from __future__ import annotations

import re
from typing import Any

from engine.params import ids
from engine.params.beta import anthropic_beta_flags
from engine.params.generic_reasoning import generic_reasoning_params
from engine.params.jsv import UNDEFINED, get, get_path, is_nullish
from engine.params.options_context import OptionsContext, effort_ratio
from engine.params.routing import model_endpoint

SAFETY_CATEGORIES = (
    "HARM_CATEGORY_HATE_SPEECH", "HARM_CATEGORY_DANGEROUS_CONTENT", "HARM_CATEGORY_HARASSMENT",
    "HARM_CATEGORY_SEXUALLY_EXPLICIT", "HARM_CATEGORY_CIVIC_INTEGRITY",
)
OPENAI_BUILDER_IDS = ("openai", "openai-chat", "azure", "azure-responses", "huggingface")
ANTHROPIC_BUILDER_IDS = ("anthropic", "azure-anthropic", "google-vertex-anthropic")
GEMINI_BUILDER_IDS = ("google", "google-vertex")
XAI_BUILDER_IDS = ("xai", "xai-responses")
AGGREGATOR_IDS = ("cherryin", "newapi", "aihubmix", "gateway")
TIERS_DEFAULT = ("auto", "default", "flex", "priority")
TIERS_GROQ = ("auto", "on_demand", "flex")


def effort_inactive(effort: object) -> bool:
    """Unset (undefined/null/empty) or ``default``."""
    return ids.effort_unset(effort) or effort == "default"


# ------------------------------------------------------------------ budgets (§9.5): a thinking
# budget from the effort's ratio and the model's budget range, capped by the max tokens, at least 1024


def capped_claude_budget(ctx: OptionsContext) -> int | float | None:
    """Anthropic/Bedrock/model-params budget on the unique id, capped at ``settings.maxTokens``."""
    effort = ctx.effort
    if ids.effort_unset(effort) or effort == "none":
        return None
    limits = ids.token_limits(ids.unique_id(ctx.model))
    if limits is None:
        return None
    raw = ids.raw_budget(limits, effort_ratio(effort, ctx))
    max_tokens = get(ctx.settings, "maxTokens")
    enabled = get(ctx.settings, "enableMaxTokens") is True
    if isinstance(max_tokens, (int, float)) and not isinstance(max_tokens, bool):
        if ctx.strict and not enabled:
            return max(1024, raw)  # PAR-Q16 fix: cap only when the toggle is on
        if not enabled and raw > max_tokens:
            ctx.quirk("PAR-Q16", f"thinking budget {raw} capped at settings.maxTokens "
                                 f"{max_tokens} although enableMaxTokens is off")
        return max(1024, min(raw, max_tokens))
    return max(1024, raw)


def fallback_budget(effort: object) -> int:
    return max(1024, ids.raw_budget((1024, 16384), effort_ratio(effort)))


# ------------------------------------------------------------------ service tier / verbosity


def _flex_capable(base: str) -> bool:
    return ("o3" in base and "o3-mini" not in base) or "o4-mini" in base or "gpt-5" in base


def service_tier(ctx: OptionsContext) -> Any:
    if get_path(ctx.provider, "apiFeatures", "serviceTier") is not True:
        return UNDEFINED
    if not ids.is_openai(ctx.model):
        return UNDEFINED
    tier = get(get_path(ctx.provider, "settings") or {}, "serviceTier")
    if is_nullish(tier):
        return UNDEFINED
    allowed = TIERS_GROQ if get(ctx.provider, "id") == "groq" else TIERS_DEFAULT
    if tier not in allowed:
        return UNDEFINED
    if tier == "flex" and not _flex_capable(ids.base_id(ctx.model)):
        return UNDEFINED
    return tier


def text_verbosity(ctx: OptionsContext) -> Any:
    if get_path(ctx.provider, "apiFeatures", "verbosity") is not True:
        return UNDEFINED
    base = ids.base_id(ctx.model)
    if "gpt-5" not in base:
        return UNDEFINED
    verbosity = get(get_path(ctx.provider, "settings") or {}, "verbosity")
    if is_nullish(verbosity):
        return UNDEFINED
    only_medium = "chat" in base or ("codex" in base and re.search(
        r"gpt-5(?:\.[12])?(?![.\d])", base) is not None)
    supported = ("medium",) if only_medium else ("low", "medium", "high")
    return verbosity if verbosity in supported else UNDEFINED


# ------------------------------------------------------------------ builders


def openai_reasoning_params(ctx: OptionsContext) -> dict[str, Any]:
    model, effort = ctx.model, ctx.effort
    if not ids.is_reasoning_model(model) or effort_inactive(effort):
        return {}
    if ids.is_deep_research(model) or effort == "auto":
        effort = "medium"
    if not ids.is_openai(model):
        return {"reasoningEffort": effort}
    if ids.is_effort_model(model):
        return {"reasoningEffort": effort, "reasoningSummary": UNDEFINED}
    return {}


def openai_options(ctx: OptionsContext) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if ctx.enable_reasoning:
        out.update(openai_reasoning_params(ctx))
        if ids.is_reasoning_model(ctx.model):
            out["forceReasoning"] = True
    out["serviceTier"] = service_tier(ctx)
    out["textVerbosity"] = text_verbosity(ctx)
    out["store"] = False
    return out


_OPUS47_EFFORT = {"minimal": "low", "low": "low", "medium": "medium", "high": "high",
                  "xhigh": "xhigh"}
_CLAUDE46_EFFORT = {"minimal": "low", "low": "low", "medium": "medium", "high": "high",
                    "xhigh": "max"}


def anthropic_options(ctx: OptionsContext) -> dict[str, Any]:
    model, effort = ctx.model, ctx.effort
    if not ctx.enable_reasoning:
        return {}
    if not ids.is_reasoning_model(model) or effort_inactive(effort):
        return {}
    if effort == "none":
        return {"thinking": {"type": "disabled"}}
    uid = ids.unique_id(model)
    if ids.thinking_token(ids.is_anthropic, model):
        if ids.is_opus47_id(uid):
            out: dict[str, Any] = {"thinking": {"type": "adaptive", "display": "summarized"}}
            if effort in _OPUS47_EFFORT:
                out["effort"] = _OPUS47_EFFORT[effort]
            return out
        if ids.is_claude46_id(uid):
            out = {"thinking": {"type": "adaptive"}}
            if effort in _CLAUDE46_EFFORT:
                out["effort"] = _CLAUDE46_EFFORT[effort]
            return out
        budget = capped_claude_budget(ctx)
        if budget is None:
            budget = fallback_budget(effort)
        return {"thinking": {"type": "enabled", "budgetTokens": budget}}
    budget = capped_claude_budget(ctx)
    if budget is None:
        budget = fallback_budget(effort)
    out = {"thinking": {"type": "enabled", "budgetTokens": budget}, "sendReasoning": True}
    if ids.is_deepseek_v4_plus(model):
        out["effort"] = "max" if effort == "xhigh" else "high"
    return out


def _is_hosted_gemma4(model: dict[str, Any]) -> bool:
    return get(model, "providerId") == "gemini" and ids.base_id(model).startswith("gemma-4-")


_GEMINI3_LEVEL = {"none": "minimal", "minimal": "minimal", "low": "low", "medium": "medium",
                  "high": "high", "xhigh": "high"}


def gemini_options(ctx: OptionsContext) -> dict[str, Any]:
    model, effort = ctx.model, ctx.effort
    out: dict[str, Any] = {"safetySettings": [{"category": c, "threshold": "BLOCK_NONE"}
                                    for c in SAFETY_CATEGORIES]}
    if not ctx.enable_reasoning or not ids.is_reasoning_model(model):
        return out
    gemma = _is_hosted_gemma4(model)
    if not (ids.thinking_token(ids.is_gemini, model) or gemma) or effort_inactive(effort):
        return out
    config: dict[str, Any] = {"includeThoughts": effort != "none"}
    base = ids.base_id(model)
    if gemma:
        high = effort in ("high", "xhigh")
        config = {"includeThoughts": high, "thinkingLevel": "high" if high else "minimal"}
    elif ids.is_gemini3_id(base) and "image" not in base:
        if effort == "auto":
            config["thinkingLevel"] = UNDEFINED
        else:
            level = _GEMINI3_LEVEL.get(effort, effort)
            if level == "minimal" and "pro" in base:
                level = "low"
            config["thinkingLevel"] = level
    elif effort == "auto":
        config["thinkingBudget"] = -1
    elif effort == "none":
        if ids.unique_has_gemini_then_flash(model):
            config["thinkingBudget"] = 0
    else:
        limits = ids.token_limits(ids.table_raw_id(model))
        if limits is not None:
            budget = ids.raw_budget(limits, effort_ratio(effort))
            if budget > 0:
                config["thinkingBudget"] = budget
    out["thinkingConfig"] = config
    return out


_XAI_EFFORT = {"auto": "low", "minimal": "low", "medium": "low", "low": "low", "high": "high",
               "xhigh": "high"}


def xai_options(ctx: OptionsContext) -> dict[str, Any]:
    model, effort = ctx.model, ctx.effort
    if not ctx.enable_reasoning or effort_inactive(effort):
        return {}
    base = ids.base_id(model)
    openrouter_fast = get(model, "providerId") == "openrouter" and "grok-4-fast" in base
    if not ((ids.is_grok(model) and ids.is_effort_model(model)) or openrouter_fast):
        return {}
    if re.search(r"grok-4[.-]3", base) and effort in ("none", "low", "medium", "high"):
        return {"reasoningEffort": effort}
    if effort in _XAI_EFFORT:
        return {"reasoningEffort": _XAI_EFFORT[effort]}
    return {}


def bedrock_options(ctx: OptionsContext) -> dict[str, Any]:
    model, effort = ctx.model, ctx.effort
    out: dict[str, Any] = {}
    if ctx.enable_reasoning and ids.is_reasoning_model(model) and not effort_inactive(effort):
        uid = ids.unique_id(model)
        if effort == "none":
            out["reasoningConfig"] = {"type": "disabled"}
        elif not ids.thinking_token(ids.is_anthropic, model):
            if ctx.strict is False and re.match(r"(us|eu|apac|global)\.anthropic\.claude",
                                                ids.base_id(model)):
                ctx.quirk("PAR-Q17", "cross-region Bedrock id is not recognised as Claude: "
                                     "no reasoningConfig")
        elif ids.is_claude46_id(uid) or ids.is_opus47_id(uid):
            config: dict[str, Any] = {"type": "adaptive"}
            if effort in _CLAUDE46_EFFORT:
                config["maxReasoningEffort"] = _CLAUDE46_EFFORT[effort]
            out["reasoningConfig"] = config
        else:
            budget = capped_claude_budget(ctx)
            out["reasoningConfig"] = {"type": "enabled",
                                      "budgetTokens": UNDEFINED if budget is None else budget}
    flags = anthropic_beta_flags(ctx.model, ctx.assistant,
                                 provider=ctx.provider if ctx.strict else None)
    if not ctx.strict and flags != anthropic_beta_flags(ctx.model, ctx.assistant, ctx.provider):
        ctx.quirk("PAR-Q28", "Bedrock anthropicBeta computed without the provider: "
                             + ",".join(flags))
    if flags:
        out["anthropicBeta"] = flags
    return out


def ollama_options(ctx: OptionsContext) -> dict[str, Any]:
    if not ctx.enable_reasoning:
        return {}
    effort = ctx.effort
    if "gpt-oss" in ids.base_id(ctx.model):
        if effort in ("low", "medium", "high"):
            return {"think": effort}
        return {"think": effort != "none"}
    return {"think": effort != "none"}


def web_search_body_params(ctx: OptionsContext) -> dict[str, Any]:
    pid = get(ctx.model, "providerId")
    if pid == "hunyuan":
        return {"enable_enhancement": True, "citation": True, "search_info": True}
    if pid == "dashscope":
        return {"enable_search": True, "search_options": {"forced_search": True}}
    if pid == "poe":
        return {"extra_body": {"web_search": True}}
    base = ids.base_id(ctx.model)
    if "gpt-4o-search-preview" in base or "gpt-4o-mini-search-preview" in base:
        return {"web_search_options": {}}
    return {}


def deep_merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for key, value in b.items():
        if isinstance(out.get(key), dict) and isinstance(value, dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def generic_options(ctx: OptionsContext, *, tiers: bool) -> dict[str, Any]:
    if ctx.strict and not ctx.enable_reasoning:
        params: dict[str, Any] = {}  # PAR-Q10 fix: gate the generic reasoning params on enableReasoning
    else:
        params = generic_reasoning_params(ctx)
        if params and not ctx.enable_reasoning:
            ctx.quirk("PAR-Q10", "generic reasoning params were computed although "
                                 "enableReasoning is false")
    if ctx.enable_web_search:
        params = deep_merge(params, web_search_body_params(ctx))
    if tiers:
        params["serviceTier"] = service_tier(ctx)
        params["textVerbosity"] = text_verbosity(ctx)
    return params


def aggregator_options(ctx: OptionsContext) -> tuple[str, dict[str, Any]]:
    endpoint = model_endpoint(ctx.model)
    if endpoint == "anthropic-messages":
        return "anthropic", anthropic_options(ctx)
    if endpoint == "google-generate-content":
        return "google", gemini_options(ctx)
    if endpoint == "openai-responses":
        return "openai", openai_options(ctx)
    if endpoint in ("openai-chat-completions", "openai-image-generation"):
        return "openai-compatible", generic_options(ctx, tiers=False)
    if is_nullish(endpoint):
        if ids.is_anthropic(ctx.model):
            return "anthropic", anthropic_options(ctx)
        if ids.is_openai(ctx.model):
            return "openai", openai_options(ctx)
        if ids.is_gemini(ctx.model):
            return "google", gemini_options(ctx)
        if ids.is_grok(ctx.model):
            return "xai", xai_options(ctx)
    return "openai-compatible", generic_options(ctx, tiers=False)


def capability_provider_options(ctx: OptionsContext, options_id: str) -> dict[str, Any]:
    """One top-level key from the §4.3 id (PAR-Q5: the OpenAI family is always ``openai``)."""
    if options_id in OPENAI_BUILDER_IDS:
        key = options_id if ctx.strict else "openai"
        if key != options_id:
            ctx.quirk("PAR-Q5", f"options for {options_id!r} are keyed 'openai'")
        return {key: openai_options(ctx)}
    if options_id in ANTHROPIC_BUILDER_IDS:
        return {"anthropic": anthropic_options(ctx)}
    if options_id in GEMINI_BUILDER_IDS:
        return {"google": gemini_options(ctx)}
    if options_id in XAI_BUILDER_IDS:
        return {"xai": xai_options(ctx)}
    if options_id == "bedrock":
        return {"bedrock": bedrock_options(ctx)}
    if options_id == "ollama":
        return {"ollama": ollama_options(ctx)}
    if options_id in AGGREGATOR_IDS:
        key, value = aggregator_options(ctx)
        return {key: value}
    return {options_id: generic_options(ctx, tiers=True)}
