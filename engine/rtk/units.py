"""Fast UTF-16 length and unit views for multi-megabyte texts.

``engine.jsvalues`` defines the semantics; these two helpers give the same answers with one
C-level encode instead of a regex scan, which matters when an engine step measures a 10 MB
output several times.
"""

from __future__ import annotations

from engine.jsvalues import to_utf16_units as _split_astral


def utf16_len(text: str) -> int:
    """JavaScript ``text.length``."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def to_utf16_units(text: str) -> str:
    """One Python character per UTF-16 unit (astral characters become surrogate pairs)."""
    if text.isascii() or utf16_len(text) == len(text):
        return text
    return _split_astral(text)
