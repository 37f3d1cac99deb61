"""Code-point sets as sorted, merged ``(lo, hi)`` range tuples.

The translator evaluates every JavaScript class (escapes, properties, ``v``-mode set
operations, case-folded images) to one of these and emits it as an explicit ``[…]`` — so the
`regex` package never applies its own, different, idea of ``\\w``, ``\\s`` or case folding.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable

from .. import memo

MAX_CP = 0x10FFFF
Ranges = tuple[tuple[int, int], ...]

EMPTY: Ranges = ()
ALL: Ranges = ((0, MAX_CP),)


def normalize(ranges: Iterable[tuple[int, int]]) -> Ranges:
    """Sort and merge overlapping or adjacent ranges."""
    out: list[list[int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1][1] = hi
        else:
            out.append([lo, hi])
    return tuple((lo, hi) for lo, hi in out)


def from_chars(chars: Iterable[int]) -> Ranges:
    return normalize((c, c) for c in chars)


def union(*sets: Ranges) -> Ranges:
    return normalize(r for s in sets for r in s)


def complement(a: Ranges) -> Ranges:
    out = []
    prev = 0
    for lo, hi in a:
        if lo > prev:
            out.append((prev, lo - 1))
        prev = hi + 1
    if prev <= MAX_CP:
        out.append((prev, MAX_CP))
    return tuple(out)


def intersect(a: Ranges, b: Ranges) -> Ranges:
    out = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo = max(a[i][0], b[j][0])
        hi = min(a[i][1], b[j][1])
        if lo <= hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tuple(out)


def difference(a: Ranges, b: Ranges) -> Ranges:
    return intersect(a, complement(b))


def contains(a: Ranges, c: int) -> bool:
    i = bisect_right(a, (c, MAX_CP + 1)) - 1
    return i >= 0 and a[i][0] <= c <= a[i][1]


def size(a: Ranges) -> int:
    return sum(hi - lo + 1 for lo, hi in a)


def single(a: Ranges) -> int | None:
    """The only member of ``a``, or None."""
    if len(a) == 1 and a[0][0] == a[0][1]:
        return a[0][0]
    return None


def image(a: Ranges, changes: tuple[tuple[int, int], ...]) -> Ranges:
    """``{canon(c) : c ∈ a}`` restricted to canonical values, plus ``a`` itself.

    ``changes`` lists ``(c, canon(c))`` for every c with ``canon(c) != c``. Non-canonical members
    are harmless: the subject is canonicalized, so they never occur in it.
    """
    keys = _change_keys(changes)
    extra = [(t, t) for lo, hi in a
             for _, t in changes[bisect_left(keys, lo):bisect_right(keys, hi)]]
    return union(a, tuple(extra)) if extra else a


_KEYS: memo.MemoDict[int, tuple[tuple[tuple[int, int], ...], list[int]]] = memo.MemoDict(f"{__name__}._KEYS", 256)


def _change_keys(changes: tuple[tuple[int, int], ...]) -> list[int]:
    """The sorted ``c`` column of a ``changes`` table (the tables live for the process)."""
    entry = _KEYS.get(id(changes))
    if entry is None or entry[0] is not changes:
        keys = [c for c, _ in changes]
        if keys != sorted(keys):
            raise ValueError("changes must be sorted by code point")
        entry = _KEYS[id(changes)] = (changes, keys)
    return entry[1]


@memo.lru(maxsize=None)
def _esc(c: int) -> str:
    if c < 0x80 and (chr(c).isalnum() or c == 0x5F):
        return chr(c)
    if c <= 0xFF:
        return f"\\x{c:02x}"
    if c <= 0xFFFF:
        return f"\\u{c:04x}"
    return f"\\U{c:08x}"


def escape_char(c: int) -> str:
    """A `regex` pattern fragment matching exactly code point ``c``."""
    return _esc(c)


def class_body(a: Ranges) -> str:
    """The items of a ``[…]`` class matching exactly ``a`` (without the brackets)."""
    parts = []
    for lo, hi in a:
        if lo == hi:
            parts.append(_esc(lo))
        elif hi == lo + 1:
            parts.append(_esc(lo) + _esc(hi))
        else:
            parts.append(f"{_esc(lo)}-{_esc(hi)}")
    return "".join(parts)


def to_pattern(a: Ranges) -> str:
    """A `regex` (VERSION0) fragment matching exactly the members of ``a``."""
    if not a:
        return "(?!)"
    one = single(a)
    if one is not None:
        return _esc(one)
    if a == ALL:
        return r"[\s\S]"
    return "[" + class_body(a) + "]"
