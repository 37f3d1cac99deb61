"""The strip-ansi stage's rewrite: CSI sequences removed from the lines that hold an ESC.

A CSI sequence holds no line break, so stripping line by line equals stripping the joined text;
only the lines holding ESC can change. Those few are stripped together (one ``sub`` on their
joined text, split back) and the rest stay the very same objects: no copy of the whole output,
no re-split of it into new line strings (on a 10 MB log with ANSI on one line in ten, the
whole-text ``sub`` plus re-split cost ~4 ms/MB, much of it page faults for the new strings).
"""

from __future__ import annotations

import re
from collections import deque
from itertools import compress, repeat
from operator import contains

# CSI sequences only: ESC [ parameter bytes, intermediate bytes, one final byte (OSC etc. stay).
CSI = re.compile(r"\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]")


def strip_csi(text: str) -> str:
    return CSI.sub("", text)


def strip_csi_lines(lines: list[str]) -> list[str]:
    """``[strip_csi(line) for line in lines]``, as ``lines`` itself when no line changes. Lines
    must hold no LF (they are a text split at its line breaks)."""
    marked = list(compress(range(len(lines)), map(contains, lines, repeat("\x1b"))))
    if not marked:
        return lines
    before = list(map(lines.__getitem__, marked))
    after = strip_csi("\n".join(before)).split("\n")
    if after == before:
        return lines
    out = list(lines)
    deque(map(out.__setitem__, marked, after), maxlen=0)
    return out
