"""JavaScript value semantics the engines need, in one place.

The reference engines run on V8, so string lengths and offsets are UTF-16 code units, ``trim``
strips the ECMAScript white-space set, ``Number()``/``String(number)``/``JSON.stringify`` follow
ECMA-262, ``Array.prototype.sort`` compares UTF-16 code units and ``localeCompare`` uses ICU's
root collation. Python differs on each of these in small ways that change outputs, so every
engine uses these helpers instead of the Python built-ins (and instead of copies of its own:
``String()`` is ``js_string``, ``Object.keys`` order is ``object_keys``, a double as JSON data is
``canonical_number``).

``JSON.parse`` is not here: grammar, params and repair each keep their own number model on
purpose (see their ``parse_json``/``json_parse``), and V8's error texts are needed only by RTK.
"""

from __future__ import annotations

import math
import re
import sys
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeAlias

from engine import memo

__all__ = [
    "JS_WHITESPACE",
    "UNDEFINED",
    "JsonObject",
    "JsonValue",
    "Undefined",
    "as_array",
    "as_object",
    "canonical_number",
    "from_utf16_units",
    "js_number",
    "js_sort_key",
    "js_string",
    "js_trim",
    "js_trim_end",
    "js_trim_start",
    "json_stringify",
    "length_kept",
    "locale_compare",
    "math_round",
    "number_to_js_string",
    "object_keys",
    "py_to_utf16_index",
    "sorted_by_locale",
    "to_utf16_units",
    "utf16_len",
    "utf16_to_py_index",
]

# ECMAScript WhiteSpace + LineTerminator: what \s matches and what trim() strips.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)

# JSON-shaped data as Python holds it (what ``json.loads`` returns): the one alias every engine
# area uses for JSON documents, payloads and reports.
JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
JsonObject: TypeAlias = "dict[str, JsonValue]"

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class _Undefined:
    """JavaScript ``undefined``: dropped from objects and ``null`` in arrays by json_stringify."""

    _instance: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False


UNDEFINED = _Undefined()
Undefined: TypeAlias = _Undefined  # the type of ``UNDEFINED``, for annotations (``str | Undefined``)


# ----------------------------------------------------------------------------- reading JSON data


def as_object(value: object) -> dict[str, Any]:
    """``value`` itself when it is an object (a ``dict``), else a new empty one."""
    return value if isinstance(value, dict) else {}


def as_array(value: object) -> list[Any]:
    """``value`` itself when it is an array (a ``list``), else a new empty one."""
    return value if isinstance(value, list) else []


# ----------------------------------------------------------------------------- UTF-16


# CPython stores a non-ASCII string with 1, 2 or 4 bytes per character, chosen by its widest
# character: ``sys.getsizeof`` tells in O(1) that a text has nothing beyond the BMP (its UTF-16
# length is its length), where the encode below costs ~1–2 ms per MB (validation measures two
# texts of every part, the rules' memos each text version). The header size is measured rather
# than assumed; a size that does not fit the layout (another interpreter) takes the encode.
_NON_ASCII_HEADER = sys.getsizeof("\u00e9") - 2


def utf16_len(s: str) -> int:
    """``s.length`` in JavaScript: code points plus one per astral character.

    One C-level encode (a lone surrogate is one unit, as in JavaScript): ~10× faster than
    counting astral characters with a regex scan on multi-megabyte texts; none for a text
    stored with at most two bytes per character (no astral character).
    """
    global _LENGTHS, _KEPT
    if not may_hold_astral(s):
        return len(s)
    if len(s) < LENGTH_MEMO_MIN:
        return len(s.encode("utf-16-le", "surrogatepass")) // 2
    n = _remembered(s)
    if n < 0:
        n = len(s.encode("utf-16-le", "surrogatepass")) // 2
        _LENGTHS = ((s, n), _LENGTHS[0])
    if _KEPT[0] is s:
        _KEPT = (s, n)
    return n


def _remembered(s: str) -> int:
    """The UTF-16 length of ``s`` if a memo holds it, else -1."""
    for text, n in (*_LENGTHS, _KEPT):
        if text is s:
            return n
    return -1


# the UTF-16 lengths of the last two long texts with astral characters, by identity (a
# Caveman run of a large part measures its original text five times and its output twice:
# ~4 ms each for 4 MB); one tuple swapped atomically, so threads never read a mismatched pair
LENGTH_MEMO_MIN = 65_536
_NO_LENGTH: tuple[str | None, int] = (None, 0)
_LENGTHS: tuple[tuple[str | None, int], tuple[str | None, int]] = (_NO_LENGTH, _NO_LENGTH)


def forget_lengths() -> None:
    """Let go of the texts ``utf16_len`` remembers (``caveman.fast.texts.release_texts``)."""
    global _LENGTHS
    _LENGTHS = (_NO_LENGTH, _NO_LENGTH)


# a text whose length ``forget_lengths`` keeps (-1: not measured yet), by identity
_KEPT: tuple[str | None, int] = _NO_LENGTH


@contextmanager
def length_kept(s: str) -> Iterator[None]:
    """``utf16_len(s)``, once measured, remembered while the block runs, past ``forget_lengths``:
    a large Caveman part lets go of its text memos between stages, and its original was
    measured again by validation (~7.5 ms for the 4 MB conformance-derived text). Another
    thread's text in its place only loses the shortcut (the identity is checked)."""
    global _KEPT
    before = _KEPT
    _KEPT = (s, _remembered(s))
    try:
        yield
    finally:
        _KEPT = before


def holds_astral(s: str) -> bool:
    """True when ``s`` certainly holds a character beyond the BMP, in O(1): CPython stores a
    string four bytes a character only when its widest character needs it (a lone surrogate
    is a BMP unit); False: it may not (another layout answers False)."""
    return not s.isascii() and sys.getsizeof(s) - _NON_ASCII_HEADER == 4 * (len(s) + 1)


def bmp_only(s: str) -> bool:
    """No character of ``s`` is beyond the BMP (its UTF-16 length is its length): in O(1) from
    how CPython stores it; under another layout, by the encode of ``utf16_len``."""
    if not may_hold_astral(s):
        return True
    if holds_astral(s):
        return False
    return utf16_len(s) == len(s)


def may_hold_astral(s: str) -> bool:
    """False when ``s`` certainly holds no character beyond the BMP (ASCII, or stored with at
    most two bytes a character), in O(1); True: it may (CPython stores it four bytes a
    character only when it does; another layout answers True)."""
    return not s.isascii() and sys.getsizeof(s) - _NON_ASCII_HEADER not in (len(s) + 1, 2 * (len(s) + 1))


def py_to_utf16_index(s: str, i: int) -> int:
    """UTF-16 offset of Python (code-point) index ``i`` of ``s``."""
    if s.isascii():
        return i
    return utf16_len(s[:i])


def utf16_to_py_index(s: str, u: int) -> int:
    """Python index of UTF-16 offset ``u`` of ``s``.

    An offset that falls between the two halves of an astral character maps to that character
    (the index is rounded down); offsets past the end map to ``len(s)``.
    """
    if s.isascii() or u <= 0:
        return max(0, min(u, len(s)))
    # Only the astral characters before the offset shift it: walk them, not every character.
    shift = 0
    for m in _ASTRAL.finditer(s):
        start = m.start() + shift  # the astral character's first unit
        if u <= start + 1:
            return u - shift if u < start else m.start()
        shift += 1
    return min(u - shift, len(s))


def to_utf16_units(s: str) -> str:
    """Expand every astral character into its surrogate pair (one Python char per UTF-16 unit).

    The astral characters are found through the UTF-8 bytes, where each starts with a byte of
    ``F0``–``F4`` that nothing else uses (a ``memchr`` each; a regex scan for the astral range
    tries every character, ~15 ms per MB)."""
    if s.isascii():
        return s
    raw = s.encode("utf-8", "surrogatepass")
    leads = raw.translate(_ASTRAL_LEADS)
    at = leads.find(b"\xf0")
    if at < 0:
        return s
    pieces = []
    last = 0
    while at >= 0:
        pieces += [raw[last:at].decode("utf-8", "surrogatepass"), _pair(raw[at:at + 4])]
        last = at + 4
        at = leads.find(b"\xf0", last)
    pieces.append(raw[last:].decode("utf-8", "surrogatepass"))
    return "".join(pieces)


_ASTRAL_LEADS = bytes.maketrans(b"\xf1\xf2\xf3\xf4", b"\xf0\xf0\xf0\xf0")


@memo.lru(maxsize=4096)
def _pair(encoded: bytes) -> str:
    """The surrogate pair of one astral character given as its four UTF-8 bytes."""
    c = ord(encoded.decode("utf-8")) - 0x10000
    return chr(0xD800 + (c >> 10)) + chr(0xDC00 + (c & 0x3FF))


def from_utf16_units(s: str) -> str:
    """Collapse valid surrogate pairs into astral characters; lone surrogates stay as they are."""
    if s.isascii():
        return s
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


# ----------------------------------------------------------------------------- strings


def js_trim(s: str) -> str:
    """``String.prototype.trim``."""
    return s.strip(JS_WHITESPACE)


def js_trim_start(s: str) -> str:
    """``String.prototype.trimStart``."""
    return s.lstrip(JS_WHITESPACE)


def js_trim_end(s: str) -> str:
    """``String.prototype.trimEnd``."""
    return s.rstrip(JS_WHITESPACE)


def js_sort_key(s: str) -> bytes:
    """Sort key giving ``Array.prototype.sort``'s default order (UTF-16 code units).

    Big-endian UTF-16 bytes compare exactly like the code-unit sequences, so astral characters
    (high surrogates 0xD800…) sort before U+E000–U+FFFF, as in JavaScript.
    """
    return s.encode("utf-16-be", "surrogatepass")


# ----------------------------------------------------------------------------- numbers

_DECIMAL_LITERAL = re.compile(r"[+-]?(?:Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\Z")
_RADIX_LITERAL = re.compile(r"0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)\Z")


def js_number(value: object) -> float:
    """``Number(value)`` for the primitive values JSON can carry (strings, numbers, booleans, null)."""
    if value is None:
        return 0.0
    if value is UNDEFINED:
        return math.nan
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if not isinstance(value, str):
        return math.nan
    text = js_trim(value)
    if text == "":
        return 0.0
    if _RADIX_LITERAL.match(text):
        return float(int(text[2:], {"x": 16, "o": 8, "b": 2}[text[1].lower()]))
    if _DECIMAL_LITERAL.match(text):
        if text.lstrip("+-") == "Infinity":
            return -math.inf if text.startswith("-") else math.inf
        return float(text)
    return math.nan


def number_to_js_string(x: float | int) -> str:
    """``String(x)`` for a JavaScript number (ECMA-262 Number::toString, radix 10)."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int) and abs(x) < 2**53:
        return str(x)
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    # repr() gives the shortest round-tripping digits; normalise them to digits × 10^(n-k).
    mantissa, _, exp = repr(abs(x)).partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    digits = (int_part + frac_part).lstrip("0")
    n = len(int_part.lstrip("0")) + (int(exp) if exp else 0)
    if not int_part.lstrip("0"):
        n = (int(exp) if exp else 0) - (len(frac_part) - len(frac_part.lstrip("0")))
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        exp_text = f"e+{e}" if e >= 0 else f"e-{-e}"
        body = (digits[0] + ("." + digits[1:] if k > 1 else "")) + exp_text
    return sign + body


def math_round(x: float) -> float | int:
    """``Math.round``: round half up (towards +∞), unlike Python's banker's ``round``.

    Finite results come back as ``int`` (``-0`` becomes ``0``); NaN and ±Infinity pass through.
    """
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        return x
    floor = math.floor(x)
    return floor + 1 if x - floor >= 0.5 else floor


def canonical_number(value: float | int) -> float | int:
    """The Python value standing for the JavaScript double ``value`` in JSON-shaped data.

    An integral double below 1e21 becomes the ``int`` JavaScript prints for it (so it compares
    and serialises like the reference's value); anything else stays a ``float``.
    """
    if math.isfinite(value) and value == int(value) and abs(value) < 1e21:
        return int(number_to_js_string(value))
    return value


def js_string(value: object) -> str:
    """``String(value)`` for JSON-shaped values, ``UNDEFINED`` and functions."""
    if value is None:
        return "null"
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return number_to_js_string(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if v is None or v is UNDEFINED else js_string(v) for v in value)
    if callable(value):
        return f"function {getattr(value, 'name', '')}() {{ [native code] }}"
    return "[object Object]"


# ----------------------------------------------------------------------------- JSON

_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_JSON_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\ud800-\udfff]')
_ARRAY_INDEX = re.compile(r"(?:0|[1-9]\d*)\Z")


def _quote(s: str) -> str:
    s = from_utf16_units(s)  # a valid pair written as two escapes is one character in JS

    def escape(m: re.Match[str]) -> str:
        ch = m.group()
        return _JSON_ESCAPES.get(ch) or f"\\u{ord(ch):04x}"

    return '"' + _JSON_NEEDS_ESCAPE.sub(escape, s) + '"'


def object_keys(obj: Mapping[str, Any]) -> list[str]:
    """``Object.keys(obj)``: array-index keys ascending, then the rest in insertion order."""
    keys = [str(k) for k in obj]
    index_keys = sorted((k for k in keys if _ARRAY_INDEX.match(k) and int(k) < 2**32 - 1), key=int)
    if not index_keys:
        return keys
    chosen = set(index_keys)
    return index_keys + [k for k in keys if k not in chosen]


def json_stringify(value: object, indent: int | str | None = None) -> str | None:
    """``JSON.stringify(value, null, indent)``.

    Python ``None`` is ``null``; ``UNDEFINED`` and callables are JavaScript ``undefined`` (dropped
    from objects, ``null`` in arrays, and a top-level ``undefined`` returns ``None``). Non-ASCII
    text stays raw, lone surrogates are written as ``\\udXXX``, integral numbers print without
    ``.0`` and NaN/Infinity become ``null``.
    """
    if isinstance(indent, bool):
        indent = None
    if isinstance(indent, int | float):
        gap = " " * max(0, min(10, int(indent)))
    elif isinstance(indent, str):
        gap = indent[:10]
    else:
        gap = ""
    return _stringify(value, gap, "")


def _is_undefined(value: object) -> bool:
    return value is UNDEFINED or callable(value)


def _stringify(value: object, gap: str, current: str) -> str | None:
    if _is_undefined(value):
        return None
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, int | float):
        if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
            return "null"
        return number_to_js_string(value)
    inner = current + gap
    if isinstance(value, Mapping):
        parts = []
        for key in object_keys(value):
            raw = value[key] if key in value else _lookup_non_str_key(value, key)
            text = _stringify(raw, gap, inner)
            if text is not None:
                parts.append(_quote(key) + (": " if gap else ":") + text)
        return _wrap("{", "}", parts, gap, current, inner)
    if isinstance(value, Iterable):
        parts = []
        for item in value:
            text = _stringify(item, gap, inner)
            parts.append("null" if text is None else text)
        return _wrap("[", "]", parts, gap, current, inner)
    raise TypeError(f"json_stringify: cannot serialise {type(value).__name__}")


def _lookup_non_str_key(obj: Mapping[Any, Any], key: str) -> Any:
    for k, v in obj.items():
        if str(k) == key:
            return v
    return UNDEFINED


def _wrap(open_: str, close: str, parts: list[str], gap: str, current: str, inner: str) -> str:
    if not parts:
        return open_ + close
    if not gap:
        return open_ + ",".join(parts) + close
    sep = ",\n" + inner
    return open_ + "\n" + inner + sep.join(parts) + "\n" + current + close


# ----------------------------------------------------------------------------- collation

# ICU root collation order of white space, common punctuation and ASCII symbols (non-ignorable:
# they carry primary weights and sort before digits, which sort before letters).
_ASCII_SYMBOL_ORDER = (
    "\t\n\v\f\r \u2028\u2029_\u203f\u2040-\u2010\u2011\u2012\u2013\u2014\u2015,;:!\u00a1?\u00bf.\u2026\u00b7"
    "'\u2018\u2019\u201a\u2039\u203a\"\u201c\u201d\u201e\u00ab\u00bb()[]{}\u00a7\u00b6@*/\\&#%\u2030\u2020\u2021"
    "\u2022`\u00b4\u02dc^\u00af\u00a8\u00b0\u00a9\u00ae\u2190\u2192\u2211+\u00b1\u00f7\u00d7<=>\u00ac|\u00a6~"
)
_CURRENCY_ORDER = {ch: i for i, ch in enumerate("\u00a4\u00a2$\u00a3\u00a5\u20ac")}

# Root collation orders scripts (DUCET): Latin, Greek, Coptic, Cyrillic, Glagolitic, Georgian,
# Armenian, Hebrew, Arabic, Syriac, Thaana, NKo, Ethiopic, the Indic scripts, Thai, Lao, Tibetan,
# Myanmar, Khmer, Mongolian, Cherokee, Canadian syllabics, Ogham, Runic, Hangul, kana, Bopomofo,
# Yi, then Han; within a script, code point order approximates the real tailoring.
_SCRIPT_BLOCKS = sorted([
    (0x0041, 0x024F, 0), (0x1E00, 0x1EFF, 0), (0x2C60, 0x2C7F, 0), (0xA720, 0xA7FF, 0), (0xFF21, 0xFF5A, 0),
    (0x0370, 0x03FF, 1), (0x1F00, 0x1FFF, 1), (0x2C80, 0x2CFF, 2), (0x0400, 0x052F, 3), (0x2DE0, 0x2DFF, 3),
    (0xA640, 0xA69F, 3), (0x2C00, 0x2C5F, 4), (0x10A0, 0x10FF, 5), (0x1C90, 0x1CBF, 5), (0x2D00, 0x2D2F, 5),
    (0x0530, 0x058F, 6), (0x0590, 0x05FF, 7), (0x0600, 0x06FF, 8), (0x0750, 0x077F, 8), (0x08A0, 0x08FF, 8),
    (0xFB50, 0xFDFF, 8), (0xFE70, 0xFEFF, 8), (0x0700, 0x074F, 9), (0x0780, 0x07BF, 10), (0x07C0, 0x07FF, 11),
    (0x1200, 0x139F, 12), (0x0900, 0x0DFF, 13), (0x0E00, 0x0E7F, 14), (0x0E80, 0x0EFF, 15), (0x0F00, 0x0FFF, 16),
    (0x1000, 0x109F, 17), (0x1780, 0x17FF, 18), (0x1800, 0x18AF, 19), (0x13A0, 0x13FF, 20), (0xAB70, 0xABBF, 20),
    (0x1400, 0x167F, 21), (0x1680, 0x169F, 22), (0x16A0, 0x16FF, 23), (0x1100, 0x11FF, 24), (0x3130, 0x318F, 24),
    (0xAC00, 0xD7AF, 24), (0x3040, 0x30FF, 25), (0x3100, 0x312F, 26), (0xA000, 0xA4CF, 27),
])
_SCRIPT_STARTS = [block[0] for block in _SCRIPT_BLOCKS]
_OTHER_SCRIPTS, _HAN = 28, 29
_SYMBOL_RANK = {ch: i + 1 for i, ch in enumerate(_ASCII_SYMBOL_ORDER)}  # 0 = primary-ignorable
# then other symbols by code point, currency symbols ($ …), digits by value, letters
_OTHER_SYMBOL_BASE, _CURRENCY_BASE, _DIGIT_BASE, _LETTER_BASE = 1_000, 1_200_000, 2_400_000, 3_000_000


# Letters the root collation sorts as letter sequences or as accented forms of a base letter
# (no Unicode decomposition gives these); the tertiary/secondary weight keeps them apart.
_EXPANSIONS = {"æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ẞ": "SS", "ø": "o\u0338",
               "Ø": "O\u0338", "đ": "d\u0335", "Đ": "D\u0335", "ł": "l\u0337", "Ł": "L\u0337",
               "ŀ": "l\u00b7"}
# DUCET secondary order of the common diacritics (others follow by code point)
_ACCENT_RANK = {c: i for i, c in enumerate(
    (0x0301, 0x0300, 0x0306, 0x0302, 0x030C, 0x030A, 0x0308, 0x030B, 0x0303, 0x0307, 0x0338, 0x0327,
     0x0328, 0x0304))}
_DOTLESS_I = 2 * ord("i") + 1  # ı is its own letter, right after i (Latin has script rank 0)
_EXPANDABLE = re.compile("[" + "".join(_EXPANSIONS) + "]")


# A collation element: (primary weight, secondary weights, tertiary weight).
_Element = tuple[int, tuple[int, ...], int]


def _collation_elements(s: str) -> list[_Element]:
    """(primary, secondary accents, tertiary case) per base character — an ICU-root approximation."""
    elements: list[tuple[int, tuple[int, ...], int]] = []
    compat = unicodedata.normalize("NFKD", s)
    if compat != s:
        # compatibility forms (ligatures, superscripts, circled digits, NBSP) sort like their
        # plain letters, after them at the tertiary level
        s = compat
    s = _EXPANDABLE.sub(lambda m: _EXPANSIONS[m.group()], s)
    for ch in unicodedata.normalize("NFD", s):
        if unicodedata.combining(ch):
            accent = _ACCENT_RANK.get(ord(ch), 0x100 + ord(ch))
            if elements:
                p, accents, t = elements[-1]
                elements[-1] = (p, (*accents, accent), t)
            else:
                elements.append((0, (accent,), 0))  # ignorable at the primary level
            continue
        if ch in _SYMBOL_RANK:
            elements.append((_SYMBOL_RANK[ch], (), 0))
            continue
        category = unicodedata.category(ch)
        if category == "Cc" or category == "Cf":
            continue  # completely ignorable in the root collation
        if category == "Nd":
            elements.append((_DIGIT_BASE + unicodedata.digit(ch), (), 0))
            continue
        if ch == "ı":
            elements.append((_LETTER_BASE + _DOTLESS_I, (), 0))
            continue
        if category[0] in "LMN":
            lower = ch.lower()
            base = ord(lower) if len(lower) == 1 else ord(ch)
            tertiary = 1 if ch != lower else 0
            if 0x30A1 <= base <= 0x30F6:  # katakana sorts with hiragana, after it on level 3
                base, tertiary = base - 0x60, tertiary + 2
            elements.append((_LETTER_BASE + _script_rank(base) * 0x220000 + 2 * base, (), tertiary))
            continue
        if category == "Sc":
            elements.append((_CURRENCY_BASE + _CURRENCY_ORDER.get(ch, 16 + ord(ch)), (), 0))
            continue
        elements.append((_OTHER_SYMBOL_BASE + ord(ch), (), 0))
    return elements


def _variant(ch: str) -> bool:
    """Compatibility forms and expanded letters are tertiary-greater than what they sort as."""
    return ch in _EXPANSIONS or unicodedata.normalize("NFKD", ch) != ch


def _script_rank(c: int) -> int:
    i = bisect_right(_SCRIPT_STARTS, c) - 1
    if i >= 0 and c <= _SCRIPT_BLOCKS[i][1]:
        return _SCRIPT_BLOCKS[i][2]
    if 0x3400 <= c <= 0x9FFF or 0xF900 <= c <= 0xFAFF or 0x20000 <= c <= 0x3FFFF:
        return _HAN
    return 0 if c < 0x80 else _OTHER_SCRIPTS


def locale_compare(a: str, b: str) -> int:
    """``a.localeCompare(b)`` with ICU root collation (approximation): -1, 0 or 1.

    Level 1 compares base characters (white space < punctuation < symbols < digits < letters,
    letters case- and accent-insensitively; ligatures and compatibility forms expand), level 2
    accents, level 3 case (lower first) and compatibility variants.
    """
    if a == b:
        return 0
    ea, eb = _collation_elements(a), _collation_elements(b)
    keys: tuple[Callable[[list[_Element]], list[object]], ...] = (
        lambda es: [e[0] for e in es if e[0]],
        lambda es: [e[1] for e in es],
        lambda es: [e[2] for e in es],
    )
    for key in keys:
        ka, kb = key(ea), key(eb)
        if ka != kb:
            return -1 if ka < kb else 1
    ca = [_variant(ch) for ch in a]
    cb = [_variant(ch) for ch in b]
    if ca != cb:
        return -1 if ca < cb else 1
    return 0


def sorted_by_locale(items: Iterable[str], key: Callable[[str], str] | None = None) -> list[str]:
    """``items.sort((x, y) => x.localeCompare(y))``."""
    from functools import cmp_to_key

    getter: Callable[[str], str] = key or (lambda x: x)

    def compare(x: str, y: str) -> int:
        return locale_compare(getter(x), getter(y))

    return sorted(items, key=cmp_to_key(compare))
