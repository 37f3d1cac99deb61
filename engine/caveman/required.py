"""Literals every match of a Caveman rule's pattern contains: when a text holds none of them,
the pattern has no match there, and its rule is skipped without a scan.

The start plan (``fast.plan.analyse``) says where a match can start. A pattern that opens with
optional words or lookarounds (``\\b(?:can you )?(?:please )?(?:provide|give|write|…) (?:a|the)
(?:detailed )*summary``) can start almost anywhere, and its plan is either missing or too
dense to use; but every match still holds "summary", which most texts lack. The analysis
itself is the regex layer's (``engine.jsregex.literals.required_any``, read from the pattern's
one parse by ``engine.jsregex.starts.start_facts``); this module says which Caveman patterns it
applies to: ``y``, ``u`` and ``v`` patterns get no literals (their matches run on other
subjects than the one the literals are searched in).
"""

from __future__ import annotations

from engine.jsregex.literals import MIN_LITERAL
from engine.jsregex.starts import start_facts

__all__ = ["MIN_LITERAL", "applies_to", "required_literals"]


def applies_to(flags: str) -> bool:
    """Whether Caveman's fast path searches the subject a pattern with ``flags`` runs on (not
    for sticky, ``u`` or ``v`` patterns): only then do its literals and start plan apply."""
    return not any(f in flags for f in "yuv")


def required_literals(source: str, flags: str) -> frozenset[str] | None:
    """Strings of which every match of ``/source/flags`` contains one (in the subject the
    translated pattern runs on: the case-canonical text under ``i``), or None."""
    return start_facts(source, flags).required_any if applies_to(flags) else None
