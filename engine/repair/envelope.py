"""Envelope recovery (``recoverEnvelope``, spec §2): decode stringified argument objects.

Bounded on purpose: a size and depth limit, at most ``maxDecodeAttempts`` JSON layers, a time
budget, and a fixed list of suffixes to complete a truncated object. Named-key envelopes
(``{"arguments": {...}}``) are never unwrapped.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.jsvalues import js_trim_start

from .jsdata import (
    JSONParseError,
    deep_clone,
    exceeds_depth,
    is_plain_object,
    parse_json,
    stringify,
    utf8_byte_length,
)
from .model import RepairChange

DEFAULT_LIMITS: dict[str, float] = {
    "maxInputBytes": 262144,
    "maxNestingDepth": 64,
    "maxDecodeAttempts": 3,
    "maxCandidates": 4,
    "maxWorkMs": 25,
}
TRUNCATION_SUFFIXES = ("}", '"}', "]}", '"}]}')

DECODE_NOTE = "Decoded a JSON-encoded tool-argument envelope. Send the argument object directly next time."
ESCAPE_NOTE = "Escaped a raw control character inside the JSON argument envelope."
UNWRAP_NOTE = "Unwrapped a singleton object array used as the tool-argument envelope."
COMPLETE_NOTE = ("Completed a truncated JSON object envelope after the completed candidate passed "
                 "the tool schema.")


@dataclass
class EnvelopeResult:
    value: Any
    changes: list[RepairChange] = field(default_factory=list)
    candidates: list[Any] = field(default_factory=list)
    limited: bool = False


def resolve_limits(overrides: dict[str, Any] | None) -> dict[str, float]:
    limits = dict(DEFAULT_LIMITS)
    for key, value in (overrides or {}).items():
        if key in limits and isinstance(value, int | float) and not isinstance(value, bool):
            limits[key] = value
    return limits


_CONTROL = re.compile(r"[\x00-\x1f]")
_STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\[\s\S]|\\\Z)*(?:"|\Z)')
_RAW_CONTROL = re.compile(r"(\\[\s\S])|([\x00-\x1f])")


def _escape_match(m: re.Match[str]) -> str:
    return m.group(1) or f"\\u{ord(m.group(2)):04x}"


def escape_control_characters(text: str) -> str:
    """Replace raw code points < 0x20 inside JSON string literals by ``\\u00XX``.

    Same result as the reference's scanner (toggle "in string" on an unescaped quote, skip the
    character after a backslash), done with regular expressions so that 256 KiB stay fast.
    """
    if not _CONTROL.search(text):
        return text
    return _STRING_LITERAL.sub(lambda m: _RAW_CONTROL.sub(_escape_match, m.group(0)), text)


def _over_size(value: object, limit: float) -> bool:
    text = value if isinstance(value, str) else stringify(value)
    return text is not None and utf8_byte_length(text) > limit


def recover_envelope(raw: object, limits: dict[str, float], *, exact_ints: bool = False,
                     on_inexact: Callable[[str], Any] | None = None) -> EnvelopeResult:
    started = time.perf_counter()

    def elapsed_ms() -> float:
        return (time.perf_counter() - started) * 1000

    if _over_size(raw, limits["maxInputBytes"]) or exceeds_depth(raw, int(limits["maxNestingDepth"])):
        return EnvelopeResult(raw, limited=True)
    value = deep_clone(raw)
    changes: list[RepairChange] = []
    attempts = 0
    while isinstance(value, str) and attempts < limits["maxDecodeAttempts"] and elapsed_ms() <= limits["maxWorkMs"]:
        escaped = escape_control_characters(value)
        try:
            parsed = parse_json(escaped, exact_ints=exact_ints, on_inexact=on_inexact)
        except JSONParseError:
            break
        changes.append(RepairChange("envelope.decode-json", "envelope", DECODE_NOTE))
        if attempts == 0 and escaped != value:  # REP: recorded for the first layer only
            changes.append(RepairChange("envelope.escape-control-character", "envelope", ESCAPE_NOTE))
        value = parsed
        attempts += 1
    if isinstance(value, list) and len(value) == 1 and is_plain_object(value[0]):
        value = value[0]
        changes.append(RepairChange("envelope.unwrap-singleton-object-array", "envelope", UNWRAP_NOTE))
    if is_plain_object(value):
        if exceeds_depth(value, int(limits["maxNestingDepth"])):
            return EnvelopeResult(raw, limited=True)
        return EnvelopeResult(value, changes)
    candidates: list[Any] = []
    if isinstance(raw, str) and js_trim_start(raw).startswith("{"):
        for suffix in TRUNCATION_SUFFIXES:
            if len(candidates) >= limits["maxCandidates"] or elapsed_ms() > limits["maxWorkMs"]:
                break
            try:
                parsed = parse_json(escape_control_characters(raw + suffix), exact_ints=exact_ints)
            except JSONParseError:
                continue
            if is_plain_object(parsed):
                candidates.append(parsed)
    return EnvelopeResult(raw, [], candidates)
