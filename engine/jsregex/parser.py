"""Parser for JavaScript regular expressions (ECMAScript 2023 + ``v``, V8 11.3 behaviour).

Without ``u``/``v`` it follows the Annex B grammar (identity escapes, legacy octal, literal
``{``/``}``/``]``, quantifiable lookaheads) and reads the source as UTF-16 units; with ``u``/``v``
it follows the strict grammar and reads code points. Errors carry V8's exact reason text.
Every character matcher is evaluated to a code-point set right here, already case-folded when
the ``i`` flag is set (see ``unicode_data.canon_table``).
"""

from __future__ import annotations

import regex

from . import charset
from . import unicode_data as ud
from .ast import (
    INF,
    Alt,
    Anchor,
    Backref,
    CharSet,
    Dot,
    Empty,
    Group,
    Look,
    Node,
    Parsed,
    Quant,
    QuirkEvent,
    Seq,
    Unsupported,
)
from .charset import Ranges
from .emoji_data import string_property

DIGITS: Ranges = ((0x30, 0x39),)
WORD: Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
WORD_IU: Ranges = charset.union(WORD, ((0x17F, 0x17F), (0x212A, 0x212A)))
SPACE: Ranges = charset.from_chars(
    [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029,
     0x202F, 0x205F, 0x3000, 0xFEFF])
LINE_TERMINATORS: Ranges = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))

SYNTAX_CHARS = frozenset("^$\\.*+?()[]{}|/")
CLASS_SET_SYNTAX = frozenset("()[]{}/-\\|")
CLASS_SET_RESERVED_DOUBLE = frozenset("&!#$%*+,.:;<=>?@^`~")
CLASS_SET_RESERVED_PUNCT = frozenset("&-!#%,:;<=>@`~")
CONTROL_ESCAPES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
HEX = frozenset("0123456789abcdefABCDEF")
OCTAL = frozenset("01234567")
DECIMAL = frozenset("0123456789")
MAX_COUNT = 2**31 - 1  # V8 saturates quantifier counts here
MAX_CAPTURES = 32767  # V8: one more capturing group is "Too many captures"

_ID_START = regex.compile(r"[\p{ID_Start}$_]")
_ID_CONTINUE = regex.compile(r"[\p{ID_Continue}$\u200c\u200d]")


# Characters that start something other than a plain pattern character in ``parse_term``.
_TERM_SYNTAX = frozenset("^$\\(.[*+?{}]")


class ParseError(Exception):
    """V8's reason, and ``at``: where in the parsed units the error lies (the character the
    parser stopped at, or the start of a group or class left open), for pointing at it."""

    def __init__(self, reason: str, at: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.at = at


def _is_ascii_letter(ch: str) -> bool:
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z")


class _Operand:
    """A ``v``-mode class operand: a set plus strings; ``char`` when it is one literal character."""

    __slots__ = ("char", "denoted", "hint", "may_strings", "ranges", "raw", "strings")

    def __init__(self, ranges: Ranges, strings: frozenset[str] = frozenset(), char: int | None = None,
                 may_strings: bool = False, hint: str | None = None) -> None:
        self.hint = hint  # non-v property operands: the `regex` item for the unfolded set
        self.raw = ranges  # the set before case folding
        self.denoted: Ranges = charset.EMPTY  # the subset of raw that ``hint`` denotes
        self.ranges = ranges
        self.strings = strings
        self.char = char  # the unfolded character, when the operand is one ClassSetCharacter
        self.may_strings = may_strings


class Parser:
    def __init__(self, source: str, *, unicode: bool, vmode: bool, ignore_case: bool) -> None:
        self.s = source
        self.n = len(source)
        self.pos = 0
        self.u = unicode or vmode
        self.v = vmode
        self.i = ignore_case
        self.quirks: list[QuirkEvent] = []
        self.group_count = 0
        self.group_names: list[tuple[str, int]] = []
        self.names: dict[str, int] = {}
        self.named_refs: list[Backref] = []
        self.unsupported: str | None = None
        self.total_groups, self.has_named = self._scan_groups()
        self._class_items: list[tuple[Ranges, str | None]] = []
        self._class_starts: list[int] = []  # the '[' of each class being parsed (errors point there)
        self._canon = ud.canon_table(self.u) if ignore_case else None
        self._changes = (ud.unicode_canon_changes() if self.u else ud.legacy_canon_changes()) if ignore_case else ()

    # ------------------------------------------------------------------ helpers

    def error(self, reason: str, at: int | None = None) -> ParseError:
        """The error to raise, placed at ``at`` (default: where the parser stands, kept
        within the pattern)."""
        return ParseError(reason, min(self.pos if at is None else at, self.n))

    @property
    def _class_start(self) -> int | None:
        return self._class_starts[-1] if self._class_starts else None

    def peek(self, k: int = 0) -> str:
        j = self.pos + k
        return self.s[j] if j < self.n else ""

    def at(self, text: str) -> bool:
        return self.s.startswith(text, self.pos)

    def quirk(self, code: str, start: int, message: str, end: int | None = None) -> None:
        self.quirks.append(QuirkEvent(code, start, self.pos if end is None else end, message))

    def fold_char(self, c: int) -> int:
        return self._canon.get(c, c) if self._canon is not None else c

    def fold(self, r: Ranges) -> Ranges:
        return charset.image(r, self._changes) if self._canon is not None else r

    def fold_string(self, s: str) -> str:
        if self._canon is None:
            return s
        return s.translate(self._canon)

    def word_set(self) -> Ranges:
        return WORD_IU if (self.i and self.u) else WORD

    # ------------------------------------------------------------------ pre-scan

    def _scan_groups(self) -> tuple[int, bool]:
        """Total capturing groups and whether any is named (V8's ScanForCaptures)."""
        s, n = self.s, self.n
        count, named = 0, False
        i = 0
        depth_class = 0
        while i < n:
            ch = s[i]
            if ch == "\\":
                i += 2
                continue
            if depth_class:
                if ch == "]":
                    depth_class -= 1
                elif ch == "[" and self.v:
                    depth_class += 1
            elif ch == "[":
                depth_class = 1
            elif ch == "(":
                if s.startswith("(?<", i) and i + 3 < n and s[i + 3] not in "=!":
                    count += 1
                    named = True
                elif not s.startswith("(?", i):
                    count += 1
            i += 1
        return count, named

    # ------------------------------------------------------------------ structure

    def parse(self) -> Parsed:
        root = self.parse_disjunction()
        if self.pos < self.n:
            # only an unmatched ')' can stop the top-level disjunction
            raise self.error("Unmatched ')'")
        for ref in self.named_refs:
            if ref.name not in self.names:
                raise self.error("Invalid named capture referenced")
            ref.index = self.names[ref.name]
        return Parsed(root, self.group_count, self.group_names, self.quirks, self.unsupported)

    def parse_disjunction(self) -> Node:
        start = self.pos
        alternatives = [self.parse_alternative()]
        if self.peek() != "|":
            return alternatives[0]
        spans = [(start, self.pos)]
        while self.peek() == "|":
            self.pos += 1
            start = self.pos
            alternatives.append(self.parse_alternative())
            spans.append((start, self.pos))
        return Alt(alternatives, tuple(spans))

    def parse_alternative(self) -> Node:
        items: list[Node] = []
        while self.pos < self.n and self.peek() not in "|)":
            items.append(self.parse_term())
        if not items:
            return Empty()
        return items[0] if len(items) == 1 else Seq(items)

    def parse_term(self) -> Node:
        start = self.pos
        ch = self.peek()
        if ch and ch not in _TERM_SYNTAX:
            # a pattern character (the common case in word-list rules): the last branch below
            self.pos += 1
            return self.parse_quantifier(self.literal(ord(ch)), True, start)
        quantifiable = True
        if ch == "^" or ch == "$":
            self.pos += 1
            return Anchor(ch)
        if ch == "\\" and self.peek(1) in ("b", "B") and self.peek(1):
            self.pos += 2
            return Anchor(self.s[self.pos - 1])
        if ch == "(":
            atom, quantifiable = self.parse_group()
        elif ch == ".":
            self.pos += 1
            atom = Dot()
        elif ch == "[":
            atom = self.parse_class()
        elif ch in ("*", "+", "?"):
            raise self.error("Nothing to repeat")
        elif ch == "{":
            if self._interval_at(self.pos) is not None:
                raise self.error("Nothing to repeat")
            if self.u:
                raise self.error("Lone quantifier brackets")
            self.pos += 1
            self.quirk("JSR-Q2", start, "'{' that does not start a quantifier is a literal (Annex B)")
            atom = self.literal(ord("{"))
        elif ch in ("}", "]"):
            if self.u:
                raise self.error("Lone quantifier brackets")
            self.pos += 1
            self.quirk("JSR-Q2", start, f"lone '{ch}' is a literal (Annex B)")
            atom = self.literal(ord(ch))
        elif ch == "\\":
            atom = self.parse_atom_escape()
        else:
            self.pos += 1
            atom = self.literal(ord(ch))
        return self.parse_quantifier(atom, quantifiable, start)

    def literal(self, c: int) -> CharSet:
        c = self.fold_char(c)
        return CharSet(((c, c),), literal=True)

    # ------------------------------------------------------------------ quantifiers

    def _interval_at(self, i: int) -> tuple[int, int | None, int] | None:
        """Parse ``{n}``, ``{n,}``, ``{n,m}`` at ``i``: (min, max, end) or None."""
        s, n = self.s, self.n
        if i >= n or s[i] != "{":
            return None
        j = i + 1
        k = j
        while k < n and s[k] in DECIMAL:
            k += 1
        if k == j:
            return None
        lo = min(int(s[j:k]), MAX_COUNT)
        if k < n and s[k] == "}":
            return lo, lo, k + 1
        if k >= n or s[k] != ",":
            return None
        k += 1
        if k < n and s[k] == "}":
            return lo, INF, k + 1
        m = k
        while m < n and s[m] in DECIMAL:
            m += 1
        if m == k or m >= n or s[m] != "}":
            return None
        return lo, min(int(s[k:m]), MAX_COUNT), m + 1

    def parse_quantifier(self, atom: Node, quantifiable: bool, start: int) -> Node:
        ch = self.peek()
        if ch == "*":
            lo, hi, end = 0, INF, self.pos + 1
        elif ch == "+":
            lo, hi, end = 1, INF, self.pos + 1
        elif ch == "?":
            lo, hi, end = 0, 1, self.pos + 1
        elif ch == "{":
            interval = self._interval_at(self.pos)
            if interval is None:
                if self.u:
                    raise self.error("Incomplete quantifier")
                return atom  # Annex B: the '{' is a literal, parsed as the next term
            lo, hi, end = interval
            if hi is not INF and lo > hi:
                raise self.error("numbers out of order in {} quantifier")
        else:
            return atom
        self.pos = end
        greedy = True
        if self.peek() == "?":
            self.pos += 1
            greedy = False
        if not quantifiable:
            raise self.error("Invalid quantifier")
        if isinstance(atom, Look) and not atom.behind:
            self.quirk("JSR-Q11", start, "quantified lookahead (allowed only without u, Annex B)")
        quant = Quant(atom, lo, hi, greedy, start, self.pos)
        if _v8_loop_defect(atom):
            self.quirk("JSR-V8", start, "V8 11.3 repeats a v-mode [^] at most once: this quantifier "
                       "matches exactly min(count, 1) characters in Node 20 (reproduced)")
        return quant

    # ------------------------------------------------------------------ groups

    def parse_group(self) -> tuple[Node, bool]:
        start = self.pos
        self.pos += 1  # (
        name = None
        kind = "capture"
        if self.peek() == "?":
            nxt = self.peek(1)
            if nxt == ":":
                kind, self.pos = "group", self.pos + 2
            elif nxt in ("=", "!"):
                kind, self.pos = "ahead" + nxt, self.pos + 2
            elif nxt == "<" and self.peek(2) in ("=", "!") and self.peek(2):
                kind, self.pos = "behind" + self.peek(2), self.pos + 3
            elif nxt == "<":
                self.pos += 2
                name = self.parse_group_name()
                if name in self.names:
                    raise self.error("Duplicate capture group name")
            else:
                raise self.error("Invalid group")
        index = 0
        if kind == "capture":
            if self.group_count >= MAX_CAPTURES:
                raise self.error("Too many captures")
            self.group_count += 1
            index = self.group_count
            if name is not None:
                self.names[name] = index
                self.group_names.append((name, index))
        body = self.parse_disjunction()
        if self.peek() != ")":
            raise self.error("Unterminated group", start)
        self.pos += 1
        if kind == "capture":
            return Group(index, body, name, start, self.pos), True
        if kind == "group":
            return body, True
        behind = kind.startswith("behind")
        negative = kind.endswith("!")
        look = Look(behind, negative, body)
        return look, (not behind and not self.u)

    def parse_group_name(self) -> str:
        """The identifier after ``(?<`` or ``\\k<``, up to and including ``>``."""
        chars: list[str] = []
        while True:
            if self.pos >= self.n:
                raise self.error("Invalid capture group name")
            ch = self.peek()
            if ch == ">":
                self.pos += 1
                break
            if ch == "\\":
                self.pos += 1
                if self.peek() != "u":
                    raise self.error("Invalid capture group name")
                self.pos += 1
                c = self._name_unicode_escape()
                if c is None:
                    raise self.error("Invalid Unicode escape")
            else:
                c = ord(ch)
                self.pos += 1
                if 0xD800 <= c <= 0xDBFF and self.pos < self.n and 0xDC00 <= ord(self.peek()) <= 0xDFFF:
                    c = 0x10000 + ((c - 0xD800) << 10) + (ord(self.peek()) - 0xDC00)
                    self.pos += 1
            test = _ID_START if not chars else _ID_CONTINUE
            if 0xD800 <= c <= 0xDFFF or not test.match(chr(c)):
                raise self.error("Invalid capture group name")
            chars.append(chr(c))
        if not chars:
            raise self.error("Invalid capture group name")
        return "".join(chars)

    def _name_unicode_escape(self) -> int | None:
        """After ``\\u`` in a group name: ``XXXX`` (pairs combine) or ``{X…}`` in any mode."""
        if self.peek() == "{":
            j = self.pos + 1
            k = j
            while k < self.n and self.s[k] in HEX:
                k += 1
            if k == j or k >= self.n or self.s[k] != "}":
                return None
            value = int(self.s[j:k], 16)
            if value > 0x10FFFF:
                return None
            self.pos = k + 1
            return value
        c = self._hex_at(self.pos, 4)
        if c is None:
            return None
        self.pos += 4
        if 0xD800 <= c <= 0xDBFF and self.at("\\u"):
            trail = self._hex_at(self.pos + 2, 4)
            if trail is not None and 0xDC00 <= trail <= 0xDFFF:
                self.pos += 6
                return 0x10000 + ((c - 0xD800) << 10) + (trail - 0xDC00)
        return c

    def _hex_at(self, i: int, count: int) -> int | None:
        text = self.s[i:i + count]
        if len(text) == count and all(ch in HEX for ch in text):
            return int(text, 16)
        return None

    # ------------------------------------------------------------------ escapes (outside classes)

    def parse_atom_escape(self) -> Node:
        start = self.pos
        self.pos += 1  # backslash
        if self.pos >= self.n:
            raise self.error("\\ at end of pattern", start)
        ch = self.peek()
        if ch in "123456789":
            j = self.pos
            while j < self.n and self.s[j] in DECIMAL:
                j += 1
            number = int(self.s[self.pos:j])
            if number <= self.total_groups:
                self.pos = j
                return Backref(number, start=start, end=j)
            if self.u:
                raise self.error("Invalid escape")
            if ch in "89":
                self.pos += 1
                self.quirk("JSR-Q1", start, f"'\\{ch}' is the digit {ch} (Annex B)")
                return self.literal(ord(ch))
            value = self._legacy_octal()
            self.quirk("JSR-Q1", start, "legacy octal escape (Annex B)")
            return self.literal(value)
        if ch == "0":
            self.pos += 1
            if self.peek() in DECIMAL and self.peek():
                if self.u:
                    raise self.error("Invalid decimal escape")
                if self.peek() in OCTAL:
                    self.pos -= 1
                    value = self._legacy_octal()
                    self.quirk("JSR-Q1", start, "legacy octal escape (Annex B)")
                    return self.literal(value)
            return self.literal(0)
        if ch == "k":
            if self.u or self.has_named:
                self.pos += 1
                if self.peek() != "<":
                    raise self.error("Invalid named reference")
                self.pos += 1
                name = self.parse_group_name()
                ref = Backref(0, name, start=start, end=self.pos)
                self.named_refs.append(ref)
                return ref
            self.pos += 1
            self.quirk("JSR-Q1", start, "'\\k' without named groups is the letter k (Annex B)")
            return self.literal(ord("k"))
        if ch in "dDsSwW":
            self.pos += 1
            return CharSet(self.fold(self.class_escape_set(ch)))
        if ch in "pP":
            if self.u:
                self.pos += 1
                return self.parse_property(negated=ch == "P")
            self.pos += 1
            self.quirk("JSR-Q1", start, f"'\\{ch}' without u is the letter {ch} (Annex B)")
            return self.literal(ord(ch))
        c = self.parse_character_escape(start, in_class=False)
        return self.literal(c)

    def _legacy_octal(self) -> int:
        """Annex B LegacyOctalEscapeSequence at self.pos (first char is an octal digit)."""
        value = ord(self.peek()) - 48
        self.pos += 1
        if self.peek() in OCTAL and self.peek():
            value = value * 8 + ord(self.peek()) - 48
            self.pos += 1
            if value < 32 and self.peek() in OCTAL and self.peek():
                value = value * 8 + ord(self.peek()) - 48
                self.pos += 1
        return value

    def class_escape_set(self, ch: str) -> Ranges:
        """``\\d \\D \\s \\S \\w \\W`` before folding (``\\W`` = complement of the iu word set)."""
        lower = ch.lower()
        base = DIGITS if lower == "d" else SPACE if lower == "s" else self.word_set()
        return charset.complement(base) if ch.isupper() else base

    def parse_character_escape(self, start: int, in_class: bool) -> int:
        """CharacterEscape after the backslash (self.pos at the escape letter)."""
        ch = self.peek()
        if ch in CONTROL_ESCAPES:
            self.pos += 1
            return CONTROL_ESCAPES[ch]
        if ch == "c":
            letter = self.peek(1)
            if letter and _is_ascii_letter(letter):
                self.pos += 2
                return ord(letter) % 32
            if in_class and not self.u and letter and (letter in DECIMAL or letter == "_"):
                self.pos += 2
                self.quirk("JSR-Q1", start, "'\\c' with a digit or '_' in a class (Annex B)")
                return ord(letter) % 32
            if self.u:
                raise self.error("Invalid Unicode escape")
            # Annex B: the backslash is a literal and 'c' is read again as a character
            self.quirk("JSR-Q1", start, "'\\c' without a control letter is a literal backslash (Annex B)")
            return 0x5C
        if ch == "x":
            value = self._hex_at(self.pos + 1, 2)
            if value is not None:
                self.pos += 3
                return value
            if self.u:
                raise self.error("Invalid escape")
            self.pos += 1
            self.quirk("JSR-Q1", start, "incomplete '\\x' escape is the letter x (Annex B)")
            return ord("x")
        if ch == "u":
            value = self._unicode_escape()
            if value is not None:
                return value
            if self.u:
                raise self.error("Invalid Unicode escape")
            self.pos += 1
            self.quirk("JSR-Q1", start, "incomplete '\\u' escape is the letter u (Annex B)")
            return ord("u")
        if ch == "0" and not (self.peek(1) and self.peek(1) in DECIMAL):
            self.pos += 1
            return 0
        if self.u:
            if ch in SYNTAX_CHARS or (in_class and ch == "-"):
                self.pos += 1
                return ord(ch)
            raise self.error("Invalid escape")
        self.pos += 1
        if _is_ascii_letter(ch) or ch in DECIMAL:
            self.quirk("JSR-Q1", start, f"identity escape '\\{ch}' is the character {ch} (Annex B)")
        return ord(ch)

    def _unicode_escape(self) -> int | None:
        """``\\uXXXX`` (pairs combine in u mode) or, in u mode, ``\\u{…}``; self.pos at 'u'."""
        if self.u and self.peek(1) == "{":
            j = self.pos + 2
            k = j
            while k < self.n and self.s[k] in HEX:
                k += 1
            if k == j or k >= self.n or self.s[k] != "}":
                return None
            value = int(self.s[j:k], 16)
            if value > 0x10FFFF:
                return None
            self.pos = k + 1
            return value
        unit = self._hex_at(self.pos + 1, 4)
        if unit is None:
            return None
        self.pos += 5
        if self.u and 0xD800 <= unit <= 0xDBFF and self.at("\\u"):
            trail = self._hex_at(self.pos + 2, 4)
            if trail is not None and 0xDC00 <= trail <= 0xDFFF:
                self.pos += 6
                return 0x10000 + ((unit - 0xD800) << 10) + (trail - 0xDC00)
        return unit

    def parse_property(self, negated: bool) -> Node:
        """``\\p{…}``/``\\P{…}`` outside a class (self.pos after the p): a CharSet, or Unsupported."""
        operand = self._property_operand(negated)
        if operand.strings or operand.may_strings:
            return self._strings_node(operand)
        hint = self._hint([(operand.denoted, operand.hint)], operand.ranges, False)
        return CharSet(operand.ranges, hint=hint[0] if hint else None, hint_denoted=hint[1] if hint else ())

    def _hint(self, items: list[tuple[Ranges, str | None]], folded: Ranges,
              negated: bool) -> tuple[str, Ranges] | None:
        """``[items + explicit rest]`` for ``folded`` (or its complement) and the set it denotes."""
        names = [item for _, item in items if item is not None]
        if not items or len(names) != len(items):
            return None
        tables = charset.union(*(r for r, _ in items))
        rest = charset.difference(folded, tables)
        denoted = charset.union(tables, rest)
        text = "[" + ("^" if negated else "") + "".join(names) + charset.class_body(rest) + "]"
        return text, charset.complement(denoted) if negated else denoted

    def _property_operand(self, negated: bool, in_class: bool = False) -> _Operand:
        invalid = "Invalid property name in character class" if in_class else "Invalid property name"
        if self.peek() != "{":
            raise self.error(invalid)
        close = self.s.find("}", self.pos)
        if close < 0:
            raise self.error(invalid)
        body = self.s[self.pos + 1:close]
        self.pos = close + 1
        if not body or not all(c.isascii() and (c.isalnum() or c in "_=") for c in body):
            raise self.error(invalid)
        name, eq, value = body.partition("=")
        if eq and (not name or not value or "=" in value):
            raise self.error(invalid)
        if not eq and name in ud.STRING_PROPERTIES:
            if not self.v or negated:
                raise self.error(invalid)
            return self._string_property(name)
        ranges = ud.property_ranges(name, value if eq else None)
        if ranges is None:
            raise self.error(invalid)
        hint = (ud.negated_property_hint if negated else ud.property_hint)(name, value if eq else None)
        if self.v:
            folded = self.fold(ranges)
            operand = _Operand(charset.complement(folded) if negated else folded)
            if hint is not None and not self.i:  # unfolded: the table item stands for the operand
                operand.hint, operand.denoted = hint
            return operand
        if negated:
            ranges = charset.complement(ranges)
        operand = _Operand(self.fold(ranges), hint=None if hint is None else hint[0])
        operand.raw = ranges
        if hint is not None:
            operand.denoted = hint[1]
        return operand

    def _string_property(self, name: str) -> _Operand:
        self.quirk("JSR-Q12", self.pos - len(name) - 4, f"property of strings \\p{{{name}}} (v flag)")
        if name == "Emoji_Keycap_Sequence":  # defined by the standard itself: [0-9#*] FE0F 20E3
            sequences: frozenset[str] | None = frozenset(k + "\ufe0f\u20e3" for k in "0123456789#*")
        else:
            sequences = string_property(name)
        if sequences is None:
            self.unsupported = f"\\p{{{name}}} (needs the `emoji` package with Emoji 17.0 data)"
            return _Operand(charset.EMPTY, frozenset(), may_strings=True)
        chars = [ord(self.fold_string(seq)) for seq in sequences if len(seq) == 1]
        strings = frozenset(self.fold_string(seq) for seq in sequences if len(seq) != 1)
        return _Operand(charset.from_chars(chars), strings, may_strings=True)

    def _strings_node(self, operand: _Operand) -> Node:
        if self.unsupported and not operand.strings and not operand.ranges:
            return Unsupported(self.unsupported)
        return CharSet(operand.ranges, _order_strings(operand.strings))

    # ------------------------------------------------------------------ classes

    def parse_class(self) -> Node:
        self._class_starts.append(self.pos)
        try:
            return self._parse_class()
        finally:
            self._class_starts.pop()

    def _parse_class(self) -> Node:
        self.pos += 1  # [
        negated = False
        if self.peek() == "^":
            negated = True
            self.pos += 1
        if self.v:
            empty_negated = negated and self.peek() == "]"
            operand = self.parse_class_set_contents()
            if negated:
                if operand.may_strings:
                    raise self.error("Negated character class may contain strings")
                return CharSet(charset.complement(operand.ranges), v8_loop_defect=empty_negated)
            if operand.strings or operand.may_strings:
                return self._strings_node(operand)
            return CharSet(operand.ranges)
        outer_items = self._class_items
        self._class_items = []
        ranges = self.parse_class_ranges()
        folded = self.fold(ranges)
        hint = self._hint(self._class_items, folded, negated)
        self._class_items = outer_items
        return CharSet(charset.complement(folded) if negated else folded,
                       hint=hint[0] if hint else None, hint_denoted=hint[1] if hint else ())

    def parse_class_ranges(self) -> Ranges:
        """Non-``v`` ClassContents up to and including ``]``: the union, before folding."""
        parts: list[tuple[int, int]] = []
        sets: list[Ranges] = []
        while True:
            if self.pos >= self.n:
                raise self.error("Unterminated character class", self._class_start)
            if self.peek() == "]":
                self.pos += 1
                break
            start = self.pos
            left = self.parse_class_atom()
            if self.peek() == "-" and self.peek(1) and self.peek(1) != "]":
                self.pos += 1
                right = self.parse_class_atom()
                if isinstance(left, tuple) or isinstance(right, tuple):
                    if self.u:
                        raise self.error("Invalid character class")
                    self.quirk("JSR-Q3", start, "class escape as a range endpoint makes '-' literal (Annex B)")
                    for side in (left, right):
                        if isinstance(side, tuple):
                            sets.append(side)
                        else:
                            parts.append((side, side))
                    parts.append((0x2D, 0x2D))
                    continue
                if left > right:
                    raise self.error("Range out of order in character class", start)
                parts.append((left, right))
                continue
            if isinstance(left, tuple):
                sets.append(left)
            else:
                parts.append((left, left))
        return charset.union(charset.normalize(parts), *sets)

    def parse_class_atom(self) -> int | Ranges:
        """One ClassAtom (non-``v``): a code point, or a set for a class escape."""
        if self.pos >= self.n:
            raise self.error("Unterminated character class", self._class_start)
        ch = self.peek()
        if ch != "\\":
            self.pos += 1
            return ord(ch)
        start = self.pos
        self.pos += 1
        if self.pos >= self.n:
            raise self.error("\\ at end of pattern", start)
        ch = self.peek()
        if ch == "b":
            self.pos += 1
            return 0x08
        if ch == "-" and self.u:
            self.pos += 1
            return 0x2D
        if ch in "dDsSwW":
            self.pos += 1
            return self.class_escape_set(ch)
        if ch in "pP" and self.u:
            self.pos += 1
            operand = self._property_operand(negated=ch == "P", in_class=True)
            # non-v: \P is the complement before the class is folded as a whole
            self._class_items.append((operand.denoted, operand.hint))
            return operand.raw
        if ch in DECIMAL:
            if self.u:
                if ch == "0" and not (self.peek(1) and self.peek(1) in DECIMAL):
                    self.pos += 1
                    return 0
                raise self.error("Invalid escape" if ch in "89" else "Invalid class escape")
            if ch in "89":
                self.pos += 1
                self.quirk("JSR-Q1", start, f"'\\{ch}' is the digit {ch} (Annex B)")
                return ord(ch)
            if ch == "0" and not (self.peek(1) and self.peek(1) in OCTAL):
                self.pos += 1
                return 0
            value = self._legacy_octal()
            self.quirk("JSR-Q1", start, "legacy octal escape (Annex B)")
            return value
        if ch == "k" and self.u:
            raise self.error("Invalid escape")
        return self.parse_character_escape(start, in_class=True)

    # ------------------------------------------------------------------ v-mode class sets

    def parse_class_set_contents(self) -> _Operand:
        """``v``-mode ClassContents up to and including ``]`` (ClassUnion / Intersection / Subtraction)."""
        if self.peek() == "]":
            self.pos += 1
            return _Operand(charset.EMPTY)
        first = self.parse_class_set_operand()
        if self.at("--"):
            return self._class_set_operation(first, "--")
        if self.at("&&"):
            return self._class_set_operation(first, "&&")
        return self._class_union(first)

    def _class_set_operation(self, first: _Operand, op: str) -> _Operand:
        result = first
        while True:
            if self.pos >= self.n:
                raise self.error("Unterminated character class", self._class_start)
            if self.peek() == "]":
                self.pos += 1
                return result
            if not self.at(op):
                raise self.error("Invalid set operation in character class")
            self.pos += 2
            if op == "&&" and self.peek() == "&":
                raise self.error("Invalid character in character class")
            operand = self.parse_class_set_operand()
            if op == "&&":
                result = _Operand(charset.intersect(result.ranges, operand.ranges),
                                  result.strings & operand.strings,
                                  may_strings=result.may_strings and operand.may_strings)
            else:
                result = _Operand(charset.difference(result.ranges, operand.ranges),
                                  result.strings - operand.strings, may_strings=result.may_strings)

    def _class_union(self, first: _Operand) -> _Operand:
        ranges: list[Ranges] = []
        strings: set[str] = set()
        may_strings = False
        pending: _Operand | None = first
        while True:
            if self.pos >= self.n:
                raise self.error("Unterminated character class", self._class_start)
            if self.peek() == "-" and pending is not None:
                if self.at("--"):
                    raise self.error("Invalid set operation in character class")
                self.pos += 1
                if pending.char is None:
                    raise self.error("Invalid character class")
                right = self.parse_class_set_operand()
                if right.char is None:
                    raise self.error("Invalid character class")
                # a range is folded as a whole: image of [lo-hi]
                lo, hi = pending.char, right.char
                if lo > hi:
                    raise self.error("Range out of order in character class")
                ranges.append(self.fold(((lo, hi),)))
                pending = None
                continue
            if pending is not None:
                ranges.append(pending.ranges)
                strings |= pending.strings
                may_strings = may_strings or pending.may_strings
                pending = None
            if self.peek() == "]":
                self.pos += 1
                return _Operand(charset.union(*ranges) if ranges else charset.EMPTY, frozenset(strings),
                                may_strings=may_strings)
            if self.at("--") or self.at("&&"):
                raise self.error("Invalid set operation in character class")
            pending = self.parse_class_set_operand()

    def parse_class_set_operand(self) -> _Operand:
        if self.pos >= self.n:
            raise self.error("Unterminated character class", self._class_start)
        ch = self.peek()
        if ch == "[":
            self._class_starts.append(self.pos)
            self.pos += 1
            negated = False
            if self.peek() == "^":
                negated = True
                self.pos += 1
            inner = self.parse_class_set_contents()
            self._class_starts.pop()
            if negated:
                if inner.may_strings:
                    raise self.error("Negated character class may contain strings")
                return _Operand(charset.complement(inner.ranges))
            return inner
        if ch == "\\":
            nxt = self.peek(1)
            if nxt and nxt in "dDsSwW":
                self.pos += 2
                lower = nxt.lower()
                base = DIGITS if lower == "d" else SPACE if lower == "s" else self.word_set()
                folded = self.fold(base)
                return _Operand(charset.complement(folded) if nxt.isupper() else folded)
            if nxt and nxt in "pP":
                self.pos += 2
                return self._property_operand(negated=nxt == "P", in_class=True)
            if nxt == "q":
                self.pos += 2
                return self._class_string_disjunction()
        c = self.parse_class_set_character()
        image = self.fold_char(c)
        return _Operand(((image, image),), char=c)

    def parse_class_set_character(self) -> int:
        if self.pos >= self.n:
            raise self.error("Unterminated character class", self._class_start)
        ch = self.peek()
        if ch == "\\":
            start = self.pos
            self.pos += 1
            if self.pos >= self.n:
                raise self.error("\\ at end of pattern", start)
            e = self.peek()
            if e == "b":
                self.pos += 1
                return 0x08
            if e in CLASS_SET_RESERVED_PUNCT:
                self.pos += 1
                return ord(e)
            if e in DECIMAL:
                if e == "0" and not (self.peek(1) and self.peek(1) in DECIMAL):
                    self.pos += 1
                    return 0
                raise self.error("Invalid escape" if e in "89" else "Invalid class escape")
            return self.parse_character_escape(start, in_class=True)
        nxt = self.peek(1)
        if ch in CLASS_SET_RESERVED_DOUBLE and nxt == ch:
            raise self.error("Invalid set operation in character class")
        if ch in CLASS_SET_SYNTAX:
            raise self.error("Invalid character in character class")
        self.pos += 1
        return ord(ch)

    def _class_string_disjunction(self) -> _Operand:
        """``\\q{a|bc|}`` (self.pos after the q)."""
        if self.peek() != "{":
            raise self.error("Invalid escape")
        self.pos += 1
        start = self.pos - 3
        strings: set[str] = set()
        chars: list[int] = []
        current: list[str] = []
        may_strings = False
        while True:
            if self.pos >= self.n:
                raise self.error("Unterminated character class", self._class_start)
            ch = self.peek()
            if ch in ("|", "}"):
                self.pos += 1
                if len(current) == 1:
                    chars.append(ord(self.fold_string(current[0])))
                else:
                    strings.add(self.fold_string("".join(current)))
                    may_strings = True
                current = []
                if ch == "}":
                    break
                continue
            current.append(chr(self.parse_class_set_character()))
        self.quirk("JSR-Q12", start, "\\q{…} string alternatives (v flag)")
        return _Operand(charset.from_chars(chars), frozenset(strings), may_strings=may_strings)


def _v8_loop_defect(node: Node) -> bool:
    """A v-mode ``[^]``, possibly inside groups: V8 11.3 mis-sizes it inside quantifiers."""
    while isinstance(node, Group):
        node = node.body
    return isinstance(node, CharSet) and node.v8_loop_defect


def _order_strings(strings: frozenset[str]) -> tuple[str, ...]:
    """Longest first (so alternation prefers the longest string), the empty string last."""
    return tuple(sorted(strings, key=lambda s: (-len(s), s)))


def parse(source: str, *, unicode: bool, vmode: bool, ignore_case: bool) -> Parsed:
    return Parser(source, unicode=unicode, vmode=vmode, ignore_case=ignore_case).parse()
