"""Removing detected ranges from a text part (spec §5 step 6, GRM-Q11)."""

from __future__ import annotations

import regex

from engine.grammar.candidates import Candidate, Hits
from engine.grammar.textscan import WS, js_ascii
from engine.jsvalues import js_trim, js_trim_end, js_trim_start

_BLANKS_BEFORE_NEWLINE = regex.compile(r"[ \t]+\n")
_NEWLINE_RUN = regex.compile(r"\n{3,}")


def _normalise(text: str) -> str:
    return _NEWLINE_RUN.sub("\n\n", _BLANKS_BEFORE_NEWLINE.sub("\n", text))


def remove_ranges(text: str, ranges: list[tuple[int, int]]) -> str:
    """The reference: cut the ranges, then normalise and trim the whole part (GRM-Q11)."""
    out: list[str] = []
    cursor = 0
    for start, end in sorted(ranges, key=lambda r: r[0]):
        out.append(text[cursor:start])
        cursor = max(cursor, end)
    out.append(text[cursor:])
    return js_trim(_normalise("".join(out)))


_LEADING_BLANK_LINES = regex.compile(r"(?:[ \t]*\n)*")


def _join(left: str, right: str) -> str:
    """Join two pieces around a cut, collapsing the blank lines the cut left behind."""
    left_core = left.rstrip(" \t\n")
    left_newlines = left[len(left_core) :].count("\n")
    lead = _LEADING_BLANK_LINES.match(right)
    right_newlines = lead.group(0).count("\n") if lead else 0
    newlines = left_newlines + right_newlines
    if newlines == 0:
        return left + right
    return left_core + "\n" * min(newlines, 2) + right[lead.end() if lead else 0 :]


def remove_ranges_locally(text: str, ranges: list[tuple[int, int]]) -> str:
    """Strict GRM-Q11: tidy blanks only where text was cut; the rest of the part stays as is."""
    if not ranges:
        return text
    ordered = sorted(ranges, key=lambda r: r[0])
    pieces: list[str] = []
    cursor = 0
    for start, end in ordered:
        if start > cursor:
            pieces.append(text[cursor:start])
        elif not pieces:
            pieces.append("")
        cursor = max(cursor, end)
    pieces.append(text[cursor:])
    result = pieces[0]
    for piece in pieces[1:]:
        result = _join(result, piece)
    if not js_trim(text[: ordered[0][0]]):
        result = js_trim_start(result)
    if not js_trim(text[max(end for _, end in ordered) :]):
        result = js_trim_end(result)
    return result


_OPEN_WRAPPER_BEFORE = js_ascii(
    rf"(?:<(?:[A-Za-z][A-Za-z0-9_.\-]*:)?tool_call(?:{WS}[^>]*)?>|<function_calls>){WS}*\Z", ignore_case=True)


def strip_range(text: str, cand: Candidate, hits: Hits, *, strict: bool) -> tuple[int, int]:
    """The range to cut; strict extends it over an unclosed wrapper opener just before (GRM-Q25)."""
    window_start = max(0, cand.start - 300)
    m = _OPEN_WRAPPER_BEFORE.search(text[window_start : cand.start])
    if m is None or cand.strip_only:
        return cand.range
    hits.add("GRM-Q25", f"the unclosed wrapper `{m.group(0).strip()}` before the call was left behind")
    return (window_start + m.start(), cand.end) if strict else cand.range
