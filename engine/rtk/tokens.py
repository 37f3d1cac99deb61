"""The reference's token estimate (``rtk.md`` §9): ``ceil(UTF-16 length / 4)``."""

from __future__ import annotations

from typing import Any

from engine.jsvalues import bmp_only, json_stringify, utf16_len


def estimate_tokens(value: Any) -> int:
    """Tokens of a string, or of an object's ``JSON.stringify`` text (no spaces, no escaping)."""
    text = value if isinstance(value, str) else (json_stringify(value) or "")
    length = len(text) if bmp_only(text) else utf16_len(text)
    return (length + 3) // 4
