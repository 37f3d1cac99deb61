"""A PCRE2 twin of a translated pattern, for global replacements of ASCII subjects in C.

``re`` substitutes a constant in C too, but its scan tries the pattern at every position; PCRE2's
JIT-compiled matcher (the ``pcre2`` binding, PCRE2 10.4x) finds the same matches three to five
times faster on prose (the articles rule on 1 MB: ~15 → ~4 ms). Only whole-text substitutions
use it: PCRE2's Python match objects cost more than ``re``'s, so spans stay with ``re``.

The twin is written from the ``re`` twin's source (``engine.jsregex.twin``: the emitter's plain
syntax) for **ASCII subjects only**, where it can be exact without a second emitter:

* every class becomes its ASCII members (what else it holds can never match an ASCII
  character), written ``\\xhh``;
* a non-ASCII literal becomes a class no ASCII character is in;
* a non-``u`` ``i`` pattern, written for the subject's canonical (upper-case) form, becomes a
  caseless twin of the subject itself: its classes hold both cases of the letters whose upper
  case they hold, its lower-case literals match nothing, and its non-ASCII atoms stay
  case-sensitive (PCRE2 would fold ``s`` to ``ſ``); the output keeps the subject's case;
* ``(?a:\\b)`` is ``\\b`` (PCRE2's Unicode ``\\b`` is the ASCII one on ASCII text), ``\\Z``
  is ``\\z``, ``(?m:^)``/``(?m:$)`` are spelt out as ``re`` reads them;
* anything else the emitter does not write (bare ``.``, ``^``, ``$``, ``\\d``, ``\\s``,
  numbered references, other flag groups, raw non-ASCII) means no twin.

No timer runs in C: callers use it only where the ``re`` twin may run untimed (the pattern
cannot stall, ``engine.jsregex.backtracking.linear_scan``), and count what it took against
the budget afterwards, as they do for ``re``. PCRE2's own limits (match limit, JIT stack)
raise; the caller then takes another path (the ``re`` twin, or spans), to the same result.
"""

from __future__ import annotations

import re

import pcre2

from .. import memo

NO_ASCII = r"[^\x00-\x7f]"  # an atom that matches no character of an ASCII subject

_TOKEN = re.compile(
    r"""\\u[0-9a-f]{4}|\\U[0-9a-f]{8}|\\x[0-9a-f]{2}              # a code point
      | \[\^?(?:\\.|[^\]\\])*\]                                   # a class
      | \(\?m:\^\) | \(\?m:\$\) | \(\?a:                           # flag groups it rewrites
      | \(\?(?:P<\w+>|P=\w+\)|\(\w+\)|:|=|!|<=|<!|>)              # groups it keeps
      | \\.                                                        # another escape
      | [^\\\[(]+ | \((?!\?)                                       # the rest
    """, re.VERBOSE | re.DOTALL)
_ITEM = r"\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|\\U[0-9a-f]{8}|\\[nrtf]|[0-9A-Za-z_]"
_CLASS_ITEM = re.compile(rf"({_ITEM})(?:-({_ITEM}))?")
_CONTROL = {"n": 0x0A, "r": 0x0D, "t": 0x09, "f": 0x0C}
_KEPT_ESCAPES = frozenset("AbBnrtf")  # read alike by ``re`` and PCRE2 (``\b``/``\B``: see the docstring)
_SPELT = {"\\Z": r"\z", "\\v": r"\x0b", "\\a": r"\x07",
          "(?m:^)": r"(?:\A|(?<=\n))", "(?m:$)": r"(?=\n|\z)", "(?a:": "(?:"}


class NoTwin(ValueError):
    """The pattern uses something the ASCII twin does not write."""


def _code(item: str) -> int:
    if len(item) == 1:
        return ord(item)
    return _CONTROL[item[1]] if len(item) == 2 else int(item[2:], 16)


def _class_members(token: str) -> set[int]:
    """The ASCII code points a class token matches."""
    negated = token.startswith("[^")
    body = token[2 if negated else 1:-1]
    members: set[int] = set()
    if body in (r"\s\S", r"\S\s"):
        members.update(range(0x80))
    else:
        items = list(_CLASS_ITEM.finditer(body))
        if sum(len(m.group(0)) for m in items) != len(body):
            raise NoTwin(token)
        for m in items:
            lo = _code(m.group(1))
            hi = _code(m.group(2)) if m.group(2) else lo
            members.update(range(lo, min(hi, 0x7F) + 1))
    return set(range(0x80)) - members if negated else members


def _as_class(members: set[int], caseless: bool) -> str:
    """A class of exactly ``members`` on ASCII text. ``caseless``: ``members`` are what the
    canonical (upper-case) subject is tested against, so an ASCII character matches when its
    upper case is a member; that set holds both cases of its letters, which PCRE2's caseless
    class then matches exactly."""
    if caseless:
        members = {c for c in range(0x80) if ord(chr(c).upper()) in members}
    if not members:
        return "(?-i:" + NO_ASCII + ")" if caseless else NO_ASCII
    runs: list[tuple[int, int]] = []
    for c in sorted(members):
        if runs and runs[-1][1] == c - 1:
            runs[-1] = (runs[-1][0], c)
        else:
            runs.append((c, c))
    return "[" + "".join(f"\\x{lo:02x}" if lo == hi else f"\\x{lo:02x}-\\x{hi:02x}" for lo, hi in runs) + "]"


def ascii_source(emitted: str, caseless: bool = False) -> str:
    """The PCRE2 source that matches as ``re.compile(emitted)`` does on ASCII subjects (raises
    ``NoTwin`` where it cannot say). ``caseless``: ``emitted`` runs on the subject's canonical
    (upper-case) form, and the twin, compiled caseless, on the subject itself: every class and
    literal becomes the class of the ASCII characters whose upper case it matches."""
    out: list[str] = []
    covered = 0
    for m in _TOKEN.finditer(emitted):
        token = m.group(0)
        if m.start() != covered:
            raise NoTwin(emitted)
        covered = m.end()
        if token in _SPELT:
            out.append(_SPELT[token])
        elif token[0] == "[":
            out.append(_as_class(_class_members(token), caseless))
        elif token.startswith(("\\x", "\\u", "\\U")) and len(token) > 2:
            code = _code(token)
            out.append(_literal(code, caseless))
        elif token[0] == "\\":
            c = token[1]
            if c in _KEPT_ESCAPES:
                out.append(token)
            elif not (c.isalnum() or c == "_" or not c.isascii()):
                out.append(_literal(ord(c), caseless))
            else:
                raise NoTwin(token)
        elif token.startswith("(?") or token == "(":
            out.append(token)
        else:
            if not token.isascii() or any(c in ".^$" for c in token):
                raise NoTwin(token)
            out.append("".join(_literal(ord(c), caseless) if c.isalpha() else c for c in token)
                       if caseless else token)
    if covered != len(emitted):
        raise NoTwin(emitted)
    return "".join(out)


def _literal(code: int, caseless: bool) -> str:
    """One literal character on ASCII text. In a caseless twin an upper-case letter matches
    both cases, as the canonical subject's letter does; a lower-case one (the canonical subject
    has none) and a non-ASCII one match nothing, case-sensitively (PCRE2 would fold ``s`` to
    ``ſ``)."""
    if code > 0x7F or (caseless and chr(code).islower()):
        return "(?-i:" + NO_ASCII + ")" if caseless else NO_ASCII
    return f"\\x{code:02x}"


@memo.lru(maxsize=2048)
def pcre_twin(emitted: str, caseless: bool = False) -> pcre2.Pattern | None:
    """The JIT-compiled PCRE2 twin of ``re.compile(emitted)`` for ASCII subjects, or None.

    ``caseless``: ``emitted`` is a non-``u`` ``i`` pattern, written for the subject's canonical
    (upper-case) form; the twin matches the subject itself caselessly, at the same places (see
    ``ascii_source``: on ASCII text that is exact)."""
    try:
        return pcre2.compile(ascii_source(emitted, caseless), pcre2.I if caseless else 0)
    except (NoTwin, pcre2.PatternError, pcre2.LibraryError, RecursionError, ValueError):
        return None


def substitute_ascii(twin: pcre2.Pattern, template: str, subject: str) -> tuple[str, int] | None:
    """``re.subn(template, subject)`` of every match, for an ASCII ``subject`` and a constant
    ``template`` (taken literally), in C; None where PCRE2 stopped on one of its limits."""
    try:
        out, count = twin.subn(template.replace("\\", "\\\\").replace("$", "$$"), subject)
    except (pcre2.LibraryError, MemoryError, UnicodeEncodeError):
        return None
    return str(out), int(count)
