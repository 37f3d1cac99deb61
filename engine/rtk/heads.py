"""Line heads: the first two characters of every line, and the first one of each.

Detection reads them once per output; the filter stages carry them over rewrites and the line
scanner asks them whether any line starts with a ``^literal`` pattern's first units — a head no
line has rules that pattern out without a scan. The one-character heads answer literals one
character long (and lines of one character).
"""

from __future__ import annotations

from collections.abc import Iterable


def line_heads(lines: Iterable[str]) -> frozenset[str]:
    """The heads of ``lines`` (lines split at line breaks, holding none)."""
    return with_first_chars({line[:2] for line in lines})


def with_first_chars(two: set[str] | frozenset[str]) -> frozenset[str]:
    """Two-character heads together with their first characters."""
    return frozenset(two | {head[:1] for head in two})
