"""Literals every match of a pattern contains: when a text holds none of them, the pattern has no
match there, and its rule is skipped without a scan.

The start plan (``fastscan.analyse``) says where a match can start. A pattern that opens with
optional words or lookarounds (``\\b(?:can you )?(?:please )?(?:provide|give|write|…) (?:a|the)
(?:detailed )*summary``) can start almost anywhere, and its plan is either missing or too
dense to use; but every match still holds "summary", which most texts lack. From the parsed
pattern (whose characters are already case-folded images under ``i``, as the subject is):

- a run of single-character items makes a literal;
- a sequence requires what any one of its mandatory items (or runs) requires — the set whose
  shortest literal is longest is kept (the rarest evidence);
- an alternation requires one of what each alternative requires;
- a group, or a repeat of at least once, requires what its body requires;
- lookarounds, backreferences, classes of several characters and optional items require
  nothing.

Literals shorter than ``MIN_LITERAL`` are not worth a search and are not kept. ``y``, ``u`` and
``v`` patterns get no literals (their matches run on other subjects).
"""

from __future__ import annotations

from engine import memo
from engine.jsregex import ast as A
from engine.jsregex.backtracking import parse_root

MIN_LITERAL = 3


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
    try:
        return _required(root)
    except Exception:  # a shape this module does not know: nothing is claimed
        return None


def _one_char(node: A.Node) -> str | None:
    """The character of an item that matches exactly one, fixed character."""
    if isinstance(node, A.CharSet) and not node.strings and len(node.ranges) == 1:
        lo, hi = node.ranges[0]
        if lo == hi and lo <= 0xFFFF:
            return chr(lo)
    return None


def _rarer(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    """The better evidence of two: the longer shortest literal, then the fewer literals."""
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b, key=lambda s: (min(map(len, s)), -len(s)))


def _usable(literals: frozenset[str]) -> frozenset[str] | None:
    return literals if literals and min(map(len, literals)) >= MIN_LITERAL else None


def _required(node: A.Node) -> frozenset[str] | None:
    if isinstance(node, A.Group):
        return _required(node.body)
    if isinstance(node, A.Quant):
        return _required(node.body) if node.min >= 1 else None
    if isinstance(node, A.Alt):
        out: set[str] = set()
        for alternative in node.alternatives:
            found = _required(alternative)
            if found is None:
                return None
            out |= found
        return _usable(frozenset(out))
    if isinstance(node, A.Seq):
        best: frozenset[str] | None = None
        run = ""
        for item in node.items:
            char = _one_char(item)
            if char is not None:
                run += char
                continue
            if run:
                best = _rarer(best, _usable(frozenset({run})))
                run = ""
            best = _rarer(best, _required(item))
        if run:
            best = _rarer(best, _usable(frozenset({run})))
        return best
    char = _one_char(node)
    return _usable(frozenset({char})) if char is not None else None
