"""Locale collation for tool and namespace order (``localeCompare``, PAR-Q20).

``engine.jsvalues`` provides the ICU-root approximation of ``localeCompare``: spaces and
punctuation before digits before letters, letters case-insensitively first, lowercase first on a
tie. The ``strict`` profile sorts by UTF-16 code units instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.jsvalues import js_sort_key, sorted_by_locale


def sort_names(names: Iterable[str], *, strict: bool = False) -> list[str]:
    items = list(names)
    if strict:  # PAR-Q20 fix: code-unit order, independent of any collator
        return sorted(items, key=js_sort_key)
    return sorted_by_locale(items)


def collation_differs(names: Iterable[str]) -> bool:
    """Would code-unit order put these names differently? (for the PAR-Q20 diagnostic)"""
    items = list(names)
    return sort_names(items) != sort_names(items, strict=True)
