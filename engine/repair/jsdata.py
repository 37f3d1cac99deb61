"""The JavaScript value model the repair pipeline works on.

Arguments are JSON-like values held as Python data: ``dict`` (a plain JS object; insertion order
is kept, integer-like keys come first when serialised), ``list``, ``str``, ``int``/``float``
(one JS number: integral values within 2^53 are ``int``), ``bool``, ``None`` (null) and
``engine.jsvalues.UNDEFINED``. A :class:`NullProtoDict` is an object built with a null prototype
(the reference's grammar-token rebuild), which matters for ``in`` checks (REP-Q11).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, TypeGuard

from engine.jsvalues import UNDEFINED, canonical_number, js_sort_key, json_stringify

MAX_SAFE_INTEGER = 2**53 - 1


class NullProtoDict(dict[str, Any]):
    """A JS object created with ``Object.create(null)``: no inherited members."""

    __slots__ = ()


class JSFunction:
    """An inherited ``Object.prototype`` method read through ordinary property access.

    Callable so that ``json_stringify`` drops it as JavaScript drops functions.
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, *args: object) -> Any:  # pragma: no cover - never invoked
        return UNDEFINED

    def __repr__(self) -> str:
        return f"[Function: {self.name}]"


# Object.prototype members visible to `in` and to property reads on ordinary objects.
OBJECT_PROTOTYPE_MEMBERS = frozenset({
    "constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString",
    "toString", "valueOf", "__defineGetter__", "__defineSetter__", "__lookupGetter__",
    "__lookupSetter__", "__proto__",
})


def is_plain_object(value: object) -> bool:
    """Prototype ``Object.prototype`` or ``null``: JSON objects, never arrays."""
    return isinstance(value, dict)


def is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def js_typeof(value: object) -> str:
    if value is UNDEFINED:
        return "undefined"
    if value is None:
        return "object"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if callable(value):
        return "function"
    return "object"


def is_inherited_member(obj: dict[str, Any], key: str) -> bool:
    return key not in obj and not isinstance(obj, NullProtoDict) and key in OBJECT_PROTOTYPE_MEMBERS


def js_in(key: str, obj: dict[str, Any], *, own_only: bool = False) -> bool:
    """``key in obj``; with ``own_only`` (strict profile) only own properties count (REP-Q11)."""
    if key in obj:
        return True
    return not own_only and is_inherited_member(obj, key)


def js_get(obj: dict[str, Any], key: str, *, own_only: bool = False) -> Any:
    """``obj[key]``: own value, an inherited prototype member, or ``UNDEFINED``."""
    if key in obj:
        return obj[key]
    if not own_only and is_inherited_member(obj, key):
        return JSFunction(key)
    return UNDEFINED


def deep_clone(value: object) -> Any:
    """Structural copy of a JSON-like value (keeps NullProtoDict and UNDEFINED)."""
    if isinstance(value, dict):
        out = value.__class__()
        for k, v in value.items():
            out[k] = deep_clone(v) if isinstance(v, dict | list) else v
        return out
    if isinstance(value, list):
        return [deep_clone(v) if isinstance(v, dict | list) else v for v in value]
    return value


def normalize_number(x: float | int, *, exact_ints: bool = False) -> float | int:
    """One JS number: integral values within 2^53 become ``int``; others stay ``float``.

    Without ``exact_ints`` an ``int`` beyond 2^53 is rounded to the nearest double (REP-Q15).
    """
    if isinstance(x, bool):
        return x
    if isinstance(x, int):
        if exact_ints or -MAX_SAFE_INTEGER <= x <= MAX_SAFE_INTEGER:
            return x
        try:
            x = float(x)
        except OverflowError:  # beyond the largest double: JavaScript reads it as ±Infinity
            x = math.inf if x > 0 else -math.inf
    if math.isfinite(x) and x.is_integer() and abs(x) <= MAX_SAFE_INTEGER:
        return int(x)
    return x


def js_values(value: object, *, exact_ints: bool = False) -> Any:
    """Bring Python-parsed JSON to JS number semantics (what ``JSON.parse`` would have built)."""
    if isinstance(value, dict):
        return value.__class__((k, js_values(v, exact_ints=exact_ints)) for k, v in value.items())
    if isinstance(value, list):
        return [js_values(v, exact_ints=exact_ints) for v in value]
    if is_number(value):
        return normalize_number(value, exact_ints=exact_ints)
    return value


class JSONParseError(ValueError):
    """``JSON.parse`` threw a SyntaxError."""


def _reject_constant(name: str) -> Any:
    raise JSONParseError(f"Unexpected token '{name[0]}'")


def parse_json(text: str, *, exact_ints: bool = False,
               on_inexact: Callable[[str], Any] | None = None) -> Any:
    """``JSON.parse(text)``: strict JSON, numbers as doubles, last duplicate key wins.

    Separate from grammar's ``jsjson.parse_json`` on purpose: numbers take repair's
    ``normalize_number`` form and integers beyond 2^53 can stay exact (REP-Q15).

    ``on_inexact(literal)`` is told about every integer literal a double cannot hold (REP-Q15).
    """
    def parse_int(literal: str) -> float | int:
        number = int(literal)
        if on_inexact is not None and not exact_ints and abs(number) > MAX_SAFE_INTEGER \
                and int(float(number)) != number:
            on_inexact(literal)
        return normalize_number(number, exact_ints=exact_ints)

    try:
        return json.loads(
            text,
            parse_float=lambda s: normalize_number(float(s)),
            parse_int=parse_int,
            parse_constant=_reject_constant,
        )
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, JSONParseError):
            raise
        raise JSONParseError(str(exc)) from None


def stringify(value: object) -> str | None:
    """``JSON.stringify(value)`` (``None`` for a top-level undefined/function)."""
    return json_stringify(value)


def same_value(a: Any, b: Any) -> bool:
    """The preprocessors' "unchanged" test: ``Object.is(a, b)`` or equal ``JSON.stringify``."""
    if a is b:
        return True
    if type(a) is type(b) and not isinstance(a, dict | list) and a == b:
        if isinstance(a, float) and a == 0:
            return math.copysign(1, a) == math.copysign(1, b)
        return True
    return json_stringify(a) == json_stringify(b)


def js_strict_equal(a: object, b: object) -> bool:
    """``a === b`` for primitives (booleans never equal numbers)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return bool(a == b)
    if a is None or b is None or a is UNDEFINED or b is UNDEFINED:
        return a is b
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    return a is b


def deep_equal(a: object, b: object) -> bool:
    """Structural equality with JS types (``true`` is not ``1``); used by ``uniqueItems``."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(deep_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(deep_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return False
    return js_strict_equal(a, b)


def stable_serialize(value: object) -> str:
    """The layer's stable serialisation: JSON with object keys sorted (UTF-16 order)."""
    return _stable(value) or "undefined"


def _stable(value: object) -> str | None:
    if isinstance(value, dict):
        parts = []
        for key in sorted(value, key=js_sort_key):
            text = _stable(value[key])
            if text is not None:
                parts.append(f"{json_stringify(key)}:{text}")  # a string key always serialises
        return "{" + ",".join(parts) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_stable(v) or "null" for v in value) + "]"
    return json_stringify(value)


def utf8_byte_length(text: str) -> int:
    """``Buffer.byteLength(text, "utf8")`` (a lone surrogate counts as U+FFFD, 3 bytes)."""
    return len(text.encode("utf-8", "surrogatepass"))


def exceeds_depth(value: object, limit: int, level: int = 0) -> bool:
    """True when a value nests deeper than ``limit`` (root 0, each item/property value +1)."""
    if level > limit:
        return True
    if isinstance(value, dict):
        return any(exceeds_depth(v, limit, level + 1) for v in value.values())
    if isinstance(value, list):
        return any(exceeds_depth(v, limit, level + 1) for v in value)
    return False


def to_json_data(value: object) -> Any:
    """Plain JSON data for output: undefined/functions dropped (null in arrays), numbers as JS
    prints them (an integral double prints without exponent below 1e21, so it becomes an exact
    ``int`` of those digits)."""
    if isinstance(value, dict):
        return {k: to_json_data(v) for k, v in value.items() if v is not UNDEFINED and not callable(v)}
    if isinstance(value, list):
        return [None if v is UNDEFINED or callable(v) else to_json_data(v) for v in value]
    if isinstance(value, float):
        return canonical_number(value) if math.isfinite(value) else None
    if value is UNDEFINED:
        return None
    return value
