"""JavaScript value helpers the params pipeline needs: `undefined`, truthiness, String(), JSON.parse.

The reference is TypeScript, so a key that is *missing* (JS `undefined`) and a key holding `null`
behave differently in several rules. ``UNDEFINED`` keeps that distinction inside the report; it is
written as ``{"$undefined": true}`` in JSON, the convention of the conformance cases.
"""

from __future__ import annotations

import json
import math
from typing import Any


class _Undefined:
    _instance: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED: Any = _Undefined()
UNDEFINED_JSON = {"$undefined": True}


def get(obj: Any, key: str) -> Any:
    """``obj[key]`` the JS way: ``UNDEFINED`` for a missing key or a non-object holder."""
    if isinstance(obj, dict) and key in obj:
        return obj[key]
    return UNDEFINED


def get_path(obj: Any, *keys: str) -> Any:
    """``obj?.a?.b`` — optional chaining through missing keys and nulls."""
    for key in keys:
        if obj is None or obj is UNDEFINED:
            return UNDEFINED
        obj = get(obj, key)
    return obj


def is_nullish(value: Any) -> bool:
    return value is None or value is UNDEFINED


def truthy(value: Any) -> bool:
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


def to_json(value: Any) -> Any:
    """Report value → plain JSON, ``UNDEFINED`` as ``{"$undefined": true}``."""
    if value is UNDEFINED:
        return dict(UNDEFINED_JSON)
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def drop_undefined(value: Any) -> Any:
    """What ``JSON.stringify`` would keep: keys holding ``undefined`` vanish."""
    if isinstance(value, dict):
        return {k: drop_undefined(v) for k, v in value.items() if v is not UNDEFINED}
    if isinstance(value, list):
        return [None if v is UNDEFINED else drop_undefined(v) for v in value]
    return value


def number_to_string(value: float | int) -> str:
    """``String(number)``."""
    try:
        from engine.jsvalues import number_to_js_string
    except ImportError:  # pragma: no cover - the shared helper lands with engine.jsvalues
        number_to_js_string = None
    if number_to_js_string is not None:
        return number_to_js_string(value)
    return _number_to_string(value)


def _number_to_string(value: float | int) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == int(value) and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" in text:
        mantissa, exp = text.split("e")
        sign = "-" if exp.startswith("-") else "+"
        text = f"{mantissa}e{sign}{int(exp.lstrip('+-'))}"
        if mantissa.endswith(".0"):
            text = text.replace(".0e", "e")
    return text


def js_string(value: Any) -> str:
    """``String(value)`` for JSON-shaped values (objects → ``[object Object]``)."""
    if value is UNDEFINED:
        return "undefined"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return number_to_string(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if is_nullish(v) else js_string(v) for v in value)
    return "[object Object]"


class JSONParseError(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise JSONParseError(f"Unexpected token {name[0]}")


def json_parse(text: str) -> Any:
    """``JSON.parse``: strict JSON (no NaN/Infinity), whitespace around the value allowed."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise JSONParseError(str(exc)) from exc


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def json_compact(value: Any) -> str:
    """``JSON.stringify(value)`` for JSON-shaped data (compact, key order kept, non-ASCII raw)."""
    return json.dumps(_js_numbers(drop_undefined(value)), ensure_ascii=False,
                      separators=(",", ":"), default=lambda v: None)


def _js_numbers(value: Any) -> Any:
    """Integral floats print as JS prints them (``1`` not ``1.0``)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    if isinstance(value, dict):
        return {k: _js_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_js_numbers(v) for v in value]
    return value
