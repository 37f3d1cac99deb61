"""JavaScript value helpers the params pipeline needs: `undefined`, truthiness, String(), JSON.parse.

The reference is TypeScript, so a key that is *missing* (JS `undefined`) and a key holding `null`
behave differently in several rules. ``UNDEFINED`` keeps that distinction inside the report; it is
written as ``{"$undefined": true}`` in JSON, the convention of the conformance cases.
"""

from __future__ import annotations

import json
import math
from typing import Any

from engine.jsvalues import UNDEFINED as _JS_UNDEFINED
from engine.jsvalues import js_string, json_stringify, utf16_len

UNDEFINED = _JS_UNDEFINED
UNDEFINED_JSON = {"$undefined": True}


def get(obj: object, key: str) -> Any:
    """``obj[key]`` the JS way: ``UNDEFINED`` for a missing key or a non-object holder."""
    if isinstance(obj, dict) and key in obj:
        return obj[key]
    return UNDEFINED


def get_path(obj: object, *keys: str) -> Any:
    """``obj?.a?.b`` — optional chaining through missing keys and nulls."""
    for key in keys:
        if obj is None or obj is UNDEFINED:
            return UNDEFINED
        obj = get(obj, key)
    return obj


def is_nullish(value: object) -> bool:
    return value is None or value is UNDEFINED


def truthy(value: object) -> bool:
    """JS truthiness (``0``, ``NaN``, ``""``, ``null``, ``undefined``, ``false`` are falsy)."""
    if value is None or value is UNDEFINED or value is False:
        return False
    if isinstance(value, bool):
        return True
    if isinstance(value, (int, float)):
        return not (value == 0 or (isinstance(value, float) and math.isnan(value)))
    if isinstance(value, str):
        return value != ""
    return True


def to_json(value: object) -> Any:
    """Report value → plain JSON, ``UNDEFINED`` as ``{"$undefined": true}``."""
    if value is UNDEFINED:
        return dict(UNDEFINED_JSON)
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


class JSONParseError(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise JSONParseError(f"Unexpected token {name[0]}")


def json_parse(text: str) -> Any:
    """``JSON.parse``: strict JSON (no NaN/Infinity), whitespace around the value allowed.

    Not merged with grammar's ``jsjson.parse_json``: this keeps Python's numbers (integers beyond
    2^53 exact, ``1.0`` a float) where V8 makes doubles, which changes PAR-Q8's "re-parsed value
    differs" test for such integers; adopting JS doubles is a behaviour change for params' owner.
    """
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise JSONParseError(str(exc)) from exc


def json_compact(value: object) -> str:
    """``JSON.stringify(value)`` (compact, key order kept, non-ASCII raw)."""
    return json_stringify(value) or ""


__all__ = ["UNDEFINED", "UNDEFINED_JSON", "JSONParseError", "get", "get_path",
           "is_nullish", "js_string", "json_compact", "json_parse", "to_json", "truthy",
           "utf16_len"]
