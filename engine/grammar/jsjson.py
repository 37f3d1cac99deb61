"""``JSON.parse`` as V8 runs it, for the values the grammar parsers read out of leaked text.

Why not plain ``json.loads``: it keeps arbitrary-precision integers and accepts ``NaN`` and
``Infinity``. JavaScript turns every number into a double (``12345678901234567890`` reads back as
``12345678901234567000``) and rejects the non-finite literals. Numbers are returned in a canonical
form: an integral double below 1e21 becomes the ``int`` that JavaScript would print, anything else
stays a ``float``, so both compare and serialise exactly as the reference's values do.
"""

from __future__ import annotations

import json
import math
from typing import Any

from engine.jsvalues import canonical_number


class _Fail:
    """Marker for a parse that threw (``JSON.parse`` raised a ``SyntaxError``)."""

    def __repr__(self) -> str:
        return "FAIL"

    def __bool__(self) -> bool:
        return False


FAIL = _Fail()


def _number(text: str) -> int | float:
    return canonical_number(float(text))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(text: str) -> Any:
    """``JSON.parse(text)``, or ``FAIL`` when it would throw.

    Not shared with repair's ``jsdata.parse_json`` on purpose: that one keeps integers beyond
    2^53 exact on request (REP-Q15) and holds big doubles as ``float``; the grammar parsers use
    ``canonical_number`` values (an integral double below 1e21 is an ``int``) throughout.
    """
    try:
        return json.loads(text, parse_int=_number, parse_float=_number, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return FAIL


def parse_json_object(text: str) -> dict[str, Any] | None:
    """The parsed value when it is a plain object, else ``None``."""
    value = parse_json(text)
    return value if isinstance(value, dict) else None


def parse_json_or_string(text: str) -> Any:
    """The parsed value, or ``text`` itself when it is not JSON."""
    value = parse_json(text)
    return text if value is FAIL else value


def finite_or_null(value: object) -> Any:
    """Replace non-finite numbers by ``None`` throughout, as ``JSON.stringify`` writes them."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite_or_null(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite_or_null(v) for v in value]
    return value
