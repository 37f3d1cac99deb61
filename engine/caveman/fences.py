"""Line scans shared by extraction (§3.1 kinds 1–2) and validation (§10): fences, frontmatter."""

from __future__ import annotations

import re
from bisect import bisect_right

from engine import memo
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


@memo.lru(maxsize=4096)
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
_LAST: memo.MemoDict[int, tuple[str, list[tuple[int, int]]]] = memo.MemoDict(f"{__name__}._LAST", 1)  # id(text) →


def fence_spans(text: str) -> list[tuple[int, int]]:
    """Python-index spans of fenced code blocks: opener line … closer line incl. its ``\\n``.

    An opener without a closer is plain text and scanning resumes on the next line; lines inside
    a block are never openers.
    """
    last = _LAST.get(id(text))
    if last is not None and last[0] is text:
        return list(last[1])
    spans = _fence_spans(text)
    _LAST[id(text)] = (text, spans)
    return list(spans)


_OPEN_LINE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})", re.M)
# a closing line: the fence run, then only JS blanks to the end of the line (``$``: before a
# ``\n`` or at the end; only ``\n`` breaks lines here, as in ``split_lines``)
_CLOSE_LINE = re.compile(rf"^[ \t]{{0,3}}(`{{3,}}|~{{3,}})[{JS_WS.replace(chr(10), '')}]*$", re.M)


def _fence_spans(text: str) -> list[tuple[int, int]]:
    """The line scan of spec §3.1 kind 2, from the opening and closing lines found by two ``re``
    scans (a walk of every line in Python cost more than the rest of a validation)."""
    if not contains(text, "```") and not contains(text, "~~~"):
        return []
    closers = _Closers(text)
    spans = []
    resume = 0  # lines inside a block are never openers
    for opener in _OPEN_LINE.finditer(text):
        start = opener.start()
        if start < resume:
            continue
        run = opener.group(1)
        end = closers.next(start, run[0], len(run))
        if end < 0:
            continue  # plain text; scanning resumes on the next line
        spans.append((start, end))
        resume = end
    return spans


class _Closers:
    """The closing lines of a text, to find the first one after a line that closes a fence of a
    given character and run length without walking the lines after every opener (an opener with
    no closer would walk to the end: quadratic on a text of unclosed fences). Per (character,
    run length asked for), the sorted starts of the closing lines that qualify, built on first
    use; the lists for all lengths together hold at most the total closer length."""

    def __init__(self, text: str) -> None:
        # char → [(line start, run length, line end incl. its \n)]
        self._found: dict[str, list[tuple[int, int, int]]] = {"`": [], "~": []}
        n = len(text)
        for m in _CLOSE_LINE.finditer(text):
            run = m.group(1)
            self._found[run[0]].append((m.start(), len(run), m.end() + 1 if m.end() < n else n))
        self._lists: dict[tuple[str, int], tuple[list[int], list[int]]] = {}

    def next(self, after: int, char: str, size: int) -> int:
        """The end (after its ``\n``) of the first closing line starting after ``after`` with
        ``char`` and a run of at least ``size`` (-1: none)."""
        key = (char, size)
        found = self._lists.get(key)
        if found is None:
            kept = [(start, end) for start, run, end in self._found[char] if run >= size]
            found = self._lists[key] = ([start for start, _ in kept], [end for _, end in kept])
        k = bisect_right(found[0], after)
        return found[1][k] if k < len(found[0]) else -1


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
