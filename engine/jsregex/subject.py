"""Text prepared as the translated pattern reads it, for callers that search it themselves.

Under ``i`` a translated pattern runs on a case-canonical copy of its subject (the parser has
already folded the pattern's own characters the same way), so a caller that looks for a
pattern's literals (``engine.jsregex.facts``) in many lines at once prepares the text with
``canonicalize`` first.
"""

from __future__ import annotations

from .. import memo
from .unicode_data import canon_table

_ASCII_BYTES = bytes(range(128))


@memo.lru(maxsize=2)
def _canon(unicode_mode: bool) -> tuple[dict[int, int], str | None]:
    """The case-canonicalization table, and how it treats ASCII (``upper``, ``lower`` or
    ``None`` when it is neither)."""
    table = canon_table(unicode_mode)
    for name in ("upper", "lower"):
        if all(table.get(c, c) == ord(getattr(chr(c), name)()) for c in range(128)):
            return table, name
    return table, None


def canonicalize(units: str, unicode_mode: bool) -> str:
    """``units.translate(canon_table(unicode_mode))``, fast: ASCII letters change case in C (on
    the UTF-8 bytes), then each distinct non-ASCII character the table changes is replaced."""
    table, ascii_case = _canon(unicode_mode)
    if ascii_case is None:
        return units.translate(table)
    data = units.encode("utf-8", "surrogatepass")
    folded = (data.upper() if ascii_case == "upper" else data.lower()).decode("utf-8", "surrogatepass")
    if folded.isascii():
        return folded
    others = set(data.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass"))
    for ch in others:
        mapped = table.get(ord(ch))
        if mapped is not None and mapped != ord(ch):
            folded = folded.replace(ch, chr(mapped))
    return folded
