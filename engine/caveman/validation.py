"""``validateCompression``: did the compressed part keep what must not change? (spec §10)

The reference does not re-check the extracted blocks; it re-finds "important" items in the
original with hand-written scanners that approximate the extraction kinds (CAV-Q13) and
requires each to occur verbatim somewhere in the result. The scanners below follow its rules,
including where each one resumes after a failed candidate.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import compress
from typing import TYPE_CHECKING

from engine.caveman.fast import digits_before_dot_digit, occurrences
from engine.caveman.fences import contains, fence_spans, frontmatter_end
from engine.caveman.joined import by_part
from engine.caveman.needles import all_contained_in_order, contained_in_order, contained_in_order_groups
from engine.caveman.spans import holding_spans, join
from engine.jsvalues import bmp_only, from_utf16_units, js_trim, may_hold_astral, to_utf16_units, utf16_len

if TYPE_CHECKING:
    from engine.caveman.preservation import Block
    from engine.caveman.standins import StandIns

WS6 = " \t\n\r\f\v"
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_WS6_RUN = re.compile(r"[ \t\n\r\f\v]+")


def _is_word(text: str, i: int) -> bool:
    return 0 <= i < len(text) and text[i] in _WORD


PREVIEW_HEADS = (120, 400)  # heads of an item, tried in turn, that make its preview when theirs is long enough
PREVIEW_UNITS = 80


def preview(item: str) -> str:
    """Blank runs collapsed to one space, then the first 80 UTF-16 units (as JS ``slice``).

    The collapsed form of a head of the item is a head of the item's collapsed form (a run cut
    at the head's end collapses to the same space), so a long item (a fenced block of some KB:
    thousands fall back in a large part) is collapsed only as far as its preview reaches: a
    head of 120 characters mostly does (collapsing 400 cost ~7 µs an item of agent code)."""
    for size in PREVIEW_HEADS:
        if len(item) <= size:
            break
        flat = _WS6_RUN.sub(" ", item[:size])
        if len(flat) > PREVIEW_UNITS:  # (as many units at least: its preview is final)
            return _first_units(flat)
    return _first_units(_WS6_RUN.sub(" ", item))


def _first_units(flat: str) -> str:
    """``flat``'s first ``PREVIEW_UNITS`` UTF-16 units (a pair cut in two leaves its first half)."""
    if flat.isascii():
        return flat[:PREVIEW_UNITS]
    if len(flat) <= PREVIEW_UNITS // 2 or utf16_len(flat) <= PREVIEW_UNITS:
        return flat
    units = flat.encode("utf-16-le", "surrogatepass")[:2 * PREVIEW_UNITS]
    return units.decode("utf-16-le", "surrogatepass")


# ---------------------------------------------------------------- scanners

def find_fenced(text: str) -> Iterator[tuple[int, str]]:
    for start, end in fence_spans(text):
        yield start, text[start:end]


_INLINE_CODE = re.compile(r"`[^`\n]+`")


def find_inline_code(text: str) -> Iterator[tuple[int, str]]:
    """From each backtick, the text up to the next one is an item when it is non-empty and on
    one line (then the search goes on after it), else the search goes on at that next backtick:
    exactly what a scan for ``[^`\n]+`` between backticks finds (one ``re`` pass: a backtick
    whose item fails leaves the next backtick as the next start, as the scan's retry does)."""
    for m in _INLINE_CODE.finditer(text):
        yield m.start(), m.group(0)


_URL_BODY = re.compile(r"[^ \t\n\r\f\v)\]\"'>]*")
_SCHEME_END = re.compile("://")


def find_urls(text: str) -> Iterator[tuple[int, str]]:
    """Items start at ``https?://`` (not after a word character). The search runs from the
    ``://`` occurrences (``re`` skips to the rare ``:``; a search for ``http`` stops at every
    ``h`` of the prose): a match starts 5 (``https``) or 4 (``http``) characters before one,
    and the first that fits is the leftmost match."""
    pos = 0
    for sep in _SCHEME_END.finditer(text, 4):
        c = sep.start()
        if c - 5 >= pos and text.startswith("https", c - 5):
            start = c - 5
        elif c - 4 >= pos and text.startswith("http", c - 4):
            start = c - 4
        else:
            continue
        if _is_word(text, start - 1):
            pos = start + 1
            continue
        body = _URL_BODY.match(text, c + 3)
        end = c + 3 if body is None else body.end()  # (a starred class: it always matches)
        yield start, text[start:end]
        pos = end


def find_links(text: str) -> Iterator[tuple[int, str]]:
    """From each ``[``, the first ``]`` after it closes a label of at most 1000 characters
    without a line break, which ``(`` must follow; the target ends at the first ``)`` within
    2000 characters, before any line break. The first ``]`` and the first line break after a
    ``[`` are kept from one ``[`` to the next while they still lie ahead (a search per ``[``
    for a far ``]`` was quadratic: 1 MB of ``[`` and one ``]``)."""
    i = 0
    close = newline = -1  # the first ``]`` / ``\n`` at or after the last search's start
    while True:
        a = text.find("[", i)
        if a < 0:
            return
        if close <= a:
            close = text.find("]", a + 1)
            if close < 0:
                return
        b = close
        if newline <= a and newline != -2:
            newline = text.find("\n", a + 1)
            if newline < 0:
                newline = -2  # (none left)
        if b - a - 1 > 1000 or 0 <= newline < b or text[b + 1:b + 2] != "(":
            i = a + 1
            continue
        window = text[b + 2:b + 2 + 2000]
        target_end = window.find(")")
        line_end = window.find("\n")
        if target_end < 0 or (0 <= line_end < target_end):
            i = a + 1
            continue
        end = b + 2 + target_end + 1
        yield a, text[a:end]
        i = end


def find_frontmatter(text: str) -> Iterator[tuple[int, str]]:
    end = frontmatter_end(text)
    if end > 0:
        yield 0, text[:end]


_HEADING = re.compile(r"#{1,6}[ \t\r\f\v]")


_HEADING_LINE = re.compile(r"\n#")


def find_headings(text: str) -> Iterator[tuple[int, str]]:
    if "#" not in text:
        return
    starts = ([0] if text.startswith("#") else []) + [m.start() + 1 for m in _HEADING_LINE.finditer(text)]
    for m in filter(None, (_HEADING.match(text, start) for start in starts)):
        end = text.find("\n", m.start())
        line = text[m.start():] if end < 0 else text[m.start():end]
        if len(line) > m.end() - m.start() and line[m.end() - m.start():].strip(WS6):
            yield m.start(), line


_TABLE = re.compile(r"[ \t]*\|")
_TABLE_LINE = re.compile(r"\n[ \t]*\|")  # (led by the line break: re skips to it, where ^ is tried everywhere)


def find_table_rows(text: str) -> Iterator[tuple[int, str]]:
    if "|" not in text:
        return
    starts = ([0] if _TABLE.match(text) else []) + [m.start() + 1 for m in _TABLE_LINE.finditer(text)]
    for m in filter(None, (_TABLE.match(text, start) for start in starts)):
        end = text.find("\n", m.start())
        line = text[m.start():] if end < 0 else text[m.start():end]
        if line.count("|", m.end() - 1 - m.start()) >= 2:
            yield m.start(), line


def find_math_blocks(text: str) -> Iterator[tuple[int, str]]:
    """From each ``$$``, the next ``$$`` closes an item when the body is at most 10000 long (then
    the search goes on after it), else the search goes on after the opener: walked on the list
    of every ``$$`` (overlapping ones too: ``$$$`` holds two), found at once on the text's bytes
    (a ``str`` search, even for whether one occurs, stalls on every ``$`` of shell code: 0.9 ms
    per MB of agent sessions)."""
    at = occurrences(text, "$$")
    k = 0  # the first occurrence at or after the search position
    while k < len(at):
        a = at[k]
        close = bisect_left(at, a + 2, k + 1)  # (the next that does not overlap the opener)
        if close == len(at):
            return
        b = at[close]
        if b - (a + 2) > 10000:
            k = bisect_left(at, a + 2, k + 1)
            continue
        yield a, text[a:b + 2]
        k = bisect_left(at, b + 2, close)


# (led by the "$" itself, which ``re`` skips to; the look behind it checks the one before)
_MATH_OPENER = re.compile(r"\$(?<!\$\$)(?![ \t\n\r\f\v$0-9])(?=[\s\S])")  # (ASCII blanks and digits, as below)
# an item's body, up to its closing "$": escapes skip a character, a "$" after a blank or before
# another "$" is part of it, a line break ends it unclosed (possessive: the walk never goes back)
_MATH_BODY = re.compile(r"(?:[^\n\\$]|\\[\s\S]|(?<=[ \t\n\r\f\v])\$|\$(?=\$))*+(?<![ \t\n\r\f\v])\$(?!\$)")
MATH_REACH = 160  # an item's closing "$" stands within this many characters of its opener


def find_inline_math(text: str) -> Iterator[tuple[int, str]]:
    """From each ``$`` that no ``$`` stands before and neither a blank, ``$``, digit nor the end
    follows, the body is walked to its closing ``$`` (escapes skip a character; a ``$`` after a
    blank or before another ``$`` belongs to the body; a line break, or a closer more than
    ``MATH_REACH`` characters on, ends it unclosed); then the search goes on after the item,
    else after the opener. Both walks are ``re`` scans (a loop per character cost 0.8 ms per
    MB of shell code)."""
    pos = 0
    body = _MATH_BODY.match
    for opener in _MATH_OPENER.finditer(text):
        i = opener.start()
        if i < pos:
            continue
        limit = i + 1 + MATH_REACH
        # (the walk may read one character past the reach: an escape that starts at its edge)
        m = body(text, i + 1, limit + 1)
        if m is None or m.end() > limit:
            continue
        yield i, text[i:m.end()]
        pos = m.end()


_ENV_NAME = re.compile(r"[A-Za-z*]{1,50}\}")


def find_latex(text: str) -> Iterator[tuple[int, str]]:
    """From each ``\\begin{env}``, the first ``\\end{env}`` within 10000 characters closes an
    item. The closers' places come from one scan, by name (a search per opener, each up to
    10000 characters on, read 10000 characters per ``\\begin{a}`` of a text of them)."""
    if not contains(text, "\\begin{"):
        return
    closers: dict[str, list[int]] | None = None
    i = 0
    while True:
        a = text.find("\\begin{", i)
        if a < 0:
            return
        name_at = a + len("\\begin{")
        m = _ENV_NAME.match(text, name_at)
        if m is None:
            i = name_at
            continue
        name = m.group(0)[:-1]
        after = m.end()
        if closers is None:
            closers = _latex_closers(text)
        at = closers.get(name, ())
        k = bisect_left(at, after)
        if k == len(at) or at[k] - after > 10000:
            i = after
            continue
        end = at[k] + len("\\end{") + len(name) + 1
        yield a, text[a:end]
        i = end


_END_ENV = re.compile(r"\\end\{([A-Za-z*]{1,50})\}")


def _latex_closers(text: str) -> dict[str, list[int]]:
    """Where each ``\\end{env}`` an opener can ask for stands, by name, in order (a name holds no
    backslash, so these never overlap, and the longest name before ``}`` is the only one)."""
    out: dict[str, list[int]] = {}
    for m in _END_ENV.finditer(text):
        out.setdefault(m.group(1), []).append(m.start())
    return out


_VERSION = re.compile(r"[0-9]+((?:\.[0-9]+){0,3})(?:[-+][A-Za-z0-9.-]+)?")  # (JavaScript's \d: ASCII digits)
_DIGITS = frozenset("0123456789")


def find_versions(text: str) -> Iterator[tuple[int, str]]:
    """An item starts at a digit run (not after a word character) that ends in ``.<digit>``,
    so those run starts, found from the ``d.d`` occurrences, are the only candidates."""
    pos = 0
    for start in digits_before_dot_digit(text):
        while start > 0 and text[start - 1] in _DIGITS:
            start -= 1
        if start < pos or _is_word(text, start - 1):
            continue
        m = _VERSION.match(text, start)
        if m is None or not m.group(1) or _is_word(text, m.end()):  # (it matches: a digit starts there)
            continue
        yield start, m.group(0)
        pos = m.end()


_CONST = re.compile(r"(?<![A-Za-z0-9_])[A-Z](?:[A-Z0-9]|_(?=[A-Z0-9]))*+")  # (nothing follows: possessive)


_CONST_RUN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_CONST_RUN_RE = re.compile("[A-Z0-9_]*")


# an item's underscores are each followed by [A-Z0-9], so an item holds one such underscore
_CONST_UNDERSCORE = re.compile(r"_(?=[A-Z0-9])")


def find_const_case(text: str) -> Iterator[tuple[int, str]]:
    """Items contain ``_`` and start where a run of ``[A-Z0-9_]`` begins after a non-word
    character, so only those run starts are candidates, found from the underscores an item can
    hold: one followed by ``[A-Z0-9]`` (snake_case code has several times as many others: 5,751
    underscores per MB of agent sessions, 1,178 of them such)."""
    search = _CONST_UNDERSCORE.search
    u = search(text)
    while u is not None:
        start = u.start()
        while start > 0 and text[start - 1] in _CONST_RUN:
            start -= 1
        # every later position of the run follows a word character: no item starts there, so
        # the search goes on past the run (each of its underscores walked back to this start
        # again was quadratic: 1 MB of ``A_``)
        run = _CONST_RUN_RE.match(text, start)
        done = run.end() if run else start  # (a starred class: it always matches)
        m = _CONST.match(text, start)
        if m and "_" in m.group(0) and not _is_word(text, m.end()):
            yield start, m.group(0)
        u = search(text, max(done, u.end()))


# each finder yields (where it found an item, the item): validation's windows start from there
FINDERS: tuple[tuple[str, Callable[[str], Iterator[tuple[int, str]]]], ...] = (
    ("fenced code block", find_fenced),
    ("inline code", find_inline_code),
    ("URL", find_urls),
    ("markdown link", find_links),
    ("frontmatter", find_frontmatter),
    ("heading", find_headings),
    ("table row", find_table_rows),
    ("math block", find_math_blocks),
    ("inline math", find_inline_math),
    ("LaTeX block", find_latex),
    ("version", find_versions),
    ("CONST_CASE", find_const_case),
)


# OmniRoute's scanners read a JavaScript string, one UTF-16 unit at a time, and four of them
# count: a link's label may hold 1000 units and its target must close within 2000, inline math
# within 160, a math or LaTeX block within 10000 (the spec's "characters"). Counted in Python
# characters, an emoji counts once where JavaScript counts two: a link whose closing ``)`` lay
# 1,011 characters but 2,010 units on (a target of 1,000 emoji) was an item here and none in
# OmniRoute, so the part fell back here and was compressed there (checked on OmniRoute's
# engine). On a text with astral characters these four read its units; the others, which count
# nothing, read the text itself (where each item was found is then a unit offset for the four).
COUNTING_UNITS = frozenset({"markdown link", "math block", "inline math", "LaTeX block"})


def as_units(text: str) -> str | None:
    """``text``'s UTF-16 units, one Python character each, when they differ from its characters
    (an astral character in it); else None."""
    return None if bmp_only(text) else to_utf16_units(text)


def _items_of(label: str, find: Callable[[str], Iterator[tuple[int, str]]]) -> Callable[[str], Iterator[str]]:
    """The items alone, as the reference's scanner gives them."""
    def scan(text: str) -> Iterator[str]:
        units = as_units(text) if label in COUNTING_UNITS else None
        if units is None:
            return (item for _at, item in find(text))
        # (an item starts and ends at an ASCII character: no pair is cut)
        return (from_utf16_units(item) for _at, item in find(units))

    scan.__name__ = scan.__qualname__ = find.__name__.replace("find_", "scan_", 1)
    return scan


SCANNERS: tuple[tuple[str, Callable[[str], Iterator[str]]], ...] = tuple(
    (label, _items_of(label, find)) for label, find in FINDERS)
(scan_fenced, scan_inline_code, scan_urls, scan_links, scan_frontmatter, scan_headings, scan_table_rows,
 scan_math_blocks, scan_inline_math, scan_latex, scan_versions, scan_const_case) = (scan for _label, scan in SCANNERS)


Scans = list[tuple[str, list[str], list[int]]]


def scan_items(original: str, view: tuple[StandIns, str] | None = None) -> Scans:
    """What validation looks for in ``original``: (label, items, where they stand) per scanner
    that found any (a part that falls back is validated twice against the same original). The
    scanners that count read its UTF-16 units, as OmniRoute's do (see ``COUNTING_UNITS``).

    ``view``: ``original``'s UTF-16 units on ASCII stand-ins (``Extraction.ascii_original``),
    which every scanner reads as it reads the units: each tests ASCII characters alone (blanks,
    digits, word characters, punctuation), and neither a stand-in nor a unit it stands for is
    a blank (``engine.caveman.standins``). One byte a character instead of four for a text
    with emoji: 1 MB of mixed prose, 9.5 → 5.6 ms. (A view made here for a part whose fenced
    blocks came out first, where extraction makes none, cost more than it saved: agent
    sessions, 3.3 ms to make it against 1.3 saved.)"""
    if view is not None and not view[0].pool_mark:
        stand, units = view
        return [(label, [stand.real(item) for item in items], starts) for label, items, starts in scan_view(units)]
    astral = not bmp_only(original)
    units = ""  # (made when a counting scanner first needs them)
    found = []
    for label, find in FINDERS:  # (where each item was found guides validation's windows)
        subject = original
        if astral and label in COUNTING_UNITS:
            units = units or to_utf16_units(original)
            subject = units
        hits = list(find(subject))
        if hits:
            items = [item for _at, item in hits]
            if subject is not original:
                items = list(map(from_utf16_units, items))
            found.append((label, items, [at for at, _item in hits]))
    return found


def scan_items_joined(texts: list[str]) -> list[Scans | None]:
    """``scan_items`` of each of ``texts`` (none with an astral character, where four scanners
    would read units), from one run of each scanner over the texts joined by a line break
    (frontmatter, found at a text's start alone, by text). None for a text an item ran into or
    out of: scan that one alone.

    Every scanner treats a line break as the text's edge: items never hold one but where a
    class or an escape takes it (those items hold the separator, and say whose texts they
    touched), word and blank checks read it as the edge does, and each walk restarts after an
    item, so past a text no item left, the next text's walk is its own. A fence that closes at
    its text's end takes the separator as its line's end: that one is cut back. A test runs
    every scanner both ways on texts built to cross (``test_linear_validation``)."""
    joined, starts = join(texts)
    ends = [start + len(text) for start, text in zip(starts, texts)]  # (where each separator stands)
    found: list[Scans] = [[] for _ in texts]
    crossed: set[int] = set()
    for label, find in FINDERS:
        if find is find_frontmatter:
            for k, text in enumerate(texts):
                if text.startswith("---\n"):  # (``frontmatter_end``'s first test, without a call per text)
                    hits = list(find(text))
                    if hits:
                        found[k].append((label, [item for _at, item in hits], [at for at, _item in hits]))
            continue
        hits = list(find(joined))
        ats = [at for at, _item in hits]
        items = [item for _at, item in hits]
        item_ends = [at + len(item) for at, item in hits]
        if find is find_fenced:
            for j, (at, end) in enumerate(zip(ats, item_ends)):
                k = bisect_right(starts, at) - 1
                if end == ends[k] + 1 and k + 1 < len(texts):  # (a closing line at the text's end: no line break of its own)
                    items[j], item_ends[j] = items[j][:-1], end - 1
        groups, touched = by_part(ats, item_ends, starts, len(joined))
        crossed |= touched
        for k, first, past, _edge in groups:
            found[k].append((label, items[first:past], [at - starts[k] for at in ats[first:past]]))
    return [None if k in crossed else scans for k, scans in enumerate(found)]


def scan_view(units: str, fenced: list[tuple[int, int]] | None = None) -> Scans:
    """``scan_items`` of a text given as its UTF-16 units on ASCII stand-ins, its items left on
    them: what validation looks for in a view of the original, to find in a view of the output
    made on the same stand-ins (``validate_compression``'s ``real`` turns back what is missing).

    ``fenced``: the text's fence spans when the caller knows them (extraction's fenced blocks,
    in units): the fence scan, a tenth of a validation of agent sessions, is not made again."""
    found = []
    for label, find in FINDERS:
        if fenced is not None and find is find_fenced:
            hits = [(start, units[start:end]) for start, end in fenced]
        else:
            hits = list(find(units))
        if hits:
            found.append((label, [item for _at, item in hits], [at for at, _item in hits]))
    return found


def validate_compression(original: object, compressed: object, scans: Scans | None = None,
                         real: Callable[[str], str] | None = None, present: Iterable[str] = (),
                         fences: int | None = None) -> tuple[list[str], list[str], list[str]]:
    """``(errors, warnings, missing_items)`` exactly as the reference words them (``scans``:
    ``scan_items(original)`` when the caller has it already).

    ``real``: ``original`` and ``compressed`` are views on stand-ins (``standins.view_of``) and
    ``scans`` is ``scan_view`` of the first; it gives a missing item back as it stands in the
    text, for the messages and the list (lengths and blanks read the same in a view).
    ``present``: items known to occur in ``compressed`` (``ItemsInside``), not searched for;
    ``fences``: the count of ``compressed``'s fence spans, where the caller found it already."""
    if not isinstance(original, str) or not isinstance(compressed, str):
        return ["validation received non-string input"], [], []
    errors: list[str] = []
    missing: list[str] = []
    if original and not js_trim(compressed):
        errors.append("compressed text is empty")
    scans = scan_items(original) if scans is None else scans
    kept_lists = contained_in_order_groups(compressed, [(items, starts) for _label, items, starts in scans], present)
    previews: dict[str, str] = {}  # (a missing item repeats: 3,058 errors of the 4 MB text, far fewer texts)
    for (label, items, _starts), kept_list in zip(scans, kept_lists):
        for item, kept in zip(items, kept_list):
            if not kept:
                if real is not None:
                    item = real(item)
                shown = previews.get(item)
                if shown is None:
                    shown = previews[item] = preview(item)
                errors.append(f"{label} changed or missing: {shown}")
                missing.append(item)
    # (the fenced items are the original's fence spans, one each: no second scan of the original)
    fenced = [items for label, items, _starts in scans if label == SCANNERS[0][0]]
    before = len(fenced[0]) if fenced else 0
    after = 0  # (no fence before: none can be lost)
    if before:
        after = len(fence_spans(compressed)) if fences is None else fences
    if before > after:
        errors.append(f"fenced code block count dropped: {before} -> {after}")
    warnings = ["compressed text is longer than original"] if _longer(compressed, original) else []
    return errors, warnings, missing


def validation_fails(original: object, compressed: object, scans: Scans | None = None,
                     present: Iterable[str] = (), fences: int | None = None) -> bool:
    """``bool(validate_compression(original, compressed, scans)[0])``, stopping at the first
    error found (no messages, no list of what is missing). ``present``: items known to occur in
    ``compressed``; ``fences``: its fence spans' count where the caller knows it
    (``fences.fence_count_of_blocks``)."""
    if not isinstance(original, str) or not isinstance(compressed, str):
        return True
    if original and not js_trim(compressed):
        return True
    scans = scan_items(original) if scans is None else scans
    if not all_contained_in_order(compressed, [(items, starts) for _label, items, starts in scans], present=present):
        return True
    fenced = [items for label, items, _starts in scans if label == SCANNERS[0][0]]
    before = len(fenced[0]) if fenced else 0
    return bool(before) and before > (len(fence_spans(compressed)) if fences is None else fences)


class ItemsInside:
    """Which item of ``scans`` lies inside which span of the scanned text (given as their
    ``starts`` and ``ends``, sorted and disjoint, in the offsets where items stand:
    ``scan_view``'s, or ``scan_items``' on a text without astral characters). The spans are
    protected blocks an output holds as they were: an item inside one is in that output without
    a search. Nearly every item validation looks for is a protected region itself, or lies
    inside one (a URL in a fenced block); their window searches were a third of a validation of
    agent sessions."""

    def __init__(self, scans: Scans, starts: list[int], ends: list[int]) -> None:
        # per scanner: its items, and per item 1 + the index of the span it lies inside (0: none)
        self._held = [(items, holding_spans(starts, ends, at, map(len, items))) for _label, items, at in scans]

    def present(self, kept: list[bool] | None = None) -> set[str]:
        """The items inside a span (``kept``: inside one of the spans flagged True only)."""
        flags = None if kept is None else [False, *kept]
        inside: set[str] = set()
        for items, held in self._held:
            inside.update(compress(items, held if flags is None else map(flags.__getitem__, held)))
        return inside


def _longer(text: str, than: str) -> bool:
    """``utf16_len(text) > utf16_len(than)``, without encoding either when their lengths tell
    (a text with no astral character is as long in units as in characters, any other longer)."""
    if not may_hold_astral(text) and len(text) <= len(than):
        return False
    if not may_hold_astral(than) and len(text) > len(than):
        return True
    return utf16_len(text) > utf16_len(than)


def validate_blocks(original: str, compressed: str, blocks: list[Block], present: Iterable[str] = ()
                    ) -> tuple[list[str], list[str]]:
    """The strict validation (fix of CAV-Q7, Q8, Q13): empty output, then every extracted block
    (``present``: contents known to occur in ``compressed``, not searched for)."""
    errors: list[str] = []
    if original and not js_trim(compressed):
        errors.append("compressed text is empty")
    ordered = sorted(blocks, key=lambda b: b.start)  # blocks come kind by kind; the text keeps their order
    kept = contained_in_order(compressed, [b.content for b in ordered], [b.start for b in ordered], present)
    lost = {b.n for b, ok in zip(ordered, kept) if not ok}
    for block in blocks:
        if block.n in lost:
            errors.append(f"{block.kind} changed or missing: {preview(block.content)}")
    warnings = ["compressed text is longer than original"] if utf16_len(compressed) > utf16_len(original) else []
    return errors, warnings
