"""Literal text every match of a parsed pattern holds, or starts with.

Read from the AST (``engine.jsregex.ast``), whose characters are already what the translated
pattern compares: UTF-16 units without ``u`` (code points with ``u``/``v``), the case-canonical
image under ``i``. So every literal here is in *subject units*: the form the subject takes once
prepared for matching (``engine.jsregex.subject``), never the pattern's source spelling.

Two readings, for two kinds of callers:

- ``required_runs``: texts that every match contains, *all* of them (runs of fixed characters
  along the pattern's top-level sequence). RTK tests only the lines holding them.
- ``required_any``: texts of which every match contains *one* (alternations give a choice).
  Caveman skips a rule when a text holds none of them.

Both are conservative: a shape not understood claims nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from . import ast as A

MIN_LITERAL = 3  # ``required_any`` keeps no literal shorter than this (not worth a search)
_MAX_REPEAT_RUN = 16  # a fixed repeat adds at most this many copies of its character to a run


def fixed_char(node: A.Node) -> str | None:
    """The one character (subject unit or code point) an item always matches, or None."""
    if isinstance(node, A.CharSet) and not node.strings and len(node.ranges) == 1:
        lo, hi = node.ranges[0]
        if lo == hi:
            return chr(lo)
    return None


def flat_items(node: A.Node) -> list[A.Node]:
    """The items of a sequence, with plain groups (capturing, named, or ``(?:…)``, not repeated)
    read through: they only bracket part of the sequence."""
    if isinstance(node, A.Seq):
        out: list[A.Node] = []
        for item in node.items:
            out.extend(flat_items(item))
        return out
    if isinstance(node, A.Group):
        return flat_items(node.body)
    return [node]


def fixed_prefix(items: list[A.Node]) -> tuple[str, int]:
    """The text the flat ``items`` always start with (fixed characters and fixed-count repeats
    of one), and how many items it covers."""
    out: list[str] = []
    for count, item in enumerate(items):
        char = fixed_char(item)
        if char is not None:
            out.append(char)
            continue
        if isinstance(item, A.Quant) and item.max == item.min and item.min <= _MAX_REPEAT_RUN:
            char = fixed_char(item.body)
            if char is not None:
                out.append(char * item.min)
                continue
        return "".join(out), count
    return "".join(out), len(items)


def starts_with_fixed_char(item: A.Node | None) -> str | None:
    """The character every match of ``item`` starts with, when ``item`` is one fixed character
    or a repeat of one at least once (``x``, ``x+``, ``x{2,}``); else None."""
    if item is None:
        return None
    char = fixed_char(item)
    if char is None and isinstance(item, A.Quant) and item.min >= 1:
        char = fixed_char(item.body)
    return char


def required_runs(root: A.Node) -> list[str]:
    """Every text that every match contains: the runs of fixed characters along the top-level
    sequence (plain groups read through; a repeat of one character at least ``n`` times adds
    ``n`` copies of it; a repeat of something else at least once adds its body's runs).
    Alternations, lookarounds, anchors, classes and optional items end a run."""
    if isinstance(root, A.Alt):
        return []
    found: list[str] = []
    run: list[str] = []

    def close() -> None:
        if run:
            found.append("".join(run))
            run.clear()

    def walk(node: A.Node) -> None:
        if isinstance(node, A.Seq):
            for item in node.items:
                walk(item)
            return
        if isinstance(node, A.Group):
            walk(node.body)
            return
        char = fixed_char(node)
        if char is not None:
            run.append(char)
            return
        if isinstance(node, A.Quant) and node.min >= 1:
            char = fixed_char(node.body)
            if char is None:
                close()
                walk(node.body)  # (one iteration at least: its runs are required)
                close()
                return
            copies = min(node.min, _MAX_REPEAT_RUN)
            run.append(char * copies)
            if copies != node.min or node.max != node.min:
                # more copies may follow: what comes next is adjacent to the last ``copies`` only
                close()
                run.append(char * copies)
            return
        close()

    walk(root)
    close()
    return found


def required_any(root: A.Node) -> frozenset[str] | None:
    """Texts of which every match contains at least one (each at least ``MIN_LITERAL`` long), or
    None. A sequence requires what any one of its mandatory items (or stretches) requires — the
    set whose shortest text is longest is kept, the rarest evidence; an alternation requires one
    of what each alternative requires; a group, or a repeat of at least once, what its body
    requires; lookarounds, backreferences, classes and optional items require nothing.

    A stretch is a run of items that each consume one of a few known texts (a character, an
    alternation of words, an optional word; zero-width items consume the empty text): a match
    holds one of their concatenations (``^\\s*(Error|TypeError):`` holds ``Error:`` or
    ``TypeError:``, where the words alone are common)."""
    try:
        return _required(root)
    except RecursionError:  # (deeper than the interpreter allows: nothing is claimed)
        return None


def _bmp_char(node: A.Node) -> str | None:
    char = fixed_char(node)
    return char if char is not None and ord(char) <= 0xFFFF else None


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
        out = _union(node.alternatives, _required)
        return None if out is None else _usable(out)
    if isinstance(node, A.Seq):
        best: frozenset[str] | None = None
        stretch = _NOTHING  # the texts the items since the last unknown one consume together
        for item in node.items:
            texts = _texts(item)
            if texts is not None:
                joined = _joined(stretch, texts)
                if joined is not None:
                    stretch = joined
                    continue
                best = _rarer(best, _stretch_evidence(stretch))  # (too many: the stretch so far, then anew)
                stretch = texts
                continue
            best = _rarer(best, _stretch_evidence(stretch))
            stretch = _NOTHING
            best = _rarer(best, _required(item))
        return _rarer(best, _stretch_evidence(stretch))
    char = _bmp_char(node)
    return _usable(frozenset({char})) if char is not None else None


_NOTHING = frozenset({""})
MAX_TEXTS = 32  # a stretch's concatenations kept at most (beyond: a new stretch starts)


def _texts(node: A.Node) -> frozenset[str] | None:
    """The texts ``node`` consumes when it matches, when they are few and known (at most
    ``MAX_TEXTS``), else None."""
    char = _bmp_char(node)
    if char is not None:
        return frozenset({char})
    if isinstance(node, (A.Empty, A.Anchor, A.Look)):
        return _NOTHING  # (zero-width: what it checks constrains the match, not its text)
    if isinstance(node, A.Group):
        return _texts(node.body)
    if isinstance(node, A.Quant):
        if node.max is None or node.max > 1 or node.min > 1:
            return None
        body = _texts(node.body) if node.max == 1 else _NOTHING
        if body is None or node.min == 1:
            return body
        return body | _NOTHING if len(body) < MAX_TEXTS else None
    if isinstance(node, A.Alt):
        return _union(node.alternatives, _texts, MAX_TEXTS)
    if isinstance(node, A.Seq):
        stretch: frozenset[str] | None = _NOTHING
        for item in node.items:
            texts = _texts(item)
            if texts is None or stretch is None:
                return None
            stretch = _joined(stretch, texts)
        return stretch
    return None


def _union(nodes: list[A.Node], of: Callable[[A.Node], frozenset[str] | None], most: int | None = None
           ) -> frozenset[str] | None:
    """Every text ``of`` gives for one of ``nodes`` (an alternation's), or None when it gives
    None for one of them (or when there are more than ``most``)."""
    out: set[str] = set()
    for node in nodes:
        texts = of(node)
        if texts is None:
            return None
        out |= texts
        if most is not None and len(out) > most:
            return None
    return frozenset(out)


def _joined(first: frozenset[str], then: frozenset[str]) -> frozenset[str] | None:
    """Every text of ``first`` followed by one of ``then`` (None: more than ``MAX_TEXTS``)."""
    if len(first) * len(then) > MAX_TEXTS:
        return None
    return frozenset(a + b for a in first for b in then)


def _stretch_evidence(texts: frozenset[str]) -> frozenset[str] | None:
    """What a stretch's concatenations require, if worth a search."""
    return _usable(_fewest(texts))


def _fewest(texts: frozenset[str]) -> frozenset[str]:
    """``texts`` without those holding another of them (a text holding one holds the other)."""
    if len(texts) < 2:
        return texts
    return frozenset(t for t in texts if not any(o != t and o in t for o in texts))
