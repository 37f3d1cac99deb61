"""``deduplicateRepeatedLines`` (``rtk.md`` §5): runs of identical lines become three lines."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from engine.jsvalues import js_trim

LINE_SPLIT = re.compile(r"\r?\n")


def split_lines(text: str) -> list[str]:
    """``text.split(/\r?\n/)`` (the plain split when there is no CR: several times faster)."""
    return text.split("\n") if "\r" not in text else LINE_SPLIT.split(text)


@dataclass
class DedupResult:
    text: str
    collapsed: int
    # (index of the run's first line in the input, run length) for each collapsed run
    runs: list[tuple[int, int]] = field(default_factory=list)
    quirk_grew: bool = False  # RTK-Q12: the markers made the text longer


def dedup_threshold(value: object) -> int:
    """``max(2, floor(threshold ?? 3))``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return 3
    if math.isinf(value):
        return 3 if value < 0 else 2 ** 53
    return max(2, math.floor(value))


def deduplicate_lines(lines: list[str], threshold: int = 3, *, profile: str = "omniroute") -> DedupResult:
    """Collapse runs of ``threshold`` or more equal, non-blank consecutive lines.

    Each run of K+1 lines becomes the line, ``[line repeated Kx]`` and
    ``[rtk:dropped K repeated lines]``. A 3-line run therefore stays 3 lines and usually grows
    (RTK-Q12); ``strict`` collapses a run only when that shortens it.
    """
    out: list[str] = []
    runs: list[tuple[int, int]] = []
    collapsed = 0
    grew = False
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        j = i + 1
        while j < n and lines[j] == line:
            j += 1
        length = j - i
        if length >= threshold and js_trim(line):
            k = length - 1
            markers = [f"[line repeated {k}x]", f"[rtk:dropped {k} repeated lines]"]
            before = k * (len(line) + 1)
            after = sum(len(m) + 1 for m in markers)
            if after > before:
                grew = True
                if profile == "strict":
                    out.extend(lines[i:j])
                    i = j
                    continue
            out.append(line)
            out.extend(markers)
            runs.append((i, length))
            collapsed += k
        else:
            out.extend(lines[i:j])
        i = j
    return DedupResult("\n".join(out), collapsed, runs, grew)


def deduplicate_repeated_lines(text: str, threshold: object = 3, *, profile: str = "omniroute") -> DedupResult:
    return deduplicate_lines(split_lines(text), dedup_threshold(threshold), profile=profile)
