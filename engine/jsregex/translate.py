"""JS source + flags -> a compiled `regex` pattern and what the runtime needs to read it.

Translations are cached (LRU, keyed by source and flags); syntax errors are cached too, so a
rule that is re-evaluated thousands of times never re-parses.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import regex

from .. import memo
from ..jsvalues import from_utf16_units, py_to_utf16_index, to_utf16_units
from .ast import Alt, CharSet, Group, Look, Node, Parsed, Quant, QuirkEvent, Seq
from .emitter import MAX_REPEAT, Emitter, nullable
from .errors import JSSyntaxError
from .parser import ParseError, parse

FLAG_ORDER = "dgimsuvy"
CACHE_SIZE = memo.PATTERN_MEMO_SIZE
PARSE_CACHE_SIZE = 256  # parsed trees kept (a tree of hundreds of nodes each: few, unlike translations)
MAX_EXPANSION = 400_000  # unrolled nodes `regex` may build for minimum counts (~100 MB)
# Compile cost limits (issue 23): `regex` compiles in time that grows with these, outside any
# per-call budget — 32,000 capture groups take ~2 s a compile, 20,000 nested groups ~6 s.
# V8 accepts more; rules and filters need far less. Beyond them a pattern is "unsupported"
# (JSR-Q12's path: a diagnostic naming the rule, the text kept), never compiled.
MAX_SOURCE_UNITS = 100_000  # pattern length, UTF-16 units (refused before parsing)
MAX_NESTING = 5_000  # nested groups/classes (refused before parsing; 5,000 levels compile in ~0.4 s, 20,000 in ~6 s)
MAX_GROUPS = 2_500  # capture groups (2,500 compile in ~0.1 s; 32,000 in ~2 s, and every match pays for each)


def expansion(node: Node) -> int:
    """How many nodes `regex` builds for ``node`` once minimum repeat counts are unrolled."""
    if isinstance(node, Quant):
        return max(1, min(node.min, MAX_REPEAT)) * expansion(node.body) + 1
    if isinstance(node, Seq):
        # runs of single characters become one string node in `regex`
        return sum(expansion(n) for n in node.items if not isinstance(n, CharSet)) + 1
    if isinstance(node, Alt):
        return sum(expansion(n) for n in node.alternatives) + 1
    if isinstance(node, Group | Look):
        return expansion(node.body) + 1
    return 1


@dataclass(frozen=True, slots=True)
class Translation:
    source: str
    flags: str  # canonical order (what JS's `flags` getter returns)
    emitted: str
    emitted_lf: str | None  # same with `regex`'s own ^/$, for subjects whose only terminator is \n
    group_count: int
    group_names: tuple[str, ...]
    name_index: dict[str, int]
    marker_groups: frozenset[int]
    group_slots: tuple[tuple[str, str | None], ...]  # per JS group: (`regex` name, close-marker name)
    unicode: bool  # u or v: code-point mode
    ignore_case: bool
    quirks: tuple[QuirkEvent, ...]  # spans in UTF-16 units of the source
    unsupported: str | None
    clamped: bool  # a quantifier count was clamped (spec §8)
    too_large: bool  # unrolled minimum counts would exhaust memory: evaluation is refused
    loop_checks: int
    nullable: bool  # can match the empty string (then the JS global-iteration rule matters)
    v8_atom: bool  # V8 compiles it to a plain string search (no step-back into surrogate pairs)
    # ``emitted`` with every class that is exactly JS \\s or \\S as `regex`'s own: equivalent on
    # subjects holding neither U+0085 nor U+FEFF (emitter.NATIVE_SPACE_EXCEPTIONS); None when the
    # pattern has no such class
    emitted_native_space: str | None = None

    @property
    def compiled(self) -> regex.Pattern[str]:
        """The `regex` pattern, compiled on first use (validation alone never pays for it)."""
        return compile_emitted(self.emitted)

    @property
    def compiled_lf(self) -> regex.Pattern[str] | None:
        return None if self.emitted_lf is None else compile_emitted(self.emitted_lf)


@memo.lru(maxsize=CACHE_SIZE)
def compile_emitted(emitted: str) -> regex.Pattern[str]:
    """An emitted pattern compiled as the layer compiles its own (VERSION0), cached."""
    with recursion_headroom(emitted):  # `regex`'s parser recurses per nesting level too
        return regex.compile(emitted, regex.VERSION0)


def parse_source(source: str, flags: str) -> tuple[str, Parsed]:
    """``/source/flags`` parsed: the units the parser read (UTF-16 units, or code points with
    ``u``/``v``) and the parse. The one parse of a pattern: shared (the ``PARSE_CACHE_SIZE`` most
    recent patterns) by the translation and every analysis (``facts``, ``starts``, ``variants``,
    ``backtracking``, ``charset_led``, the quirk report), so none parses again; callers must not
    change it. Raises ``ParseError``."""
    return _parse_cached(source, "u" in flags or "v" in flags, "v" in flags, "i" in flags)


def parsed_root(source: str, flags: str) -> Node:
    """The root of ``parse_source(source, flags)``: the one parse of a pattern that every
    analysis reads (``backtracking``, ``starts``, ``charset_led``, ``analysis``); callers must
    not change it. Raises ``ParseError``."""
    return parse_source(source, flags)[1].root


@memo.lru(maxsize=PARSE_CACHE_SIZE)
def _parse_cached(source: str, unicode: bool, vmode: bool, ignore_case: bool) -> tuple[str, Parsed]:
    units = from_utf16_units(source) if unicode else to_utf16_units(source)
    with recursion_headroom(source):
        return units, parse(units, unicode=unicode, vmode=vmode, ignore_case=ignore_case)


def canonical_flags(flags: str) -> str:
    """Validate flags like ``new RegExp`` and return them in ``dgimsuvy`` order."""
    if (
        any(c not in FLAG_ORDER for c in flags)
        or len(set(flags)) != len(flags)
        or ("u" in flags and "v" in flags)
    ):
        raise JSSyntaxError(f"Invalid flags supplied to RegExp constructor '{flags}'", flags=flags)
    return "".join(c for c in FLAG_ORDER if c in flags)


def translate(source: str, flags: str = "") -> Translation:
    result = _translate_cached(source, flags)
    if isinstance(result, JSSyntaxError):
        raise JSSyntaxError(str(result), result.source, result.flags, result.reason, result.offset)
    return result


@memo.lru(maxsize=CACHE_SIZE)
def _translate_cached(source: str, flags: str) -> Translation | JSSyntaxError:
    try:
        return _translate(source, flags)
    except JSSyntaxError as exc:
        return exc


@contextmanager
def recursion_headroom(source: str) -> Iterator[None]:
    """Deeply nested patterns (V8 accepts thousands of levels) need more Python frames than the
    default limit: the parser, the emitter and `regex`'s own parser all recurse per level."""
    depth = _nesting_depth(source)
    needed = depth * 16 + 1000
    old = sys.getrecursionlimit()
    if needed <= old:
        yield
        return
    sys.setrecursionlimit(needed)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _nesting_depth(source: str) -> int:
    depth = deepest = 0
    escaped = False
    for ch in source:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in "([":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]":
            depth = max(0, depth - 1)
    return deepest


def _translate(source: str, flags: str) -> Translation:
    with recursion_headroom(source):
        try:
            return _translate_nested(source, flags)
        except RecursionError:  # structure deeper than the headroom foresaw: refused, not a crash
            return _refused(source, canonical_flags(flags), "too deeply structured to translate")


def compile_cost_refusal(source: str, vmode: bool = False) -> str | None:
    """Why ``source`` is too costly to parse at all (length, nesting), in words; else None."""
    if len(source) > MAX_SOURCE_UNITS:  # code points ≤ UTF-16 units: a cheap first test
        return f"the pattern is {len(source):,} characters long; Rulewright compiles patterns up to {MAX_SOURCE_UNITS:,}"
    if _nesting_depth(source) <= MAX_NESTING:  # an upper bound: most patterns stop here
        return None
    depth = _syntax_depth(source, vmode)
    if depth > MAX_NESTING:
        return f"groups or classes nested {depth:,} deep; Rulewright compiles up to {MAX_NESTING} levels"
    return None


def _syntax_depth(source: str, vmode: bool) -> int:
    """Nesting of groups and (v mode) classes; brackets inside a class are text except in v mode."""
    depth = deepest = 0
    in_class = 0
    escaped = False
    for ch in source:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            if ch == "]":
                in_class -= 1
                depth -= 1
            elif ch == "[" and vmode:
                in_class += 1
                depth += 1
                deepest = max(deepest, depth)
        elif ch == "[":
            in_class = 1
            depth += 1
            deepest = max(deepest, depth)
        elif ch == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif ch == ")":
            depth = max(0, depth - 1)
    return deepest


def _refused(source: str, ordered: str, reason: str) -> Translation:
    """A translation that never matches and whose every call raises ``JSUnsupportedError``."""
    unicode = "u" in ordered or "v" in ordered
    return Translation(source=source, flags=ordered, emitted="(?!)", emitted_lf=None, group_count=0,
                       group_names=(), name_index={}, marker_groups=frozenset(), group_slots=(),
                       unicode=unicode, ignore_case="i" in ordered, quirks=(), unsupported=reason,
                       clamped=False, too_large=True, loop_checks=0, nullable=False, v8_atom=False)


def _source_offset(source: str, at: int | None, unicode: bool) -> int | None:
    """The UTF-16 offset in ``source`` of the parser's position ``at`` (a code-point index
    under ``u``/``v``, a unit index otherwise)."""
    if at is None or not unicode:
        return at
    return py_to_utf16_index(from_utf16_units(source), at)


def _translate_nested(source: str, flags: str) -> Translation:
    ordered = canonical_flags(flags)
    refusal = compile_cost_refusal(source, "v" in ordered)
    if refusal is not None:
        return _refused(source, ordered, refusal)
    unicode = "u" in ordered or "v" in ordered
    try:
        units, parsed = parse_source(source, ordered)
    except ParseError as exc:
        raise JSSyntaxError(
            f"Invalid regular expression: /{source}/{ordered}: {exc.reason}", source, ordered, exc.reason,
            _source_offset(source, exc.at, unicode)) from None
    emitter = Emitter(multiline="m" in ordered, dot_all="s" in ordered, unicode=unicode)
    emitted = emitter.emit_pattern(parsed.root)
    unsupported = parsed.unsupported
    too_large = expansion(parsed.root) > MAX_EXPANSION or parsed.group_count > MAX_GROUPS
    if too_large:
        # `regex` unrolls minimum repeat counts in memory (≈250 bytes each); V8 uses counters.
        unsupported = (f"nested repeat counts need more than {MAX_EXPANSION:,} unrolled repetitions "
                       "(would exhaust memory)") if parsed.group_count <= MAX_GROUPS else \
            f"{parsed.group_count:,} capture groups; Rulewright compiles patterns with up to {MAX_GROUPS:,}"
        emitted = "(?!)"
        emitter.line_anchors = False
    emitted_lf = None
    if emitter.line_anchors:
        # `regex`'s own multiline ^/$ are much faster and exact when \n is the only terminator
        native = Emitter(multiline=True, dot_all="s" in ordered, unicode=unicode, native_line_anchors=True)
        emitted_lf = native.emit_pattern(parsed.root)
    emitted_native_space = None
    if emitter.space_classes and not too_large:
        spaces = Emitter(multiline="m" in ordered, dot_all="s" in ordered, unicode=unicode,
                         native_space_classes=True)
        emitted_native_space = spaces.emit_pattern(parsed.root)
    if unicode:
        quirks = tuple(
            QuirkEvent(q.code, py_to_utf16_index(units, q.start), py_to_utf16_index(units, q.end), q.message)
            for q in parsed.quirks
        )
    else:
        quirks = tuple(parsed.quirks)
    names = tuple(name for name, _ in parsed.group_names)
    return Translation(
        source=source,
        flags=ordered,
        emitted=emitted,
        emitted_lf=emitted_lf,
        group_count=parsed.group_count,
        group_names=names,
        name_index=dict(parsed.group_names),
        marker_groups=frozenset(emitter.marker_groups),
        group_slots=tuple((f"g{n}", f"e{n}" if n in emitter.marker_groups else None)
                          for n in range(1, parsed.group_count + 1)),
        unicode=unicode,
        ignore_case="i" in ordered,
        quirks=quirks,
        unsupported=unsupported,
        too_large=too_large,
        clamped=emitter.clamped,
        loop_checks=emitter.loop_checks,
        nullable=nullable(parsed.root),
        v8_atom=_is_v8_atom(parsed, ordered),
        emitted_native_space=emitted_native_space,
    )


def _is_v8_atom(parsed: Parsed, flags: str) -> bool:
    """V8's RegExpImpl::Compile takes the ATOM path for literal text without i/y captures, unless
    the text has few distinct characters (then irregexp's Boyer-Moore is preferred)."""
    text = parsed.atom_text()
    if text is None or "i" in flags or "y" in flags or parsed.group_count:
        return False
    units = to_utf16_units("".join(map(chr, text)))
    length = min(8, len(units))
    if length <= 2:
        return True
    seen: set[int] = set()
    for ch in units[:length]:
        seen.add(ord(ch) & 127)
        if len(seen) * 3 > length:
            return True
    return False


def cache_clear() -> None:
    _translate_cached.cache_clear()
    _parse_cached.cache_clear()
    compile_emitted.cache_clear()
