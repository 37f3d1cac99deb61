"""Compiling filter patterns once, through ``engine.jsregex``, with invalid ones set aside.

Filter patterns are JavaScript regexes from files, so they always go through ``engine.jsregex``.
OmniRoute compiles them on every call and skips the ones that throw (RTK-Q3); we compile each
(source, flags) pair once per process and remember whether it was valid. Only stateless
operations are used on the cached ``JSRegExp`` objects (``search`` and ``replace``), so sharing
them is safe.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_right
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, compress, pairwise, repeat
from operator import add, and_, not_
from typing import Any

import regex

from engine import memo
from engine.jsregex import JSSyntaxError, RegexTimeout, compile_js, get_default_timeout
from engine.jsregex.budget import clip as budget_clip
from engine.jsregex.emitter import NATIVE_SPACE_EXCEPTIONS
from engine.jsregex.unicode_data import canon_table
from engine.jsvalues import JS_WHITESPACE, to_utf16_units, utf16_len
from engine.rtk.bmp import bmp_only
from engine.rtk.heads import with_first_chars


@dataclass(frozen=True)
class CompiledPattern:
    index: int  # position in the filter's list
    source: str
    regex: Any  # JSRegExp
    test: Callable[[str], bool]


@memo.lru(maxsize=4096)
def compile_cached(source: str, flags: str) -> tuple[Any, str | None]:
    """``(JSRegExp, None)`` or ``(None, V8 error message)``."""
    try:
        regex = compile_js(source, flags)
    except JSSyntaxError as exc:
        return None, str(exc)
    unsupported = getattr(regex.translation, "unsupported", None)
    if unsupported:
        # Valid JavaScript that the regex layer cannot run (JSR-Q12): set aside like an invalid one.
        return None, f"unsupported by Rulewright's regex layer: {unsupported}"
    return regex, None


def tester(regex: Any) -> Callable[[str], bool]:
    """A stateless yes/no test (``RegExp.prototype.test`` of a fresh regex): ``test`` itself
    for plain regexes, ``search`` for g/y ones, whose ``test`` would advance ``lastIndex``."""
    if regex.is_global or regex.sticky:
        search = regex.search
        return lambda text: search(text) is not None
    return regex.test


def compile_list(sources: Sequence[str], flags: str) -> tuple[list[CompiledPattern], list[tuple[int, str, str]]]:
    """Compile every pattern; returns the valid ones and ``(index, source, error)`` for the rest."""
    valid: list[CompiledPattern] = []
    invalid: list[tuple[int, str, str]] = []
    for index, source in enumerate(sources):
        regex, error = compile_cached(source, flags)
        if regex is None:
            invalid.append((index, source, error or "invalid regex"))
        else:
            valid.append(CompiledPattern(index, source, regex, tester(regex)))
    return valid, invalid


class LineScanner:
    """Which of many lines a pattern matches, in a few C-level scans instead of one call per line.

    OmniRoute tests every line on its own (``pattern.test(line)``). Calling the regex layer once
    per line costs microseconds each, far too slow for megabyte logs, so the lines are joined with
    ``\\n`` once, prepared as the regex layer would prepare a subject (UTF-16 units, case folding),
    and each pattern is compiled again with the ``m`` flag, so ``^``/``$`` meet line starts and
    ends. Then, cheapest first:

    * blank-line idioms (``^\\s*$`` …) are answered from the strings themselves;
    * when every match needs a literal (``^FAILED ``, or ``.py:`` inside ``^\\S+\\.py:\\d+``), the
      literal is found at C speed and only the lines holding it (and the pattern's other
      literals) are tested, each bounded to its own line with ``search(text, start, end)``;
    * otherwise the whole blob is scanned. A match that starts and ends on line *k* proves that
      line *k* matches on its own; one that runs past the line end is re-checked on its line
      alone, and the scan resumes at line *k+1*, so no matching line is skipped.

    Lookarounds could look across a line break and answer differently than on the lone line, so
    patterns containing one are tested line by line (as are all patterns when the blob holds
    ``\\r``, U+2028 or U+2029, which ``m`` would also treat as line ends). A blob scan that runs out
    of time falls back to per-line tests, each with its own budget, as in the reference.
    """

    # Below this many lines a per-line test is cheaper than preparing the blob and compiling the
    # ``m`` variant of each pattern (which is most of a small CLI run's pattern cost).
    min_scan_lines = 48

    def __init__(self, lines: list[str], blob: str | None = None, heads: frozenset[str] | set[str] | None = None) -> None:
        """``blob``, when the caller has it, is ``"\\n".join(lines)`` (saves joining them again);
        ``heads``, when the caller has them (detection reads them): the first two characters of
        every line; one-character heads and heads no line has may be in it too (an extra head
        only spares a ``^literal`` pattern less often)."""
        self.lines = lines
        self._blob = blob
        self._exact_bounds: bool | None = None
        self._native_space_exact: bool | None = None
        self._prepared: dict[tuple[bool, bool], tuple[str, list[int]]] = {}
        self._after_newline: dict[tuple[bool, bool], str] = {}
        self._heads: dict[tuple[bool, bool], frozenset[str]] = {}
        self._raw_heads = heads
        self._head_queries = 0

    @property
    def blob(self) -> str:
        if self._blob is None:
            self._blob = "\n".join(self.lines)
        return self._blob

    @property
    def native_space_exact(self) -> bool:
        """`regex`'s own ``\\s``/``\\S`` are JavaScript's on this text: it holds neither of the two
        code points where they differ (U+0085, U+FEFF)."""
        if self._native_space_exact is None:
            blob = self.blob
            self._native_space_exact = blob.isascii() or not any(c in blob for c in NATIVE_SPACE_EXCEPTIONS)
        return self._native_space_exact

    @property
    def exact_bounds(self) -> bool:
        """The only line break in the blob is the joining LF (no CR, U+2028, U+2029)."""
        if self._exact_bounds is None:
            blob = self.blob
            self._exact_bounds = "\r" not in blob and (blob.isascii() or ("\u2028" not in blob
                                                                         and "\u2029" not in blob))
        return self._exact_bounds

    def _plain(self, translation: Any) -> bool:
        """The target is the blob itself (no case folding, no UTF-16 expansion)."""
        return not translation.ignore_case and (translation.unicode or self.blob.isascii())

    def _target(self, translation: Any) -> tuple[str, list[int]]:
        """The blob as the regex layer searches it — UTF-16 units unless ``u``, case-canonicalized
        under ``i`` — and where each line starts in it."""
        key = (translation.unicode, translation.ignore_case)
        found = self._prepared.get(key)
        if found is None:
            # The UTF-16 view and the line starts do not depend on case folding: with and
            # without ``i`` share them (one conversion per scanner, not per flag set).
            plain = self._prepared.get((translation.unicode, False))
            if plain is None:
                blob = self.blob
                units = blob if (translation.unicode or bmp_only(blob)) else to_utf16_units(blob)
                widths = map(len if len(units) == len(blob) else utf16_len, self.lines)
                starts = [0, *accumulate(map(add, widths, repeat(1)))]
                starts.pop()
                plain = self._prepared[(translation.unicode, False)] = (units, starts)
            units, starts = plain
            found = (canonicalize(units, translation.unicode), starts) if translation.ignore_case else plain
            self._prepared[key] = found
        return found

    def _no_line_starts_with(self, head: str, translation: Any) -> bool:
        """Whether no line starts with ``head`` (one or two target units), from the set of every
        line's first two units. The set costs about two literal searches, so it is built only
        once a second pattern asks, or when the target is not prepared yet (preparing it costs
        more); else the first pattern is answered by its own scan."""
        key = (translation.unicode, translation.ignore_case)
        heads = self._heads.get(key)
        if heads is None:
            self._head_queries += 1
            if self._raw_heads is None and self._head_queries < 2 and key in self._prepared:
                return False
            # The few distinct heads of the lines (read once: every flag set shares them), then
            # each as the target spells it.
            raw = self._raw_heads
            if raw is None:
                raw = self._raw_heads = {line[:2] for line in self.lines}
            two = {_as_target(h, translation)[:2] for h in raw} if not self._plain(translation) else raw
            heads = self._heads[key] = with_first_chars(two)
        return head not in heads

    def hits(self, pattern: CompiledPattern, *, exact: bool = True, known: Container[int] = ()) -> list[int]:
        """Indexes of the lines ``pattern`` matches (``exact=False``: a superset is enough).
        ``known``: lines the caller already counts as hits (of an earlier pattern); the answer
        may leave them out, which saves testing them one by one."""
        lines = self.lines
        if not lines:
            return []
        idiom = _IDIOMS.get(pattern.source) if "m" not in pattern.regex.flags else None
        if idiom is not None:
            return list(compress(range(len(lines)), idiom(lines)))
        scanned = None
        if len(lines) >= self.min_scan_lines and self._scannable(pattern, exact):
            # (``v`` nests classes, which the split does not parse; RTK never sets it.)
            parts = [] if "v" in pattern.regex.flags else (
                top_level_alternatives(pattern.source) or leading_group_alternatives(pattern.source))
            scanned = self._union(pattern, parts, exact, known) if parts else self._scan(pattern, exact, known)
        if scanned is not None:
            return scanned
        test = pattern.test
        return [i for i, line in enumerate(lines) if test(line)]

    def _union(self, pattern: CompiledPattern, parts: list[str], exact: bool,
               known: Container[int]) -> list[int] | None:
        """``a|b|c``: a line matches it exactly when it matches one alternative (no backreference
        ties them), and each alternative alone usually has a shape a scan is fast on (a leading
        literal, a ``^`` anchor) that the whole does not."""
        flags = pattern.regex.flags
        found: set[int] = set()
        for part in parts:
            regex, _ = compile_cached(part, flags)
            if regex is None:
                return None
            found.update(self.hits(CompiledPattern(pattern.index, part, regex, tester(regex)), exact=exact,
                                   known=known))
        return sorted(found)

    def _scannable(self, pattern: CompiledPattern, exact: bool) -> bool:
        """Whether a scan of the joined lines answers as the per-line tests do: on LF-only text
        when every lookaround stays on its line; on any text without lookarounds when a superset
        is enough."""
        if not _LOOKAROUND.search(pattern.source):
            return self.exact_bounds or not exact
        return self.exact_bounds and line_local_lookarounds(pattern.source, "s" in pattern.regex.flags)

    def _scan(self, pattern: CompiledPattern, exact: bool, known: Container[int] = ()) -> list[int] | None:
        flags = pattern.regex.flags
        multiline, _ = compile_cached(pattern.source, flags if "m" in flags else flags + "m")
        if multiline is None:
            return None
        translation = multiline.translation
        if self.exact_bounds:
            # (before the target is prepared: ruling the pattern out may spare preparing it)
            head = line_head(pattern.source)
            if head and self._no_line_starts_with(_as_target(head, translation)[:2], translation):
                return []
        target, starts = self._target(translation)
        compiled = _scan_regex(translation, self.exact_bounds, self.native_space_exact)
        lines = self.lines
        if self.exact_bounds:
            # Cheapest first: a leading literal the engine skips to by itself; a ``^literal``
            # prefix, found as LF + literal; a literal rare enough that testing only the lines
            # holding it beats a scan; else the line-start scan (``^…``) or the whole-blob scan.
            if _leading_literal(pattern.source):
                if _stays_on_line(pattern.source, "s" in flags) and "v" not in flags:
                    return _line_local_hits(compiled, target, starts)
                return self._scan_blob(compiled, target, starts, exact)
            after_newline = _after_newline_form(compiled) if _line_anchored(pattern.source) else None
            prefix = anchored_prefix(pattern.source)
            if prefix and anchored_literal_only(pattern.source):
                # ``^literal``: the lines starting with it are the answer, found at C speed
                return self._scan_candidates(pattern, compiled, target, starts, _as_target(prefix, translation),
                                             True, [], certain=True)
            if after_newline is not None and _leading_literal(pattern.source[1:]):
                return self._scan_line_starts(after_newline, compiled, translation, starts, exact)

            literals = [_as_target(text, translation) for text in required_literals(pattern.source)]
            if prefix:
                primary, count = _as_target(prefix, translation), 0
            elif literals:
                # The rarest literal picks the candidate lines: a count is one C pass, cheap next
                # to a Python step per candidate line (the longest ones first: the likeliest rare).
                counts = {text: _estimated_count(target, text)
                          for text in sorted(set(literals), key=len, reverse=True)[:3]}
                primary = min(counts, key=counts.__getitem__)
                count = counts[primary]
            else:
                primary, count = "", 0
            # A candidate line costs a Python step; the scans cost a C step per line (line-start
            # scan) or per character (blob scan): candidates win when the literal is rare enough.
            rare = count * (4 if after_newline is not None else 2) <= len(lines)
            if primary and (prefix or rare):
                others = [text for text in literals if text != primary and len(text) > 1]
                return self._scan_candidates(pattern, compiled, target, starts, primary, bool(prefix), others,
                                             certain=anchored_literal_only(pattern.source), known=known)
            if after_newline is not None:
                return self._scan_line_starts(after_newline, compiled, translation, starts, exact)
        return self._scan_blob(compiled, target, starts, exact)

    def _scan_blob(self, compiled: Any, target: str, starts: list[int], exact: bool) -> list[int] | None:
        """Every match in the whole blob, mapped to its line (``None``: out of time)."""
        return _blob_hits(compiled, target, starts, exact)

    def _scan_line_starts(self, after_newline: Any, compiled: Any, translation: Any, starts: list[int],
                          exact: bool) -> list[int] | None:
        """A ``^…`` pattern, searched as ``\\n(?:…)`` in the blob behind an extra LF.

        Each match then begins with the LF before a line, which the regex engine finds at C speed
        instead of testing the pattern's first item at every position (``^\\S+…`` costs a class
        test per character otherwise). A match at index ``s`` of ``"\\n" + target`` is the line
        starting at ``s`` of the target; one that runs past its line end is re-checked on its
        line alone, and the scan resumes at the next line, as in :meth:`_scan_blob`."""
        key = (translation.unicode, translation.ignore_case)
        target, _ = self._target(translation)
        shifted = self._after_newline.get(key)
        if shifted is None:
            shifted = self._after_newline[key] = "\n" + target
        last = len(starts) - 1
        limit = len(target)
        out: list[int] = []
        position = 0
        deadline = time.monotonic() + budget_clip(_SCAN_BUDGET)
        try:
            while True:
                restart = None
                for found in after_newline.finditer(shifted, position,
                                                    timeout=max(0.001, deadline - time.monotonic())):
                    start, end = found.span()
                    k = bisect_right(starts, start) - 1
                    line_end = starts[k + 1] - 1 if k < last else limit
                    if end - 1 <= line_end:
                        out.append(k)
                        continue
                    if not exact or compiled.search(target, starts[k], line_end):
                        out.append(k)
                    restart = line_end + 1
                    break
                if restart is None or restart > limit:
                    break
                position = restart
        except TimeoutError:
            return None
        return out

    def _scan_candidates(self, pattern: CompiledPattern, compiled: Any, target: str, starts: list[int],
                         literal: str, at_line_start: bool, others: list[str], *,
                         certain: bool = False, known: Container[int] = ()) -> list[int]:
        """Test only the lines that hold a literal every match needs (at their start, for a
        ``^literal…`` pattern), each on its own: ``search(target, line start, line end)`` sees
        exactly that line (``$`` meets the line end, ``^`` the line start), as the reference does.
        The literals are found at C speed, so lines without them cost nothing, and a line must
        also hold the pattern's ``others`` literals before the regex runs. Each test gets the
        regex layer's per-call budget, like the reference's per-line call. ``certain``: the
        pattern is ``^`` and the literal alone, so every candidate matches (no regex call).
        Candidates in ``known`` are not tested (nor reported)."""
        last = len(starts) - 1
        limit = len(target)
        candidates: list[int] = []
        if at_line_start:
            needle = "\n" + literal
            found = -1 if target.startswith(literal) else target.find(needle)
            position = found + 1 if target.startswith(literal) or found >= 0 else -1
            while position >= 0:
                k = bisect_right(starts, position) - 1
                line_end = starts[k + 1] - 1 if k < last else limit
                if not others or all(target.find(o, position, line_end) >= 0 for o in others):
                    candidates.append(k)
                found = target.find(needle, line_end)
                position = found + 1 if found >= 0 else -1
        else:
            position = target.find(literal)
            while position >= 0:
                k = bisect_right(starts, position) - 1
                line_end = starts[k + 1] - 1 if k < last else limit
                if not others or all(target.find(o, starts[k], line_end) >= 0 for o in others):
                    candidates.append(k)
                if line_end >= limit:
                    break
                position = target.find(literal, line_end + 1)
        if certain and at_line_start:
            return candidates
        budget = get_default_timeout()
        search = compiled.search
        out: list[int] = []
        try:
            for k in candidates:
                if k in known:
                    continue
                line_end = starts[k + 1] - 1 if k < last else limit
                # (string, pos, endpos, concurrent, partial, timeout): a positional timeout costs
                # `regex` less than a keyword one
                if search(target, starts[k], line_end, None, False, budget):
                    out.append(k)
        except TimeoutError:
            raise RegexTimeout(pattern.source, pattern.regex.flags, budget or 0.0) from None
        return out


def _line_local_hits(compiled: Any, target: str, starts: list[int]) -> list[int] | None:
    """``_blob_hits`` for a pattern no match of which can hold a line break (nothing in it can
    match one): every match lies on its line, so a match's start alone names its line."""
    out: list[int] = []
    previous = -1
    try:
        for found in compiled.finditer(target, timeout=budget_clip(_SCAN_BUDGET)):
            k = bisect_right(starts, found.start())
            if k != previous:  # (further matches on a counted line add nothing)
                out.append(k)
                previous = k
    except TimeoutError:
        return None
    return [k - 1 for k in out]


def _blob_hits(compiled: Any, target: str, starts: list[int], exact: bool) -> list[int] | None:
    """Lines (``starts`` in ``target``, joined by LF) where ``compiled`` matches, from every match
    in the whole text (``None``: out of time)."""
    last = len(starts) - 1
    out: list[int] = []
    position, limit = 0, len(target)
    deadline = time.monotonic() + budget_clip(_SCAN_BUDGET)
    previous = -1
    try:
        while position <= limit:
            restart = None
            for found in compiled.finditer(target, position, timeout=max(0.001, deadline - time.monotonic())):
                start, end = found.span()
                k = bisect_right(starts, start) - 1
                line_end = starts[k + 1] - 1 if k < last else limit
                if end <= line_end:
                    if k != previous:  # (further matches on a counted line add nothing)
                        out.append(k)
                        previous = k
                    continue
                if not exact:
                    # A superset is enough: count every line the match touches (the ones it
                    # covers may match on their own) and let the iterator go on from its end,
                    # where a line start is still a line start (^ is native here).
                    k_last = bisect_right(starts, end - 1) - 1
                    out.extend(range(max(k, previous + 1), k_last + 1))
                    previous = max(previous, k_last)
                    continue
                # The match runs into the next line, where the iterator would skip ahead:
                # check this line alone (``endpos`` = its end), then go on from the next line.
                if k != previous and compiled.search(target, starts[k], line_end,
                                                 timeout=max(0.001, deadline - time.monotonic())):
                    out.append(k)
                    previous = k
                restart = line_end + 1
                break
            if restart is None:
                break
            position = restart
    except TimeoutError:
        return None
    return out


def _as_target(text: str, translation: Any) -> str:
    """``text`` as the regex layer spells it in a subject: UTF-16 units unless ``u``, case
    canonicalized under ``i``."""
    units = text if translation.unicode else to_utf16_units(text)
    return canonicalize(units, translation.unicode) if translation.ignore_case else units


_SAMPLE = 1 << 16


def _estimated_count(target: str, literal: str) -> int:
    """How often ``literal`` occurs in ``target``, from samples at the start, middle and end when
    the target is large (it only chooses between two exact scan strategies, so an estimate is
    enough, and counting each literal over a multi-megabyte blob costs a pass each)."""
    size = len(target)
    if size <= 4 * _SAMPLE:
        return target.count(literal)
    middle = (size - _SAMPLE) // 2
    found = (target.count(literal, 0, _SAMPLE) + target.count(literal, middle, middle + _SAMPLE)
             + target.count(literal, size - _SAMPLE))
    return found * size // (3 * _SAMPLE)


def top_level_alternatives(source: str) -> list[str]:
    """The alternatives of a JavaScript source with a top-level ``|`` (``^a|b`` → ``^a``, ``b``);
    empty when there is none or when a backreference (``\\1``, ``\\k<name>``) could tie them."""
    bars, has_backreference = _top_level_bars(source)
    if not bars or has_backreference:
        return []
    edges = [-1, *bars, len(source)]
    return [source[start + 1:end] for start, end in pairwise(edges)]


def leading_group_alternatives(source: str) -> list[str]:
    """``(?:a|b)rest`` as ``arest``, ``brest``: the same lines match (the group is not repeated
    and no backreference can see it), and each has a shape a scan is fast on — ``(?:^|\\|\\s)\\w*…``
    becomes a ``^`` pattern and one that starts with a literal. Empty for any other shape."""
    if not (source.startswith("(?:") or (source.startswith("(") and not source.startswith("(?"))) \
            or has_top_level_alternation(source):
        return []
    end = _group_end(source, 0)
    if end > len(source) or source[end - 1:end] != ")" or source[end:end + 1] in ("*", "+", "?", "{"):
        return []
    inner = source[3 if source.startswith("(?:") else 1:end - 1]
    parts = top_level_alternatives(inner)
    if not parts or top_level_alternatives(source[end:] + "|") == []:
        return []  # (the second test rejects a backreference in the rest)
    rest = source[end:]
    return [part + rest for part in parts]


def line_local_lookarounds(source: str, dot_all: bool = False) -> bool:
    """Every lookaround of a JavaScript source sees only its own line: nothing in its body can
    match a line break (no ``\\s``, ``\\W``, ``\\D``, negated classes, code-point escapes,
    backreferences, control characters, nor ``.`` under ``s``). Such a lookaround answers the same
    inside the LF-joined lines as on the line alone: at the line's edges it meets an LF there
    and the string's end here, and its body can match neither. Conservative: anything unknown
    says no (and the caller then tests line by line)."""
    for found in _LOOKAROUND.finditer(source):
        body = source[found.end():_group_end(source, found.start()) - 1]
        if not _stays_on_line(body, dot_all):
            return False
    return True


def _stays_on_line(body: str, dot_all: bool) -> bool:
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            nxt = body[i + 1:i + 2]
            if not ((len(nxt) == 1 and nxt in "SwdbBt") or _identity_escape(nxt)):
                return False
            i += 2
            continue
        if ch == "[":
            end = _class_end(body, i)
            inner = body[i + 1:end - 1]
            if inner.startswith("^") or not _class_stays_on_line(inner):
                return False
            i = end
            continue
        if (ch == "." and dot_all) or ch < " " or ch in "\x85\u2028\u2029":
            return False
        i += 1
    return True


def _class_stays_on_line(inner: str) -> bool:
    """A positive class body of printable characters, identity escapes, ``\\S``/``\\w``/``\\d``:
    a range between printable characters starts above LF, so it cannot hold one either."""
    i = 0
    while i < len(inner):
        ch = inner[i]
        if ch == "\\":
            nxt = inner[i + 1:i + 2]
            if not ((len(nxt) == 1 and nxt in "Swd") or _identity_escape(nxt)):
                return False
            i += 2
            continue
        if ch < " " or ch in "\x85\u2028\u2029":
            return False
        i += 1
    return True


def _identity_escape(ch: str) -> bool:
    """``\\`` + ``ch`` stands for ``ch`` itself: printable ASCII punctuation."""
    return len(ch) == 1 and " " < ch < "\x7f" and not ch.isalnum() and ch != "_"


def anchored_prefix(source: str) -> str:
    """The literal text every match of a JavaScript source ``^literal…`` starts with, at a line
    start (empty when the source has another shape or a top-level ``|``)."""
    return _anchored_prefix_span(source)[0]


def anchored_literal_only(source: str) -> bool:
    """The JavaScript source is ``^`` and literal text, nothing else (``^FAILED ``): a line
    matches it exactly when it starts with that text."""
    prefix, end = _anchored_prefix_span(source)
    return bool(prefix) and end == len(source)


def _anchored_prefix_span(source: str) -> tuple[str, int]:
    """``anchored_prefix`` and the index in ``source`` where it stops."""
    if not source.startswith("^") or has_top_level_alternation(source):
        return "", 0
    out: list[str] = []
    i = 1
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            nxt = source[i + 1] if i + 1 < len(source) else ""
            if not nxt or nxt not in _JS_LITERAL_ESCAPES:
                break
            literal, step = nxt, 2
        elif ch in ".*+?()[]{}|^$":
            break
        else:
            literal, step = ch, 1
        if i + step < len(source) and source[i + step] in "*+?{":
            break  # the literal is quantified: it may be absent or repeated
        out.append(literal)
        i += step
    return "".join(out), i


def line_head(source: str) -> str:
    """Up to two characters every line a ``^…`` JavaScript source matches starts with: its
    anchored literal prefix, or the character a ``^x+``/``^x{n,…}`` (n ≥ 1) run starts with."""
    prefix = anchored_prefix(source)
    if len(prefix) >= 2 or not source.startswith("^") or has_top_level_alternation(source):
        return prefix[:2]
    i = 1 + len(prefix)  # (a one-character prefix is one plain character)
    if prefix or i >= len(source):
        return prefix
    ch = source[i]
    if ch == "\\":
        if source[i + 1:i + 2] not in _JS_LITERAL_ESCAPES or not source[i + 1:i + 2]:
            return ""
        literal, step = source[i + 1], 2
    elif ch in ".*+?()[]{}|^$":
        return ""
    else:
        literal, step = ch, 1
    follow = source[i + step:i + step + 1]
    if follow == "+" or (follow == "{" and _MIN_ONE.match(source, i + step)):
        return literal
    return ""


_MIN_ONE = re.compile(r"\{[1-9]\d*(?:,\d*)?\}")


def required_literal(source: str) -> str:
    """The longest literal text that every match of a JavaScript source contains."""
    return max(required_literals(source), key=len, default="")


def required_literals(source: str) -> list[str]:
    """Every literal text that every match of a JavaScript source contains, read from its
    top-level sequence (classes, escapes like ``\\d``, quantified characters and other groups end
    a run; a top-level ``|`` means there are none). A group that is neither quantified, nor a
    lookaround, nor holds a top-level ``|`` is only a bracket around part of the sequence: it is
    read through, so ``(\\S+\\.py) `` yields ``.py ``."""
    if has_top_level_alternation(source):
        return []
    found: list[str] = []
    run: list[str] = []
    i, n = 0, len(source)
    transparent_closes: set[int] = set()  # indexes of the ``)`` of groups read through

    def close() -> None:
        if run:
            found.append("".join(run))
        run.clear()

    while i < n:
        ch = source[i]
        if ch == "\\":
            nxt = source[i + 1] if i + 1 < n else ""
            if nxt and nxt in _JS_LITERAL_ESCAPES:
                literal, width = nxt, 2
            else:
                # Skip the whole escape: ``\\u2717`` is one character, not ``\\u`` then "2717".
                close()
                escape = _LONG_ESCAPE.match(source, i)
                i = escape.end() if escape else i + 2
                continue
        elif ch == "[":
            close()
            i = _class_end(source, i)
            continue
        elif ch == "(":
            opened = _transparent_group(source, i)
            if opened is None:
                close()
                i = _group_end(source, i)
            else:
                i, end = opened
                transparent_closes.add(end - 1)
            continue
        elif ch == ")" and i in transparent_closes:
            i += 1
            continue
        elif ch in "^$.|*+?{":
            close()
            quantifier = _BRACE_QUANTIFIER.match(source, i) if ch == "{" else None
            i = quantifier.end() if quantifier else i + 1
            continue
        else:
            literal, width = ch, 1
        if i + width < n and source[i + width] in "*+?{":
            close()  # a quantified character may be absent or repeated
            i += width
            continue
        run.append(literal)
        i += width
    close()
    return found


def _transparent_group(source: str, i: int) -> tuple[int, int] | None:
    """For a group opening at ``i`` that only brackets a plain sequence — capturing, named or
    ``(?:``, not quantified, no top-level ``|`` inside — ``(index of its body, index just past
    it)``; ``None`` for lookarounds, modifiers, quantified or alternating groups."""
    end = _group_end(source, i)
    if end > len(source) or source[end - 1:end] != ")" or source[end:end + 1] in ("*", "+", "?", "{"):
        return None
    if source.startswith("(?:", i):
        body = i + 3
    elif source.startswith("(?<", i) and source[i + 3:i + 4] not in ("=", "!"):
        body = source.find(">", i) + 1
        if body <= 0 or body >= end:
            return None
    elif source.startswith("(?", i):
        return None
    else:
        body = i + 1
    if has_top_level_alternation(source[body:end - 1]):
        return None
    return body, end


def _class_end(source: str, i: int) -> int:
    """Index just past the character class opening at ``i``."""
    i += 1
    if i < len(source) and source[i] == "]":
        i += 1  # JS: `[]` is an empty class; `[]]` does not occur in valid sources we scan
        return i
    while i < len(source):
        if source[i] == "\\":
            i += 2
            continue
        if source[i] == "]":
            return i + 1
        i += 1
    return i


def _group_end(source: str, i: int) -> int:
    """Index just past the group opening at ``i`` (classes and escapes respected)."""
    depth = 0
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            i = _class_end(source, i)
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def has_top_level_alternation(source: str) -> bool:
    """True when ``source`` has a ``|`` outside every group and class (JS syntax)."""
    return bool(_top_level_bars(source)[0])


def _top_level_bars(source: str) -> tuple[list[int], bool]:
    """Indexes of the ``|`` outside every group and class of a JavaScript source, and whether it
    holds a numbered or named backreference (``\\1``, ``\\k<name>``): one scan for both the
    splitter and the alternation test."""
    bars: list[int] = []
    has_backreference = False
    depth, i, in_class = 0, 0, False
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            has_backreference = has_backreference or source[i + 1:i + 2] in _BACKREFERENCE_HEADS
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            bars.append(i)
        i += 1
    return bars, has_backreference


_BACKREFERENCE_HEADS = frozenset("123456789k")


_BRACE_QUANTIFIER = re.compile(r"\{\d+(?:,\d*)?\}")
# Escapes longer than two characters (code points, control letters, properties, named and
# numbered backreferences, octal): their tail is not literal text of the pattern.
_LONG_ESCAPE = re.compile(r"\\(?:u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|c[A-Za-z]|[pP]\{[^}]*\}|k<[^>]*>|\d+)")
_JS_LITERAL_ESCAPES = set("\\/.*+?()[]{}|^$-")


@memo.lru(maxsize=2)
def _canon(unicode_mode: bool) -> tuple[dict[int, int], str | None]:
    """The regex layer's case-canonicalization table, and how it treats ASCII (``upper``,
    ``lower`` or ``None`` when it is neither)."""
    table = canon_table(unicode_mode)
    for name in ("upper", "lower"):
        if all(table.get(c, c) == ord(getattr(chr(c), name)()) for c in range(128)):
            return table, name
    return table, None


def canonicalize(units: str, unicode_mode: bool) -> str:
    """``units.translate(canon_table(unicode_mode))``, fast: ASCII letters change case in C (on
    the UTF-8 bytes), then each distinct non-ASCII character the table changes is replaced."""
    table, ascii_case = _canon(unicode_mode)
    if ascii_case is None:
        return units.translate(table)
    data = units.encode("utf-8", "surrogatepass")
    folded = (data.upper() if ascii_case == "upper" else data.lower()).decode("utf-8", "surrogatepass")
    if folded.isascii():
        return folded
    others = set(data.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass"))
    for ch in others:
        mapped = table.get(ord(ch))
        if mapped is not None and mapped != ord(ch):
            folded = folded.replace(ch, chr(mapped))
    return folded


_ASCII_BYTES = bytes(range(128))


# How the regex layer spells JS multiline ``^`` and ``$`` (any of the four line terminators).
_JS_LINE_START = r"(?:\A|(?<=[\n\r\u2028\u2029]))"
_JS_LINE_END = r"(?=[\n\r\u2028\u2029]|\Z)"


def _scan_regex(translation: Any, lf_only: bool, native_space: bool) -> Any:
    """The translated pattern as a scan runs it: with its line anchors as native
    ``(?m:^)``/``(?m:$)`` when ``lf_only``, and with JS ``\\s``/``\\S`` classes as `regex`'s own
    when ``native_space``.

    Native anchors are only valid on text whose sole line break is LF (then both spellings
    agree); they let the ``regex`` engine jump from line to line instead of testing a lookbehind
    at every position, which is most of the cost of a scan. Native space classes are only valid
    on text without U+0085 and U+FEFF (the translation says which pattern that is); they match
    about 1.3× faster than the explicit class."""
    emitted = translation.emitted
    if native_space and translation.emitted_native_space is not None:
        emitted = translation.emitted_native_space
    elif not lf_only or (_JS_LINE_START not in emitted and _JS_LINE_END not in emitted):
        return translation.compiled
    return _compile_native(emitted, translation.compiled.flags, lf_only) or translation.compiled


def _line_anchored(source: str) -> bool:
    """Every match of the JavaScript ``source`` starts at a line start: a leading ``^`` and no
    top-level ``|`` (``^a|b`` is not anchored)."""
    return source.startswith("^") and not has_top_level_alternation(source)


def _leading_literal(source: str) -> bool:
    """The unanchored ``source`` starts with a literal character that every match starts with
    (``error TS\\d+``, ``=+ …``): the regex engine then skips ahead to it by itself, which beats
    any pre-selection of candidate lines in Python."""
    if not source or has_top_level_alternation(source):
        return False
    ch = source[0]
    if ch == "\\":
        if len(source) < 2 or source[1] not in _JS_LITERAL_ESCAPES:
            return False
        width = 2
    elif ch in ".*+?()[]{}|^$":
        return False
    else:
        width = 1
    follow = source[width:width + 1]
    return follow not in ("?", "*") and not (follow == "{" and source[width + 1:width + 2] == "0")


def _after_newline_form(compiled: Any) -> Any:
    """``(?m:^)rest`` as ``\\n(?:rest)`` (compiled, cached), or ``None`` for another shape."""
    emitted = compiled.pattern
    if not isinstance(emitted, str) or not emitted.startswith(_NATIVE_LINE_START):
        return None
    return _compile_after_newline(emitted[len(_NATIVE_LINE_START):], compiled.flags)


@memo.lru(maxsize=4096)
def _compile_after_newline(rest: str, flags: int) -> Any:
    try:
        return regex.compile("\\n(?:" + rest + ")", flags)
    except regex.error:  # pragma: no cover - e.g. a rest that only parses at the top level
        return None


_NATIVE_LINE_START = "(?m:^)"


@memo.lru(maxsize=4096)
def _compile_native(emitted: str, flags: int, lf_only: bool) -> Any:
    native = emitted.replace(_JS_LINE_START, "(?m:^)").replace(_JS_LINE_END, "(?m:$)") if lf_only else emitted
    try:
        return regex.compile(native, flags)
    except regex.error:  # pragma: no cover - keep the layer's own pattern
        return None


# Blank-line patterns appear in nearly every filter; without the m flag their answer on one line
# is a plain string property, computed here for all lines at once by C-level maps.
def _blank(lines: list[str]) -> Iterable[bool]:
    return map(not_, map(str.strip, lines, repeat(JS_WHITESPACE)))


def _blank_not_empty(lines: list[str]) -> Iterable[bool]:
    return map(and_, map(bool, lines), _blank(lines))


_IDIOMS: dict[str, Callable[[list[str]], Iterable[bool]]] = {
    "^\\s*$": _blank,
    "^\\s+$": _blank_not_empty,
    "^$": lambda lines: map(not_, lines),
}
_LOOKAROUND = re.compile(r"\(\?<?[=!]")
_SCAN_BUDGET = 5.0
