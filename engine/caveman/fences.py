"""Line scans shared by extraction (§3.1 kinds 1–2) and validation (§10): fences, frontmatter."""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import repeat

from engine import memo
from engine.caveman.needles import find_all
from engine.caveman.spans import holding_spans, join
from engine.jsvalues import JS_WHITESPACE as JS_WS

_OPEN = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")
_CLOSE = re.compile(rf"[ \t]{{0,3}}(`{{3,}}|~{{3,}})[{JS_WS}]*")


HEAD = 65_536  # contains(): the stretch searched first for a needle, where a common one is found


def contains(text: str, needle: str) -> bool:
    """``needle in text``, answered first from its characters: a one-character search is a
    memchr, while an absent multi-character needle costs a slower full scan. A needle of three
    or more characters that starts with punctuation (a fence, ``://``, ``\\begin{``) is then
    searched for with ``re``, which skips to its first character, where ``str``'s search stalls
    on every blank or letter the needle shares with prose."""
    if len(needle) > 1 and not all(c in text for c in set(needle)):
        return False
    if len(needle) == 2 and text.isascii():
        # on the bytes, with the ``memchr`` crate's SIMD search: an absent ``$$`` in shell code
        # cost ``str`` 0.9 ms a MB (it stops at every ``$``, with no room to skip), ``re`` 0.5,
        # this 0.02. (It lists every occurrence: one in the text's head is answer enough. A longer
        # needle skips along in ``str``, where the bytes' search of an absent ``process.env.``
        # stops at every letter of prose: 0.85 ms.)
        if text.find(needle, 0, HEAD) >= 0:
            return True
        found = find_all(text, needle)
        if found is not None:
            return bool(found)
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


# runs of three or more fence characters with the rest of their line, one pattern per character:
# ``re`` finds a literal prefix quickly, while an alternation, a class or a multi-line ``^`` is
# tried at every position; the rest of the line comes with the match, scanned in C (1 MB of agent
# sessions, 1,654 runs: 4.2 → 2.1 ms, where a second search for the line's end and a generator
# over its blanks ran per run)
_FENCE_RUNS = (re.compile("(```+)([^\n]*)"), re.compile("(~~~+)([^\n]*)"))
_CLOSER_TAIL = JS_WS.replace("\n", "")  # what may follow a closing run on its line


def _fence_lines(text: str) -> tuple[list[tuple[int, str, int]], dict[str, list[tuple[int, int, int]]]]:
    """The opening and closing lines of spec §3.1 kind 2, from the fence runs: a run that starts
    its line after at most three blanks or tabs opens a block (line start, char, run length);
    it closes one when only JavaScript blanks follow it on its line (line start, run length,
    end of the line incl. its ``\n``). Only ``\n`` breaks lines (as ``split_lines``).

    A run's match takes the rest of its line, so a second run on that line is never seen: it
    could not start its line anyway (the first run stands before it)."""
    openers: list[tuple[int, str, int]] = []
    closers: dict[str, list[tuple[int, int, int]]] = {"`": [], "~": []}
    n = len(text)
    for rx in _FENCE_RUNS:
        for m in rx.finditer(text):
            start, end = m.span(1)
            line = text.rfind("\n", max(0, start - 4), start) + 1
            if (line == 0 and start > 3) or text[line:start].strip(" \t"):
                continue  # more than three characters, or not only blanks, before it on its line
            char = text[start]
            openers.append((line, char, end - start))
            if not m.group(2).strip(_CLOSER_TAIL):
                stop = m.end()
                closers[char].append((line, end - start, stop + 1 if stop < n else n))
    openers.sort()
    return openers, closers


def fence_spans_each(texts: list[str]) -> list[list[tuple[int, int]]]:
    """``fence_spans`` of each text, from one scan of the fence runs of them all joined by line
    breaks (a run's match stops at its line's end, so it stays in its text): a chat body's
    ~1,300 messages, about half with a fenced block, 5.3 → 3.9 ms. Each run is placed in its
    text by stepping past the texts before it; where the texts hold several runs each (a text
    of nothing but fence lines), each text is scanned alone, which places none."""
    joined, starts = join(texts, "\n")
    dense = DENSE_RUNS * len(texts)  # (past this many runs, each text alone)
    bounds = [*starts[1:], len(joined) + 1]  # (where each text's successor starts)
    lines: dict[int, tuple[list[tuple[int, str, int]], dict[str, list[tuple[int, int, int]]]]] = {}
    for rx in _FENCE_RUNS:
        base, after, size = 0, -1, 0  # (the text the last run was in: its start, its successor's, its length)
        openers: list[tuple[int, str, int]] = []
        closers: dict[str, list[tuple[int, int, int]]] = {}
        for m in rx.finditer(joined):
            dense -= 1
            if not dense:
                return [_fence_spans(text) for text in texts]
            start, end = m.span(1)
            if start >= after:  # (a run in a later text)
                k = bisect_right(starts, start) - 1
                base, after, size = starts[k], bounds[k], len(texts[k])
                openers, closers = lines.setdefault(k, ([], {"`": [], "~": []}))
            found = joined.rfind("\n", start - 4 if start - 4 > base else base, start)
            line = found + 1 if found >= 0 else base
            if (line == base and start - base > 3) or joined[line:start].strip(" \t"):
                continue  # more than three characters, or not only blanks, before it on its line
            char = joined[start]
            openers.append((line - base, char, end - start))
            if not m.group(2).strip(_CLOSER_TAIL):
                stop = m.end() - base
                closers[char].append((line - base, end - start, stop + 1 if stop < size else size))
    out: list[list[tuple[int, int]]] = [[] for _ in texts]
    for k, (openers, closers) in lines.items():
        openers.sort()
        out[k] = _paired(openers, closers)
    return out


DENSE_RUNS = 4  # fence runs per text past which ``fence_spans_each`` scans each text alone


def _fence_spans(text: str) -> list[tuple[int, int]]:
    """The line scan of spec §3.1 kind 2, from the opening and closing lines found from the
    fence runs (a walk of every line in Python cost more than the rest of a validation)."""
    if not contains(text, "```") and not contains(text, "~~~"):
        return []
    return _paired(*_fence_lines(text))


def _paired(openers: list[tuple[int, str, int]], found: dict[str, list[tuple[int, int, int]]]
            ) -> list[tuple[int, int]]:
    """The fence spans from a text's opening lines (sorted) and closing lines (``_fence_lines``)."""
    closers = _Closers(found)
    spans = []
    resume = 0  # lines inside a block are never openers
    for start, char, size in openers:
        if start < resume:
            continue
        end = closers.next(start, char, size)
        if end < 0:
            continue  # plain text; scanning resumes on the next line
        spans.append((start, end))
        resume = end
    return spans


def fence_count_of_blocks(text: str, spans: list[tuple[int, int]]) -> int | None:
    """``len(fence_spans(text))`` without the scan, where ``spans`` (sorted) are fenced blocks,
    each a fence span where it was found, put into ``text`` whole: when each starts a line and
    ends one (or the text), and every fence run of the text lies inside one of them, the scan
    finds exactly these spans (each block's lines are the ones that made it a span; between
    them no line can open one). None when that is not shown: then scan. A fallen-back part's
    CAV-Q1 check counts the fences of its text with the blocks put back: ~2.6 ms a MB of agent
    sessions scanned, ~0.5 shown."""
    n = len(text)
    starts = [a for a, _b in spans]
    ends = [b for _a, b in spans]
    if any(a and text[a - 1] != "\n" for a in starts) or any(b != n and text[b - 1] != "\n" for b in ends):
        return None
    ticks, tildes = find_all(text, "```"), find_all(text, "~~~")  # (on the bytes; overlapping ones too)
    if ticks is None or tildes is None:
        return None
    if not all(holding_spans(starts, ends, sorted(ticks + tildes), repeat(3))):
        return None
    return len(spans)


class _Closers:
    """The closing lines of a text, to find the first one after a line that closes a fence of a
    given character and run length without walking the lines after every opener (an opener with
    no closer would walk to the end: quadratic on a text of unclosed fences). Per (character,
    run length asked for), the sorted starts of the closing lines that qualify, built on first
    use; the lists for all lengths together hold at most the total closer length."""

    def __init__(self, found: dict[str, list[tuple[int, int, int]]]) -> None:
        # char → [(line start, run length, line end incl. its \n)]
        self._found = found
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
