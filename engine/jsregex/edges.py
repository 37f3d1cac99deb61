"""Which one-character separators a pattern sees as a text's edge: texts joined by one can be
scanned at once, each match inside a text being the match that text alone has there
(``engine.caveman.joined`` runs Caveman's patterns over a body's messages so).

``separators_for(source, flags)`` gives those of ``SEPARATORS`` for which, at every position of
a text joined between others by the separator, every assertion answers as at the same position
of the text alone, and every atom that would read past the text's end reads the separator
instead of failing at the end:

- ``\\b``/``\\B``: no separator is a word character, so each answers as at the edge;
- ``^``/``$``: with ``m`` and a line break, a line's edge is the text's edge; without ``m`` they
  hold at the joined text's ends alone, so the pattern gets no separator — except a leading
  ``(?:^|\\s)`` without a back-reference, whose class takes the separator before the text where
  the ``^`` would have held there (the match then holds the separator: see below);
- a lookaround whose body cannot match the separator fails on it as it fails at the edge (a
  line break suits most patterns; NUL and the record separator suit one like ``(?<!make\\s)``,
  whose body takes a blank);
- ``g`` without ``y``, ``u`` or ``v``: a global scan, no state, units one a character.

What is left is an atom that consumes the separator: a path through it fails where the text
alone would have ended (the same backtracking after it), or succeeds with a match that holds
the separator — which the caller sees, and answers by scanning the texts it touched alone.

``start_twin`` gives a pattern anchored at the text's start (``^`` without ``m``) the ``m`` twin
whose matches at the joined texts' starts are its own.
"""

from __future__ import annotations

from .. import memo
from . import ast as A
from .charset import contains
from .facts import pattern_facts
from .translate import parsed_root

# the separators tried, in order: a line break is a line's edge for ``^``/``$`` under ``m``; NUL
# and the record separator are what a lookaround whose body takes a blank cannot read
SEPARATORS = ("\n", "\x00", "\x1e")


@memo.lru(maxsize=4096)
def separators_for(pattern: str, flags: str) -> tuple[str, ...]:
    """The separators (of ``SEPARATORS``, in order) with which ``/pattern/flags`` finds in a
    joined text, inside each text, the matches it finds in the text alone, or a match holding a
    separator (the module docstring says why)."""
    if "g" not in flags or any(f in flags for f in "yuv"):
        return ()
    try:
        facts = pattern_facts(pattern, flags)
        root = parsed_root(pattern, flags)
    except Exception:  # (an invalid or refused pattern: no claim)
        return ()
    looks = [node.body for node in A.walk(root) if isinstance(node, A.Look)]
    accepted = []
    for separator in SEPARATORS:
        if any(_may_take(body, separator, "s" in flags) for body in looks):
            continue  # (a lookaround would read the separator where the part alone has its edge)
        covered = None if facts.has_backreference else _covered_start(root, separator)  # (a group's "" against it)
        if _has_line_anchor(root, covered) and not ("m" in flags and separator == "\n"):
            continue
        accepted.append(separator)
    return tuple(accepted)


@memo.lru(maxsize=1024)
def start_twin(pattern: str, flags: str) -> str | None:
    """The flags of the ``m`` twin of a pattern that matches only at a text's start (a leading
    ``^`` without ``m``, no other line anchor), where that twin joins on a line break: there
    its match at a part's start is the pattern's match at the start of the part alone (``^``
    holds after the line break as at a text's start; the rest reads the same text). Its other
    matches, at lines inside the parts, are not the pattern's: the caller leaves them as they
    are. None: no such twin."""
    if "m" in flags or "g" not in flags or any(f in flags for f in "yuv"):
        return None
    try:
        facts = pattern_facts(pattern, flags)
        root = parsed_root(pattern, flags)
    except Exception:  # (an invalid or refused pattern: no claim)
        return None
    first = root.items[0] if isinstance(root, A.Seq) and root.items else root
    if not facts.line_anchored or not isinstance(first, A.Anchor) or _has_line_anchor(root, first):
        return None
    twin = flags + "m"
    return twin if "\n" in separators_for(pattern, twin) else None


def _may_take(node: A.Node, separator: str, dot_all: bool) -> bool:
    """Whether some match of ``node`` can hold ``separator`` (a back-reference, or a node this
    module does not know, may)."""
    for n in A.walk(node):
        if isinstance(n, A.CharSet):
            if contains(n.ranges, ord(separator)) or any(separator in s for s in n.strings):
                return True
        elif isinstance(n, A.Dot):
            if dot_all or separator not in "\n\r\u2028\u2029":
                return True
        elif not isinstance(n, A.Seq | A.Alt | A.Group | A.Look | A.Quant | A.Anchor | A.Empty):
            return True
    return False


def _covered_start(root: A.Node, separator: str) -> A.Anchor | None:
    """The ``^`` of a pattern that starts ``(?:^|\\s)``: where it holds at a part's start alone,
    the class takes the separator before it in the joined text (a match holding the separator:
    the part runs alone), so that ``^`` without ``m`` misses nothing."""
    first = root.items[0] if isinstance(root, A.Seq) and root.items else root
    if isinstance(first, A.Group):  # ((?:…) parses to its body)
        first = first.body
    if not isinstance(first, A.Alt):
        return None
    anchor = next((a for a in first.alternatives if isinstance(a, A.Anchor) and a.kind == "^"), None)
    takes_separator = any(isinstance(a, A.CharSet) and contains(a.ranges, ord(separator)) for a in first.alternatives)
    return anchor if takes_separator else None


def _has_line_anchor(root: A.Node, covered: A.Anchor | None = None) -> bool:
    for node in A.walk(root):
        if isinstance(node, A.Anchor) and node.kind in "^$" and node is not covered:
            return True
        if not isinstance(node, A.Seq | A.Alt | A.Group | A.Look | A.Quant | A.CharSet | A.Dot | A.Empty
                          | A.Backref | A.Anchor):
            return True  # (a node this module does not know: no claim)
    return False
