"""JavaScript (V8) regular expressions on the `regex` package.

Every pattern that comes from a rule file, filter, config or payload goes through here:
``compile_js(source, flags)`` behaves like ``new RegExp(source, flags)`` in Node 20 — same
syntax errors (V8's texts), same matches, same UTF-16 offsets — and every call runs under a
time budget that raises :class:`RegexTimeout`.

How: ``parser`` reads the JS grammar (Annex B without u/v) into an AST whose character sets are
already evaluated and case-folded; ``emitter`` writes an explicit `regex` VERSION0 pattern
(named groups ``gN``, capture-reset and empty-iteration markers); ``runtime`` matches it on a
UTF-16 copy of the subject (case-canonicalized under ``i``) and implements exec/replace/split/
matchAll with JS's iteration rules. ``quirks()`` reports the JSR-Qn quirks a pattern relies on.
``GAPS.md`` beside this file lists what is not reproduced, with proof.

What other areas need to know about a pattern is answered here too, from the parsed pattern
(never from its source text), so no caller re-derives JavaScript syntax:

- ``pattern_facts(source, flags)`` → :class:`PatternFacts` (``facts``): where matches start
  (``^`` prefix, line head, leading literal), the literals every match holds, whether a match or
  a lookaround can cross a line break, and how the pattern splits into alternatives;
- ``start_facts(source, flags)`` → :class:`StartFacts` (``starts``): where matches can start
  (literal anchors with their offsets, or a text/line start), the minimum match width, and the
  texts of which every match holds one (``required_any``, ``literals``);
- ``linear_attempts`` / ``linear_scan`` (``backtracking``): proofs that an anchored attempt or a
  whole scan cannot backtrack without bound (so a caller may run it untimed);
- ``specialised`` / ``after_line_break`` (``variants``): the pattern emitted for subjects whose
  only line break is LF (native anchors, native ``\\s``), and a ``^…`` pattern as ``\n(?:…)``;
- ``canonicalize`` (``subject``): text case-folded as the pattern reads it under ``i``;
- ``expand_template`` (``template``): JavaScript's replacement-template expansion.

All of them read the pattern's one parse (``translate.parse_source``, a bounded memo shared with
the translation), so a pattern is parsed once however many analyses ask about it.
"""

from __future__ import annotations

from .errors import JSSyntaxError, JSUnsupportedError, RegexTimeout
from .facts import PatternFacts, pattern_facts
from .quirks import QUIRKS, quirks
from .runtime import JSMatch, JSRegExp, get_default_timeout, set_default_timeout
from .starts import StartFacts, start_facts
from .translate import canonical_flags, translate

__all__ = [
    "QUIRKS",
    "JSMatch",
    "JSRegExp",
    "JSSyntaxError",
    "JSUnsupportedError",
    "PatternFacts",
    "RegexTimeout",
    "StartFacts",
    "canonical_flags",
    "compile_js",
    "get_default_timeout",
    "is_valid",
    "pattern_facts",
    "quirks",
    "set_default_timeout",
    "start_facts",
    "syntax_error",
]


def compile_js(source: str, flags: str = "", timeout: float | None = None, *, profile: str = "v8") -> JSRegExp:
    """``new RegExp(source, flags)``; raises :class:`JSSyntaxError` with V8's message.

    The translation is cached per (source, flags); each call returns a fresh object with its
    own ``last_index`` (JSR-Q8 state lives per rule object, as in JavaScript). ``timeout`` is the
    per-call budget in seconds (default: ``get_default_timeout()``). ``profile="strict"`` makes
    ``replace`` with ``y`` but no ``g`` start at 0 on every call (the JSR-Q8 fix); matching is
    otherwise identical (strict only changes which quirks ``quirks()`` rejects).
    """
    return JSRegExp(translate(source, flags), timeout, profile)


def is_valid(source: str, flags: str = "") -> bool:
    """Whether ``new RegExp(source, flags)`` would not throw."""
    try:
        translate(source, flags)
    except JSSyntaxError:
        return False
    return True


def syntax_error(source: str, flags: str = "") -> JSSyntaxError | None:
    """What ``new RegExp(source, flags)`` would throw (its ``offset`` says where), or None."""
    try:
        translate(source, flags)
    except JSSyntaxError as exc:
        return exc
    return None
