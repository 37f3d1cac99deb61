"""Model-facing texts: issue summary, fingerprint and retry message (spec §5 step 3, §10)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.jsvalues import js_sort_key, js_string, utf16_len

from .jsdata import stringify
from .typebox import SchemaError

RECEIVED_LIMIT = 300
FALLBACK_ERROR = "Tool input could not be repaired safely."


def _descriptor(error: SchemaError) -> str:
    params = error.params
    if isinstance(params.get("type"), str):
        detail = params["type"]
    elif isinstance(params.get("requiredProperties"), list):
        detail = ",".join(map(str, params["requiredProperties"]))
    else:
        detail = ""
    return f"{error.instance_path or '(root)'}|{error.keyword}|{detail}"


def issue_summary(errors: Sequence[SchemaError]) -> str:
    return "; ".join(_descriptor(e) for e in errors)


def fnv1a32(text: str) -> str:
    """FNV-1a over UTF-16 code units, as 8 lowercase hex digits."""
    h = 0x811C9DC5
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        h ^= data[i] | (data[i + 1] << 8)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


def fingerprint(tool_name: str, errors: Sequence[SchemaError]) -> str:
    descriptors = sorted((_descriptor(e) for e in errors), key=js_sort_key)
    return fnv1a32(f"{tool_name}::" + ";".join(descriptors))


def _utf16_prefix(text: str, units: int) -> str:
    data = text.encode("utf-16-le", "surrogatepass")[: units * 2]
    return data.decode("utf-16-le", "surrogatepass")


def received_text(value: object) -> str:
    """``JSON.stringify(value)`` (or ``String(value)``), cut to 300 UTF-16 units plus ``…``."""
    text = stringify(value)
    if text is None:
        text = js_string(value)
    if utf16_len(text) > RECEIVED_LIMIT:
        text = _utf16_prefix(text, RECEIVED_LIMIT) + "…"
    return text


def retry_message(tool_name: str, errors: Sequence[SchemaError], received: object) -> str:
    lines = [f'Invalid input for tool "{tool_name}". Fix these issues and retry:']
    for error in errors[:8]:
        lines.append(f"  • {error.instance_path or '(root)'}: {error.message or error.keyword}")
    lines.append(f"Received: {received_text(received)}")
    return "\n".join(lines)
