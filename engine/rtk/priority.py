"""The engine's default priority lines: those its final cap keeps whatever the filter.

Our own statement of the pattern is ``DEFAULT_PRIORITY`` (case-insensitive for ASCII letters,
unanchored). On a large output the final cap asks it about every line; ``re`` with
``IGNORECASE`` folds each character it looks at, so the lines are searched instead as UTF-8
bytes lower-cased once in C — ASCII letters only, as the flag does; multi-byte characters hold
no ASCII byte, so nothing else can match — with the same words in lower case (``failed``
contains ``fail``, so it needs no branch of its own).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate, repeat
from operator import add, methodcaller

DEFAULT_PRIORITY = re.compile(r"error|failed|exception|traceback|TS\d{4}|FAIL|\u2716", re.IGNORECASE | re.ASCII)
# The same lines, on lower-cased UTF-8; each match runs to its line's end (one match per line).
_LOWERED_TO_LINE_END = re.compile("(?:error|fail|exception|traceback|ts[0-9]{4}|\u2716)[^\n]*".encode())


def default_priority_lines(lines: list[str]) -> list[int]:
    """Indexes of the ``lines`` (none holding a line break) where ``DEFAULT_PRIORITY`` matches."""
    data = "\n".join(lines).encode("utf-8", "surrogatepass").lower()
    starts = [0, *accumulate(map(add, map(len, data.split(b"\n")), repeat(1)))]
    found = map(methodcaller("start"), _LOWERED_TO_LINE_END.finditer(data))
    # (an empty line's match cannot happen: every branch needs a character)
    return [k - 1 for k in dict.fromkeys(map(bisect_right, repeat(starts), found))]
