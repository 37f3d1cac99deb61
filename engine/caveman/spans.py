"""Ranges of a text against sorted, disjoint spans of it: which span holds each range whole
(validation's items inside the protected blocks put back, a text's fence runs inside its
fenced blocks); and texts joined by a one-character separator, where each starts (a body's
short parts run joined: ``engine.caveman.joined``)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate, repeat
from operator import add, le, mul

from engine.jsregex.edges import SEPARATORS


def holding_spans(starts: Sequence[int], ends: Sequence[int], at: Sequence[int], lengths: Iterable[int]) -> list[int]:
    """Per range ``[at[k], at[k] + lengths[k])``: 1 + the index of the span (``starts`` and
    ``ends``, sorted and disjoint) that holds it whole, else 0. In C-level walks: thousands of
    ranges a MB."""
    limits = [-1, *ends]  # (the end of the span that starts at or before a range; -1: none)
    last = list(map(bisect_right, repeat(starts), at))
    return list(map(mul, last, map(le, map(add, at, lengths), map(limits.__getitem__, last))))


def join(texts: list[str], separator: str = SEPARATORS[0]) -> tuple[str, list[int]]:
    """The texts joined by ``separator``, and where each starts."""
    return separator.join(texts), starts_of(texts)


def starts_of(texts: list[str]) -> list[int]:
    """Where each of the texts starts in their join (the lengths before it, and a separator after
    each of them: summed in C, as a body's rules ask for it after each rule that changed a part)."""
    return list(map(add, accumulate(map(len, texts[:-1]), initial=0), range(len(texts) or 1)))
