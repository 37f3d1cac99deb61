"""Import a provider request body (what users have) as the payload the params pipeline takes.

The pipeline reads Cherry Studio's own rows — provider, model, assistant settings — not a wire
request. Users have wire requests: an OpenAI Chat Completions, OpenAI Responses or Anthropic
Messages body copied from logs or docs. :func:`import_request` maps what has a place in Cherry
Studio's structure (sampling settings, the token cap, reasoning effort, the system prompt, web
search, service tier, verbosity, the standard custom parameters of spec §9.3) and lists what it
could not map and why (the conversation itself, function tools, response formats…). Nothing is
invented silently: every default it has to supply (the provider's rows) is listed as such.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.jsvalues import as_array, as_object

CHAT = "openai-chat-completions"
RESPONSES = "openai-responses"
ANTHROPIC = "anthropic-messages"
FORMAT_TITLES = {CHAT: "OpenAI Chat Completions", RESPONSES: "OpenAI Responses", ANTHROPIC: "Anthropic Messages"}

ASSISTANT_ID = "00000000-0000-4000-8000-00000000a001"
_EFFORTS = ("none", "minimal", "low", "medium", "high")
# effort ratios of spec §9.5: a thinking budget maps to the effort whose share of max_tokens is nearest
_RATIOS = {"low": 0.05, "medium": 0.5, "high": 0.8}


class RequestImportError(ValueError):
    """The value is not a request body this module can read."""


@dataclass
class ImportResult:
    format: str
    payload: dict[str, Any]
    mapped: list[tuple[str, str]] = field(default_factory=list)  # (request field, where it went)
    unmapped: list[tuple[str, str]] = field(default_factory=list)  # (request field, why not)
    assumed: list[tuple[str, str]] = field(default_factory=list)  # (payload field, the default supplied)

    @property
    def title(self) -> str:
        return FORMAT_TITLES[self.format]

    def summary(self) -> str:
        return f"{self.title} request: {len(self.mapped)} mapped, {len(self.unmapped)} not mapped"


def detect_format(value: object) -> str | None:
    """Which request body ``value`` is, or None (a Cherry Studio payload, or something else)."""
    if not isinstance(value, dict) or not isinstance(value.get("model"), str):
        return None
    if isinstance(value.get("provider"), dict) or "assistant" in value:
        return None
    if "messages" not in value and any(k in value for k in ("input", "instructions", "max_output_tokens")):
        return RESPONSES
    if isinstance(value.get("reasoning"), dict) or isinstance(value.get("text"), dict):
        return RESPONSES
    if not isinstance(value.get("messages"), list):
        return None
    anthropic_keys = ("system", "thinking", "stop_sequences", "top_k", "anthropic_version")
    if any(k in value for k in anthropic_keys):
        return ANTHROPIC
    tools = as_array(value.get("tools"))
    if any(isinstance(t, dict) and ("input_schema" in t or str(t.get("type", "")).startswith("web_search_"))
           for t in tools):
        return ANTHROPIC
    blocks = [b for m in value["messages"] if isinstance(m, dict) and isinstance(m.get("content"), list)
              for b in m["content"] if isinstance(b, dict)]
    if any(b.get("type") in ("tool_use", "tool_result") or "source" in b for b in blocks):
        return ANTHROPIC
    return CHAT


def _text_of(content: object) -> str:
    """The text of a message content: a string, or the text parts of a list of parts/blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def _provider(fmt: str) -> dict[str, Any]:
    if fmt == ANTHROPIC:
        pid, name, base, family = "anthropic", "Anthropic", "https://api.anthropic.com", "anthropic"
    else:
        pid, name, base, family = "openai", "OpenAI", "https://api.openai.com", "openai"
    endpoint = fmt
    return {
        "id": pid, "name": name, "apiKeys": [{"id": "key-1", "label": "default", "isEnabled": True}],
        "authType": "api-key",
        "apiFeatures": {"arrayContent": True, "streamOptions": True, "developerRole": False, "serviceTier": False,
                        "verbosity": False},
        "settings": {}, "isEnabled": True, "presetProviderId": pid, "defaultChatEndpoint": endpoint,
        "endpointConfigs": {endpoint: {"baseUrl": base, "adapterFamily": family}},
    }


class _Mapper:
    def __init__(self, fmt: str, body: dict[str, Any]) -> None:
        self.fmt, self.body = fmt, body
        self.result = ImportResult(fmt, {})
        self.used: set[str] = set()
        self.provider = _provider(fmt)
        model_id = body["model"]
        self.model: dict[str, Any] = {
            "id": f"{self.provider['id']}::{model_id}", "providerId": self.provider["id"], "apiModelId": model_id,
            "name": model_id, "capabilities": [], "supportsStreaming": True, "isEnabled": True, "isHidden": False}
        self.settings: dict[str, Any] = {
            "temperature": 1.0, "enableTemperature": False, "topP": 1, "enableTopP": False, "maxTokens": 4096,
            "enableMaxTokens": False, "streamOutput": True, "mcpMode": "disabled", "maxToolCalls": 20,
            "enableMaxToolCalls": True, "enableWebSearch": False, "customParameters": []}
        self.prompt: list[str] = []

    def mapped(self, key: str, where: str) -> None:
        self.used.add(key.split(".")[0].split("[")[0])
        self.result.mapped.append((key, where))

    def unmapped(self, key: str, why: str) -> None:
        self.used.add(key.split(".")[0].split("[")[0])
        self.result.unmapped.append((key, why))

    def capability(self, name: str) -> None:
        if name not in self.model["capabilities"]:
            self.model["capabilities"].append(name)

    # -- the parts every format shares ----------------------------------------------------------------
    def sampling(self) -> None:
        b = self.body
        self.mapped("model", f"model.apiModelId (model id {self.model['id']})")
        if isinstance(b.get("temperature"), (int, float)):
            self.settings.update(temperature=b["temperature"], enableTemperature=True)
            self.mapped("temperature", "assistant.settings.temperature (enableTemperature: true)")
        if isinstance(b.get("top_p"), (int, float)):
            self.settings.update(topP=b["top_p"], enableTopP=True)
            self.mapped("top_p", "assistant.settings.topP (enableTopP: true)")
        for key in ("max_tokens", "max_completion_tokens", "max_output_tokens"):
            if isinstance(b.get(key), int):
                self.settings.update(maxTokens=b[key], enableMaxTokens=True)
                self.mapped(key, "assistant.settings.maxTokens (enableMaxTokens: true)")
        if isinstance(b.get("stream"), bool):
            self.settings["streamOutput"] = b["stream"]
            self.mapped("stream", "assistant.settings.streamOutput")
        customs = (("seed", "seed", "number"), ("frequency_penalty", "frequencyPenalty", "number"),
                   ("presence_penalty", "presencePenalty", "number"), ("top_k", "topK", "number"))
        for key, name, kind in customs:
            if isinstance(b.get(key), (int, float)) and not isinstance(b.get(key), bool):
                self.custom(key, name, kind, b[key])
        for key in ("stop", "stop_sequences"):
            stop = b.get(key)
            if isinstance(stop, str):
                stop = [stop]
            if isinstance(stop, list) and all(isinstance(s, str) for s in stop):
                self.custom(key, "stopSequences", "json", json.dumps(stop))

    def custom(self, key: str, name: str, kind: str, value: object) -> None:
        self.settings["customParameters"].append({"name": name, "type": kind, "value": value})
        self.mapped(key, f"assistant.settings.customParameters {name} (a standard option: Cherry Studio "
                               "puts it at the top level of the request options)")

    def effort(self, key: str, effort: object) -> None:
        if not isinstance(effort, str):
            return
        self.settings["reasoning_effort"] = effort
        self.capability("reasoning")
        self.model["reasoning"] = {"type": "effort", "supportedEfforts": ["minimal", "low", "medium", "high"]}
        self.mapped(key, f"assistant.settings.reasoning_effort {effort!r} (model gets the reasoning capability)")

    def web_search(self, key: str) -> None:
        self.settings["enableWebSearch"] = True
        self.capability("web-search")
        self.mapped(key, "assistant.settings.enableWebSearch (model gets the web-search capability)")

    def provider_setting(self, key: str, setting: str, feature: str, value: object) -> None:
        if isinstance(value, str):
            self.provider["settings"][setting] = value
            self.provider["apiFeatures"][feature] = True
            self.mapped(key, f"provider.settings.{setting} (apiFeatures.{feature}: true)")

    def tools(self, tools: Any, is_web: Any) -> None:
        if not isinstance(tools, list):
            return
        functions = 0
        for i, tool in enumerate(tools):
            if isinstance(tool, dict) and is_web(tool):
                self.web_search(f"tools[{i}] ({tool.get('type')})")
            else:
                functions += 1
        if functions:
            self.capability("function-call")
            self.unmapped("tools", f"{functions} function tool(s): Cherry Studio's tools come from MCP servers and "
                                   "its built-in tools (assistant.mcpServerIds, settings.mcpMode), not from the request")

    def messages(self, key: str, items: object, system_roles: tuple[str, ...]) -> None:
        if not isinstance(items, list):
            return
        kept = 0
        for i, message in enumerate(items):
            if isinstance(message, dict) and message.get("role") in system_roles:
                text = _text_of(message.get("content"))
                if text:
                    self.prompt.append(text)
                    self.mapped(f"{key}[{i}] ({message['role']})", "assistant.prompt")
            else:
                kept += 1
        if kept:
            self.unmapped(key, f"{kept} conversation item(s): the params pipeline builds the options around the "
                               "messages; it does not read them")

    # -- per format ----------------------------------------------------------------------------------
    def chat(self) -> None:
        b = self.body
        self.messages("messages", b.get("messages"), ("system", "developer"))
        self.effort("reasoning_effort", b.get("reasoning_effort"))
        if "web_search_options" in b:
            self.web_search("web_search_options")
        self.tools(b.get("tools"), lambda t: False)
        self.provider_setting("service_tier", "serviceTier", "serviceTier", b.get("service_tier"))
        self.provider_setting("verbosity", "verbosity", "verbosity", b.get("verbosity"))

    def responses(self) -> None:
        b = self.body
        if isinstance(b.get("instructions"), str) and b["instructions"]:
            self.prompt.append(b["instructions"])
            self.mapped("instructions", "assistant.prompt")
        if isinstance(b.get("input"), str):
            self.unmapped("input", "the user input: the params pipeline builds the options around it; it does not "
                                   "read it")
        else:
            self.messages("input", b.get("input"), ("system", "developer"))
        reasoning = as_object(b.get("reasoning"))
        self.effort("reasoning.effort", reasoning.get("effort"))
        if "summary" in reasoning:
            self.unmapped("reasoning.summary", "Cherry Studio sets reasoningSummary itself from the model and "
                                               "provider")
        text = as_object(b.get("text"))
        self.provider_setting("text.verbosity", "verbosity", "verbosity", text.get("verbosity"))
        if "format" in text:
            self.unmapped("text.format", "structured output formats are not a setting of the params pipeline")
        self.tools(b.get("tools"), lambda t: str(t.get("type", "")).startswith("web_search"))
        self.provider_setting("service_tier", "serviceTier", "serviceTier", b.get("service_tier"))
        self.used.update(("reasoning", "text"))

    def anthropic(self) -> None:
        b = self.body
        system = _text_of(b.get("system"))
        if system:
            self.prompt.append(system)
            self.mapped("system", "assistant.prompt")
        self.messages("messages", b.get("messages"), ())
        thinking = b.get("thinking") if isinstance(b.get("thinking"), dict) else None
        if thinking is not None:
            self.capability("reasoning")
            self.model["reasoning"] = {"type": "budget", "supportedEfforts": ["none", "low", "medium", "high"],
                                       "thinkingTokenLimits": {"min": 1024, "max": 64000}}
            if thinking.get("type") == "disabled":
                self.settings["reasoning_effort"] = "none"
                self.mapped("thinking", "assistant.settings.reasoning_effort 'none'")
            else:
                budget = thinking.get("budget_tokens")
                cap = self.settings["maxTokens"] if self.settings["enableMaxTokens"] else 4096
                share = budget / cap if isinstance(budget, int) and cap else _RATIOS["high"]
                effort = min(_RATIOS, key=lambda e: abs(_RATIOS[e] - share))
                self.settings["reasoning_effort"] = effort
                self.mapped("thinking", f"assistant.settings.reasoning_effort {effort!r} (the effort whose share of "
                                        "max_tokens is nearest the budget)")
                if isinstance(budget, int):
                    self.unmapped("thinking.budget_tokens", f"{budget}: Cherry Studio derives the budget from the "
                                                            "reasoning effort and the model's "
                                                            "range of thinking budgets")
        self.tools(b.get("tools"), lambda t: str(t.get("type", "")).startswith("web_search_"))
        self.provider_setting("service_tier", "serviceTier", "serviceTier", b.get("service_tier"))

    def run(self) -> ImportResult:
        self.sampling()
        {CHAT: self.chat, RESPONSES: self.responses, ANTHROPIC: self.anthropic}[self.fmt]()
        for key in self.body:
            if key not in self.used:
                self.unmapped(key, "not a setting of Cherry Studio's params pipeline")
        assistant = {
            "id": ASSISTANT_ID, "name": "Imported request", "prompt": "\n\n".join(self.prompt), "emoji": "📥",
            "description": f"Imported from an {FORMAT_TITLES[self.fmt]} request", "settings": self.settings,
            "modelId": self.model["id"], "mcpServerIds": [], "knowledgeBaseIds": [],
            "createdAt": "2025-01-15T09:30:00.000Z", "updatedAt": "2025-01-15T09:30:00.000Z", "tags": [],
            "modelName": self.model["name"]}
        self.result.payload = {
            "provider": self.provider, "model": self.model, "assistant": assistant,
            "request": {"assistantId": ASSISTANT_ID, "chatId": "topic-imported", "messageId": "msg-imported"}}
        endpoint = self.provider["defaultChatEndpoint"]
        self.result.assumed = [
            ("provider", f"the {self.provider['name']} preset row, endpoint {endpoint}, one enabled API key"),
            ("model.capabilities", ", ".join(self.model["capabilities"]) or "none (nothing in the request needs one)"),
            ("assistant.settings", "Cherry Studio's defaults for every setting the request does not give"),
        ]
        return self.result


def import_request(body: object, fmt: str | None = None) -> ImportResult:
    """Map a request body to the params payload; ``fmt`` forces the format (else detected)."""
    fmt = fmt or detect_format(body)
    if fmt is None or not isinstance(body, dict) or not isinstance(body.get("model"), str):
        raise RequestImportError("not an OpenAI Chat Completions, OpenAI Responses or Anthropic Messages request "
                                 "body (it needs a \"model\" string and \"messages\" or \"input\")")
    if fmt not in FORMAT_TITLES:
        raise RequestImportError(f"unknown request format {fmt!r}; known: {', '.join(FORMAT_TITLES)}")
    return _Mapper(fmt, body).run()
