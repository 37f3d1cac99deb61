"""Text primitives shared by every grammar parser (spec §2.1–§2.3).

The reference runs these on JavaScript strings. They only ever compare ASCII characters, so they
work unchanged on Python strings (code points); offsets are converted to UTF-16 only when they
leave the engine.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator

import regex

from engine import memo
from engine.jsvalues import JS_WHITESPACE, js_trim

# JavaScript's ``\s`` (WhiteSpace + LineTerminator) as a character class. Python's own ``\s``
# differs (it adds U+001C–U+001F and U+0085), so patterns spell it out.
WS = "[" + "".join(f"\\u{ord(ch):04x}" for ch in JS_WHITESPACE) + "]"
# A tool or parameter name as the parsers accept it (IDENT, spec §1): a letter or `_`, then
# letters, digits, `_`, `.` or `-`.
IDENT = r"[A-Za-z_][A-Za-z0-9_.\-]*"

FENCE = "```"


def js_ascii(pattern: str, *, ignore_case: bool = False) -> regex.Pattern[str]:
    """Compile one of the reference's own non-``u`` patterns: ASCII ``\\b`` and case folding."""
    flags = regex.ASCII | (regex.IGNORECASE if ignore_case else 0)
    return regex.compile(pattern, flags)


def js_unicode(pattern: str, *, ignore_case: bool = False) -> regex.Pattern[str]:
    """Compile one of the reference's ``u``-flag patterns: simple Unicode case folding."""
    flags = regex.IGNORECASE if ignore_case else 0
    return regex.compile(pattern, flags)


_WS_RUN = js_ascii(WS + "+")
IDENT_FULL = js_ascii(IDENT + r"\Z")


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@memo.lru(maxsize=8)
def ascii_lower(text: str) -> str:
    """Lowercase ASCII letters only, so offsets stay the same (JavaScript's non-``u`` ``i``)."""
    return text.translate(_ASCII_LOWER)


def end_of_last(text: str, *closers: str) -> int:
    r"""Where the last of ``closers`` (lowercase) ends in ``text``, ignoring ASCII case; 0 if none.

    A wrapper pattern ``open[\s\S]*?close`` cannot match past that point, so searching only up
    to it gives the same matches and spares a scan to the end from every unclosed opener.
    """
    lowered = ascii_lower(text)
    ends = [at + len(c) for c in closers if (at := lowered.rfind(c)) != -1]
    return max(ends, default=0)


def end_of_last_match(text: str, closer: regex.Pattern[str]) -> int:
    """Like ``end_of_last`` for a closer pattern (searched backwards with ``regex``'s REVERSE)."""
    m = closer.search(text)
    return m.end() if m else 0


def skip_ws(text: str, pos: int) -> int:
    """Index of the first non-whitespace character at or after ``pos`` (``trimStart`` without a copy)."""
    m = _WS_RUN.match(text, pos)
    return m.end() if m else pos


def split_ws(text: str) -> list[str]:
    """``text.split(/\\s+/)``."""
    return _WS_RUN.split(text)


_FENCE_LINE = js_ascii(r"(?m)^( {0,3})(`{3,}|~{3,})([^\n]*)$")


def markdown_fence_spans(text: str) -> list[tuple[int, int]]:
    """Spans of fenced code blocks as CommonMark opens and closes them (strict fix of GRM-Q10).

    A fence line is up to three spaces, then three or more backticks or tildes; a backtick
    fence's info string may not contain a backtick. The block ends at a line with at least as
    many of the same character and nothing else, or at the end of the text.
    """
    spans: list[tuple[int, int]] = []
    open_at: int | None = None
    open_char = ""
    open_len = 0
    for m in _FENCE_LINE.finditer(text):
        marker, info = m.group(2), m.group(3)
        if open_at is None:
            if marker[0] == "`" and "`" in info:
                continue
            open_at, open_char, open_len = m.start(), marker[0], len(marker)
        elif marker[0] == open_char and len(marker) >= open_len and not info.strip(" \t"):
            spans.append((open_at, m.end()))
            open_at = None
    if open_at is not None:
        spans.append((open_at, len(text)))
    return spans


class FenceTest:
    """Answers "is this position inside fenced code?" under one profile, noting disagreements.

    The default profile uses the reference's parity test. The strict profile uses real
    Markdown fences. Either way a position where the two tests disagree is recorded, so the
    caller can name GRM-Q10 when it mattered.
    """

    def __init__(self, text: str, *, strict: bool) -> None:
        self.text = text
        self.strict = strict
        self._spans: list[tuple[int, int]] | None = None
        self._fence_ends: list[int] | None = None
        self.disagreements: list[int] = []
        self._any_fence = FENCE in text or "~~~" in text

    def _parity_inside(self, index: int) -> bool:
        """The reference's test (GRM-Q10): an odd number of ``````` wholly before ``index``."""
        if self._fence_ends is None:
            ends: list[int] = []
            at = self.text.find(FENCE)
            while at != -1:
                ends.append(at + len(FENCE))
                at = self.text.find(FENCE, at + len(FENCE))
            self._fence_ends = ends
        return bisect_right(self._fence_ends, index) % 2 == 1

    def _markdown_inside(self, index: int) -> bool:
        if self._spans is None:
            self._spans = markdown_fence_spans(self.text)
        at = bisect_left(self._spans, index, key=lambda span: span[0]) - 1
        return at >= 0 and index < self._spans[at][1]

    def inside(self, index: int) -> bool:
        if not self._any_fence:
            return False
        parity = self._parity_inside(index)
        markdown = self._markdown_inside(index)
        if parity != markdown:
            self.disagreements.append(index)
        return markdown if self.strict else parity


class _BracketMatcher:
    """Balanced scans (§2.2) over one text, remembered so repeated scans stay linear.

    A scan from an opener passes later openers in the same quote state a scan started there
    would have (outside any literal), so one pass settles the match of every opener it passes,
    and later scans jump over settled spans. Without this, text full of unclosed ``{"name":``
    costs a full scan per opener.
    """

    def __init__(self, text: str, opener: str, closer: str) -> None:
        self.text, self.opener, self.closer = text, opener, closer
        self.memo: dict[int, int | None] = {}

    def match(self, open_index: int) -> int | None:
        if open_index in self.memo:
            return self.memo[open_index]
        text, opener, closer, memo = self.text, self.opener, self.closer, self.memo
        if open_index >= len(text) or text[open_index] != opener:
            return _plain_find_matching(text, open_index, opener, closer)
        stack: list[int] = []
        quote = ""
        escaped = False
        i = open_index
        n = len(text)
        while i < n:
            ch = text[i]
            if quote:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == quote:
                    quote = ""
            elif ch == '"' or ch == "'":
                quote = ch
            elif ch == opener:
                if stack and i in memo:
                    settled = memo[i]
                    if settled is None:
                        break
                    i = settled + 1
                    continue
                stack.append(i)
            elif ch == closer:
                memo[stack.pop()] = i
                if not stack:
                    return i
            i += 1
        for q in stack:
            memo[q] = None
        return None


def _plain_find_matching(text: str, open_index: int, opener: str, closer: str) -> int | None:
    depth = 0
    quote = ""
    escaped = False
    for i in range(open_index, len(text)):
        ch = text[i]
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
            continue
        if ch == '"' or ch == "'":
            quote = ch
            continue
        if ch == opener:
            depth += 1
        if ch == closer:
            depth -= 1
            if depth == 0:
                return i
    return None


@memo.lru(maxsize=16)
def _matcher(text: str, opener: str, closer: str) -> _BracketMatcher:
    return _BracketMatcher(text, opener, closer)


def find_matching(text: str, open_index: int, opener: str, closer: str) -> int | None:
    """Balanced scan (§2.2): index of the closer that returns depth to zero, quotes respected."""
    return _matcher(text, opener, closer).match(open_index)


_FIRST_BRACKET = regex.compile(r"[\[{]")


def first_balanced_json(text: str, offset: int = 0) -> tuple[str, int, int] | None:
    """First balanced ``{…}``/``[…]`` in ``text[offset:]`` (§2.3): ``(json, start, end)``.

    ``start`` and ``end`` are relative to ``offset``, as if the text had been sliced there.
    """
    m = _FIRST_BRACKET.search(text, offset)
    if m is None:
        return None
    start = m.start()
    opener = text[start]
    end = find_matching(text, start, opener, "}" if opener == "{" else "]")
    if end is None:
        return None
    return text[start : end + 1], start - offset, end + 1 - offset


def _top_level_scan(text: str) -> Iterator[tuple[int, str, int]]:
    """Yield ``(index, char, depth)`` for characters outside string literals."""
    depth = 0
    quote = ""
    escaped = False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
            continue
        if ch == '"' or ch == "'":
            quote = ch
            continue
        if ch in "([{":
            depth += 1
        if ch in ")]}":
            depth -= 1
        yield i, ch, depth


def split_top_level(text: str, delimiter: str) -> list[str]:
    """Split at top-level ``delimiter``; pieces JS-trimmed, empty pieces dropped."""
    parts: list[str] = []
    start = 0
    for i, ch, depth in _top_level_scan(text):
        if ch == delimiter and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in (js_trim(part) for part in parts) if p]


def find_top_level_char(text: str, target: str) -> int:
    for i, ch, depth in _top_level_scan(text):
        if ch == target and depth == 0:
            return i
    return -1


def line_end(text: str, start: int) -> int:
    newline = text.find("\n", start)
    return len(text) if newline == -1 else newline
