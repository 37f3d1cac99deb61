"""Python string index → UTF-16 offset (what Qt's text positions count), fast for many lookups."""

from __future__ import annotations

import bisect
import re

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class Utf16Offsets:
    """Python index → UTF-16 offset for one text, O(1) per lookup after one pass.

    Only astral characters (two UTF-16 units) shift offsets, so texts without any map 1:1.
    """

    def __init__(self, text: str) -> None:
        self._astral = [m.start() for m in _ASTRAL.finditer(text)]

    def __call__(self, index: int) -> int:
        if not self._astral:
            return index
        return index + bisect.bisect_left(self._astral, index)
