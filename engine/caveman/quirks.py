"""Quirk ids of OmniRoute's Caveman engine (spec: caveman.md §16), one line each.

Profile ``omniroute`` reproduces every quirk and reports the id whenever it changed a result;
profile ``strict`` applies the fix. CAV-Q9 is fixed in both profiles (deterministic seed).
"""

from __future__ import annotations

QUIRKS: dict[str, str] = {
    "CAV-Q1": "the second cleanup runs over restored text, protected content included",
    "CAV-Q2": "rules of a fallen-back part stay in rulesApplied",
    "CAV-Q3": "English fallback rules when the language's rules yield nothing",
    "CAV-Q4": "keyword prefilter checked once against the pre-rule text",
    "CAV-Q5": "replacementMap miss inserts replacement verbatim (no $ expansion)",
    "CAV-Q6": "language hints use ASCII word boundaries",
    "CAV-Q7": "no validation when preservation is off",
    "CAV-Q8": "seven protected kinds are never validated",
    "CAV-Q9": "an all-digit random seed lets const_case re-wrap a placeholder (fixed in both profiles)",
    "CAV-Q10": "latex_block accepts mismatched \\begin{a}…\\end{b}",
    "CAV-Q11": "adapter takes compressRoles from cavemanConfig, ignoring the step config",
    "CAV-Q12": "dotted_identifier needs a following '('",
    "CAV-Q13": "validators are scanners that differ from the extraction patterns",
    "CAV-Q14": "cleanup ignores \\r",
    "CAV-Q15": "disabled path measures tokens over the JSON body",
    "CAV-Q16": "frontmatter search starts at offset 4",
    "CAV-Q17": "default preservePatterns use ^ without m",
    "CAV-Q18": "restore rebuilds every exposed Responses tool item; an object output comes back as JSON text",
    "CAV-Q19": "custom_tool_call_output JSON strings are re-serialised on restore",
    "CAV-Q20": "a Responses message item whose text sits in `output` gets a new `content` key on restore",
    "CAV-Q21": "adapting a Responses or Kiro body overwrites a non-array `messages` key; restore deletes it",
    "CAV-Q22": "Kiro bodies expose only tool results, as role `tool`",
    "CAV-Q23": "a `conversationState` record hides `input`, even when it holds no tool results",
    "CAV-Q24": "only untyped, `text` and `input_text` parts are compressed (Responses `output_text` is not)",
}

PROFILES = ("omniroute", "strict")


def check_profile(profile: str) -> str:
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r} (expected one of {', '.join(PROFILES)})")
    return profile
