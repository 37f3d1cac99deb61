"""Anthropic beta flags (spec §6.3), shared by ``anthropic-headers`` and the Bedrock options."""

from __future__ import annotations

from typing import Any

from engine.params import ids
from engine.params.jsv import get, get_path, truthy

INTERLEAVED_THINKING = "interleaved-thinking-2025-05-14"
WEB_SEARCH_BETA = "web-search-2025-03-05"


def anthropic_beta_flags(model: dict[str, Any], assistant: object, provider: dict[str, Any] | None) -> list[str]:
    """``provider=None`` is how the Bedrock options builder calls it (PAR-Q28)."""
    base = ids.base_id(model)
    auth = get(provider, "authType") if isinstance(provider, dict) else None
    flags: list[str] = []
    if ids.is_claude45_id(base) and auth not in ("iam-gcp", "iam-aws"):
        flags.append(INTERLEAVED_THINKING)
    if (auth == "iam-gcp" and ids.is_claude4_series_id(base)
            and truthy(get_path(assistant, "settings", "enableWebSearch"))):
        flags.append(WEB_SEARCH_BETA)
    return flags
