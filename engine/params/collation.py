"""Locale collation for tool and namespace order (``localeCompare``, PAR-Q20).

The shared ``engine.jsvalues.locale_compare`` is used when present. Until then (or when it is
missing) an ICU-root approximation for the names that occur here: punctuation and spaces before
digits before letters, letters compared case-insensitively first, lowercase first on a tie.
The ``strict`` profile sorts by UTF-16 code units instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cmp_to_key

# ICU root primary order of ASCII punctuation and symbols (all before digits).
_PUNCT_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"


def _primary(ch: str) -> tuple[int, int]:
    if ch in _PUNCT_ORDER:
        return (0, _PUNCT_ORDER.index(ch))
    if ch.isdigit():
        return (1, ord(ch))
    if ch.isalpha():
        return (2, ord(ch.lower()))
    return (3, ord(ch))


def _fallback_compare(a: str, b: str) -> int:
    ka = [_primary(c) for c in a]
    kb = [_primary(c) for c in b]
    if ka != kb:
        return -1 if ka < kb else 1
    # tertiary: lowercase before uppercase at the first difference
    for ca, cb in zip(a, b):
        if ca != cb:
            return -1 if ca.islower() else 1
    return (len(a) > len(b)) - (len(a) < len(b))


def _locale_compare() -> Callable[[str, str], int]:
    try:
        from engine.jsvalues import locale_compare
    except ImportError:
        return _fallback_compare
    return locale_compare


def _code_unit_key(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")


def sort_names(names: Iterable[str], *, strict: bool = False) -> list[str]:
    items = list(names)
    if strict:  # PAR-Q20 fix: code-unit order, independent of any collator
        return sorted(items, key=_code_unit_key)
    compare = _locale_compare()
    return sorted(items, key=cmp_to_key(lambda a, b: compare(a, b)))


def collation_differs(names: Iterable[str]) -> bool:
    """Would code-unit order put these names differently? (for the PAR-Q20 diagnostic)"""
    items = list(names)
    return sort_names(items) != sort_names(items, strict=True)
