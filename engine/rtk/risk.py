"""What a filter file could hide from the model — the review shown before trusting it (§7.3).

Two views. ``rtk_text_summary`` is rtk's own ``rtk trust`` summary: substring heuristics on the
raw text (``[filters.`` count, ``replace``, ``match_output``, a literal catch-all pattern).
``assess_filters`` looks at the parsed filters: rules that rewrite or replace output, patterns
that match every line, keep-lists that drop error lines, drop-lists that remove them, tiny line
limits, ``onEmpty`` messages that claim success, ``matchOutput`` without ``unless``, and command
patterns that would catch security scanners — the threat model is hiding scanner or error output
from the model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from engine.jsvalues import JsonObject
from engine.rtk.model import RtkFilter

if TYPE_CHECKING:
    from engine.jsregex import JSRegExp

Level = Literal["high", "medium", "info"]

# Probes: lines that stand for "any line" and lines a filter must not silently lose.
ANY_LINES = ("", "a", "hello world", "  indented text", "12345", "{}", "\t-")
ERROR_LINES = ("error: something failed", "Error: boom", "FAILED tests/test_x.py::test_y",
               "Traceback (most recent call last):", "warning: deprecated", "panic: runtime error",
               "npm ERR! code ELIFECYCLE", "1 failed, 2 passed")
SECURITY_COMMANDS = ("npm audit", "pnpm audit", "yarn audit", "pip-audit", "cargo audit", "trivy image app",
                     "grype .", "semgrep --config auto", "snyk test", "bandit -r .", "gitleaks detect",
                     "osv-scanner .", "safety check", "checkov -d .", "tfsec .", "gosec ./...")
# Our own wording check (not a user pattern): an onEmpty text that reads like "all is well".
_SUCCESS_WORDS = re.compile(r"\b(ok|okay|success|successful|succeeded|passed|pass|clean|all good|done|"
                            r"no (errors?|issues|problems|failures|changes|vulnerabilities))\b", re.I)
SMALL_MAX_LINES = 5
HUGE_ON_EMPTY = 200


@dataclass(frozen=True)
class RiskFinding:
    level: Level
    code: str
    message: str
    filter_id: str | None = None

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"level": self.level, "code": self.code, "message": self.message}
        if self.filter_id is not None:
            out["filterId"] = self.filter_id
        return out


@dataclass
class RiskSummary:
    filter_count: int
    rtk_lines: list[str]  # rtk's own summary, verbatim
    findings: list[RiskFinding] = field(default_factory=list)

    @property
    def high(self) -> list[RiskFinding]:
        return [f for f in self.findings if f.level == "high"]

    def format(self) -> str:
        lines = list(self.rtk_lines)
        if self.findings:
            lines.append("Rulewright review:")
            for finding in self.findings:
                who = f"[{finding.filter_id}] " if finding.filter_id else ""
                lines.append(f"  [{finding.level}] {who}{finding.message}")
        else:
            lines.append("Rulewright review: nothing to flag.")
        return "\n".join(lines)

    def to_dict(self) -> JsonObject:
        return {"filterCount": self.filter_count, "rtkSummary": list(self.rtk_lines),
                "findings": [f.to_dict() for f in self.findings]}


def rtk_text_summary(text: str, filter_count: int | None = None) -> list[str]:
    """rtk v0.38 ``trust`` risk summary: substring checks on the raw file text."""
    count = text.count("[filters.") if filter_count is None else filter_count
    lines = ["Risk summary:", f"  Filters: {count}"]
    flagged = False
    if "replace" in text:
        lines.append("  [!] Contains 'replace' rules (can rewrite output)")
        flagged = True
    if "match_output" in text:
        lines.append("  [!] Contains 'match_output' rules (can replace entire output)")
        flagged = True
    if 'pattern = "."' in text or "pattern = '.'" in text:
        lines.append("  [!] Contains catch-all pattern '.' (matches everything)")
        flagged = True
    if not flagged:
        lines.append("  No high-risk patterns detected.")
    return lines


def _compile(pattern: str, flags: str) -> JSRegExp | None:
    from engine.jsregex import JSSyntaxError, compile_js

    try:
        return compile_js(pattern, flags)
    except JSSyntaxError:
        return None


def pattern_matches(pattern: str, flags: str, text: str) -> bool:
    from engine.jsregex import RegexTimeout

    rx = _compile(pattern, flags)
    if rx is None:
        return False
    try:
        return rx.search(text) is not None
    except RegexTimeout:
        return False


def matches_every_line(pattern: str, flags: str = "i") -> bool:
    """A catch-all: matches every probe line, the empty one included (``.`` misses only that)."""
    return all(pattern_matches(pattern, flags, line) for line in ANY_LINES[1:])


def assess_filter(f: RtkFilter) -> list[RiskFinding]:
    out: list[RiskFinding] = []
    fid = f.id

    def add(level: Level, code: str, message: str) -> None:
        out.append(RiskFinding(level, code, message, fid))

    if f.replace:
        add("medium", "replace", f"{len(f.replace)} 'replace' rule(s) can rewrite output")
        for rule in f.replace:
            if matches_every_line(rule.pattern, "g"):
                add("high", "catch-all", f"replace pattern {rule.pattern!r} matches every line")
    for output in f.match_output:
        if matches_every_line(output.pattern, "im"):
            add("high", "catch-all", f"matchOutput pattern {output.pattern!r} matches any output: the whole output "
                                     f"always becomes {output.message!r}")
        else:
            add("medium", "match-output", f"matchOutput {output.pattern!r} replaces the entire output with "
                                          f"{output.message!r}")
        unless = output.unless
        if unless is None:
            add("medium", "match-output-no-unless", f"matchOutput {output.pattern!r} has no 'unless' guard: it "
                                                    "fires even when errors are present")
        elif any(not pattern_matches(unless, "im", line) for line in ERROR_LINES[:3]):
            missed = [line for line in ERROR_LINES[:3] if not pattern_matches(unless, "im", line)]
            add("info", "match-output-weak-unless", f"the 'unless' of {output.pattern!r} does not catch "
                                                    f"{missed[0]!r}")
    flags = "i"  # drop/include patterns are compiled with `i` (rtk.md §4)
    for pattern in f.strip_patterns:
        if matches_every_line(pattern, flags):
            add("high", "catch-all", f"drop pattern {pattern!r} removes every line")
    dropped_errors = sorted({line for line in ERROR_LINES for p in f.strip_patterns if pattern_matches(p, flags, line)},
                            key=ERROR_LINES.index)
    if dropped_errors:
        add("high", "drops-errors", f"drop patterns remove error-like lines such as {dropped_errors[0]!r}")
    kept_errors: list[str] = []
    if f.keep_patterns:
        kept = kept_errors = [line for line in ERROR_LINES if any(pattern_matches(p, flags, line) for p in f.keep_patterns)]
        if not kept:
            add("medium", "keeps-no-errors", "include patterns keep none of the generic error lines (error:, "
                                             "FAILED, Traceback…): check that this tool's own error lines survive")
    for pattern in f.command_patterns:
        if matches_every_line(pattern, "im"):
            add("high", "catch-all-command", f"command pattern {pattern!r} selects this filter for every command")
        hits = [cmd for cmd in SECURITY_COMMANDS if pattern_matches(pattern, "im", cmd)]
        if hits:
            add("high", "security-tool", f"command pattern {pattern!r} also matches security tooling "
                                         f"({', '.join(hits[:3])}): scanner output could be hidden")
    for pattern in f.match_patterns:
        if matches_every_line(pattern, "im"):
            add("high", "catch-all-output", f"output pattern {pattern!r} selects this filter for any output")
    max_lines = f.rtk_toml_max_lines if f.is_toml else f.max_lines
    if max_lines and max_lines <= SMALL_MAX_LINES:
        add("medium", "small-max-lines", f"maxLines {max_lines} keeps at most {max_lines} line(s)")
    if f.is_toml:
        for name, value in (("head_lines", f.rtk_toml_head_lines), ("tail_lines", f.rtk_toml_tail_lines)):
            if value is not None and value <= 1:
                add("medium", "small-max-lines", f"{name} = {value} keeps almost nothing")
    if 0 < f.truncate_line_at <= 20:
        add("medium", "short-lines", f"truncateLineAt {f.truncate_line_at} cuts every line very short")
    if f.on_empty:
        if _SUCCESS_WORDS.search(f.on_empty):
            # High when the filter can also drop error-like lines: then "ok" can stand for a failure.
            level: Level = "high" if dropped_errors or (f.keep_patterns and not kept_errors) else "medium"
            add(level, "on-empty-success", f"onEmpty {f.on_empty!r} claims success when everything was filtered out")
        if len(f.on_empty) > HUGE_ON_EMPTY:
            add("medium", "huge-on-empty", f"onEmpty is {len(f.on_empty)} characters long: it can inject text")
    return out


def assess_filters(filters: list[RtkFilter]) -> list[RiskFinding]:
    findings: list[RiskFinding] = []
    for f in filters:
        findings.extend(assess_filter(f))
    order = {"high": 0, "medium": 1, "info": 2}
    return sorted(findings, key=lambda x: order[x.level])


def risk_summary(text: str, filters: list[RtkFilter], *, is_toml: bool) -> RiskSummary:
    """rtk's text summary (for TOML; for JSON the same checks on the parsed rules) plus our review."""
    if is_toml:
        rtk_lines = rtk_text_summary(text)
    else:
        rtk_lines = ["Risk summary:", f"  Filters: {len(filters)}"]
        flagged = False
        if any(f.replace for f in filters):
            rtk_lines.append("  [!] Contains 'replace' rules (can rewrite output)")
            flagged = True
        if any(f.match_output for f in filters):
            rtk_lines.append("  [!] Contains 'matchOutput' rules (can replace entire output)")
            flagged = True
        if any(p in (".", ".*", "") for f in filters for p in
               (*f.strip_patterns, *(r.pattern for r in f.replace), *(r.pattern for r in f.match_output))):
            rtk_lines.append("  [!] Contains catch-all pattern '.' (matches everything)")
            flagged = True
        if not flagged:
            rtk_lines.append("  No high-risk patterns detected.")
    return RiskSummary(len(filters), rtk_lines, assess_filters(filters))
