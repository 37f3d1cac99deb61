"""What a learned filter must never lose, and the priority patterns that say so to the engine.

A line is *protected* when the generic survival check calls it signal (errors, failures,
project locations, counted summaries: ``engine.rtk.signal``), when it is a warning, or when it
reads like a run's outcome (``Finished``, ``Successfully installed``, ``Plan:``…) or closes a
sample — unless that outcome-like line repeats within one run, which makes it progress
(BuildKit's ``#5 DONE 0.3s``), not a summary. Noise discovery never drops a protected line.

The priority patterns (``preserve.errorPatterns`` / ``summaryPatterns``) are what the engine's
line limits keep whatever else they cut. The generic ones below are tried on the samples'
protected lines and kept when they catch one; an error and a failure pattern are always kept,
so a held-out run's first error still survives a cut.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.rtk.signal import is_signal, is_warning, normal

# Outcome words of common tools; our fixed detector (``re``), not a user pattern.
_OUTCOME = re.compile(
    r"^\s*(?:finished|done|success(?:ful(?:ly)?)?|succeeded|completed?|built|build (?:succeeded|successful)|"
    r"plan:|apply complete|no changes|up to date|nothing to|resolved|installed|audited|added \d|removed \d|"
    r"changed \d|found \d|ran \d|test result|tests?:|test suites:|time:|summary|result)\b"
    r"|\b(?:up to date|successfully|no changes|all checks passed|no issues|0 problems|vulnerabilities)\b",
    re.IGNORECASE)
TAIL_LINES = 2  # the last non-blank lines of a run are where tools put their verdict


@dataclass(frozen=True)
class Priority:
    pattern: str  # a JavaScript regex, compiled with `i`
    field: str  # "preserve.errorPatterns" | "preserve.summaryPatterns"
    reason: str
    always: bool = False


# Generic priority patterns (JavaScript, flag `i`; each proved linear by the learn tests).
GENERIC: tuple[Priority, ...] = (
    Priority(r"\b(?:error|errors|fatal|panic|panicked|exception|err!)\b|traceback", "preserve.errorPatterns",
             "error words", always=True),
    Priority(r"\bfail(?:ed|ure|ures|ing|s)?\b", "preserve.errorPatterns", "failure words", always=True),
    Priority(r"\bwarn(?:ing|ings)?\b|\w+warning\b", "preserve.errorPatterns", "warnings"),
    Priority(r"\w\.[a-z]\w{0,9}(?::\d+|\(\d+,\d+\))", "preserve.errorPatterns", "file:line locations"),
    Priority(r"\b(?:denied|not found|no such file|cannot|could not|unable to|timed out|refused)\b",
             "preserve.errorPatterns", "errors that name no error"),
    Priority(r"\b\d+ (?:passed|failed|tests?|errors?|warnings?|problems?|issues?|vulnerabilit(?:y|ies)|failures?)\b"
             r"|\btotal\b", "preserve.summaryPatterns", "counted summaries"),
)


def outcome_like(line: str) -> bool:
    return bool(_OUTCOME.search(line))


def hard_protected(line: str) -> bool:
    """Signal or warning: protected wherever and however often it appears."""
    n = normal(line)
    return bool(n) and (is_signal(n) or is_warning(n))


def tail_indexes(lines: list[str]) -> set[int]:
    """Indexes of the last ``TAIL_LINES`` non-blank lines."""
    out: list[int] = []
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].strip():
            out.append(i)
            if len(out) == TAIL_LINES:
                break
    return set(out)
