"""Cleanup and recapitalisation after the rules ran (spec §9).

Character scans with fixed, ASCII-only patterns (spaces, tabs, ``\\n``, ``.!?``), so Python's
``re`` reproduces them exactly. ``crlf=True`` is the strict fix of CAV-Q14 (``\\r\\n`` counts
as a line break in steps 4 and 6).

The scans that visit every character (blanks before punctuation, punctuation pairs, sentence
starts) run on a *view*: the text's UTF-8 bytes translated so that each character class the
patterns use becomes one byte (tab → space; in-line view: ``,.;:!?`` → ``.``; recapitalisation
view: ``.!?`` → ``.``, ``a-z`` → ``a``).
UTF-8 never puts an ASCII byte inside a multi-byte character, so a two- or three-byte needle
found in the view is exactly a match of the class pattern. The needles are searched for from
their rare byte (``.``, a newline) with ``re``, which skips to that byte quickly, rather than
tried at every position. Edits are made on the bytes at the found offsets.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from engine.caveman.fast import occurrences
from engine.jsvalues import js_trim_end

# (``\n{3,}`` has no literal lead for ``re`` to skip along with: it was tried at every character,
# 7.8 ms per MB of restored text where this takes 0.7)
_BLANK_LINES = re.compile(r"\n\n\n+")


# views: tab -> space; for the in-line steps every one of ,.;:!? -> "." (a blank before any of
# them is " ."; ".." also flags ",." and the like, which only costs an exact regex pass that
# finds nothing); for recapitalisation .!? -> "." and a-z -> "a"
_INLINE_VIEW = bytes.maketrans(b"\t,;:!?", b" .....")
# searches in the views that start from a rare byte (``re`` finds its first byte quickly, while
# a ``bytes`` search for a needle holding a blank stalls on every blank of the text)
_BLANK_BEFORE_PUNCT = re.compile(rb"\.(?<= \.)")
_PUNCT_PAIR = re.compile(rb"\.\.")
_BLANK_BEFORE_LF_VIEW = re.compile(rb"\n(?<= \n)")
_BLANK_BEFORE_CRLF_VIEW = re.compile(rb"\r\n(?<= \r\n)")
_THREE_LF = re.compile("\n\n\n")
_RECAP_VIEW = bytes.maketrans(b"\t!?abcdefghijklmnopqrstuvwxyz", b" .." + b"a" * 26)


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _decode(raw: bytes | bytearray) -> str:
    return raw.decode("utf-8", "surrogatepass")


def _drop(raw: bytes, offsets: list[int]) -> bytes:
    """``raw`` without the bytes at the (sorted) ``offsets``."""
    pieces = []
    last = 0
    for i in offsets:
        pieces.append(raw[last:i])
        last = i + 1
    pieces.append(raw[last:])
    return b"".join(pieces)


def collapse_spaces(text: str) -> str:
    """Steps 1–3: the in-line scans (runs of blanks, blanks before punctuation, punctuation runs).

    Each scan is skipped when a cheap substring test shows it has nothing to do."""
    return _collapse(text)[0]


def _collapse(text: str) -> tuple[str, bytes]:
    """Steps 1–3, and the in-line view of the text after step 2 (steps 3+ never make or
    break a blank before a line break, so the view still answers step 4's test)."""
    raw = _encode(text)
    view = raw.translate(_INLINE_VIEW)
    # step 1: a run of two or more blanks is a run of two or more spaces in the view
    runs = [m.span() for m in _BLANK_RUN_VIEW.finditer(view)]
    if runs:
        raw, view = _squeeze(raw, runs), _squeeze(view, runs)
        text = _decode(raw)
    # after step 1 every blank run is a single space or tab (no two blanks touch), so step 2
    # drops each blank that precedes one of ,.;:!? and a drop never creates another such pair
    drops = [m.start() - 1 for m in _BLANK_BEFORE_PUNCT.finditer(view)]
    if drops:
        raw, view = _drop(raw, drops), _drop(view, drops)
        text = _decode(raw)
    if _PUNCT_PAIR.search(view):  # (also flags ",." and the like: then the exact search below)
        # step 3: each run of two or more of .!? becomes its last character
        runs = [m.span() for m in _PUNCT_RUN_VIEW.finditer(raw.translate(_PUNCT_VIEW))]
        if runs:
            pieces = []
            last = 0
            for a, b in runs:
                pieces += [raw[last:a], raw[b - 1:b]]
                last = b
            pieces.append(raw[last:])
            text = _decode(b"".join(pieces))
    return text, view


_PUNCT_VIEW = bytes.maketrans(b"!?", b"..")
_PUNCT_RUN_VIEW = re.compile(rb"\.\.\.*")  # (a two-byte literal lead, as _BLANK_RUN_VIEW)


# (a literal lead of two spaces: re skips along and tries the rest at a pair alone; ``  +`` leads
# with one and tried it at every blank, 5.9 ms a MB of restored text against 3.0; [ \t]{2,} at
# every blank too)
_BLANK_RUN_VIEW = re.compile(rb"   *")


def _squeeze(raw: bytes, runs: list[tuple[int, int]]) -> bytes:
    """``raw`` with each (sorted, disjoint) run replaced by one space."""
    pieces = []
    last = 0
    for a, b in runs:
        pieces.append(raw[last:a])
        last = b
    pieces.append(raw[last:])
    return b" ".join(pieces)


# a line break with a blank before it (directly, or before its \r): led by the \n, which ``re``
# skips to, where ``[ \t]+(?=\r?\n)`` is tried at every blank of the text (~30 ms on a
# megabyte of restored stretches with an emoji in them: 2 ms this way)
_BREAK_AFTER_BLANK = re.compile(r"\n(?<=[ \t]\n)")
_BREAK_AFTER_BLANK_CRLF = re.compile(r"\n(?:(?<=[ \t]\n)|(?<=[ \t]\r\n))")
_BREAK_RUN = re.compile(r"\n(?:\r?\n){2,}")  # three or more \r?\n, from the first \n (see _blank_lines_crlf)


def _trailing_blanks(text: str, *, crlf: bool, at_end: bool) -> str:
    r"""``text`` without the blank runs before each line break (``[ \t]+(?=\n)``, or
    ``[ \t]+(?=\r?\n)`` when ``crlf``), and before its end too when ``at_end``."""
    pieces = []
    last = 0
    for m in (_BREAK_AFTER_BLANK_CRLF if crlf else _BREAK_AFTER_BLANK).finditer(text):
        end = m.start() - 1 if crlf and text[m.start() - 1] == "\r" else m.start()
        start = end
        while start > last and text[start - 1] in " \t":
            start -= 1
        pieces.append(text[last:start])
        last = end
    if at_end and text.endswith((" ", "\t")):
        end = len(text.rstrip(" \t"))
        pieces.append(text[last:end])
        last = len(text)
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def _blank_lines_crlf(text: str) -> str:
    r"""``(?:\r?\n){3,}`` replaced by ``\r\n\r\n`` when the run holds a ``\r``, else ``\n\n``. A
    run is found from its first ``\n`` (a ``\r`` before it belongs to the run: a run never ends
    in ``\r``, so the character before the next one is never part of an earlier one)."""
    pieces = []
    last = 0
    for m in _BREAK_RUN.finditer(text):
        start, end = m.span()
        if text[start - 1:start] == "\r":
            start -= 1
        pieces += [text[last:start], "\r\n\r\n" if "\r" in text[start:end] else "\n\n"]
        last = end
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def cleanup(text: str, *, crlf: bool = False) -> str:
    """``cleanupArtifacts``: eight scans in the reference's order."""
    return _line_steps(*_collapse(text), crlf=crlf)


def cleanup_both(text: str) -> tuple[str, str]:
    """``(cleanup(text), cleanup(text, crlf=True))``: the in-line steps, which ignore line
    breaks, made once for both (CAV-Q14's check compares the two); and the steps after them
    too, as far as the two agree. They differ only at a blank before a ``\r\n`` (step 4), and
    at a run of three or more line breaks holding a ``\r`` (step 6): where the text has
    neither, both are one result (the same string)."""
    collapsed, view = _collapse(text)
    if _BLANK_BEFORE_CRLF_VIEW.search(view):
        return _line_steps(collapsed, view, crlf=False), _line_steps(collapsed, view, crlf=True)
    trimmed = _trailing_steps(collapsed, view, crlf=False)  # (= crlf=True's: no blank before a \r\n)
    plain = _blank_line_steps(trimmed, crlf=False)
    if not _cr_in_break_run(trimmed):
        return plain, plain
    return plain, _blank_line_steps(trimmed, crlf=True)


def _cr_in_break_run(text: str) -> bool:
    """Whether three or more line breaks (``\r?\n``) in a row hold a ``\r\n``: two of them
    then stand together as ``\n\r\n`` or ``\r\n\n``, with a third right before or after.
    Those pairs are found on the bytes (a text with CRLF code blocks has hundreds, a ``re``
    scan for the three tried each of its ~30,000 line breaks a MB: 3.7 ms)."""
    for pair in ("\n\r\n", "\r\n\n"):
        for at in occurrences(text, pair):
            if text[at - 1:at] == "\n" or text[at + 3:at + 4] == "\n" or text[at + 3:at + 5] == "\r\n":
                return True
    return False


def _line_steps(text: str, view: bytes, *, crlf: bool) -> str:
    """Steps 4–8 of ``cleanup`` on the result of steps 1–3 and its in-line view."""
    return _blank_line_steps(_trailing_steps(text, view, crlf=crlf), crlf=crlf)


def _trailing_steps(text: str, view: bytes, *, crlf: bool) -> str:
    """Steps 4–5: blanks before line breaks and at the end."""
    if crlf:
        if _BLANK_BEFORE_LF_VIEW.search(view) or _BLANK_BEFORE_CRLF_VIEW.search(view):
            text = _trailing_blanks(text, crlf=True, at_end=True)
    elif _BLANK_BEFORE_LF_VIEW.search(view):
        text = _trailing_blanks(text, crlf=False, at_end=True)
    if text.endswith((" ", "\t")):
        text = js_trim_end(text)
    return text


def _blank_line_steps(text: str, *, crlf: bool) -> str:
    """Steps 6–8: runs of blank lines, then line breaks at both ends."""
    if crlf:
        text = _blank_lines_crlf(text)
    elif _THREE_LF.search(text):
        text = _BLANK_LINES.sub("\n\n", text)
    return text.strip("\n")


# what any step of ``cleanup`` (crlf=False) acts on, inside the text: a blank run, a blank before
# punctuation or a line break, a punctuation run, three line breaks
# (led by one class: ``re`` skips to its characters, where an alternation of classes has no lead
# and was tried at every character: cleanup_restored on the 4 MB conformance-derived text 80 -> 68 ms)
_CLEANUP_TRIGGER = re.compile(r"[ \t.!?\n](?:(?<=[ \t])[ \t,.;:!?\n]|(?<=[.!?])[.!?]|(?<=\n)\n\n)")
TRIGGER_REACH = 2  # a trigger is at most 3 characters long: it overlaps a span within 2 of it


def cleanup_restored(text: str, spans: list[tuple[int, int]]) -> str:
    """``cleanup(text)`` for a text whose characters outside ``spans`` (sorted, disjoint) come
    from a ``cleanup`` result with only ASCII letters upper-cased since (``recapitalize``): the
    restored text after the first cleanup.

    ``cleanup`` leaves its own results unchanged (each step leaves nothing for the earlier
    ones, and no step looks at letters), so a step can only act where one of its triggers
    overlaps a span (a restored block), or at the ends of the text. Only the stretches around
    such triggers are cleaned (see ``_clean_stretches``); the rest is kept as it is."""
    return clean_restored(text, spans)[0]


def clean_restored(text: str, spans: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]] | None]:
    """``cleanup_restored``, and the stretches of ``text`` it cleaned (sorted, disjoint: all
    else was kept as it is), or None when it cleaned the whole text."""
    if not spans or text[:1] == "\n" or text.endswith(("\n", " ", "\t")):
        return cleanup(text), None
    reach = TRIGGER_REACH
    search = _CLEANUP_TRIGGER.search
    touched: list[tuple[int, int]] = []
    start, end = spans[0][0] - reach, spans[0][1] + reach
    for a, b in [*spans[1:], (len(text) + 2 * reach + 1, 0)]:  # (a last, empty window)
        if a - reach <= end:  # overlapping windows are searched as one
            end = max(end, b + reach)
            continue
        if search(text, max(start, 0), end):
            touched.append((max(start, 0), min(end, len(text))))
        start, end = a - reach, b + reach
    if not touched:
        return text, []
    return _clean_stretches(text, touched)


# characters some cleanup step acts on or next to; a cut between two other characters is one no
# step's match can straddle, and no step changes the characters beside it
_CLEANUP_CHARS = frozenset(" \t\n.!?,;:")


def _clean_stretches(text: str, touched: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]] | None]:
    """``cleanup(text)`` when every place a step acts on lies inside ``touched`` (sorted):
    each stretch is widened to cuts between two characters no step looks at, cleaned with the
    in-line steps (1–4 and 6; the end steps only matter at the ends of the text, where the
    whole text is cleaned instead), and put back between the untouched parts. Returns the text
    and the widened stretches (None: the whole text was cleaned)."""
    n, marks = len(text), _CLEANUP_CHARS
    widened: list[tuple[int, int]] = []
    for a, b in touched:
        done = widened[-1][1] if widened else 0  # (each character is walked over once at most)
        if widened and b <= done:
            continue  # inside the stretch before
        while a > done and (text[a - 1] in marks or text[a] in marks):
            a -= 1
        while b < n and (text[b - 1] in marks or text[b] in marks):
            b += 1
        if a <= 0 or b >= n:
            return cleanup(text), None
        if widened and a <= done:  # reached the stretch before: one stretch
            widened[-1] = (widened[-1][0], b)
        else:
            widened.append((a, b))
    pieces: list[str] = []
    last = 0
    cleaned = _inline_steps_each([text[a:b] for a, b in widened])
    for (a, b), stretch in zip(widened, cleaned):
        pieces += [text[last:a], stretch]
        last = b
    pieces.append(text[last:])
    return "".join(pieces), widened


def untouched(spans: list[tuple[int, int]], stretches: list[tuple[int, int]] | None) -> list[bool]:
    """Per span (sorted, disjoint), whether it lies outside every stretch ``clean_restored``
    cleaned (None: it cleaned the whole text, nothing is known to be left alone): the spans of
    the text it left as they were."""
    if stretches is None:
        return [False] * len(spans)
    alone = [True] * len(spans)
    if stretches:
        starts = [a for a, _b in spans]
        ends = [b for _a, b in spans]
        for a, b in stretches:  # (a few hundred stretches, thousands of spans per MB)
            first, stop = bisect_right(ends, a), bisect_left(starts, b)
            if first < stop:
                alone[first:stop] = [False] * (stop - first)
    return alone


def _inline_steps(text: str, *, crlf: bool = False) -> str:
    """Cleanup steps 1–4 and 6 (``cleanup`` without its end steps): for a stretch that starts
    and ends with characters no step acts on, and for each unprotected piece of
    ``cleanup_segments``. Each line-break step is skipped where a substring test shows no work."""
    text = _collapse(text)[0]
    if "\n" in text:
        if crlf:
            text = _blank_lines_crlf(_trailing_blanks(text, crlf=True, at_end=False))
        else:
            text = _trailing_blanks(text, crlf=False, at_end=False)
            if "\n\n\n" in text:
                text = _BLANK_LINES.sub("\n\n", text)
    return text


_PIECE_JOIN = "\x00"  # no step acts on it or across it (a blank run, punctuation run or line run ends at it)


def _inline_steps_each(pieces: list[str], *, crlf: bool = False) -> list[str]:
    """``[_inline_steps(p) for p in pieces]`` in one pass over the pieces joined by NUL: every
    step looks only at blanks, punctuation and line breaks next to each other, so a NUL between
    two pieces keeps each step's matches inside one piece. Thousands of small pieces (the
    stretches around the blocks of a MB of agent sessions) cost ~2 µs each through the steps
    one by one. A piece holding a NUL itself is cleaned on its own."""
    if len(pieces) < 2:
        return [_inline_steps(piece, crlf=crlf) for piece in pieces]
    joined = _PIECE_JOIN.join(pieces)
    if joined.count(_PIECE_JOIN) != len(pieces) - 1:
        return [_inline_steps(piece, crlf=crlf) for piece in pieces]
    return _inline_steps(joined, crlf=crlf).split(_PIECE_JOIN)


def cleanup_segments(pieces: list[tuple[str, bool]], *, crlf: bool = False) -> str:
    """Strict fix of CAV-Q1: clean only the unprotected pieces; protected ones stay byte-identical.

    Each unprotected piece gets the in-line scans; the whole-text steps (trailing blanks, leading
    and trailing newlines) only touch the first and last piece when they are unprotected.
    """
    out: list[str] = []
    last = len(pieces) - 1
    # (the piece's own end is not a line end)
    cleaned = iter(_inline_steps_each([piece for piece, protected in pieces if not protected], crlf=crlf))
    for i, (piece, protected) in enumerate(pieces):
        if protected:
            out.append(piece)
            continue
        piece = next(cleaned)
        if i == 0:
            piece = piece.lstrip("\n")
        if i == last:
            piece = js_trim_end(piece) if piece.endswith((" ", "\t")) else piece
            piece = piece.rstrip("\n")
        out.append(piece)
    return "".join(out)


_SENTENCE_LETTER = re.compile(rb"\. a")  # in the recapitalisation view
_LINE_LETTER = re.compile(rb"\na")
_LINE_BLANKS_LETTER = re.compile(rb"\n +a")


def recapitalize(text: str) -> str:
    """``recapitalizeSentences``: upper-case a-z at text start, after ``[.!?]`` + one blank, and
    after a newline plus any blanks (every such letter; the conditions only look at non-letters,
    so the reference's successive replaces upper-case exactly the union of the positions).

    In the view nearly every byte is ``a``, which defeats ``bytes`` searches for a needle
    holding one; ``re`` finds these needles from their rare first byte (``.`` or a newline)."""
    raw = _encode(text)
    view = raw.translate(_RECAP_VIEW)
    letters = [m.end() - 1 for m in _SENTENCE_LETTER.finditer(view)]
    if raw[:1].islower():  # (an ASCII letter at the start: upper-cased with the others, no copy)
        letters.append(0)
    if b"\n" in view:
        letters += [m.end() - 1 for m in _LINE_LETTER.finditer(view)]
        # (no ``b"\n " in view`` test first: ``bytes`` search stalls on every blank of the
        # text, while ``re`` skips from one newline to the next)
        letters += [m.end() - 1 for m in _LINE_BLANKS_LETTER.finditer(view)]
    if not letters:
        return text
    out = bytearray(raw)
    del raw, view  # (a large text's copies: only the result is still to come)
    for i in letters:
        out[i] -= 0x20  # a-z to A-Z
    return _decode(out)
