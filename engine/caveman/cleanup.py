"""Cleanup and recapitalisation after the rules ran (spec §9).

Character scans with fixed, ASCII-only patterns (spaces, tabs, ``\\n``, ``.!?``), so Python's
``re`` reproduces them exactly. ``crlf=True`` is the strict fix of CAV-Q14 (``\\r\\n`` counts
as a line break in steps 4 and 6).
"""

from __future__ import annotations

import re

from engine.jsvalues import js_trim_end

_HWS_RUN = re.compile(r"[ \t]{2,}")
_PUNCT_RUN = re.compile(r"[.!?]{2,}")
_PUNCT_PAIR = re.compile(r"[.!?][.!?]")
_TRAILING_HWS = re.compile(r"[ \t]+$", re.M)
_TRAILING_HWS_CRLF = re.compile(r"[ \t]+(?=\r?\n|\Z)")
_BLANKS_BEFORE_LF = re.compile(r"[ \t]+(?=\n)")
_BLANKS_BEFORE_CRLF = re.compile(r"[ \t]+(?=\r?\n)")
_BLANK_LINES = re.compile(r"\n{3,}")
_BLANK_LINES_CRLF = re.compile(r"(?:\r?\n){3,}")
_RECAP = re.compile(r"([.!?][ \t])([a-z])")
_RECAP_LINE = re.compile(r"(\n[ \t]*)([a-z])")


def collapse_spaces(text: str) -> str:
    """Steps 1–3: the in-line scans (runs of blanks, blanks before punctuation, punctuation runs).

    Each scan is skipped when a cheap substring test shows it has nothing to do."""
    if "  " in text or "\t" in text:
        text = _HWS_RUN.sub(" ", text)
    # after step 1 every blank run is a single space or tab, so step 2 is plain replacing
    for blank in (" ", "\t") if "\t" in text else (" ",):
        for punct in ",.;:!?":
            text = text.replace(blank + punct, punct)
    if _PUNCT_PAIR.search(text):
        text = _PUNCT_RUN.sub(lambda m: m.group(0)[-1], text)
    return text


def cleanup(text: str, *, crlf: bool = False) -> str:
    """``cleanupArtifacts``: eight scans in the reference's order."""
    text = collapse_spaces(text)
    if crlf:
        if " \n" in text or "\t\n" in text or " \r\n" in text or "\t\r\n" in text:
            text = _TRAILING_HWS_CRLF.sub("", text)
    elif " \n" in text or "\t\n" in text:
        text = "\n".join(line.rstrip(" \t") for line in text.split("\n"))
    if text.endswith((" ", "\t")):
        text = js_trim_end(text)
    if crlf:
        text = _BLANK_LINES_CRLF.sub(lambda m: "\r\n\r\n" if "\r" in m.group(0) else "\n\n", text)
    elif "\n\n\n" in text:
        text = _BLANK_LINES.sub("\n\n", text)
    return text.strip("\n")


def cleanup_segments(pieces: list[tuple[str, bool]], *, crlf: bool = False) -> str:
    """Strict fix of CAV-Q1: clean only the unprotected pieces; protected ones stay byte-identical.

    Each unprotected piece gets the in-line scans; the whole-text steps (trailing blanks, leading
    and trailing newlines) only touch the first and last piece when they are unprotected.
    """
    out: list[str] = []
    last = len(pieces) - 1
    for i, (piece, protected) in enumerate(pieces):
        if protected:
            out.append(piece)
            continue
        piece = collapse_spaces(piece)
        if "\n" in piece:  # blanks before a line break; the piece's own end is not a line end
            piece = (_BLANKS_BEFORE_CRLF if crlf else _BLANKS_BEFORE_LF).sub("", piece)
        piece = (_BLANK_LINES_CRLF.sub(lambda m: "\r\n\r\n" if "\r" in m.group(0) else "\n\n", piece)
                 if crlf else _BLANK_LINES.sub("\n\n", piece))
        if i == 0:
            piece = piece.lstrip("\n")
        if i == last:
            piece = js_trim_end(piece) if piece.endswith((" ", "\t")) else piece
            piece = piece.rstrip("\n")
        out.append(piece)
    return "".join(out)


def recapitalize(text: str) -> str:
    """``recapitalizeSentences``: upper-case a-z at text start, after ``[.!?]`` + one blank, and
    after a newline plus any blanks."""
    if text[:1].islower() and text[0].isascii():
        text = text[0].upper() + text[1:]
    text = _RECAP.sub(lambda m: m.group(1) + m.group(2).upper(), text)
    if "\n" in text:
        text = _RECAP_LINE.sub(lambda m: m.group(1) + m.group(2).upper(), text)
    return text
