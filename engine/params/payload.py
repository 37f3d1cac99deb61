"""Reading the payload envelope: the shape checks the reference would fail on, env and prefs.

The reference never schema-parses its inputs (spec §1.1); it fails only where JavaScript would
throw. Those places are checked here up front so the user gets a sentence and a JSON path
instead of a TypeError.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.params.errors import ParamsError

DEFAULT_PREFS: dict[str, Any] = {
    "app.developer_mode.enabled": False,
    "chat.web_search.max_results": 5,
    "chat.web_search.exclude_domains": [],
    "app.user.name": "",
    "app.language": "en-US",
}
DEFAULT_ENV: dict[str, Any] = {
    "now": "2025-01-15T09:30:00.000Z",
    "timeZone": "UTC",
    "locale": "en-US",
    "platform": "linux",
    "arch": "x64",
}


@dataclass
class Envelope:
    request: dict[str, Any]
    provider: dict[str, Any]
    model: dict[str, Any]
    assistant: dict[str, Any] | None
    env: dict[str, Any]
    prefs: dict[str, Any]
    raw: dict[str, Any]


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            int: "a number", float: "a number"}.get(type(value), type(value).__name__)


def _require(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], pointer: str, what: str) -> Any:
    if key not in obj:
        raise ParamsError(f"missing {what}", f"{pointer}/{key}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ParamsError(f"{what} must be {_expected(kind)}, got {_type_name(value)}",
                          f"{pointer}/{key}")
    return value


def _expected(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names: dict[type, str] = {dict: "an object", list: "an array", str: "a string"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def read_envelope(payload: object) -> Envelope:
    if not isinstance(payload, dict):
        raise ParamsError(f"the payload must be a JSON object, got {_type_name(payload)}", "")
    request = payload.get("request", {})
    if request is None:
        request = {}
    if not isinstance(request, dict):
        raise ParamsError(f"request must be an object, got {_type_name(request)}", "/request")
    provider = _require(payload, "provider", dict, "", "provider")
    model = _require(payload, "model", dict, "", "model")
    assistant = payload.get("assistant")
    if assistant is not None and not isinstance(assistant, dict):
        raise ParamsError(f"assistant must be an object or null, got {_type_name(assistant)}",
                          "/assistant")
    _require(provider, "id", str, "/provider", "provider id")
    _require(model, "id", str, "/model", "model id (\"<providerId>::<modelId>\")")
    caps = model.get("capabilities", [])
    if not isinstance(caps, list):
        raise ParamsError(f"capabilities must be an array, got {_type_name(caps)}",
                          "/model/capabilities")
    for key in ("endpointConfigs", "settings", "apiFeatures"):
        value = provider.get(key)
        if value is not None and not isinstance(value, dict):
            raise ParamsError(f"{key} must be an object, got {_type_name(value)}",
                              f"/provider/{key}")
    if isinstance(assistant, dict):
        settings = assistant.get("settings")
        if settings is not None and not isinstance(settings, dict):
            raise ParamsError(f"settings must be an object, got {_type_name(settings)}",
                              "/assistant/settings")
        custom = (settings or {}).get("customParameters")
        if custom is not None and not isinstance(custom, list):
            raise ParamsError("customParameters must be an array",
                              "/assistant/settings/customParameters")
    servers = payload.get("mcpServers")
    if servers is not None and not isinstance(servers, list):
        raise ParamsError("mcpServers must be an array", "/mcpServers")
    env = payload.get("env") or {}
    if not isinstance(env, dict):
        raise ParamsError(f"env must be an object, got {_type_name(env)}", "/env")
    prefs_overlay = env.get("prefs") or {}
    if not isinstance(prefs_overlay, dict):
        raise ParamsError("env.prefs must be an object", "/env/prefs")
    merged_env = {**DEFAULT_ENV, **{k: v for k, v in env.items() if k != "prefs"}}
    _check_clock(merged_env)
    return Envelope(request, provider, model, assistant, merged_env,
                    {**DEFAULT_PREFS, **prefs_overlay}, payload)


def _check_clock(env: dict[str, Any]) -> None:
    from zoneinfo import ZoneInfo

    from engine.params.system_prompt import _parse_now

    for key in ("now", "timeZone", "locale", "platform", "arch"):
        if not isinstance(env.get(key), str):
            raise ParamsError(f"env.{key} must be a string, got {_type_name(env.get(key))}",
                              f"/env/{key}")
    try:
        ZoneInfo(env["timeZone"])
    except (ValueError, OSError, KeyError):  # ZoneInfoNotFoundError is a KeyError
        raise ParamsError(f"Invalid time zone specified: {env['timeZone']}",
                          "/env/timeZone") from None

    try:
        _parse_now(env.get("now"))
    except (TypeError, ValueError):
        raise ParamsError(f"env.now {env.get('now')!r} is not an ISO date-time",
                          "/env/now") from None
