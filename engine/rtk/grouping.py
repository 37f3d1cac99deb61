"""Grouping of similar consecutive lines — OmniRoute's ``groupSimilarLines`` (``rtk.md`` §7.5).

Lines that differ only in numbers, timestamps, hex ids or versions collapse into their first line
plus `` [rtk:grouped ×N]``. The threshold is read with JavaScript conversions (RTK-Q19), blank
lines group like any other (RTK-Q17) and so do words made of hex letters (RTK-Q20); ``strict``
fixes all three.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from engine.diagnostics import Diagnostic
from engine.jsvalues import JS_WHITESPACE, js_number, js_string, js_trim

_WS = "[" + re.escape(JS_WHITESPACE) + "]"
_LINE_SPLIT = re.compile(r"\r?\n")
# (pattern, replacement) in the reference's order; ASCII \d and \b, JS \s.
_NORMALISERS = (
    (re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?", re.ASCII), "<N>"),
    (re.compile(r"\[\d{4}-\d{2}-\d{2}" + _WS + r"+\d{2}:\d{2}:\d{2}\]", re.ASCII), "[<N>]"),
    (re.compile(r"\b[0-9a-fA-F]{6,40}\b", re.ASCII), "<N>"),
    (re.compile(r"\bv?\d+\.\d+\.\d+(?:\.\d+)*\b", re.ASCII), "<N>"),
    (re.compile(r"\b\d+\b", re.ASCII), "<N>"),
)
_HEX_WITH_DIGIT = re.compile(r"\b(?=[a-fA-F]*\d)[0-9a-fA-F]{6,40}\b", re.ASCII)
_SPACES = re.compile(_WS + "+")
DEFAULT_THRESHOLD = 3


def grouping_threshold(raw: Any, *, absent: bool = False, profile: str = "omniroute") -> float:
    """``max(2, floor(Number(g)))`` (3 when absent or null); NaN or +∞ switch grouping off.

    ``strict`` (RTK-Q19 fix): a finite number → ``max(2, floor)``, anything else → 3."""
    if absent or raw is None:
        return DEFAULT_THRESHOLD
    if profile == "strict":
        if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
            return DEFAULT_THRESHOLD
        return max(2, math.floor(raw))
    number = js_number(js_string(raw) if isinstance(raw, list) else raw)  # arrays via their string form
    if math.isnan(number) or number == math.inf:
        return math.nan
    if number == -math.inf:
        return 2
    return max(2, math.floor(number))


def normal_form(line: str, *, profile: str = "omniroute") -> str:
    """The line with its variable parts replaced by ``<N>`` and its spaces collapsed."""
    for pattern, replacement in _NORMALISERS:
        if profile == "strict" and replacement == "<N>" and pattern.pattern.startswith(r"\b[0-9a-fA-F]"):
            line = _HEX_WITH_DIGIT.sub("<N>", line)  # RTK-Q20 fix: a hex id has a digit
            continue
        line = pattern.sub(replacement, line)
    return js_trim(_SPACES.sub(" ", line))


@dataclass
class GroupingResult:
    text: str
    grouped: int  # lines folded into the first line of their run
    runs: list[tuple[int, int]] = field(default_factory=list)  # (first line index, run length)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def group_similar_lines(text: str, threshold: float, *, profile: str = "omniroute") -> GroupingResult:
    """Fold runs of at least ``threshold`` lines with one normal form (§7.5 steps 2–5)."""
    lines = _LINE_SPLIT.split(text)
    forms = [normal_form(line, profile=profile) for line in lines]
    out: list[str] = []
    runs: list[tuple[int, int]] = []
    grouped = 0
    blank_runs = hex_word_runs = 0
    i = 0
    while i < len(lines):
        run = 1
        while i + run < len(lines) and forms[i + run] == forms[i]:
            run += 1
        if profile == "strict" and forms[i] == "":
            run = 1  # RTK-Q17 fix: never group blank lines
        if run >= threshold:  # False for NaN: grouping silently off (RTK-Q19)
            out.append(f"{lines[i]} [rtk:grouped \u00d7{run}]")
            runs.append((i, run))
            grouped += run - 1
            if forms[i] == "":
                blank_runs += 1
            elif profile != "strict" and len({normal_form(x, profile="strict") for x in lines[i:i + run]}) > 1:
                hex_word_runs += 1
            i += run
        else:
            out.append(lines[i])
            i += 1
    if grouped == 0:
        return GroupingResult(text, 0)
    diagnostics = []
    if blank_runs:
        diagnostics.append(Diagnostic(
            f"{blank_runs} run(s) of blank or whitespace-only lines were grouped into one line", "info", "RTK-Q17",
            source="rtk"))
    if hex_word_runs:
        diagnostics.append(Diagnostic(
            f"{hex_word_runs} run(s) were grouped only because words of hex letters (`facade`, `decade`) "
            "were taken for ids", "info", "RTK-Q20", source="rtk"))
    return GroupingResult("\n".join(out), grouped, runs, diagnostics)
