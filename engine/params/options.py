"""``buildAgentOptions``: custom parameters, merge, stop condition, telemetry (spec §9)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from engine.jsvalues import as_object, math_round
from engine.params import ids
from engine.params.jsv import UNDEFINED, JSONParseError, get, get_path, is_nullish, js_string, json_parse
from engine.params.options_context import QuirkNote

STANDARD_PARAMS = ("maxOutputTokens", "temperature", "topP", "topK", "presencePenalty",
                   "frequencyPenalty", "stopSequences", "seed")
SNAKE_ALIASES = {"max_output_tokens": "maxOutputTokens", "max_tokens": "maxOutputTokens",
                 "top_p": "topP", "top_k": "topK", "presence_penalty": "presencePenalty",
                 "frequency_penalty": "frequencyPenalty", "stop_sequences": "stopSequences",
                 "stop": "stopSequences"}
DEFAULT_STEP_COUNT = 20


@dataclass
class CustomParams:
    standard: dict[str, Any] = field(default_factory=dict)
    provider: dict[str, Any] = field(default_factory=dict)
    dropped: list[str] = field(default_factory=list)


def flatten_custom_parameters(items: object, quirks: list[QuirkNote], *, strict: bool = False) -> dict[str, Any]:
    """``getCustomParameters``: later items win; blank names skipped (PAR-Q8 for json values)."""
    out: dict[str, Any] = {}
    if not isinstance(items, list):
        return out
    for item in items:
        if not isinstance(item, dict):
            continue
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            continue
        if strict:
            name = name.strip()
        elif name != name.strip():
            quirks.append({"code": "PAR-Q8", "message":
                           f"custom parameter name {name!r} is used untrimmed"})
        value = item.get("value", UNDEFINED)
        if item.get("type") == "json":
            value = _json_value(value, name, quirks, strict=strict)
        out[name] = value
    return out


def _json_value(value: object, name: str, quirks: list[QuirkNote], *, strict: bool) -> Any:
    if value == "undefined":
        return UNDEFINED
    if strict and not isinstance(value, str):
        return value  # PAR-Q8 fix: structured values are used as they are
    text = js_string(value)
    try:
        parsed = json_parse(text)
    except JSONParseError:
        return value
    if not isinstance(value, str) and parsed != value:
        quirks.append({"code": "PAR-Q8", "message":
                       f"json parameter {name!r}: String({text!r}) was re-parsed, changing the "
                       "value"})
    return parsed


def split_custom_parameters(flat: dict[str, Any], model: dict[str, Any], quirks: list[QuirkNote], *,
                            strict: bool = False) -> CustomParams:
    result = CustomParams()
    for key, value in flat.items():
        target = key
        if key not in STANDARD_PARAMS and key in SNAKE_ALIASES:
            if strict:  # PAR-Q7 fix
                target = SNAKE_ALIASES[key]
            else:
                quirks.append({"code": "PAR-Q7", "message":
                               f"{key!r} looks like {SNAKE_ALIASES[key]!r} but stays a provider "
                               "parameter"})
        if target in STANDARD_PARAMS:
            result.standard[target] = value
        else:
            result.provider[key] = value
    if "topK" in result.standard:
        base = ids.base_id(model)
        if ids.is_gemini3_id(base) or ids.is_opus47_id(base):
            del result.standard["topK"]
            result.dropped.append("topK")
    return result


def _shallow(a: object, b: object) -> Any:
    if isinstance(a, dict) and isinstance(b, dict):
        return {**a, **b}
    if isinstance(b, dict):
        return dict(b)
    return b


def _deep(a: object, b: object) -> Any:
    if isinstance(a, dict) and isinstance(b, dict):
        out = dict(a)
        for k, v in b.items():
            out[k] = _deep(out.get(k, UNDEFINED), v) if k in out else v
        return out
    return b


def merge_custom_provider_parameters(provider_options: dict[str, Any], provider_params: dict[str, Any],
                                     ai_sdk_provider_id: str, quirks: list[QuirkNote], *,
                                     strict: bool = False) -> dict[str, Any]:
    """``mergeCustomProviderParameters`` (§9.3 Merge); shallow by design (PAR-Q6)."""
    result = {k: (dict(v) if isinstance(v, dict) else v) for k, v in provider_options.items()}
    ids_ = list(result)
    primary = ids_[0] if ids_ else ai_sdk_provider_id
    if primary not in result:
        result[primary] = {}
    params = dict(provider_params)
    if primary == "openai-compatible" and "reasoning_effort" in params:
        value = params.pop("reasoning_effort")
        if "reasoningEffort" not in params:
            params["reasoningEffort"] = value
    merge = _deep if strict else _shallow
    for key, value in params.items():
        if key in ids_:
            if not strict and isinstance(result.get(key), dict) and isinstance(value, dict):
                _note_replaced(result[key], value, key, quirks)
            result[key] = merge(result.get(key), value)
        elif key == ai_sdk_provider_id:
            target = "gateway" if key == "gateway" else primary
            result[target] = merge(result.get(target, {}), value)
        elif strict and key in _PROVIDER_KEYS:
            result[key] = merge(result.get(key, {}), value)  # PAR-Q6 fix: own key
        else:
            inner = result.get(primary)
            inner = dict(inner) if isinstance(inner, dict) else {}
            if not strict and key in _PROVIDER_KEYS:
                quirks.append({"code": "PAR-Q6", "message":
                               f"provider-named custom key {key!r} nests inside {primary!r}"})
            if not strict and isinstance(inner.get(key), dict) and isinstance(value, dict):
                _note_replaced(inner, {key: value}, primary, quirks)
            inner[key] = merge(inner.get(key), value) if strict and key in inner else value
            result[primary] = inner
    return result


_PROVIDER_KEYS = ("openai", "anthropic", "google", "xai", "bedrock", "ollama", "openrouter",
                  "openai-compatible", "azure", "deepseek", "mistral", "groq", "perplexity",
                  "gateway", "cherryin", "newapi", "aihubmix")


def _note_replaced(existing: dict[str, Any], incoming: dict[str, Any], where: str, quirks: list[QuirkNote]) -> None:
    for k, v in incoming.items():
        if isinstance(existing.get(k), dict) and isinstance(v, dict) and existing[k] != v:
            quirks.append({"code": "PAR-Q6", "message":
                           f"custom {k!r} replaces the computed {where}.{k} object (shallow "
                           "merge)"})


def stop_step_count(assistant: object, quirks: list[QuirkNote], *, strict: bool = False) -> Any:
    """The agent's stop condition as a step count (spec §9.2): the default count when max tool
    calls are switched off, else ``maxToolCalls`` when it is a whole number in 1…100 (or above
    100, passed through); ``None`` for no condition or one that never fires (a fraction, PAR-Q18)."""
    if not isinstance(assistant, dict):
        return None
    settings = as_object(assistant.get("settings"))
    if get(settings, "enableMaxToolCalls") is False:
        return DEFAULT_STEP_COUNT
    value = get(settings, "maxToolCalls")
    if strict and isinstance(value, (int, float)) and not isinstance(value, bool) and \
            math.isfinite(value):
        return min(100, max(1, int(math_round(value))))  # PAR-Q18 fix (Math.round: 2.5 -> 3)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 1 <= value <= 100:
        if value != int(value):
            quirks.append({"code": "PAR-Q18", "message":
                           f"maxToolCalls {value} passes the range check, so stepCountIs({value}) "
                           "never fires"})
            return None
        return int(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 100:
        quirks.append({"code": "PAR-Q18", "message":
                       f"maxToolCalls {value} passes the schema but falls back to 20"})
    return DEFAULT_STEP_COUNT


def telemetry(request: dict[str, Any], prefs: dict[str, Any], sdk_provider_id: str, sdk_model_id: object,
              model: dict[str, Any], request_id: object) -> dict[str, Any] | None:
    chat_id = request.get("chatId")
    if is_nullish(chat_id) or not chat_id or prefs.get("app.developer_mode.enabled") is not True:
        return None
    name = get(model, "name")
    model_name = get(model, "id") if is_nullish(name) else name
    return {
        "isEnabled": True,
        "functionId": f"ai-request-{request_id}",
        "metadata": {"providerId": sdk_provider_id, "modelId": sdk_model_id, "topicId": chat_id,
                     "modelName": model_name, "trace.topicId": chat_id,
                     "trace.modelName": model_name},
    }


def max_retries(request: dict[str, Any]) -> Any:
    value = get_path(request, "requestOptions", "maxRetries")
    return 0 if is_nullish(value) else value


def request_headers(request: dict[str, Any]) -> Any:
    value = get_path(request, "requestOptions", "headers")
    return None if is_nullish(value) else value
