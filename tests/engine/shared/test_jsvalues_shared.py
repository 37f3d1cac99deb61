"""The shared JavaScript helpers in engine.jsvalues give exactly what the per-engine copies gave.

Each oracle below is the definition an engine used before it switched to engine.jsvalues (the
regex scan for UTF-16 lengths, params' and repair's ``String()``, repair's ``Object.keys``,
grammar's canonical numbers); hypothesis compares them on generated values.
"""

from __future__ import annotations

import math
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import jsvalues
from engine.jsvalues import UNDEFINED
from engine.repair.jsdata import JSFunction, to_json_data

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")

# Text with ASCII, BMP, astral characters and lone surrogates (JavaScript strings can hold them).
TEXT = st.text(st.one_of(
    st.characters(max_codepoint=0x7F),
    st.characters(min_codepoint=0x80, max_codepoint=0xFFFF),
    st.characters(min_codepoint=0x10000),
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, blacklist_categories=()),
), max_size=40)


def _utf16_len_scan(s: str) -> int:
    return len(s) + len(_ASTRAL.findall(s))


def _py_to_utf16_scan(s: str, i: int) -> int:
    return i + len(_ASTRAL.findall(s, 0, i))


def _utf16_to_py_walk(s: str, u: int) -> int:
    if u <= 0:
        return 0
    units = 0
    for index, ch in enumerate(s):
        width = 2 if ord(ch) > 0xFFFF else 1
        if units + width > u:
            return index
        units += width
    return len(s)


@given(TEXT)
def test_utf16_len_is_the_regex_definition(s):
    assert jsvalues.utf16_len(s) == _utf16_len_scan(s)


@given(TEXT, st.data())
def test_index_conversions_are_the_definitions(s, data):
    i = data.draw(st.integers(0, len(s)))
    assert jsvalues.py_to_utf16_index(s, i) == _py_to_utf16_scan(s, i)
    u = data.draw(st.integers(-2, _utf16_len_scan(s) + 2))
    assert jsvalues.utf16_to_py_index(s, u) == _utf16_to_py_walk(s, u)


@given(TEXT)
def test_utf16_units_round_trip(s):
    units = jsvalues.to_utf16_units(s)
    assert len(units) == jsvalues.utf16_len(s)
    assert not _ASTRAL.search(units)
    assert jsvalues.from_utf16_units(units) == jsvalues.from_utf16_units(s)


@given(st.text(alphabet=st.sampled_from("a\u00e9\u4e2d\ud83d\ude00\udfff\U0001f600\U00010000\U0010ffff\U000e0001"),
               max_size=40))
def test_utf16_units_equal_a_split_of_every_astral_character(s):
    # (lone surrogates stay as they are; each astral character becomes its two units)
    def units(m: re.Match[str]) -> str:
        raw = m.group().encode("utf-16-le")
        return chr(int.from_bytes(raw[:2], "little")) + chr(int.from_bytes(raw[2:], "little"))

    plain = _ASTRAL.sub(units, s)
    assert jsvalues.to_utf16_units(s) == plain


# ----------------------------------------------------------------------------- String()

NUMBERS = st.one_of(st.integers(-(2**70), 2**70), st.floats())
SCALARS = st.one_of(st.none(), st.just(UNDEFINED), st.booleans(), NUMBERS, TEXT)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=3)),
    max_leaves=12,
)


def _params_js_string(value: Any) -> str:  # engine/params/jsv.py before the merge
    if value is UNDEFINED:
        return "undefined"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int | float):
        return jsvalues.number_to_js_string(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if v is None or v is UNDEFINED else _params_js_string(v) for v in value)
    return "[object Object]"


def _repair_js_string(value: Any) -> str:  # engine/repair/jsdata.py before the merge
    if value is None:
        return "null"
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return jsvalues.number_to_js_string(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if v is None or v is UNDEFINED else _repair_js_string(v) for v in value)
    if callable(value):
        return f"function {getattr(value, 'name', '')}() {{ [native code] }}"
    return "[object Object]"


@given(JSON_VALUES)
def test_js_string_is_both_former_copies(value):
    assert jsvalues.js_string(value) == _params_js_string(value) == _repair_js_string(value)


def test_js_string_of_functions_and_nesting():
    assert jsvalues.js_string(JSFunction("toString")) == "function toString() { [native code] }"
    assert jsvalues.js_string([1, [2.5, None], UNDEFINED, True]) == "1,2.5,,,true"
    assert jsvalues.js_string({"a": 1}) == "[object Object]"
    assert jsvalues.js_string(1e21) == "1e+21"


# ----------------------------------------------------------------------------- Object.keys


def _repair_js_keys(obj: dict) -> list[str]:  # engine/repair/jsdata.py before the merge
    keys = list(obj)
    index_keys = [k for k in keys if re.match(r"(?:0|[1-9]\d*)\Z", k) and int(k) < 2**32 - 1]
    if not index_keys:
        return keys
    index_keys.sort(key=int)
    chosen = set(index_keys)
    return index_keys + [k for k in keys if k not in chosen]


KEYS = st.one_of(TEXT, st.integers(0, 2**33).map(str), st.sampled_from(["01", "-1", "4294967294", "4294967295"]))


@given(st.dictionaries(KEYS, st.none(), max_size=8))
def test_object_keys_is_repairs_former_copy(obj):
    assert jsvalues.object_keys(obj) == _repair_js_keys(obj)


# ----------------------------------------------------------------------------- numbers


def _repair_float_to_json(value: float) -> Any:  # jsdata.to_json_data's float branch before
    if not math.isfinite(value):
        return None
    if value.is_integer() and abs(value) < 1e21:
        return int(jsvalues.number_to_js_string(value))
    return value


@given(st.floats())
def test_canonical_number_is_repairs_float_rule(x):
    expected = _repair_float_to_json(x)
    got = to_json_data(x)
    assert got == expected or (math.isnan(x) and got is None)
    assert type(got) is type(expected)
    if math.isfinite(x):
        assert jsvalues.canonical_number(x) == expected
        assert type(jsvalues.canonical_number(x)) is type(expected)
