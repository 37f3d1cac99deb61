"""Literal search in large texts at memory speed, through the text's bytes.

CPython's ``str.find`` scans prose at 1–2 GB/s: its skip table stalls wherever the text holds
the needle's letters, and a rule's literals are words. ``ahocorasick_rs`` (Rust's
``aho-corasick`` crate, whose single-needle search is the ``memchr`` crate's SIMD ``memmem``,
led by the needle's rarest bytes) searches bytes 5–20 times faster; its DFA answers which of a
hundred needles occur in one walk. A text is searched through a byte view: an ASCII text as its
own bytes (a byte offset is an index), any other text without astral characters as UTF-16-LE
(an offset is twice an index, and a hit at an odd offset straddles two characters: not an
occurrence). A text with astral characters has no such view: an ASCII needle is searched for
in its ASCII view (every other character as ``?``; see ``ascii_view``), and callers search the
``str`` for any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import ahocorasick_rs

from engine import memo
from engine.jsvalues import holds_astral

# the views of the last two texts, by identity: ((text, raw bytes, bytes per character), …);
# each is one tuple swapped atomically, so concurrent runs never read a mismatched pair
_NO_VIEW: tuple[str | None, bytes, int] = (None, b"", 0)
_VIEWS: tuple[tuple[str | None, bytes, int], tuple[str | None, bytes, int]] = (_NO_VIEW, _NO_VIEW)

FIRST_STRETCH = 16_384  # present(): characters searched for every key before the found ones drop


def byte_view(text: str) -> tuple[bytes, int] | None:
    """``(bytes, width)`` of ``text`` (width 1: ASCII; 2: UTF-16-LE), or None when a character
    lies beyond the BMP (offsets would not be indices)."""
    global _VIEWS
    last, before = _VIEWS
    if last[0] is text:
        return (last[1], last[2]) if last[2] else None
    if before[0] is text:
        return (before[1], before[2]) if before[2] else None
    if text.isascii():
        raw, width = text.encode("ascii"), 1
    elif holds_astral(text):
        # known in O(1): the UTF-16 encode below would be made and thrown away (~1.4 ms per MB
        # for every text version a rule searches; the conformance-derived text has emoji)
        raw, width = b"", 0
    else:
        raw, width = text.encode("utf-16-le", "surrogatepass"), 2
        if len(raw) != 2 * len(text):
            raw, width = b"", 0
    _VIEWS = ((text, raw, width), last)
    return (raw, width) if width else None


def forget_views() -> None:
    """Let go of the last texts and their bytes (``fast.texts.release_texts``)."""
    global _VIEWS, _ASCII_VIEW
    _VIEWS = (_NO_VIEW, _NO_VIEW)
    _ASCII_VIEW = _NO_ASCII_VIEW


_NO_ASCII_VIEW: tuple[str | None, bytes] = (None, b"")
_ASCII_VIEW = _NO_ASCII_VIEW  # the last text with astral characters and its ASCII view
_REPLACED = "?"  # what stands for every other character in an ASCII view


def in_ascii_view(needle: str) -> bool:
    """Whether ``ascii_view`` finds ``needle`` exactly: an ASCII needle without ``?``."""
    return needle.isascii() and _REPLACED not in needle


def ascii_view(text: str) -> bytes:
    """One byte per character of ``text``: an ASCII character as itself, any other as ``?``
    (``str.encode``'s "replace", in C). A needle ``in_ascii_view`` occurs in it exactly where it
    occurs in the text, at the same index, whatever else the text holds: the view of a text
    with astral characters, which has no ``byte_view`` (a few emoji in a MB of agent session:
    its searches were ``str.find`` loops). For the others the UTF-16 view is cheaper to make
    (a copy where this is a loop per character) and is kept."""
    global _ASCII_VIEW
    last = _ASCII_VIEW
    if last[0] is text:
        return last[1]
    raw = text.encode("ascii", "replace")
    _ASCII_VIEW = (text, raw)
    return raw


def _searchable_view(text: str, needles: Iterable[str]) -> tuple[bytes, int] | None:
    """``byte_view(text)``, or, for a text beyond the BMP, its ASCII view (width 1) when every
    needle is ``in_ascii_view``; None when neither answers exactly."""
    view = byte_view(text)
    if view is None and all(map(in_ascii_view, needles)):
        return ascii_view(text), 1
    return view


def _encoded(needle: str, width: int) -> bytes | None:
    """``needle`` in a view of this width (None: it cannot occur in an ASCII text; width 0: UTF-8
    with surrogates passed, for ``present``)."""
    if width == 1:
        return needle.encode("ascii") if needle.isascii() else None
    if width == 0:
        return needle.encode("utf-8", "surrogatepass")
    return needle.encode("utf-16-le", "surrogatepass")


@memo.lru(maxsize=8192)
def _searcher(needle: str, width: int) -> ahocorasick_rs.BytesAhoCorasick | None:
    """The search for ``needle`` in views of this width (None: it cannot occur there)."""
    encoded = _encoded(needle, width)
    return None if encoded is None else ahocorasick_rs.BytesAhoCorasick([encoded])


def find_all(text: str, needle: str) -> list[int] | None:
    """Every start index of ``needle`` in ``text``, overlapping ones included, in order; None
    when ``text`` has no byte view and the needle is not ``in_ascii_view`` (search the ``str``
    instead)."""
    view = _searchable_view(text, (needle,)) if needle else None
    if view is None:
        return None
    raw, width = view
    searcher = _searcher(needle, width)
    if searcher is None:
        return []
    hits = searcher.find_matches_as_indexes(raw, overlapping=True)
    if width == 1:
        return [start for _i, start, _end in hits]
    return [start >> 1 for _i, start, _end in hits if not start & 1]


@memo.lru(maxsize=64)
def _automaton(needles: tuple[bytes, ...]) -> ahocorasick_rs.BytesAhoCorasick:
    return ahocorasick_rs.BytesAhoCorasick(list(needles), implementation=ahocorasick_rs.Implementation.DFA)


def present(text: str, keys: frozenset[str]) -> set[str] | None:
    """The keys that occur in ``text``, or None when ``text`` has no byte view (a character
    beyond the BMP) and a key is not ``in_ascii_view``: never claimed absent without an exact
    search.

    Common keys occur thousands of times and each hit is reported, so every key is first
    looked for in the text's first ``FIRST_STRETCH`` characters; only the keys not found there
    are looked for in the rest (in one DFA walk: most are absent, so it reports few hits)."""
    view = _searchable_view(text, keys)
    if view is None:
        return None
    raw, width = view
    if width == 2:
        # its UTF-8 bytes instead (width 0): a substring of those is a substring of the units
        # (surrogates pass as three bytes each), and they are half as many, without the NUL of
        # every ASCII unit that defeats the automaton's prefilter (~6.6 -> 2.9 ms per MB of
        # text with emoji and accents)
        raw, width = text.encode("utf-8", "surrogatepass"), 0
    missing, by_bytes, reach = _prepared(keys, width)
    found: set[str] = set()
    cut = FIRST_STRETCH * (width or 1)
    stretches = ((memoryview(raw)[:cut], True), (memoryview(raw)[max(0, cut - reach):], len(raw) > cut))
    for hay, wanted in stretches:
        if not missing or not wanted:
            break
        hits = {i for i, _start, _end in _automaton(missing).find_matches_as_indexes(hay, overlapping=True)}
        if hits:
            for i in hits:
                found.update(by_bytes[missing[i]])
            missing = tuple(needle for i, needle in enumerate(missing) if i not in hits)
    return found


@memo.lru(maxsize=64)
def _prepared(keys: frozenset[str], width: int) -> tuple[tuple[bytes, ...], dict[bytes, list[str]], int]:
    """The keys as needles of this width (sorted; keys that cannot occur left out), the keys of
    each needle, and the needles' longest length less one (the overlap of two stretches)."""
    by_bytes: dict[bytes, list[str]] = {}
    for key in keys:
        needle = _encoded(key, width) if key else None
        if needle is not None:
            by_bytes.setdefault(needle, []).append(key)
    needles = tuple(sorted(by_bytes))
    return needles, by_bytes, max(map(len, needles), default=1) - 1


def occurring(text: str, items: Iterable[str]) -> set[str]:
    """The items that occur in ``text`` as substrings (``{s for s in items if s in text}``), in
    one Aho-Corasick pass over the text for all of them instead of a search of the whole text
    per item (validation checks thousands of items against a multi-MB output). Compared as
    UTF-16 units, as JavaScript compares strings.

    The automaton holds at most the first ``KEY_UNITS`` of an item; a hit of a longer item's
    key is checked in full on the bytes. Building it costs about its size: the fenced blocks a
    fallen-back MB of agent sessions misses are ~260 KB of needles, ~22 ms to build, where their
    keys take ~4 ms to build and check."""
    wanted = {item for item in items if item}
    if not wanted:
        return set()
    if len(wanted) <= FEW_ITEMS:
        return {item for item in wanted if item in text}
    raw, width, listed, encoded = _items_in_view(text, wanted)
    if not listed:
        return set()
    reach = KEY_UNITS * (width or 1)
    groups: dict[bytes, list[int]] = {}  # key → the items (indices into listed) it leads
    for k, full in enumerate(encoded):
        groups.setdefault(full[:reach], []).append(k)
    keys = list(groups)
    automaton = ahocorasick_rs.BytesAhoCorasick(keys, implementation=_kind_for(keys, len(raw)))
    hits = automaton.find_matches_as_indexes(raw, overlapping=True)
    found: set[str] = set()
    left = [groups[key] for key in keys]  # per key, its items not found yet
    for i, start, _end in hits:
        # (in a UTF-16 view, a hit at an odd byte offset straddles two units: not an occurrence)
        if width == 2 and start & 1:
            continue
        pending = left[i]
        if not pending:
            continue
        kept = []
        for k in pending:
            full = encoded[k]
            if len(full) <= reach or raw.startswith(full, start):
                found.add(listed[k])
            else:
                kept.append(k)
        left[i] = kept
    return found


def counts(text: str, items: Iterable[str]) -> dict[str, int]:
    """``{s: text.count(s) for s in set(items)}`` (non-overlapping occurrences, as ``str.count``
    and JavaScript's split count them), in one Aho-Corasick pass over the text for all of them
    instead of a count of the whole text per item (CAV-Q17 compares the counts of every error
    line it saw: a MB of error lines, one count per line, was quadratic). Each item's hits come
    in order and an item's hits all have its length: a hit counts when it starts past the end
    of the last one counted."""
    wanted = set(items)
    if len(wanted) <= FEW_ITEMS or "" in wanted:
        return {item: text.count(item) for item in wanted}
    raw, width, listed, encoded = _items_in_view(text, wanted)
    out = dict.fromkeys(wanted, 0)
    if not listed:
        return out
    automaton = ahocorasick_rs.BytesAhoCorasick(encoded, implementation=_kind_for(encoded, len(raw)))
    tally = [0] * len(listed)
    free = [0] * len(listed)  # where the next counted hit of each item may start
    for i, start, end in automaton.find_matches_as_indexes(raw, overlapping=True):
        if start >= free[i] and not (width == 2 and start & 1):
            tally[i] += 1
            free[i] = end
    out.update(zip(listed, tally))
    return out


KEY_UNITS = 128  # the longest needle an automaton holds (longer items: their first KEY_UNITS)

# For up to 100 needles the crate builds a DFA, at ~0.9 µs a byte of needle (65 keys of 128 bytes:
# 7.4 ms), which then scans ~2.6 ns a byte faster than its contiguous NFA (built in 0.2 ms): it
# pays on a haystack some 350 times the needles' bytes. A fallen-back part's explanation looks
# for its missing items in its protected blocks (~160 KB for the 4 MB conformance-derived text):
# 8.3 -> 1.2 ms with the NFA.
DFA_HAY_RATIO = 350


def _kind_for(keys: list[bytes], hay: int) -> ahocorasick_rs.Implementation | None:
    """The automaton for ``keys`` on a haystack of ``hay`` bytes: the crate's choice (None) where
    a DFA would pay, else the contiguous NFA (which it takes past 100 needles anyway)."""
    if hay >= DFA_HAY_RATIO * sum(map(len, keys)):
        return None
    return ahocorasick_rs.Implementation.ContiguousNFA


def _items_in_view(text: str, wanted: set[str]) -> tuple[bytes, int, list[str], list[bytes]]:
    """``text``'s bytes to search for ``wanted`` in (``_view_for_items``), its width, the items
    that can occur there (in an ASCII view, one with another character cannot) and their bytes."""
    raw, width, encoding = _view_for_items(text, wanted)
    listed = [item for item in wanted if width != 1 or item.isascii()]
    return raw, width, listed, [item.encode(encoding, "surrogatepass") for item in listed]


def _view_for_items(text: str, items: Iterable[str]) -> tuple[bytes, int, str]:
    """``(bytes, width, encoding)`` to search ``text`` for ``items`` in: the text's byte view when
    it is ASCII (width 1); else its UTF-8 bytes (width 0: hits need no check), where a
    substring of bytes is a substring of characters, when neither the text nor an item holds a
    surrogate code point (UTF-8 then compares as UTF-16 does); else the UTF-16-LE view (width 2).
    A text with a few non-ASCII characters is half as many bytes in UTF-8 as in UTF-16, whose
    every other byte is NUL (an automaton scans it byte by byte: ~7 ns a byte)."""
    view = byte_view(text)
    if view is not None and view[1] == 1:
        return view[0], 1, "ascii"
    try:
        raw = text.encode("utf-8")
        for item in items:
            if not item.isascii():
                item.encode("utf-8")
        return raw, 0, "utf-8"
    except UnicodeEncodeError:  # (a lone surrogate: in UTF-16 it may match half a pair)
        pass
    if view is not None:
        return view[0], 2, "utf-16-le"
    return text.encode("utf-16-le", "surrogatepass"), 2, "utf-16-le"
FEW_ITEMS = 4  # up to this many, one search each is cheaper than building an automaton


def contained_in_order(text: str, items: Sequence[str], starts: Sequence[int], present: Iterable[str] = ()
                       ) -> list[bool]:
    """``[item in text for item in items]`` where ``items`` stand in a source text at ``starts``
    (ascending, non-overlapping) and ``text`` was derived from it keeping their order (an edit of
    the text between them). Each item is first looked for in a window after the previous item
    found, as wide as twice the source distance (plus slack); what is not found there (moved,
    duplicated elsewhere, missing) is looked for in one ``occurring`` pass. The window searches
    add up to a bounded multiple of the text (past it, every remaining item goes to the pass), so
    the whole check is linear in the text and the items. ``present``: items the caller knows
    occur in ``text`` (not searched for)."""
    return contained_in_order_groups(text, [(items, starts)], present)[0]


def contained_in_order_groups(text: str, groups: Sequence[tuple[Sequence[str], Sequence[int]]],
                              present: Iterable[str] = ()) -> list[list[bool]]:
    """``contained_in_order`` for several lists of items at once (validation's scanners): the
    windows per list, then one ``occurring`` pass over ``text`` for what every list left (a pass
    per list scanned a multi-MB text up to a dozen times per validation)."""
    outs: list[list[bool]] = []
    later: dict[str, list[tuple[int, int]]] = {}
    found = set(present)  # (an item found once is in the text: its repeats need no search)
    for g, (items, starts) in enumerate(groups):
        out = [True] * len(items)
        for k in _window_misses(text, items, starts, found):
            out[k] = False
            later.setdefault(items[k], []).append((g, k))
        outs.append(out)
    if later:
        for item in occurring(text, later):
            for g, k in later[item]:
                outs[g][k] = True
    return outs


WINDOW_SLACK = 64
# the text is each item's window while its length times the items stays under this (a chat
# message of ~800 characters and ~10 items: ~2 µs an item walking windows, ~0.2 searching it all;
# the bound keeps a message of thousands of distinct items linear, as the windows are)
WHOLE_TEXT_WINDOW = 1 << 18
WINDOW_BUDGET = 4  # window searches may cover this many times the text in all


def _window_misses(text: str, items: Sequence[str], starts: Sequence[int], found: set[str]) -> Iterator[int]:
    """The indices of the items not found in their window (``contained_in_order``): each window
    starts after the previous item found and is twice the source distance wide (plus slack);
    once the searches have covered ``WINDOW_BUDGET`` times the text, every remaining item is a
    miss, so the walk stays linear. ``found``: items known to be in the text (none is a miss,
    and none is searched for: validation's items repeat, 36,278 items of the 4 MB
    conformance-derived text are 2,381 texts); those found here are added to it."""
    n, find, slack = len(text), text.find, WINDOW_SLACK  # (locals: thousands of items per MB)
    if n * len(items) <= WHOLE_TEXT_WINDOW:  # (a message's few items: a search of it all costs less than a window's walk)
        for k, item in enumerate(items):
            if item in found:
                continue
            if item in text:
                found.add(item)
                continue
            yield k
        return
    missed: set[str] = set()  # (not in its window once: its repeats go to the whole-text check unsearched)
    cursor = 0  # in text: after the last item found
    source_end = 0  # in the source: end of the last item found
    budget = WINDOW_BUDGET * n + sum(map(len, items))
    for k, (item, start) in enumerate(zip(items, starts)):
        if item in found:
            continue
        if budget > 0 and item not in missed:
            size = len(item)
            span = start + size - source_end
            end = cursor + (2 * span if span > 0 else 0) + size + slack
            budget -= (end if end < n else n) - cursor
            at = find(item, cursor, end)
            if at >= 0:
                cursor = at + size
                source_end = start + size
                found.add(item)
                continue
            missed.add(item)
        yield k


def all_contained_in_order(text: str, groups: Sequence[tuple[Sequence[str], Sequence[int]]],
                           checks: int = 2, present: Iterable[str] = ()) -> bool:
    """``all(all(kept) for kept in contained_in_order_groups(text, groups))``, stopping at the
    first item shown missing: the same windows, and an item not in its window is looked for at
    once in the whole text (the first ``checks`` of them) or with the rest in one ``occurring``
    pass at the end. A fallen-back part's second validation only asks whether anything is
    missing (the conformance-derived text's first miss is in its fourth list of eleven).
    ``present``: items known to occur in ``text`` (not searched for)."""
    later: list[str] = []
    found = set(present)
    for items, starts in groups:
        for k in _window_misses(text, items, starts, found):
            item = items[k]
            if checks > 0:
                checks -= 1
                if item not in occurring(text, [item]):
                    return False
                found.add(item)
            else:
                later.append(item)
    if not later:
        return True
    found_later = occurring(text, later)
    return all(item in found_later for item in later)


def occurring_in_any(texts: Sequence[str], items: Iterable[str]) -> set[str]:
    """The items that occur in at least one of ``texts``: one ``occurring`` pass over the texts
    joined by NUL (an item without NUL cannot match across a join); an item holding NUL, which
    could, is looked for in each text."""
    wanted = set(items)
    # an item that is one of the texts needs no search (a fallen-back part's missing fenced
    # blocks are its protected blocks); the empty item is never reported (as ``occurring``)
    whole = wanted.intersection(texts) - {""}
    wanted -= whole
    if not wanted:
        return whole
    with_nul = {item for item in wanted if _JOIN in item}
    texts = list(dict.fromkeys(texts))  # (protected blocks repeat: one copy of each is enough)
    found = occurring(_JOIN.join(texts), wanted - with_nul)
    found.update(item for item in with_nul if any(item in text for text in texts))
    return found | whole


_JOIN = "\x00"
