"""Which lines of a command output carry signal for the model, and whether a filter lost any.

One home for the "no error or summary line lost" rule: our own filters are held to it
(``tests/library/test_rtk_filters.py``), a learned filter is proved against it
(``engine.rtk.learn.proof``) and the benchmark counts what each filter loses with it
(``bench/bench_learn.py``). The detectors know nothing about any tool: error and failure words,
``file:line`` locations, and summary lines with counts. ``is_warning`` adds warnings, which a
learned filter also protects (a hand-written one may decide that a tool's warnings are noise).

These are our fixed detectors, not user patterns, so they run on ``re``.
"""

from __future__ import annotations

import re

# Error and failure words in any tool's wording (npm's `ERR!`, Go's `FAIL`, Rust's `panicked`) and
# the usual phrasings of an error that names no error (`Permission denied`, `No such file`); a
# word glued into a file name by `-` (`test-failed-1.png`) is not one.
ERROR_WORDS = re.compile(
    r"(?<![\w-])(?:error|errors|err!|fail|failed|failure|failures|failing|fatal|panic|panicked|exception)(?![\w-])"
    r"|(?-i:FAIL)|Traceback"
    r"|\b(?:denied|not found|no such file|cannot|could not|couldn't|unable to|timed out|refused|unreachable)\b",
    re.IGNORECASE)
# `file:line[:col]` (also tsc's `file(line,col)`): a path token with an extension, then a number.
# Deliberately narrower than `\S+:\d+`, which would also match clock times (`12:04:55`) and
# `host:port`, neither of which is a source location.
LOCATION = re.compile(r"[\w./\\@~+-]*\w\.[A-Za-z][\w]{0,9}(?::\d+(?::\d+)?\b|\(\d+,\d+\))"
                      r"|\b[A-Z]\w*file:\d+")
# Stack frames inside dependencies or the runtime are not the project's code.
DEPENDENCY_FRAME = re.compile(r"node_modules/|node:internal|\(internal/|site-packages/|/rustc/|\.cargo/registry|"
                              r"/usr/(?:local/)?(?:lib/)?go/src/")
# A line that reports a passing check (`✓ tests/a.spec.ts:4:5 › works (6 tests)`) is signal only
# through an error word, not through its location or counts.
PASSING = re.compile(r"^(?:✓|✔|√|PASS\b|ok\b|\(pass\))|\.{3,}\s*Passed$|\bpassed \([\d.]+ ?m?s(?:econds)?\)\.?$")
# Summary lines: the words test runners, linters and package managers put in their final count
# (`total` only next to a number, so curl's progress-meter header is not a summary; a start banner
# such as `Running 6 tests using 3 workers` announces work, it does not report a result).
SUMMARY = re.compile(
    r"(?<![\w-])(?:passed|failed|errors|warnings)(?![\w-])"
    r"|(?<![\w-])total(?=:?\s*\d)|\d[\d.]*[KMGT]?i?B?\s+total\b"
    r"|(?<![\w.:])(?<!running )(?<!collected )\d+\s+(?:problems?|issues?|offen[cs]es?|vulnerabilit(?:y|ies)|tests?|failures?|errors?|warnings?)\b"
    r"(?![/.-]\w)",
    re.IGNORECASE)
# Warnings in the wordings tools use (`warning:`, npm's `WARN`, Python's `DeprecationWarning`).
WARNING = re.compile(r"(?<![\w-])(?:warn|warning|warnings)(?![\w-])|\w+Warning\b|(?-i:WARN)", re.IGNORECASE)
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
# Horizontal rules drawn with box characters are decoration; filters may trim them.
RULE = re.compile(r"[─━⎯═—]{3,}")


def normal(line: str) -> str:
    """A line as the survival check compares it: no ANSI codes, no box rules, single spaces."""
    return " ".join(RULE.sub(" ", ANSI.sub("", line)).split())


def is_signal(line: str) -> bool:
    """Whether a (normalised) line reports an error, a failure, a project location or a summary."""
    if ERROR_WORDS.search(line):
        return True
    if PASSING.search(line):
        return False
    return bool(SUMMARY.search(line)) or (bool(LOCATION.search(line)) and not DEPENDENCY_FRAME.search(line))


def is_warning(line: str) -> bool:
    return bool(WARNING.search(line))


def must_survive(text: str) -> list[str]:
    """The lines of ``text`` that carry signal (ANSI codes removed, whitespace runs collapsed)."""
    return [line for line in map(normal, text.splitlines()) if line and is_signal(line)]


def missing_lines(text: str, output: str, *, protected: list[str] | None = None) -> list[str]:
    """Signal lines of ``text`` (or the given ``protected`` normalised lines) that no output line
    contains. Filters may re-indent lines and squeeze column padding, so both sides are compared
    with whitespace runs collapsed."""
    kept = [normal(line) for line in output.split("\n")]
    wanted = must_survive(text) if protected is None else protected
    return [line for line in wanted if not any(line in k for k in kept)]
