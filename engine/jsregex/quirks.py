"""JSR quirk ids (spec §14) and the per-pattern quirk report."""

from __future__ import annotations

from engine.diagnostics import Diagnostic

QUIRKS: dict[str, str] = {
    "JSR-Q1": "Annex B identity, control, octal and \\8/\\9 escapes; \\k is literal without named groups",
    "JSR-Q2": "lone { } ] and invalid {…} are literals",
    "JSR-Q3": "a class escape as a range endpoint makes '-' literal",
    "JSR-Q4": "a backreference to an unset, forward or open group matches empty",
    "JSR-Q5": "captures reset per iteration; empty iterations beyond the minimum fail",
    "JSR-Q6": "without u, matching works on UTF-16 units",
    "JSR-Q7": "without u, i uses Canonicalize (toUpperCase); with u/v simple case folding",
    "JSR-Q8": "y without g keeps lastIndex across calls",
    "JSR-Q9": "$<name> is literal without named groups; $nn falls back to $n + digit",
    "JSR-Q10": "\\w and \\b are ASCII-only, even with u",
    "JSR-Q11": "quantified lookahead is allowed without u",
    "JSR-Q12": "\\q{} and properties of strings (v flag)",
    "JSR-V8": "a V8 11.3 defect reproduced as Node 20 behaves (quantified v-mode [^])",
}


def quirks(source: str, flags: str = "", profile: str = "v8", replacement: str | None = None) -> list[Diagnostic]:
    from .analysis import pattern_quirks

    return pattern_quirks(source, flags, profile=profile, replacement=replacement)
