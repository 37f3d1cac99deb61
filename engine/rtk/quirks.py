"""Quirk ids of OmniRoute's RTK engine (``rtk.md`` §12) and of its verify gate and trust
(``verify-trust.md`` §8), one line each.

Profile ``omniroute`` reproduces each quirk and reports it with a diagnostic when it changed a
result; profile ``strict`` applies the fix.
"""

from __future__ import annotations

QUIRKS: dict[str, str] = {
    "RTK-Q1": "zod 4 object defaults: a canonical filter without `rules` or `preserve` crashes the mapping",
    "RTK-Q2": "the ReDoS heuristic silently drops patterns (false positives such as `([+-]\\d)+`)",
    "RTK-Q3": "invalid regexes in JSON filters are ignored at run time instead of rejected",
    "RTK-Q4": "an invalid `unless` counts as absent, so the matchOutput short-circuit fires",
    "RTK-Q5": "enable/disable lists apply after selection, with no fall-through to the next candidate",
    "RTK-Q6": "smartTruncate selects lines by text and re-orders priority lines before tail lines",
    "RTK-Q7": "the char-limit path adds `[rtk:truncated 0 lines]` and can split surrogate pairs",
    "RTK-Q8": "`maxLinesPerResult: 0` becomes 1; a filter `maxLines: 0` means the engine default",
    "RTK-Q9": "the document-read bypass does not cover engine dedup",
    "RTK-Q10": "document-read detection is defeated by incidental content (`/` lines, JSON reads)",
    "RTK-Q11": "the shell-tool test uses ASCII `\\b` on the tool name (`run_shell_command` is not a shell)",
    "RTK-Q12": "dedup markers can make the output longer (a 3-line run stays 3 lines)",
    "RTK-Q13": "a non-empty config without `enabled` and no step config disables the engine",
    "RTK-Q14": "command discovery from output is case-sensitive prefix matching on the first 4 lines",
    "RTK-Q15": "the id tie-break uses ICU collation rather than code-point order",
    "RTK-Q16": "TOML filters are matched case-insensitively and compiled as JavaScript regexes",
    "RTK-Q17": "grouping treats blank and whitespace-only lines as similar lines",
    "RTK-Q18": "the document-read bypass does not cover grouping",
    "RTK-Q19": "`groupingThreshold` is not normalised (JavaScript `Number()`; NaN switches grouping off)",
    "RTK-Q20": "the hex-id normaliser also takes words of 6–40 letters a–f (`facade`, `decade`)",
    "RTK-Q21": "the git-diff renderer drops change lines whose second character is `+` or `-`",
    "RTK-Q22": "test-green consults only the first `N failed` match",
    "RTK-Q23": "test-green writes `ESLint: 0 problems found` for any empty output",
    "RTK-Q24": "test-green's failure guard is the bare substring `Error`",
    "RTK-Q25": "terraform-plan lists only `# ADDR will be …` lines with a whitespace-free address",
    "RTK-Q26": "`renderers` is not normalised and names detection types (a string is a substring test)",
    "RTK-Q27": "structured-table counts keys on a plain JavaScript object (inherited names, index keys first)",
    "RTK-Q28": "code fences are found by one regex, not by lines",
    "RTK-Q29": "renderers drop the marker lines of earlier stages",
    "RTK-Q30": "language detection tests for JavaScript before Python, Rust, Go and Java",
    "RTK-Q31": "the blank-line pattern runs multiline over CRLF code and removes its line feeds",
    "RTK-Q32": "comment removal keeps comments attached to no syntax-tree node",
    "RTK-Q33": "any JSX in a block disables comment removal",
    "RTK-Q34": "a block ending in a line break always counts as stripped (and gains a label)",
    "RTK-Q35": "Responses and Kiro tool outputs carry no tool id (command unknown, filters never skipped)",
}


# Quirk ids of verify-trust.md §8 (reported by trust, sources, toml_io and verify).
VT_QUIRKS: dict[str, str] = {
    "VT-Q1": "OmniRoute hashes the UTF-8-decoded text (U+FFFD replacement); rtk hashes the raw bytes",
    "VT-Q2": "the stored hash is compared exactly: case-sensitive, untrimmed",
    "VT-Q3": "JSON.parse rejects a UTF-8 BOM in trust.json and in filters.json",
    "VT-Q4": "the legacy trustedFiltersSha256 is read only when filtersSha256 is not a string",
    "VT-Q5": "the verify gate ignores tests[].command (no activation check)",
    "VT-Q6": "the verify gate runs the filter alone with its raw maxLines, not what the engine does",
    "VT-Q7": "verify diagnostics come from a second load with default options",
    "VT-Q8": "one invalid entry skips the whole custom JSON file",
    "VT-Q9": "one failing inline test rejects a whole TOML file",
    "VT-Q10": "trust is re-checked only on reload (the cache key ignores file contents)",
    "VT-Q11": "OMNIROUTE_RTK_TRUST_PROJECT_FILTERS=1 needs no CI context",
    "VT-Q12": "TOML regexes are JavaScript regexes matched case-insensitively; (?i) files are rejected",
    "VT-Q13": "the load-diagnostics API reloads with default options when its cache key differs",
}


def describe(quirk_id: str) -> str:
    return QUIRKS.get(quirk_id) or VT_QUIRKS.get(quirk_id, quirk_id)
