"""Helpers for the grammar tests: small messages and hook states, no shared reference data."""

from __future__ import annotations

from typing import Any

import pytest

from engine.grammar import GrammarSettings, HookState

PI_TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls"]
NOW_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z; base 36 "mjuohs00"


def assistant(text: str, stop: str | None = "stop", **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": [{"type": "text", "text": text}], **extra}
    if stop is not None:
        message["stopReason"] = stop
    return message


@pytest.fixture
def hook_state():
    def make(mode: str = "recover", *, profile: str = "recover", model: str | None = "qwen3-coder",
             tools: list[str] | str | None = None, unknown: str = "preserve", allowed: tuple[str, ...] = (),
             strict: bool = False) -> HookState:
        settings = GrammarSettings(mode, profile, unknown, allowed)
        # tools="throws": pi.getActiveTools() throws, so the hook sees no active tools.
        active = None if tools == "throws" else list(PI_TOOLS if tools is None else tools)
        return HookState(settings, model, active, NOW_MS, strict)

    return make
