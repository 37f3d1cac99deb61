"""Ranges of a text against sorted, disjoint spans of it: which span holds each range whole
(validation's items inside the protected blocks put back, a text's fence runs inside its
fenced blocks)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import repeat
from operator import add, le, mul


def holding_spans(starts: Sequence[int], ends: Sequence[int], at: Sequence[int], lengths: Iterable[int]) -> list[int]:
    """Per range ``[at[k], at[k] + lengths[k])``: 1 + the index of the span (``starts`` and
    ``ends``, sorted and disjoint) that holds it whole, else 0. In C-level walks: thousands of
    ranges a MB."""
    limits = [-1, *ends]  # (the end of the span that starts at or before a range; -1: none)
    last = list(map(bisect_right, repeat(starts), at))
    return list(map(mul, last, map(le, map(add, at, lengths), map(limits.__getitem__, last))))
