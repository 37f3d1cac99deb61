"""``buildAgentParams`` as a pure function from the payload to the report (spec §2–§3, §9)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from engine.diagnostics import Diagnostic
from engine.params import ids
from engine.params.capabilities import Capabilities, resolve_capabilities
from engine.params.explain import build_explain
from engine.params.features.collect import collect_from_features
from engine.params.features.internal import INTERNAL_FEATURES
from engine.params.hooks import compose_hooks
from engine.params.jsv import UNDEFINED, get, is_nullish, to_json
from engine.params.options import (
    flatten_custom_parameters,
    max_retries,
    merge_custom_provider_parameters,
    request_headers,
    split_custom_parameters,
    stop_step_count,
    telemetry,
)
from engine.params.options_context import OptionsContext, QuirkNote
from engine.params.payload import read_envelope
from engine.params.provider_options import capability_provider_options
from engine.params.quirks import QUIRK_POINTERS, QUIRKS
from engine.params.routing import (
    SdkConfig,
    build_sdk_config,
    effective_endpoint,
    resolve_options_provider_id,
    resolve_scope_provider_id,
)
from engine.params.scope import RequestScope
from engine.params.system_prompt import assemble_system_prompt
from engine.params.tools import ToolsResult, resolve_tools

PROFILES = ("cherry-studio", "strict")
REPORT_KEYS = ("sdkConfig", "scope", "features", "plugins", "pluginDetails", "system", "options",
               "tools", "hookPartsCount")


def build_params_report(payload: Any, *, profile: str = "cherry-studio",
                        features: Iterable[object] | None = None) -> dict[str, Any]:
    """The report of spec §2 plus ``diagnostics`` (quirks that changed it) and ``explain``.

    ``features`` are extra ``RequestFeature`` objects run after the internal ones. Raises
    :class:`ParamsError` (message + JSON pointer) for a payload the reference rejects.
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r} (expected one of {', '.join(PROFILES)})")
    strict = profile == "strict"
    env = read_envelope(payload)
    schema_findings = validate_strict(payload) if strict else []
    request, provider, model, assistant = env.request, env.provider, env.model, env.assistant
    diagnostics: list[QuirkNote] = []

    endpoint = effective_endpoint(provider, model)
    scope_id = resolve_scope_provider_id(provider, endpoint)
    options_id = resolve_options_provider_id(provider, endpoint)
    if strict:
        options_id = scope_id  # PAR-Q4 fix: one resolver
    elif options_id != scope_id:
        diagnostics.append(_q("PAR-Q4", f"no endpoint: the scope id is {scope_id!r} but the "
                                        f"options id is {options_id!r}"))

    with ids.region_prefix_stripped(strict):
        sdk = build_sdk_config(provider, model, endpoint, scope_id, payload.get("cherryinProvider"))
        if strict:
            scope_id, options_id = _strict_identities(sdk, scope_id, options_id)
            _strict_hash_endpoint(sdk, provider, endpoint)
        if strict and isinstance(sdk.model_id, str) and is_nullish(get(model, "apiModelId")):
            sdk.model_id = ids.after_separator(sdk.model_id)  # PAR-Q12 fix
        elif is_nullish(get(model, "apiModelId")):
            diagnostics.append(_q("PAR-Q12", f"no apiModelId: the unique id {sdk.model_id!r} "
                                             "is sent as the model id"))
        caps = (resolve_capabilities(model, provider, assistant, options_id, env.prefs,
                                     strict=strict)
                if isinstance(assistant, dict) else None)
        provider_tool = _has_provider_web_tool(sdk, caps, model, options_id, strict)
        tools = resolve_tools(payload, model, strict=strict,
                              builtin_web=not (strict and provider_tool))
        if provider_tool and any(e.name == "web__search" for e in tools.active):
            diagnostics.append(_q("PAR-Q14", "web search is active twice: the provider's tool "
                                             "and the builtin web__search"))
        if not strict:
            _routing_quirks(diagnostics, sdk, scope_id, provider, model, endpoint)
        if caps is not None:
            _capability_quirks(diagnostics, caps, model, assistant, options_id, strict)

        request_id = request.get("messageId")
        if is_nullish(request_id):
            # The reference draws a random UUID; a name-based one keeps this function pure.
            request_id = str(uuid.uuid5(uuid.NAMESPACE_URL, "rulewright-params:"
                                        + json.dumps(request, sort_keys=True, default=str)))
        scope = RequestScope(
            request=request, assistant=assistant, model=model, provider=provider,
            capabilities=caps, sdk_config=sdk, endpoint_type=endpoint,
            ai_sdk_provider_id=scope_id, options_provider_id=options_id,
            mcp_tool_ids=tuple(tools.mcp_tool_ids), prefs=env.prefs, env=env.env,
            profile=profile, diagnostics=diagnostics)
        all_features = list(INTERNAL_FEATURES) + list(features or [])
        outcomes, plugins, hook_parts = collect_from_features(scope, all_features)

        deferred_ns = [e.namespace for e in tools.active if e.name in tools.deferred]
        system, prompt_notes = assemble_system_prompt(assistant, model, env.env, env.prefs,
                                                      tools.exposed, deferred_ns, strict=strict)
        options = _build_options(request, provider, model, assistant, caps, options_id,
                                 scope_id, sdk, env.prefs, request_id, diagnostics,
                                 strict=strict)

    plugin_details = {p.name: p.details for p in plugins if p.details is not None}
    if strict:
        options = _apply_param_plugins(options, plugin_details)
    else:
        _param_plugin_quirk(diagnostics, plugin_details)
        _tools_quirks(diagnostics, tools, assistant, model)

    report = {
        "sdkConfig": sdk.to_report(),
        "scope": {
            "endpointType": None if endpoint is UNDEFINED else endpoint,
            "aiSdkProviderId": scope_id,
            "mcpToolIds": list(tools.mcp_tool_ids),
            "capabilities": caps.to_report() if caps is not None else None,
        },
        "features": [{"name": o.name, "plugins": [p.name for p in o.plugins]}
                     for o in outcomes if o.applied],
        "plugins": [p.name for p in plugins],
        "pluginDetails": plugin_details,
        "system": system,
        "options": options,
        "tools": tools.to_report(),
        "hookPartsCount": len(hook_parts),
    }
    explain = build_explain(scope, outcomes, tools, prompt_notes)
    explain["hooks"] = sorted(compose_hooks(hook_parts))
    out: dict[str, Any] = to_json(report)
    out["profile"] = profile
    out["diagnostics"] = schema_findings + _dedupe(diagnostics)
    out["explain"] = to_json(explain)
    return out


KNOWN_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "auto", "default")


def validate_strict(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """Strict profile: the payload is checked against the schema (partial endpoint records, an
    effort enum) and every finding is reported (PAR-Q23 fix). The report is still built, as
    the reference would build it from the same input."""
    from engine.schemas import validate_against

    found = [replace(d, level="warning") for d in validate_against("params-payload", payload)]
    effort = ids.effort_of(payload.get("assistant"))
    if isinstance(effort, str) and effort not in KNOWN_EFFORTS:
        found.append(Diagnostic(f"unknown reasoning effort {effort!r} (expected one of "
                                f"{', '.join(KNOWN_EFFORTS)})", "warning", "schema:enum",
                                pointer="/assistant/settings/reasoning_effort", source="schema"))
    return [d.to_dict() for d in found]


def _strict_identities(sdk: SdkConfig, scope_id: str, options_id: str) -> tuple[str, str]:
    """PAR-Q21/PAR-Q22 fixes: the scope (and options) follow the sdk builder's identity."""
    if sdk.provider_id in ("ollama", "azure-anthropic") and scope_id != sdk.provider_id:
        return sdk.provider_id, sdk.provider_id
    return scope_id, options_id


def _strict_hash_endpoint(sdk: SdkConfig, provider: dict[str, Any], endpoint: object) -> None:
    """PAR-Q26 fix: ``base#suffix`` routes to ``suffix`` before the URL is formatted."""
    from engine.params.routing import formatted_base_url, raw_base_url

    raw = raw_base_url(provider, endpoint)
    if "#" not in raw or not isinstance(sdk.provider_settings.get("baseURL"), str):
        return
    base, suffix = raw.split("#", 1)
    sdk.endpoint = suffix.strip("/")
    if sdk.endpoint:
        sdk.provider_settings["baseURL"] = formatted_base_url(provider, endpoint, base + "#")


def _has_provider_web_tool(sdk: SdkConfig, caps: Capabilities | None, model: dict[str, Any], options_id: str,
                           strict: bool) -> bool:
    from engine.params.capabilities import strict_config_family
    from engine.params.web_search import web_search_details

    if caps is None or not caps.enable_web_search or not caps.web_search_plugin_config:
        return False
    family = strict_config_family(model, options_id) if strict else None
    details = web_search_details(sdk.provider_id, caps.web_search_plugin_config, [],
                                 strict=strict, gateway_family=family)
    return bool(details.get("tools"))


def _q(code: str, message: str) -> QuirkNote:
    return {"code": code, "message": message}


def _dedupe(diagnostics: list[QuirkNote]) -> list[dict[str, Any]]:
    """One diagnostic per quirk id, in first-seen order, with the JSON path it is about."""
    merged: dict[str, list[str]] = {}
    for d in diagnostics:
        messages = merged.setdefault(d["code"], [])
        if d["message"] not in messages:
            messages.append(d["message"])
    return [Diagnostic("; ".join(messages), "info", code, pointer=QUIRK_POINTERS.get(code, ""),
                       source="params", data={"quirk": QUIRKS.get(code, "")}).to_dict()
            for code, messages in merged.items()]


def _build_options(request: dict[str, Any], provider: dict[str, Any], model: dict[str, Any],
                   assistant: dict[str, Any] | None, caps: Capabilities | None, options_id: str, scope_id: str,
                   sdk: SdkConfig, prefs: dict[str, Any], request_id: object, diagnostics: list[QuirkNote], *,
                   strict: bool) -> dict[str, Any]:
    provider_options: dict[str, Any] = {}
    standard: dict[str, Any] = {}
    if isinstance(assistant, dict) and caps is not None:
        ctx = OptionsContext(provider, model, assistant, caps.enable_reasoning,
                             caps.enable_web_search, strict=strict, quirks=diagnostics)
        provider_options = capability_provider_options(ctx, options_id)
        custom = get(assistant.get("settings") or {}, "customParameters")
        if isinstance(custom, list) and custom:
            flat = flatten_custom_parameters(custom, diagnostics, strict=strict)
            split = split_custom_parameters(flat, model, diagnostics, strict=strict)
            standard = split.standard
            if split.provider:
                provider_options = merge_custom_provider_parameters(
                    provider_options, split.provider, scope_id, diagnostics, strict=strict)
        if strict:
            provider_options = _drop_empty(provider_options)  # PAR-Q25 fix
        elif any(v == {} for v in provider_options.values()):
            diagnostics.append(_q("PAR-Q25", "empty capability options are kept: "
                                  + ", ".join(k for k, v in provider_options.items() if v == {})))
    return {
        "maxRetries": max_retries(request),
        "stopWhenStepCount": stop_step_count(assistant, diagnostics, strict=strict),
        "headers": request_headers(request),
        "providerOptions": provider_options if provider_options else None,
        "standardParams": standard,
        "telemetry": telemetry(request, prefs, sdk.provider_id, sdk.model_id, model, request_id),
    }


def _drop_empty(options: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in options.items():
        if isinstance(value, dict):
            value = {k: v for k, v in value.items() if v is not UNDEFINED}
            if not value:
                continue
        out[key] = value
    return out


def _apply_param_plugins(options: dict[str, Any], details: dict[str, Any]) -> dict[str, Any]:
    """PAR-Q1 fix: the param plugins' ``transformParams`` reach the built options."""
    out = dict(options)
    standard = dict(out["standardParams"])
    standard.update(details.get("model-params", {}))
    out["standardParams"] = standard
    beta = details.get("anthropic-headers", {}).get("headers")
    if beta:
        out["headers"] = {**(out["headers"] or {}), **beta}
    web = details.get("webSearch", {})
    if web.get("providerOptions"):
        from engine.params.provider_options import deep_merge

        out["providerOptions"] = deep_merge(out["providerOptions"] or {}, web["providerOptions"])
    return out


def _param_plugin_quirk(diagnostics: list[QuirkNote], details: dict[str, Any]) -> None:
    effective = {k: v for k, v in details.items() if k in ("model-params", "anthropic-headers",
                                                             "webSearch", "urlContext") and v}
    if effective:
        diagnostics.append(_q("PAR-Q1", "param plugins (" + ", ".join(effective) + ") would "
                              "change the request but never run on the chat path"))


def _routing_quirks(diagnostics: list[QuirkNote], sdk: SdkConfig, scope_id: str, provider: dict[str, Any],
                    model: dict[str, Any], endpoint: object) -> None:
    if sdk.provider_id == "ollama" and scope_id != "ollama":
        diagnostics.append(_q("PAR-Q21", f"the sdk builder is 'ollama' but the scope id is "
                                         f"{scope_id!r}"))
    if sdk.provider_id == "azure-anthropic" and scope_id != "azure-anthropic":
        diagnostics.append(_q("PAR-Q22", f"Claude on Azure: sdk 'azure-anthropic', scope "
                                         f"{scope_id!r}"))
    from engine.params.routing import raw_base_url

    # Reported where strict routes differently: a non-empty suffix after the '#' of the base URL
    # strict reads (a bare trailing '#' routes nowhere in either profile).
    raw = raw_base_url(provider, endpoint)
    if "#" in raw and raw.split("#", 1)[1].strip("/") and \
            isinstance(sdk.provider_settings.get("baseURL"), str):
        diagnostics.append(_q("PAR-Q26", f"the '#' endpoint routing ({raw.split('#', 1)[1]!r}) is "
                                         "dropped by base-URL formatting; endpoint stays ''"))
    base = ids.base_id(model)
    if base.startswith(("us.", "eu.", "apac.", "global.")) and "anthropic.claude" in base:
        diagnostics.append(_q("PAR-Q17", f"{base!r} is not recognised as an Anthropic model "
                                         "(region prefix)"))


def _capability_quirks(diagnostics: list[QuirkNote], caps: Capabilities, model: dict[str, Any],
                       assistant: dict[str, Any] | None, options_id: str, strict: bool) -> None:
    from engine.params.capabilities import requested_image_generation, requested_url_context

    if strict:
        return
    if requested_url_context(model, assistant) or requested_image_generation(model, assistant):
        diagnostics.append(_q("PAR-Q9", "URL context / image generation was requested but the "
                                        "reference hard-wires both off"))
    if caps.enable_web_search and options_id == "gateway":
        diagnostics.append(_q("PAR-Q24", "AI Gateway web search gets an empty config: the "
                                         "family mapping is unreachable"))


def _tools_quirks(diagnostics: list[QuirkNote], tools: ToolsResult, assistant: dict[str, Any] | None,
                  model: dict[str, Any]) -> None:
    from engine.params.collation import collation_differs

    names = [e.name for e in tools.active]
    # namespaces are ordered only where they are shown: the system prompt's deferred-tools list
    namespaces = sorted({e.namespace for e in tools.active if e.name in tools.deferred})
    if collation_differs(names) or collation_differs(namespaces):
        diagnostics.append(_q("PAR-Q20", "tool/namespace order follows locale collation, not "
                                         "code-point order"))
    if any(e.source == "web" for e in tools.active) and not ids.has_capability(model,
                                                                               "web-search"):
        diagnostics.append(_q("PAR-Q14", "builtin web tools are active although the model lacks "
                                         "the web-search capability"))
    diagnostics.extend(tools.quirks)
