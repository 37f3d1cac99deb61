"""Facts about every match of a pattern, read from its parsed form, for callers that search
faster than one regex call per line (RTK's line scanner, its filter choice, Caveman's rule skip).

``pattern_facts(source, flags)`` parses ``/source/flags`` once (cached) and answers:

- where matches start: ``line_anchored`` (a leading ``^``, no top-level ``|``), the
  ``anchored_prefix`` after it and whether that is all (``anchored_literal_only``), a
  ``line_head`` (up to two characters every matching line starts with), and whether an
  unanchored pattern (``leading_literal``) or the part after ``^`` (``literal_after_anchor``)
  starts with a fixed character;
- what matches hold: ``required_literals`` (``engine.jsregex.literals.required_runs``);
- how matches relate to line breaks: ``stays_on_line`` (nothing in the pattern can match one,
  so no match spans two lines), ``has_lookaround`` and ``lookarounds_line_local`` (no
  lookaround can see past its line: its body cannot match a line break, so at a line's edge it
  answers the same inside LF-joined lines as on the line alone);
- how the pattern splits: ``alternatives`` (the top-level ``a|b|c`` as source texts) and
  ``leading_group_alternatives`` (``(?:a|b)rest`` as ``arest``, ``brest``), both empty when a
  backreference could tie the parts together — a line matches the whole exactly when it
  matches one part.

Literals are in subject units (see ``engine.jsregex.literals``): UTF-16 units without ``u``,
case-canonical under ``i`` (``engine.jsregex.subject.canonicalize`` prepares text the same way).
Only the flags that change the parsed pattern matter (``i``, ``s``, ``u``, ``v``). A pattern
Rulewright refuses to parse (too long, too deep) gets ``UNKNOWN``: no claim at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import memo
from ..jsvalues import from_utf16_units
from . import ast as A
from .literals import fixed_prefix, flat_items, required_runs, starts_with_fixed_char
from .parser import ParseError
from .translate import canonical_flags, compile_cost_refusal, parse_source, translate

# JavaScript's line terminators (U+0085 is not one, and `regex`'s own line anchors ignore it too).
_LINE_BREAKS: tuple[tuple[int, int], ...] = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))


@dataclass(frozen=True, slots=True)
class PatternFacts:
    """What every match of one pattern looks like (module docstring)."""

    alternation: bool  # a ``|`` outside every group
    alternatives: tuple[str, ...]  # the top-level alternatives' source texts (no backreference)
    leading_group_alternatives: tuple[str, ...]  # ``(?:a|b)rest`` as ``arest``, ``brest``
    line_anchored: bool  # every match starts at a line start (``^…``, no top-level ``|``)
    anchored_prefix: str  # the fixed text right after that ``^``
    anchored_literal_only: bool  # the pattern is ``^`` and ``anchored_prefix``, nothing else
    line_head: str  # up to two characters every matching line starts with ("" when unknown)
    leading_literal: bool  # unanchored, and every match starts with one fixed character
    literal_after_anchor: bool  # ``^`` then an item that starts with one fixed character
    required_literals: tuple[str, ...]  # texts every match contains, in pattern order, each once
    stays_on_line: bool  # no match can contain a line break
    has_lookaround: bool
    lookarounds_line_local: bool  # no lookaround body can match a line break
    has_backreference: bool


UNKNOWN = PatternFacts(alternation=False, alternatives=(), leading_group_alternatives=(), line_anchored=False,
                       anchored_prefix="", anchored_literal_only=False, line_head="", leading_literal=False,
                       literal_after_anchor=False, required_literals=(), stays_on_line=False,
                       has_lookaround=True, lookarounds_line_local=False, has_backreference=True)


def pattern_facts(source: str, flags: str = "") -> PatternFacts:
    """The facts of ``/source/flags``; raises ``JSSyntaxError`` when it is not valid JavaScript."""
    return _facts(source, "".join(f for f in "isuv" if f in flags))


@memo.lru(maxsize=4096)
def _facts(source: str, flags: str) -> PatternFacts:
    canonical_flags(flags)  # (raises on u with v)
    if compile_cost_refusal(source, "v" in flags) is not None:
        return UNKNOWN  # too long or too deep to parse: the translation refuses it too
    try:
        units, parsed = parse_source(source, flags)
        return _read(parsed.root, units, "u" in flags or "v" in flags, "s" in flags)
    except ParseError:
        translate(source, flags)  # raises JSSyntaxError with V8's message
        raise  # pragma: no cover - the translation parses the same way
    except RecursionError:
        return UNKNOWN


def _read(root: A.Node, units: str, unicode: bool, dot_all: bool) -> PatternFacts:
    # (a whole pattern ``(?:a|b)`` parses to the same Alt, starting past its ``(?:``)
    alternation = isinstance(root, A.Alt) and bool(root.spans) and root.spans[0][0] == 0
    backreference = _has(root, A.Backref)
    lookaround = _has(root, A.Look)
    anchored = _leading_anchor(root)
    prefix, literal_only, head, after_anchor = "", False, "", False
    if anchored:
        rest = flat_items(root)[1:]
        prefix, covered = fixed_prefix(rest)
        literal_only = bool(prefix) and covered == len(rest)
        following = starts_with_fixed_char(rest[covered]) if covered < len(rest) else None
        head = (prefix + (following or ""))[:2]
        after_anchor = starts_with_fixed_char(rest[0] if rest else None) is not None
    leading = not alternation and not anchored and starts_with_fixed_char(_first_item(root)) is not None
    return PatternFacts(
        alternation=alternation,
        alternatives=() if backreference else _alternatives(root, units, unicode),
        leading_group_alternatives=() if backreference else _leading_group_alternatives(root, units, unicode),
        line_anchored=anchored,
        anchored_prefix=prefix,
        anchored_literal_only=literal_only,
        line_head=head,
        leading_literal=leading,
        literal_after_anchor=after_anchor,
        required_literals=tuple(dict.fromkeys(required_runs(root))),
        stays_on_line=not may_match_line_break(root, dot_all),
        has_lookaround=lookaround,
        lookarounds_line_local=all(not may_match_line_break(look.body, dot_all) for look in _looks(root)),
        has_backreference=backreference,
    )


def _leading_anchor(root: A.Node) -> bool:
    """The pattern itself (not a group in it) starts with ``^``."""
    first = root.items[0] if isinstance(root, A.Seq) else root
    return isinstance(first, A.Anchor) and first.kind == "^"


def _first_item(root: A.Node) -> A.Node | None:
    items = flat_items(root)
    return items[0] if items else None


def may_match_line_break(node: A.Node, dot_all: bool) -> bool:
    """Whether some match of ``node`` can contain a line break (conservative: a backreference
    or an unknown construct may)."""
    if isinstance(node, A.CharSet):
        return any(lo <= b_hi and b_lo <= hi for lo, hi in node.ranges for b_lo, b_hi in _LINE_BREAKS) or any(
            ch in s for s in node.strings for ch in "\n\r\u2028\u2029")
    if isinstance(node, A.Dot):
        return dot_all
    if isinstance(node, A.Anchor | A.Empty):
        return False
    if isinstance(node, A.Seq):
        return any(may_match_line_break(n, dot_all) for n in node.items)
    if isinstance(node, A.Alt):
        return any(may_match_line_break(n, dot_all) for n in node.alternatives)
    if isinstance(node, A.Group | A.Quant | A.Look):
        return may_match_line_break(node.body, dot_all)
    return True  # a backreference (it could repeat a break captured elsewhere), or unknown


def _has(node: A.Node, kind: type[A.Node]) -> bool:
    if isinstance(node, kind):
        return True
    if isinstance(node, A.Seq):
        return any(_has(n, kind) for n in node.items)
    if isinstance(node, A.Alt):
        return any(_has(n, kind) for n in node.alternatives)
    if isinstance(node, A.Group | A.Quant | A.Look):
        return _has(node.body, kind)
    return False


def _looks(node: A.Node) -> list[A.Look]:
    return [n for n in A.walk(node) if isinstance(n, A.Look)]


def _text(units: str, start: int, end: int, unicode: bool) -> str:
    """Source text of a span of parser units (code points with ``u``; else UTF-16 units, put back
    together where a pair was split)."""
    piece = units[start:end]
    return piece if unicode else from_utf16_units(piece)


def _alternatives(root: A.Node, units: str, unicode: bool) -> tuple[str, ...]:
    if not isinstance(root, A.Alt) or not root.spans:
        return ()
    return tuple(_text(units, a, b, unicode) for a, b in root.spans)


def _leading_group_alternatives(root: A.Node, units: str, unicode: bool) -> tuple[str, ...]:
    """``(?:a|b)rest`` / ``(a|b)rest`` / ``(?<n>a|b)rest`` as ``arest``, ``brest``: the group is
    not repeated, so a line matches the whole exactly when it matches one of them."""
    if isinstance(root, A.Alt):
        return ()
    first = root.items[0] if isinstance(root, A.Seq) else root
    if isinstance(first, A.Group):
        alt, end = first.body, first.end
    else:
        alt = first
        end = alt.spans[-1][1] + 1 if isinstance(alt, A.Alt) and alt.spans else 0  # (past its ``)``)
    if not isinstance(alt, A.Alt) or not alt.spans:
        return ()
    rest = _text(units, end, len(units), unicode)
    return tuple(_text(units, a, b, unicode) + rest for a, b in alt.spans)


__all__ = ["UNKNOWN", "PatternFacts", "may_match_line_break", "pattern_facts"]
