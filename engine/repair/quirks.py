"""Quirk ids of pi-repair-layer 0.4.3 (spec: repair.md §14), one line each.

Profile ``pi-repair-layer`` reproduces every quirk and reports the id (as a diagnostic) whenever
it changed a result; profile ``strict`` applies the fix.
"""

from __future__ import annotations

QUIRKS: dict[str, str] = {
    "REP-Q1": "a string where an array is expected is wrapped even when it looks like broken JSON",
    "REP-Q2": "input that only Convert makes valid is returned unconverted as 'valid'",
    "REP-Q3": "the retry message shows the post-preprocess value but the pre-repair errors",
    "REP-Q4": "numeric selector segments do not index arrays",
    "REP-Q5": "an empty canonical value blocks an alias unless emptyEquivalentToMissing is set",
    "REP-Q6": "grammar-tokens trims surrounding whitespace even when no token was removed",
    "REP-Q7": "scalar preprocessing can fight the schema type at its location",
    "REP-Q8": "an alias without 'accepts' moves any non-null value",
    "REP-Q9": "only one alias moves; the other aliases stay as extra keys",
    "REP-Q10": "an unknown policy name silently disables completion and value transforms",
    "REP-Q11": "'in' checks see Object.prototype members (constructor, toString, ...)",
    "REP-Q12": "changes made by the owner's prepareArguments hook are not recorded",
    "REP-Q13": "truncation candidates re-run the owner hook and emit observations per attempt",
    "REP-Q14": "rootString wraps truncated JSON text under conservative (or after failed candidates)",
    "REP-Q15": "JSON numbers are doubles: integers beyond 2^53 change",
    "REP-Q16": "filesystem-path only unwraps links whose URL starts with http(s)://",
}

PROFILES = ("pi-repair-layer", "strict")
DEFAULT_PROFILE = "pi-repair-layer"


def check_profile(profile: str) -> str:
    if profile not in PROFILES:
        raise ValueError(f"unknown repair profile {profile!r} (expected one of {', '.join(PROFILES)})")
    return profile
