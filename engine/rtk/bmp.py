"""Whether a text holds astral characters (above U+FFFF), without reading it.

Then, and only then, its JavaScript length (UTF-16 units) differs from its Python length, and
the regex layer's subject differs from the text itself. The usual exact test encodes the text to
UTF-16: cheap per byte, but a multi-megabyte output allocates several megabytes for it each time.
CPython stores a non-ASCII string with one, two or four bytes per character (PEP 393) — four
exactly when an astral character is present — and ``sys.getsizeof`` reveals that width. Where
the size does not fit that layout (another interpreter, an unusual string), the encode decides.
"""

from __future__ import annotations

import sys

from engine.jsvalues import utf16_len

_WIDTHS = (1, 2, 4)


def _header(sample: str) -> int:
    """Size of a one-character string's object without its character data (and terminator)."""
    width = 1 if sample <= "\xff" else 2 if sample <= "\uffff" else 4
    return sys.getsizeof(sample) - 2 * width


# Non-ASCII strings of every width share one header size under PEP 393; check that it holds.
_HEADERS = {_header("\xe9"), _header("\u2713"), _header("\U0001F600")}
_HEADER = _HEADERS.pop() if len(_HEADERS) == 1 else None


def bmp_only(text: str) -> bool:
    """No character of ``text`` is above U+FFFF (its UTF-16 length is its length)."""
    if text.isascii():
        return True
    if _HEADER is not None:
        data = sys.getsizeof(text) - _HEADER
        width, rest = divmod(data, len(text) + 1)
        if rest == 0 and width in _WIDTHS:
            return width < 4
    return utf16_len(text) == len(text)
