"""Emit a `regex` (VERSION0) pattern that behaves like the parsed JavaScript pattern.

What the emitted pattern does that passing JS through would not (spec §§3–10):

* every class is an explicit code-point set; ``\\b`` is the ASCII word boundary;
* ``^``/``$`` know the four JS line terminators, and ``$`` without ``m`` is the absolute end;
* JS group N is ``(?P<gN>…)``; a backreference is ``(?(gN)(?P=gN))`` so that an unset group
  matches empty (JSR-Q4), and a reference inside its own group is dropped;
* captures inside a loop are reset per iteration with duplicate-named groups: a reset marker
  ``(?P<gN>)`` plus a non-empty ``eN`` span, and a close marker ``(?P<eN>)`` after a real
  capture (JSR-Q5); the runtime reports group N as undefined when ``eN`` ends non-empty;
* a loop over a body that can match empty gets the empty-iteration check of §10 (JSR-Q5).

Inside a lookbehind `regex` matches right to left, so sequences that depend on order (markers,
the empty-iteration check) are mirrored there.
"""

from __future__ import annotations

import re

from . import charset
from .ast import Alt, Anchor, Backref, CharSet, Dot, Empty, Group, Look, Node, Quant, Seq, Unsupported
from .charset import to_pattern
from .parser import SPACE
from .surrogates import corrected_hint, set_pattern, units

LINE_TERMINATOR_CLASS = r"[\n\r\u2028\u2029]"
_LINE_TERMINATORS = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))
NOT_MID_PAIR = r"(?!(?<=[\ud800-\udbff])[\udc00-\udfff])"
_UNICODE_DOT = set_pattern(charset.complement(_LINE_TERMINATORS))
_UNICODE_DOT_ALL = set_pattern(charset.ALL)
_ATOM = re.compile(r"\[[^\[\]()]*\]|\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|\\U[0-9a-f]{8}|\\[sS]|\w")
MAX_REPEAT = 65535
HINT_THRESHOLD = 24  # ranges above which a property-table class is emitted instead of explicit ranges  # `regex` expands minimum counts in memory; see spec §8


def nullable(node: Node) -> bool:
    """Whether ``node`` can match the empty string."""
    if isinstance(node, Empty | Anchor | Look | Backref):
        return True
    if isinstance(node, CharSet):
        return "" in node.strings
    if isinstance(node, Seq):
        return all(nullable(n) for n in node.items)
    if isinstance(node, Alt):
        return any(nullable(n) for n in node.alternatives)
    if isinstance(node, Group):
        return nullable(node.body)
    if isinstance(node, Quant):
        return node.min == 0 or nullable(node.body)
    return False


def groups_in(node: Node) -> list[int]:
    out: list[int] = []
    _collect_groups(node, out)
    return out


def _collect_groups(node: Node, out: list[int]) -> None:
    if isinstance(node, Group):
        out.append(node.index)
        _collect_groups(node.body, out)
    elif isinstance(node, Seq):
        for n in node.items:
            _collect_groups(n, out)
    elif isinstance(node, Alt):
        for n in node.alternatives:
            _collect_groups(n, out)
    elif isinstance(node, Look | Quant):
        _collect_groups(node.body, out)


def _looping(q: Quant) -> bool:
    return q.max is None or q.max > 1


def _marker_groups(node: Node, inside_loop: bool, out: set[int]) -> None:
    if isinstance(node, Group):
        if inside_loop:
            out.add(node.index)
        _marker_groups(node.body, inside_loop, out)
    elif isinstance(node, Seq):
        for n in node.items:
            _marker_groups(n, inside_loop, out)
    elif isinstance(node, Alt):
        for n in node.alternatives:
            _marker_groups(n, inside_loop, out)
    elif isinstance(node, Look):
        _marker_groups(node.body, inside_loop, out)
    elif isinstance(node, Quant):
        _marker_groups(node.body, inside_loop or _looping(node), out)


# JavaScript's \\s (WhiteSpace + LineTerminator) and its complement. `regex`'s own \\s differs from
# it in exactly two code points: it has U+0085 and lacks U+FEFF.
JS_SPACE: charset.Ranges = SPACE
JS_NOT_SPACE: charset.Ranges = charset.complement(SPACE)
NATIVE_SPACE_EXCEPTIONS = "\x85\ufeff"  # where `regex`'s \\s and JavaScript's disagree


class Emitter:
    def __init__(self, *, multiline: bool, dot_all: bool, unicode: bool = False,
                 native_line_anchors: bool = False, native_space_classes: bool = False) -> None:
        self.multiline = multiline
        self.native_line_anchors = native_line_anchors
        self.line_anchors = False  # an m-mode ^ or $ was emitted
        # Emit a class that is exactly JS \\s or \\S as `regex`'s own (≈1.3× faster to match), for
        # subjects without U+0085 and U+FEFF only (non-unicode mode: one UTF-16 unit per class).
        self.native_space_classes = native_space_classes
        self.space_classes = False  # a class equal to JS \\s or \\S was emitted
        self.dot_all = dot_all
        self.unicode = unicode  # u/v: sets are code points, read from a UTF-16 subject
        self.marker_groups: set[int] = set()
        self.loop_checks = 0  # number of empty-iteration checks emitted (rK names)
        self.open_groups: set[int] = set()  # groups being emitted (a reference inside is empty)
        self.clamped = False

    def emit_pattern(self, root: Node) -> str:
        _marker_groups(root, False, self.marker_groups)
        return self.emit(root, False)

    def emit(self, node: Node, behind: bool) -> str:
        if isinstance(node, CharSet):
            return self.emit_charset(node)
        if isinstance(node, Seq):
            parts = [self.emit(n, behind) for n in node.items]
            return "".join(f"(?:{p})" if isinstance(n, Alt) else p for n, p in zip(node.items, parts))
        if isinstance(node, Alt):
            return "(?:" + "|".join(self.emit(n, behind) for n in node.alternatives) + ")"
        if isinstance(node, Empty):
            return ""
        if isinstance(node, Dot):
            if self.unicode:
                return _UNICODE_DOT_ALL if self.dot_all else _UNICODE_DOT
            return r"[\s\S]" if self.dot_all else r"[^\n\r\u2028\u2029]"
        if isinstance(node, Anchor):
            return self.emit_anchor(node.kind)
        if isinstance(node, Group):
            n = node.index
            self.open_groups.add(n)
            body = self.emit(node.body, behind)
            self.open_groups.discard(n)
            group = f"(?P<g{n}>{body})"
            if n in self.marker_groups:
                return f"(?P<e{n}>){group}" if behind else f"{group}(?P<e{n}>)"
            return group
        if isinstance(node, Look):
            body = self.emit(node.body, node.behind)
            kind = ("<" if node.behind else "") + ("!" if node.negative else "=")
            return f"(?{kind}{body})"
        if isinstance(node, Backref):
            if node.index in self.open_groups:
                return "(?:)"  # inside its own group: V8 replaces it by the empty match
            # V8 (u/v): a backreference never ends inside a surrogate pair, even an empty one
            guard = NOT_MID_PAIR if self.unicode else ""
            return f"(?(g{node.index})(?P=g{node.index})){guard}"
        if isinstance(node, Quant):
            return self.emit_quant(node, behind)
        if isinstance(node, Unsupported):
            return "(?!)"
        raise TypeError(f"cannot emit {type(node).__name__}")

    def emit_charset(self, node: CharSet) -> str:
        if not self.unicode and not node.strings and node.ranges in (JS_SPACE, JS_NOT_SPACE):
            self.space_classes = True
            if self.native_space_classes:
                return r"\s" if node.ranges == JS_SPACE else r"\S"
        hint = None
        if node.hint is not None and len(node.ranges) > HINT_THRESHOLD:
            hint = (node.hint, node.hint_denoted)
        if not node.strings:
            if self.unicode:
                return set_pattern(node.ranges, hint)
            return corrected_hint(node.ranges, hint) if hint is not None else to_pattern(node.ranges)
        alternatives = []
        longer = [s for s in node.strings if s]
        if longer:
            alternatives.append(_string_trie(longer))
        if node.ranges:
            alternatives.append(set_pattern(node.ranges, hint))
        if "" in node.strings:
            alternatives.append("")
        return "(?:" + "|".join(alternatives) + ")"

    def emit_anchor(self, kind: str) -> str:
        if kind in "^$" and self.multiline:
            self.line_anchors = True
            if self.native_line_anchors:
                # only for subjects whose sole line terminator is \n (the runtime checks)
                return "(?m:^)" if kind == "^" else "(?m:$)"
        if kind == "^":
            return rf"(?:\A|(?<={LINE_TERMINATOR_CLASS}))" if self.multiline else r"\A"
        if kind == "$":
            return rf"(?={LINE_TERMINATOR_CLASS}|\Z)" if self.multiline else r"\Z"
        return r"(?a:\b)" if kind == "b" else r"(?a:\B)"

    def emit_quant(self, q: Quant, behind: bool) -> str:
        if _v8_loop_defect(q.body):
            # V8 11.3 (Node 20): a quantified v-mode [^] matches exactly min(count, 1) times
            return self.emit(q.body, behind) if q.min >= 1 else ""
        lo, hi = q.min, q.max
        can_be_empty = nullable(q.body)
        if hi is not None and hi > MAX_REPEAT:
            hi = None
            self.clamped = True
        if lo > MAX_REPEAT:
            self.clamped = True
            if not can_be_empty:
                return "(?!)"  # needs more than MAX_REPEAT units: out of contract (spec §8)
            lo = MAX_REPEAT
        if hi == 0:
            return ""
        body = self.emit(q.body, behind)
        if _looping(q):
            resets = "".join(
                rf"(?P<g{n}>)(?>(?=(?P<e{n}>[\s\S]))|(?<=(?P<e{n}>[\s\S]))|)" for n in groups_in(q.body)
            )
            body = body + resets if behind else resets + body
        lazy = "" if q.greedy else "?"
        if can_be_empty and (hi is None or hi > lo):
            # JS: an iteration past the minimum that consumes nothing fails (spec §10).
            self.loop_checks += 1
            k = self.loop_checks
            record = rf"(?=(?P<r{k}>[\s\S]*))"
            moved = rf"(?!(?P=r{k})(?![\s\S]))"
            checked = f"(?:{moved}(?:{body}){record})" if behind else f"(?:{record}(?:{body}){moved})"
            fixed = "" if lo == 0 else f"(?:{body})" + ("" if lo == 1 else f"{{{lo}}}")
            rest_hi = None if hi is None else hi - lo
            optional = checked + _suffix(0, rest_hi) + lazy
            # right to left inside a lookbehind: the mandatory iterations come first, at the right
            return optional + fixed if behind else fixed + optional
        atom = body if _is_atom(q.body, body) else f"(?:{body})"
        suffix = _suffix(lo, hi)
        return atom + suffix + (lazy if suffix else "")


def _string_trie(strings: list[str]) -> str:
    """One alternation matching any of ``strings``, longest first (as a JS class of strings).

    Prefix-factored: thousands of emoji sequences become a trie that `regex` compiles and scans
    quickly. Siblings start with different characters, so only their order relative to the
    "stop here" branch matters: it comes last, which keeps longer strings first.
    """
    prefix: list[str] = []
    while True:  # a run of single-child nodes is a loop, not a recursion (\q{…} of 1,000 characters)
        children: dict[str, list[str]] = {}
        ends = False
        for s in strings:
            if s:
                children.setdefault(s[0], []).append(s[1:])
            else:
                ends = True
        if ends or len(children) != 1:
            break
        (first, strings), = children.items()
        prefix.append(units(ord(first)))
    branches = [units(ord(first)) + _string_trie(rests) if any(rests) else units(ord(first))
                for first, rests in sorted(children.items())]
    if ends:
        branches.append("")
    if len(branches) == 1:
        return "".join(prefix) + branches[0]
    return "".join(prefix) + "(?:" + "|".join(branches) + ")"


def _v8_loop_defect(node: Node) -> bool:
    while isinstance(node, Group):
        node = node.body
    return isinstance(node, CharSet) and node.v8_loop_defect


def _is_atom(node: Node, text: str) -> bool:
    """Whether ``text`` can take a quantifier as it is (one escaped unit or one plain class)."""
    return _ATOM.fullmatch(text) is not None


def _suffix(lo: int, hi: int | None) -> str:
    if hi is None:
        return "*" if lo == 0 else "+" if lo == 1 else f"{{{lo},}}"
    if lo == hi:
        return "" if lo == 1 else f"{{{lo}}}"
    if lo == 0 and hi == 1:
        return "?"
    return f"{{{lo},{hi}}}"
