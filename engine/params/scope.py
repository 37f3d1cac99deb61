"""The read-only ``RequestScope`` every feature sees (spec §3 step 6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.params.capabilities import Capabilities
from engine.params.options_context import QuirkNote
from engine.params.routing import SdkConfig


@dataclass(frozen=True)
class RequestScope:
    request: dict[str, Any]
    assistant: dict[str, Any] | None
    model: dict[str, Any]
    provider: dict[str, Any]
    capabilities: Capabilities | None
    sdk_config: SdkConfig
    endpoint_type: Any  # str or UNDEFINED
    ai_sdk_provider_id: str
    options_provider_id: str
    mcp_tool_ids: tuple[str, ...]
    prefs: dict[str, Any]
    env: dict[str, Any]
    profile: str = "cherry-studio"
    diagnostics: list[QuirkNote] = field(default_factory=list, compare=False)  # append-only side channel

    @property
    def strict(self) -> bool:
        return self.profile == "strict"

    def quirk(self, code: str, message: str) -> None:
        self.diagnostics.append({"code": code, "message": message})
