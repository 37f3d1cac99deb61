"""``deduplicateRepeatedLines`` (``rtk.md`` §5): runs of identical lines become three lines."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from itertools import compress, islice, repeat
from operator import add, eq, ne

from engine.jsvalues import JS_WHITESPACE, utf16_len

LINE_SPLIT = re.compile(r"\r?\n")


def split_lines(text: str) -> list[str]:
    """``text.split(/\r?\n/)`` (the plain split when there is no CR: several times faster)."""
    return text.split("\n") if "\r" not in text else LINE_SPLIT.split(text)


@dataclass
class DedupResult:
    collapsed: int
    # (index of the run's first line in the input, run length) for each collapsed run
    runs: list[tuple[int, int]] = field(default_factory=list)
    quirk_grew: bool = False  # RTK-Q12: the markers made the text longer
    lines: list[str] = field(default_factory=list)  # the output, split

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def dedup_threshold(value: object) -> int:
    """``max(2, floor(threshold ?? 3))``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return 3
    if math.isinf(value):
        return 3 if value < 0 else 2 ** 53
    return max(2, math.floor(value))


_MARKER_CHARS = len("[line repeated x]") + len("[rtk:dropped  repeated lines]") + 2


def deduplicate_lines(lines: list[str], threshold: int = 3, *, profile: str = "omniroute") -> DedupResult:
    """Collapse runs of ``threshold`` or more equal, non-blank consecutive lines.

    Each run of K+1 lines becomes the line, ``[line repeated Kx]`` and
    ``[rtk:dropped K repeated lines]``. A 3-line run therefore stays 3 lines and usually grows
    (RTK-Q12); ``strict`` collapses a run only when that shortens it. ``runs`` says which input
    lines each collapse took.
    """
    n = len(lines)
    # Indexes i where line i equals line i+1, found in C; no such pair means nothing to do.
    pairs = list(compress(range(n - 1), map(eq, lines, islice(lines, 1, None)))) if n > 1 else []
    runs: list[tuple[int, int]] = []
    grew = False
    collapsed = 0
    # Consecutive pairs i, i+1, … form one run of equal lines: its first and last pair are found
    # in C too, so the loop below runs once per run, not once per repeated line.
    firsts = list(compress(pairs, map(ne, pairs, map(add, [-2, *pairs], repeat(1)))))
    lasts = list(compress(pairs, map(ne, map(add, pairs, repeat(1)), [*pairs[1:], -2])))
    for start, last in zip(firsts, lasts):
        length = last - start + 2
        line = lines[start]
        if length < threshold or not line.strip(JS_WHITESPACE):
            continue
        k = length - 1
        # "[line repeated Kx]" and "[rtk:dropped K repeated lines]" and their line breaks, against
        # the K dropped lines (UTF-16 length, counted only when the plain length leaves it open)
        after = 2 * len(str(k)) + _MARKER_CHARS
        if after > k * (len(line) + 1) and after > k * (utf16_len(line) + 1):
            grew = True
            if profile == "strict":
                continue
        runs.append((start, length))
        collapsed += k
    if not runs:
        return DedupResult(0, [], grew, lines)
    out: list[str] = []
    position = 0
    for start, length in runs:
        k = length - 1
        out.extend(lines[position:start + 1])
        out.append(f"[line repeated {k}x]")
        out.append(f"[rtk:dropped {k} repeated lines]")
        position = start + length
    out.extend(lines[position:])
    return DedupResult(collapsed, runs, grew, out)


def deduplicate_repeated_lines(text: str, threshold: object = 3, *, profile: str = "omniroute") -> DedupResult:
    return deduplicate_lines(split_lines(text), dedup_threshold(threshold), profile=profile)
