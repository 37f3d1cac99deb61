"""Quirk diagnostics for one pattern (spec §0, §14): where a rule relies on V8/Annex B behaviour.

Profile ``v8`` (default) reports every quirk as ``info``; ``strict`` turns the ones the spec
marks "reject" (JSR-Q1, Q2, Q3, Q11, Q12) into errors and the rest into warnings. Spans are
UTF-16 offsets into the pattern source (``data["span"]``; ``column``/``end_column`` are the same,
1-based, for a pattern shown on its own line).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from engine.diagnostics import Diagnostic, Level

from .. import memo
from .ast import Alt, Backref, Group, Look, Node, Parsed, Quant, QuirkEvent, Seq
from .emitter import nullable
from .errors import JSSyntaxError
from .translate import Translation, parse_source, recursion_headroom, translate
from .unicode_data import canon

REJECTED_IN_STRICT = frozenset({"JSR-Q1", "JSR-Q2", "JSR-Q3", "JSR-Q11", "JSR-Q12"})
_WORD_ESCAPE = re.compile(r"\\(?:\\|([bBwW]))")
_DOLLAR = re.compile(r"\$(?:([0-9])([0-9])?|<)")  # (JavaScript reads ASCII digits after $)


def pattern_quirks(source: str, flags: str = "", *, profile: str = "v8",
                   replacement: str | None = None) -> list[Diagnostic]:
    """Diagnostics for every quirk ``/source/flags`` (and its replacement template) relies on."""
    try:
        t = translate(source, flags)
    except JSSyntaxError as exc:
        return [Diagnostic(str(exc), "error", "JSR-SYNTAX", source="jsregex")]
    events = list(t.quirks)
    events += _structural_events(source, t)
    events += _flag_events(source, t)
    if replacement is not None:
        events += _replacement_events(replacement, t)
    if t.too_large:
        events.append(QuirkEvent("JSR-COUNT", 0, 0, "nested repeat counts are too large for Rulewright to "
                                 "evaluate (Node runs them): the rule is skipped"))
    if t.clamped:
        events.append(QuirkEvent("JSR-COUNT", 0, 0, "a quantifier count above 65535 was clamped; "
                                 "subjects longer than 65535 units are out of contract for this rule"))
    seen: set[tuple[str, int, int]] = set()
    out: list[Diagnostic] = []
    for e in sorted(events, key=lambda e: (e.start, e.end, e.code)):
        key = (e.code, e.start, e.end)
        if key in seen:
            continue
        seen.add(key)
        out.append(_diagnostic(e, profile))
    return out


def _diagnostic(e: QuirkEvent, profile: str) -> Diagnostic:
    level: Level
    if e.code == "JSR-COUNT" and "skipped" in e.message:
        level = "error"
    elif profile == "strict":
        level = "error" if e.code in REJECTED_IN_STRICT else "warning"
    else:
        level = "warning" if e.code == "JSR-Q8" else "info"
    return Diagnostic(e.message, level, e.code, column=e.start + 1, end_column=e.end + 1,
                      source="jsregex", data={"span": [e.start, e.end]})


# ----------------------------------------------------------------------------- AST walks


def _structural_events(source: str, t: Translation) -> list[QuirkEvent]:
    """JSR-Q4 (backreferences that can see an unset group) and JSR-Q5 (loop captures)."""
    with recursion_headroom(source):  # (the walks recurse per nesting level too)
        _units, parsed = parse_source(source, t.flags)  # the translation's own parse
        return _structural_events_of(parsed, source, t)


def _structural_events_of(parsed: Parsed, source: str, t: Translation) -> list[QuirkEvent]:
    to16 = _utf16_mapper(source, t.unicode)
    groups: dict[int, tuple[Group, tuple[Node, ...]]] = {}
    refs: list[tuple[Backref, tuple[Node, ...]]] = []
    loops: list[Quant] = []
    _walk(parsed.root, (), groups, refs, loops)
    events: list[QuirkEvent] = []
    for ref, ref_path in refs:
        if ref.index not in groups:
            continue
        group, group_path = groups[ref.index]
        span = (to16(ref.start), to16(ref.end))
        if group in ref_path:
            events.append(QuirkEvent("JSR-Q4", *span, f"\\{ref.index} refers to its own (open) group: "
                                     "it always matches empty"))
        elif group.start > ref.start and not any(isinstance(n, Look) and n.behind for n in ref_path):
            events.append(QuirkEvent("JSR-Q4", *span, f"\\{ref.index} comes before its group: "
                                     "it matches empty"))
        else:
            optional = [n for n in group_path if _may_skip(n) and n not in ref_path]
            if optional:
                events.append(QuirkEvent("JSR-Q4", *span, f"group {ref.index} may be unset here; "
                                         f"\\{ref.index} then matches empty"))
    for q in loops:
        if q.max is not None and q.max <= 1:
            continue
        span = (to16(q.start), to16(q.end))
        if nullable(q.body):
            events.append(QuirkEvent("JSR-Q5", *span, "loop body can match empty: an iteration past the "
                                     "minimum that consumes nothing fails"))
        if _has_conditional_group(q.body):
            events.append(QuirkEvent("JSR-Q5", *span, "captures inside this loop are reset on every "
                                     "iteration (a group not matched by the last iteration is undefined)"))
    return events


def _utf16_mapper(source: str, unicode: bool) -> Callable[[int], int]:
    if not unicode:
        return lambda i: i
    from ..jsvalues import from_utf16_units, py_to_utf16_index

    units = from_utf16_units(source)
    return lambda i: py_to_utf16_index(units, i)


def _walk(node: Node, path: tuple[Node, ...], groups: dict[int, tuple[Group, tuple[Node, ...]]],
          refs: list[tuple[Backref, tuple[Node, ...]]], loops: list[Quant]) -> None:
    if isinstance(node, Group):
        groups[node.index] = (node, path)
        _walk(node.body, (*path, node), groups, refs, loops)
    elif isinstance(node, Backref):
        refs.append((node, path))
    elif isinstance(node, Seq):
        for n in node.items:
            _walk(n, path, groups, refs, loops)
    elif isinstance(node, Alt):
        for n in node.alternatives:
            _walk(n, (*path, node), groups, refs, loops)
    elif isinstance(node, Quant):
        loops.append(node)
        _walk(node.body, (*path, node), groups, refs, loops)
    elif isinstance(node, Look):
        _walk(node.body, (*path, node), groups, refs, loops)


def _may_skip(node: Node) -> bool:
    return (isinstance(node, Quant) and node.min == 0) or isinstance(node, Alt) or (
        isinstance(node, Look) and node.negative)


def _has_conditional_group(node: Node, optional: bool = False) -> bool:
    """A group inside ``node`` that an iteration can skip (alternative, optional, lookaround)."""
    if isinstance(node, Group):
        return optional or _has_conditional_group(node.body, optional)
    if isinstance(node, Seq):
        return any(_has_conditional_group(n, optional) for n in node.items)
    if isinstance(node, Alt):
        return any(_has_conditional_group(n, True) for n in node.alternatives)
    if isinstance(node, Quant):
        return _has_conditional_group(node.body, optional or node.min == 0)
    if isinstance(node, Look):
        return _has_conditional_group(node.body, True)
    return False


# ----------------------------------------------------------------------------- source scans


def _flag_events(source: str, t: Translation) -> list[QuirkEvent]:
    events: list[QuirkEvent] = []
    flags = t.flags
    if "y" in flags and "g" not in flags:
        events.append(QuirkEvent("JSR-Q8", 0, 0, "sticky without g: lastIndex carries over between calls, "
                                 "so the same rule can behave differently on successive inputs"))
    if not t.unicode and (any(ord(c) > 0xFFFF for c in source) or re.search(r"\\u[dD][89abAB]", source)):
        events.append(QuirkEvent("JSR-Q6", 0, len(source.encode("utf-16-le", "surrogatepass")) // 2,
                                 "without u the pattern works on UTF-16 units (astral characters are two "
                                 "units); add the u flag"))
    if t.ignore_case and not t.unicode:
        offset = 0
        for ch in source:
            width = 2 if ord(ch) > 0xFFFF else 1
            if ord(ch) <= 0xFFFF and _folding_differs(ord(ch)):
                events.append(QuirkEvent("JSR-Q7", offset, offset + width,
                                         f"'{ch}' folds differently without u (Canonicalize uses toUpperCase: "
                                         "K/ſ/Å/Ω-style variants do not match)"))
            offset += width
    events += _word_events(source, t)
    return events


@memo.lru(maxsize=None)
def _legacy_class(c: int) -> frozenset[int]:
    return frozenset(_members(False).get(canon(c, False), {c}))


@memo.lru(maxsize=None)
def _unicode_class(c: int) -> frozenset[int]:
    return frozenset(_members(True).get(canon(c, True), {c}))


@memo.lru(maxsize=None)
def _members(unicode_mode: bool) -> dict[int, set[int]]:
    from .unicode_data import legacy_canon_changes, unicode_canon_changes

    out: dict[int, set[int]] = {}
    for c, k in (unicode_canon_changes() if unicode_mode else legacy_canon_changes()):
        out.setdefault(k, {k}).add(c)
    return out


def _folding_differs(c: int) -> bool:
    if not chr(c).isalpha():
        return False
    return _legacy_class(c) != {x for x in _unicode_class(c) if x <= 0xFFFF}


def _word_events(source: str, t: Translation) -> list[QuirkEvent]:
    """JSR-Q10: ``\\b``/``\\w`` next to non-ASCII letters, or ``\\w`` under u (still ASCII)."""
    units = source.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    events: list[QuirkEvent] = []
    for m in _WORD_ESCAPE.finditer(units):
        kind = m.group(1)
        if not kind:
            continue
        start, end = m.span()
        before = units[start - 1] if start > 0 else ""
        after = units[end] if end < len(units) else ""
        near_letter = any(ch and not ch.isascii() and unicodedata.category(ch).startswith("L")
                          for ch in (before, after))
        if kind in "bB" and near_letter:
            events.append(QuirkEvent("JSR-Q10", _u16(units, start), _u16(units, end),
                                     f"\\{kind} is an ASCII word boundary: next to "
                                     f"'{before if before and not before.isascii() else after}' it never sees a word edge"))
        elif kind in "wW" and t.unicode:
            events.append(QuirkEvent("JSR-Q10", _u16(units, start), _u16(units, end),
                                     f"\\{kind} is ASCII-only even with the {'v' if 'v' in t.flags else 'u'} flag"))
    return events


def _u16(text: str, i: int) -> int:
    return len(text[:i].encode("utf-16-le", "surrogatepass")) // 2


def _replacement_events(replacement: str, t: Translation) -> list[QuirkEvent]:
    """JSR-Q9: ``$<name>`` without named groups, ``$nn`` falling back to ``$n`` + digit."""
    events: list[QuirkEvent] = []
    count = t.group_count
    for m in _DOLLAR.finditer(replacement):
        start = _u16(replacement, m.start())
        if m.group(0) == "$<":
            if not t.group_names:
                events.append(QuirkEvent("JSR-Q9", start, start + 2, "'$<' is literal: the pattern has no "
                                         "named groups"))
            continue
        d1, d2 = m.group(1), m.group(2)
        if d2 is not None and not 1 <= int(d1 + d2) <= count and 1 <= int(d1) <= count:
            events.append(QuirkEvent("JSR-Q9", start, start + 3, f"'${d1}{d2}' is group {d1} followed by the "
                                     f"digit {d2} (there are only {count} groups)"))
    return events
