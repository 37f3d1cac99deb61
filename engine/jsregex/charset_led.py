"""A ``re`` twin for whole scans of patterns that start with ``\\b`` and then one character of a
known class (``\\b(?:[Aa]n|[Aa]|[Tt]he)\\s+``, ``\\b[A-Z][A-Z0-9]*…``), written so that ``re``'s
search skips to the places where a match can start.

``re`` skips ahead only when a pattern *starts* with a literal or a character class (its
"charset prefix"); a leading ``\\b`` makes its search try a whole match at every position of
the text (~20 ms per MB, most of a rule that matches 33 k articles per MB). The form

    [F](?<=\\b[F])(?:(?<=C1)R1|(?<=C2)R2|…)REST        for  \\b(?:C1 R1|C2 R2|…)REST

consumes the first character (``F``: the union of the alternatives' first classes ``Ci``),
checks the boundary before it in a one-character lookbehind, and lets each alternative check
its own first class the same way, in the same order. At every start it succeeds exactly when
the original does, with the same span and groups (the first classes are one unit wide and hold
no group), so every scan (``finditer``, ``search``, ``subn``) gives the same results. A pattern
of another shape, ``u``/``v`` (a class may match a surrogate pair) or one whose emitted form
this module cannot reproduce has no such twin (None).
"""

from __future__ import annotations

import re

from engine import memo

from . import ast as A
from .charset import union
from .emitter import Emitter
from .translate import parsed_root
from .twin import re_twin


@memo.lru(maxsize=1024)
def charset_led_twin(source: str, flags: str, emitted: str) -> re.Pattern[str] | None:
    """The ``re`` pattern described above for ``/source/flags``, whose translation is
    ``emitted`` (a guard: the rewrite is only made when this module's emitter reproduces it),
    or None."""
    if any(f in flags for f in "uv"):
        return None
    try:
        root = parsed_root(source, flags)
        led = _charset_led(root)
        if led is None or _emitter(flags).emit_pattern(root) != emitted:
            return None
        return re_twin(_emitter(flags).emit_pattern(led))  # None where re may read it otherwise
    except Exception:  # a shape of pattern this module does not know: no twin, never a wrong one
        return None


def _emitter(flags: str) -> Emitter:
    return Emitter(multiline="m" in flags, dot_all="s" in flags, unicode=False)


def _charset_led(root: A.Node) -> A.Node | None:
    """The rewritten pattern of ``root`` (``\\b`` then a class or an alternation of classes-led
    sequences), or None for any other shape."""
    if not isinstance(root, A.Seq) or len(root.items) < 2:
        return None
    first, lead, rest = root.items[0], root.items[1], root.items[2:]
    if not (isinstance(first, A.Anchor) and first.kind == "b"):
        return None
    if _one_unit_class(lead):
        first_class = lead
        body: list[A.Node] = []
    elif isinstance(lead, A.Alt):
        heads: list[A.CharSet] = []
        tails: list[list[A.Node]] = []
        for alternative in lead.alternatives:
            items = alternative.items if isinstance(alternative, A.Seq) else [alternative]
            head = items[0] if items else None
            if not isinstance(head, A.CharSet) or not _one_unit_class(head):
                return None
            heads.append(head)
            tails.append(items[1:])
        first_class = A.CharSet(union(*(h.ranges for h in heads)))
        body = [A.Alt([A.Seq([A.Look(True, False, head), *tail]) for head, tail in zip(heads, tails)])]
    else:
        return None
    boundary = A.Look(True, False, A.Seq([A.Anchor("b"), first_class]))
    return A.Seq([first_class, boundary, *body, *rest])


def _one_unit_class(node: A.Node) -> bool:
    """A class matching exactly one UTF-16 unit (no strings, nothing beyond the BMP)."""
    return isinstance(node, A.CharSet) and not node.strings and bool(node.ranges) \
        and max(hi for _lo, hi in node.ranges) <= 0xFFFF and not node.v8_loop_defect

