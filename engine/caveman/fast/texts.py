"""The memos a run keeps of its texts, keyed by identity: whether the last texts are BMP-only,
their UTF-16 units and case-canonical forms (carried over from a rewrite instead of recomputed),
and the registry that lets go of every large text a run's regexes and indexes hold."""

from __future__ import annotations

import threading
import weakref
from itertools import accumulate
from typing import Protocol

from engine import memo
from engine.caveman.needles import forget_views
from engine.jsvalues import forget_lengths, to_utf16_units, utf16_len

# One-entry caches keyed by the identity of the last text; each is a single tuple swapped
# atomically, so concurrent runs (GUI worker threads) never read a mismatched pair.
_BMP: tuple[tuple[str | None, bool], ...] = ((None, True), (None, True))  # the last two texts
_CANONICAL: tuple[str | None, str] = (None, "")
_UNITS: tuple[str | None, str] = (None, "")

# The memos above, and those of the regexes and literal indexes a run used, hold the texts of
# that run (every intermediate version, its units and canonical form): after an 8 MB run, 64 MB
# the next run cannot use. Holders of a text of at least RELEASE_MIN units register here, and
# ``release_texts`` (the end of a large part) lets go of them all.
RELEASE_MIN = 65_536
_HOLDING: weakref.WeakSet[Holder] = weakref.WeakSet()
_HOLDING_LOCK = threading.Lock()  # (a WeakSet may not change while another thread iterates it)


class Holder(Protocol):
    """A regex or literal index that memoises its last text."""

    def forget(self) -> None: ...


def holds_text(holder: Holder) -> None:
    with _HOLDING_LOCK:
        _HOLDING.add(holder)


def release_texts() -> None:
    """Forget every text memo (a later call recomputes what it needs: the memos are keyed by
    the identity of a text, so a run in another thread only loses its shortcuts)."""
    global _BMP, _CANONICAL, _UNITS
    with _HOLDING_LOCK:
        holders = list(_HOLDING)
        _HOLDING.clear()
    for holder in holders:
        holder.forget()
    _BMP = ((None, True), (None, True))
    _CANONICAL = (None, "")
    _UNITS = (None, "")
    forget_views()
    forget_lengths()


def bmp_only(text: str) -> bool:
    """No astral character (UTF-16 offsets are indices): one C-level UTF-16 encode, several
    times faster than a regex scan for the astral range."""
    global _BMP
    if text.isascii():
        return True
    last, before = _BMP
    if last[0] is text:
        return last[1]
    if before[0] is text:
        return before[1]
    result = utf16_len(text) == len(text)
    _BMP = ((text, result), last)
    return result


@memo.lru(maxsize=1)
def _same_length_mismatch() -> tuple[str, ...]:
    """BMP characters whose ``str.upper()`` is one character but not their Canonicalize image
    (non-``u``): ``ı``, ``ſ`` and a few Unicode-version differences. Every other character
    either upper-cases to its image or to several characters (``ß`` → ``SS``)."""
    import unicodedata

    # (the answer for the Unicode version of this CPython, 3.11: 65,536 upper() calls cost
    # ~10-15 ms of every CLI start; tests compare it with the loop below)
    if unicodedata.unidata_version == _KNOWN_VERSION:
        return _KNOWN_MISMATCH
    return same_length_mismatch_plain()


_KNOWN_VERSION = "14.0.0"
_KNOWN_MISMATCH = ("\u0131", "\u017f", "\u019b", "\u0264", "\u1c8a", "\ua7cd", "\ua7cf", "\ua7d3", "\ua7d5", "\ua7db")


def same_length_mismatch_plain() -> tuple[str, ...]:
    """``_same_length_mismatch`` computed, one character at a time."""
    from engine.jsregex.unicode_data import canon_table

    table = canon_table(False)
    out = []
    for c in range(0x10000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        upper = chr(c).upper()
        if len(upper) == 1 and ord(upper) != table.get(c, c):
            out.append(chr(c))
    return tuple(out)


def canonical(text: str) -> str:
    """The subject engine.jsregex matches ``i`` patterns against (non-``u``): its Canonicalize
    table, which is ``str.upper()`` unless the text holds one of the ~110 characters where
    they differ (``ß``, ``ſ``, ``ı``…). Cached for the last text, which most rules leave alone."""
    global _CANONICAL
    cached = _CANONICAL
    if cached[0] is text:
        return cached[1]
    out = canonical_uncached(text)
    _CANONICAL = (text, out)
    return out


def canonical_uncached(text: str) -> str:
    """``canonical`` without the cache. It maps character by character (same length), so the
    canonical form of a slice is the slice of the canonical form. ``str.upper()`` is the image
    unless it grew the text (some character upper-cases to several) or the text holds one of
    the few characters whose one-character upper case is not their image."""
    upper = text.upper()
    if text.isascii() or (len(upper) == len(text) and not any(c in text for c in _same_length_mismatch())):
        return upper
    from engine.jsregex.unicode_data import canon_table

    return text.translate(canon_table(False))


def units_of(text: str) -> str:
    global _UNITS
    cached = _UNITS
    if cached[0] is text:
        return cached[1]
    out = to_utf16_units(text)
    _UNITS = (text, out)
    return out


def as_units(s: str) -> str:
    """``s`` as UTF-16 units (itself unless it holds an astral character)."""
    return s if s.isascii() else to_utf16_units(s)


def remember_units(text: str, units: str, values_bmp: bool) -> str | None:
    """``units`` was joined from UTF-16 units and replacement values (``values_bmp``: none of
    them holds an astral character) and ``text`` is its string: note whether ``text`` is
    BMP-only and, if not, that ``units`` are its UTF-16 units. Returns what the next rule will
    match on (``text`` itself or ``units``), or None when that is not ``units`` unit for unit."""
    global _BMP, _UNITS
    if not values_bmp and utf16_len(text) != len(units):
        _BMP = ((text, utf16_len(text) == len(text)), _BMP[0])
        return None
    # ``units`` holds only UTF-16 units; ``text`` is shorter by one per pair it joined
    if len(text) == len(units):
        _BMP = ((text, True), _BMP[0])
        return text
    _BMP = ((text, False), (units, True))
    _UNITS = (text, units)
    return units


def carry_canonical(units: str, canonical_gaps: list[str], values: str | list[str]) -> None:
    """Remember the canonical form of ``units``, which is ``canonical_gaps`` joined with the
    values (the mapping is character by character, so the canonical form of a join is the
    join of the canonical forms): no full ``upper()`` of the result, which on a text with
    non-ASCII characters costs ten times an ASCII one."""
    global _CANONICAL
    if isinstance(values, str):
        target = canonical_uncached(values).join(canonical_gaps)
    else:
        pieces = [""] * (2 * len(canonical_gaps) - 1)
        pieces[0::2] = canonical_gaps
        pieces[1::2] = _canonical_pieces(values)
        target = "".join(pieces)
    if len(target) == len(units):
        _CANONICAL = (units, target)


def _canonical_pieces(values: list[str]) -> list[str]:
    """``[canonical_uncached(v) for v in values]`` with one call on their join."""
    joined = canonical_uncached("".join(values))
    ends = list(accumulate(map(len, values)))
    return [joined[a:b] for a, b in zip([0, *ends], ends)]
