"""What the ``model-params`` param plugin would set: temperature, topP, maxOutputTokens (§6.2)."""

from __future__ import annotations

from typing import Any

from engine.params import ids
from engine.params.jsv import UNDEFINED, get, get_path, is_nullish
from engine.params.options_context import OptionsContext, QuirkNote
from engine.params.provider_options import capped_claude_budget


def _settings(assistant: object) -> dict[str, Any]:
    settings = get(assistant, "settings")
    return settings if isinstance(settings, dict) else {}


def _claude_reasoning_active(model: dict[str, Any], effort: object) -> bool:
    return (ids.is_anthropic(model) and ids.is_reasoning_model(model)
            and not ids.effort_unset(effort) and effort not in ("default", "none"))


def _max_temp_one(model: dict[str, Any]) -> bool:
    support = get_path(model, "parameterSupport", "temperature")
    if isinstance(support, dict):
        high = support.get("max")
        return isinstance(high, (int, float)) and high <= 1
    base = ids.base_id(model)
    return base.startswith("claude") or "glm" in base or "kimi" in base or "moonshot" in base


def temperature(model: dict[str, Any], assistant: object) -> Any:
    settings = _settings(assistant)
    base = ids.base_id(model)
    if ids.is_gemini3_id(base) or get(settings, "enableTemperature") is not True:
        return UNDEFINED
    if ids.is_opus47_id(base) or _claude_reasoning_active(model, ids.effort_of(assistant)):
        return UNDEFINED
    if get_path(model, "parameterSupport", "temperature", "supported") is False:
        return UNDEFINED
    value = get(settings, "temperature")
    value = 1.0 if is_nullish(value) else value
    if _max_temp_one(model) and isinstance(value, (int, float)) and value > 1:
        value = 1
    return value


def top_p(model: dict[str, Any], assistant: object) -> Any:
    settings = _settings(assistant)
    base = ids.base_id(model)
    if ids.is_gemini3_id(base) or get(settings, "enableTopP") is not True:
        return UNDEFINED
    if ids.is_opus47_id(base):
        return UNDEFINED
    if get_path(model, "parameterSupport", "topP", "supported") is False:
        return UNDEFINED
    if ids.is_claude45_id(base) and get(settings, "enableTemperature") is True:
        return UNDEFINED
    value = get(settings, "topP")
    value = 1 if is_nullish(value) else value
    if _claude_reasoning_active(model, ids.effort_of(assistant)) and isinstance(value, (int, float)):
        value = min(1, max(0.95, value))
    return value


def _anthropic_like(provider: dict[str, Any]) -> bool:
    return bool(get(provider, "id") == "anthropic" or get(provider, "presetProviderId") == "anthropic"
                or get(provider, "authType") == "iam-aws")


def max_output_tokens(model: dict[str, Any], provider: dict[str, Any], assistant: Any, quirks: list[QuirkNote],
                      *, strict: bool = False) -> Any:
    settings = _settings(assistant)
    if get(settings, "enableMaxTokens") is not True:
        return UNDEFINED
    value = get(settings, "maxTokens")
    value = 4096 if is_nullish(value) else value
    uid = ids.unique_id(model)
    if (_anthropic_like(provider) and ids.thinking_token(ids.is_anthropic, model)
            and not ids.is_claude46_id(uid) and not ids.is_opus47_id(uid)):
        ctx = OptionsContext(provider, model, assistant, True, False, strict=strict)
        budget = capped_claude_budget(ctx)
        if budget is not None and isinstance(value, (int, float)):
            result = value - budget
            if strict and result < 1024:
                return max(1024, result) if value >= 1024 else value  # PAR-Q11 fix
            if result < 1024:
                quirks.append({"code": "PAR-Q11", "message":
                               f"maxOutputTokens {value} minus thinking budget {budget} = {result}"})
            return result
    return value


def model_params_details(model: dict[str, Any], provider: dict[str, Any], assistant: object, quirks: list[QuirkNote],
                         *, strict: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in (("temperature", temperature(model, assistant)),
                       ("topP", top_p(model, assistant)),
                       ("maxOutputTokens", max_output_tokens(model, provider, assistant, quirks,
                                                             strict=strict))):
        if value is not UNDEFINED:
            out[key] = value
    return out
