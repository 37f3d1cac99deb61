"""Line scans shared by extraction (§3.1 kinds 1–2) and validation (§10): fences, frontmatter."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from engine.jsvalues import JS_WHITESPACE as JS_WS

_OPEN = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")
_CLOSE = re.compile(rf"[ \t]{{0,3}}(`{{3,}}|~{{3,}})[{JS_WS}]*")


def contains(text: str, needle: str) -> bool:
    """``needle in text``, answered first from its characters: a one-character search is a
    memchr, while an absent multi-character needle costs a slower full scan. A needle of three
    or more characters that starts with punctuation (a fence, ``://``, ``\\begin{``) is then
    searched for with ``re``, which skips to its first character, where ``str``'s search stalls
    on every blank or letter the needle shares with prose."""
    if len(needle) > 1 and not all(c in text for c in set(needle)):
        return False
    if len(needle) > 2 and not needle[0].isalnum() and not needle[0].isspace():
        return literal_pattern(needle).search(text) is not None
    return needle in text


@lru_cache(maxsize=4096)
def literal_pattern(needle: str) -> re.Pattern[str]:
    """``needle`` as an ``re`` pattern (its search skips from one first character to the next)."""
    return re.compile(re.escape(needle))


def split_lines(text: str) -> list[str]:
    """Lines that keep their ``\\n`` (only ``\\n`` breaks a line)."""
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


# the last text's spans (a part's original is scanned by extraction and twice by validation);
# one tuple swapped at once, so concurrent runs never read a mismatched pair
_LAST: tuple[str | None, list[tuple[int, int]]] = (None, [])


def fence_spans(text: str) -> list[tuple[int, int]]:
    """Python-index spans of fenced code blocks: opener line … closer line incl. its ``\\n``.

    An opener without a closer is plain text and scanning resumes on the next line; lines inside
    a block are never openers.
    """
    global _LAST
    last = _LAST
    if last[0] is text:
        return list(last[1])
    spans = _fence_spans(text)
    _LAST = (text, spans)
    return list(spans)


def _fence_spans(text: str) -> list[tuple[int, int]]:
    if not contains(text, "```") and not contains(text, "~~~"):
        return []
    lines = split_lines(text)
    starts = []
    pos = 0
    for line in lines:
        starts.append(pos)
        pos += len(line)
    closers = _Closers(lines)
    spans = []
    i = 0
    while i < len(lines):
        opener = _OPEN.match(lines[i])
        if opener is None:
            i += 1
            continue
        close_at = closers.next(i, opener.group(1)[0], len(opener.group(1)))
        if close_at < 0:
            i += 1
            continue
        spans.append((starts[i], starts[close_at] + len(lines[close_at])))
        i = close_at + 1
    return spans


class _Closers:
    """The closing lines of a text, to find the first one after a line that closes a fence of a
    given character and run length without walking the lines after every opener (an opener with
    no closer would walk to the end: quadratic on a text of unclosed fences). Per (character,
    run length asked for), the sorted line numbers of the closers that qualify, built on first
    use; the lists for all lengths together hold at most the total closer length."""

    def __init__(self, lines: list[str]) -> None:
        self._found: dict[str, list[tuple[int, int]]] = {"`": [], "~": []}  # char → [(line, run length)]
        for j, line in enumerate(lines):
            if not line or line.lstrip(" \t")[:1] not in ("`", "~"):
                continue
            body = line[:-1] if line.endswith("\n") else line
            closer = _CLOSE.fullmatch(body)
            if closer:
                run = closer.group(1)
                self._found[run[0]].append((j, len(run)))
        self._lists: dict[tuple[str, int], list[int]] = {}

    def next(self, after: int, char: str, size: int) -> int:
        """The first closer line after ``after`` with ``char`` and a run of at least ``size`` (-1: none)."""
        key = (char, size)
        lines = self._lists.get(key)
        if lines is None:
            lines = self._lists[key] = [j for j, run in self._found[char] if run >= size]
        k = bisect_right(lines, after)
        return lines[k] if k < len(lines) else -1


def frontmatter_end(text: str, *, search_from: int = 4) -> int:
    """End (exclusive) of the leading frontmatter block, or -1 (spec §3.1 kind 1; CAV-Q16 is
    ``search_from=4``, the strict fix searches from 3)."""
    if not text.startswith("---\n"):
        return -1
    close = text.find("\n---", search_from)
    if close < 0:
        return -1
    nl = text.find("\n", close + 4)
    return len(text) if nl < 0 else nl + 1
