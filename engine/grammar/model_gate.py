"""Which models get grammar recovery at all (spec §6.2 step 3, GRM-Q15)."""

from __future__ import annotations

import regex

LEAK_FAMILIES: tuple[str, ...] = ("glm", "kimi", "minimax", "qwen", "mistral", "llama", "granite", "olmo", "deepseek")

# The reference: nine unanchored, case-insensitive (ASCII) substrings.
_REFERENCE = [regex.compile(f, regex.ASCII | regex.IGNORECASE) for f in LEAK_FAMILIES]

# Strict: the family must start the model name (the last path segment) or one of its words, and
# Mistral's other product names and Hermes count too.
_STRICT_FAMILIES = (*LEAK_FAMILIES, "mixtral", "devstral", "codestral", "magistral", "ministral", "hermes", "qwq")
_STRICT = regex.compile(r"(?:^|[:_.\-\s])(?:" + "|".join(_STRICT_FAMILIES) + ")", regex.ASCII | regex.IGNORECASE)


def model_leaks_grammar(model_id: str | None, *, strict: bool = False) -> bool:
    """``modelLeaksGrammar``: an absent or empty id never matches."""
    if not model_id or not isinstance(model_id, str):
        return False
    if strict:
        return bool(_STRICT.search(model_id.rsplit("/", 1)[-1]))
    return any(p.search(model_id) for p in _REFERENCE)
