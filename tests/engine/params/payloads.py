"""Small payload builders for the params tests (our own data, not the conformance cases)."""

from __future__ import annotations

import copy
from typing import Any

ASSISTANT_ID = "9b1e4c2a-7d3f-4e5a-8b6c-1d2e3f4a5b6c"

BASE_SETTINGS: dict[str, Any] = {
    "temperature": 0.7, "enableTemperature": False, "topP": 1, "enableTopP": False,
    "maxTokens": 4096, "enableMaxTokens": False, "streamOutput": True,
    "reasoning_effort": "default", "mcpMode": "auto", "maxToolCalls": 20,
    "enableMaxToolCalls": True, "enableWebSearch": False, "customParameters": [],
}


def provider(pid: str = "my-llm", *, endpoint: str | None = "openai-chat-completions",
             base_url: str = "http://localhost:9000", family: str | None = None,
             preset: str | None = None, auth: str = "api-key", keys: bool = True,
             extra: dict | None = None, configs: dict | None = None) -> dict:
    config: dict = {"baseUrl": base_url}
    if family:
        config["adapterFamily"] = family
    out = {
        "id": pid, "name": pid.title(),
        "apiKeys": [{"id": "k1", "isEnabled": keys}],
        "authType": auth,
        "apiFeatures": {"arrayContent": True, "streamOptions": True, "developerRole": False,
                        "serviceTier": False, "verbosity": False},
        "settings": {}, "isEnabled": True,
        "endpointConfigs": configs if configs is not None else (
            {endpoint: config} if endpoint else {"openai-chat-completions": config}),
    }
    if endpoint:
        out["defaultChatEndpoint"] = endpoint
    if preset:
        out["presetProviderId"] = preset
    out.update(extra or {})
    return out


def model(uid: str, *, caps: tuple[str, ...] = ("function-call",), api: str | None = "",
          reasoning: dict | None = None, extra: dict | None = None) -> dict:
    pid, _, raw = uid.partition("::")
    out: dict = {"id": uid, "providerId": pid, "name": raw, "capabilities": list(caps),
                 "supportsStreaming": True, "isEnabled": True, "isHidden": False}
    if api is not None:
        out["apiModelId"] = api or raw
    if reasoning is not None:
        out["reasoning"] = reasoning
    out.update(extra or {})
    return out


def assistant(prompt: str = "", **settings: Any) -> dict:
    return {"id": ASSISTANT_ID, "name": "Helper", "prompt": prompt, "emoji": "*",
            "description": "", "settings": {**copy.deepcopy(BASE_SETTINGS), **settings},
            "modelId": None, "mcpServerIds": [], "knowledgeBaseIds": [],
            "createdAt": "2025-02-01T00:00:00.000Z", "updatedAt": "2025-02-01T00:00:00.000Z",
            "tags": [], "modelName": None}


def payload(prov: dict, mod: dict, asst: dict | None = None, **extra: Any) -> dict:
    request = {"assistantId": ASSISTANT_ID, "chatId": "chat-9", "messageId": "req-9"}
    request.update(extra.pop("request", {}))
    return {"request": request, "provider": prov, "model": mod, "assistant": asst, **extra}


THINKING = {"type": "budget", "supportedEfforts": ["low", "medium", "high"],
            "thinkingTokenLimits": {"min": 1024, "max": 2048}}
