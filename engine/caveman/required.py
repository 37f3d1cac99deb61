"""Literals every match of a Caveman rule's pattern contains: when a text holds none of them,
the pattern has no match there, and its rule is skipped without a scan.

The start plan (``fastscan.analyse``) says where a match can start. A pattern that opens with
optional words or lookarounds (``\\b(?:can you )?(?:please )?(?:provide|give|write|…) (?:a|the)
(?:detailed )*summary``) can start almost anywhere, and its plan is either missing or too
dense to use; but every match still holds "summary", which most texts lack. The analysis
itself is the regex layer's (``engine.jsregex.literals.required_any``); this module says which
Caveman patterns it applies to: ``y``, ``u`` and ``v`` patterns get no literals (their matches
run on other subjects than the one the literals are searched in).
"""

from __future__ import annotations

from engine import memo
from engine.jsregex import ast as A
from engine.jsregex.backtracking import parse_root
from engine.jsregex.literals import MIN_LITERAL, required_any

__all__ = ["MIN_LITERAL", "required_literals", "required_of"]


@memo.lru(maxsize=2048)
def required_literals(source: str, flags: str) -> frozenset[str] | None:
    """Strings of which every match of ``/source/flags`` contains one (in the subject the
    translated pattern runs on: the case-canonical text under ``i``), or None."""
    try:
        root = parse_root(source, flags)
    except Exception:  # (an invalid pattern: nothing is claimed)
        return None
    return required_of(root, flags)


def required_of(root: A.Node, flags: str) -> frozenset[str] | None:
    """``required_literals`` of a parsed pattern."""
    if any(f in flags for f in "yuv"):
        return None
    return required_any(root)
