"""Which of many lines a pattern matches, in a few C-level scans instead of one call per line.

OmniRoute tests every line on its own; ``LineScanner`` answers the same for all lines at once,
from the LF-joined blob. What it needs to know about a pattern (where matches start, which
literals they hold, whether they can cross a line break, how it splits) comes from the parsed
pattern through ``engine.jsregex.facts``, and the pattern forms it scans with (native line
anchors and space classes, the ``\\n(?:…)`` line-start form) from ``engine.jsregex.variants``.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Callable, Container, Iterable
from itertools import accumulate, compress, repeat
from operator import add, and_, not_
from typing import Any

from engine.jsregex import RegexTimeout, get_default_timeout
from engine.jsregex.budget import clip as budget_clip
from engine.jsregex.emitter import NATIVE_SPACE_EXCEPTIONS
from engine.jsregex.facts import PatternFacts, pattern_facts
from engine.jsregex.subject import canonicalize
from engine.jsregex.variants import after_line_break, specialised
from engine.jsvalues import JS_WHITESPACE, bmp_only, to_utf16_units, utf16_len
from engine.rtk.heads import with_first_chars
from engine.rtk.patterns import CompiledPattern, compile_cached, tester


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
        if len(lines) >= self.min_scan_lines:
            facts = pattern_facts(pattern.source, pattern.regex.flags)
            if self._scannable(facts, exact):
                parts = facts.alternatives or facts.leading_group_alternatives
                scanned = (self._union(pattern, parts, exact, known) if parts
                           else self._scan(pattern, facts, exact, known))
        if scanned is not None:
            return scanned
        test = pattern.test
        return [i for i, line in enumerate(lines) if test(line)]

    def _union(self, pattern: CompiledPattern, parts: tuple[str, ...], exact: bool,
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

    def _scannable(self, facts: PatternFacts, exact: bool) -> bool:
        """Whether a scan of the joined lines answers as the per-line tests do: on LF-only text
        when every lookaround stays on its line; on any text without lookarounds when a superset
        is enough."""
        if not facts.has_lookaround:
            return self.exact_bounds or not exact
        return self.exact_bounds and facts.lookarounds_line_local

    def _scan(self, pattern: CompiledPattern, facts: PatternFacts, exact: bool,
              known: Container[int] = ()) -> list[int] | None:
        flags = pattern.regex.flags
        multiline, _ = compile_cached(pattern.source, flags if "m" in flags else flags + "m")
        if multiline is None:
            return None
        translation = multiline.translation
        # (the facts' literals are already in the target's units: UTF-16 unless ``u``, folded under ``i``)
        if self.exact_bounds:
            # (before the target is prepared: ruling the pattern out may spare preparing it)
            head = facts.line_head
            if head and self._no_line_starts_with(head, translation):
                return []
        target, starts = self._target(translation)
        native_space = self.native_space_exact
        compiled = specialised(pattern.source, translation.flags, lf_only=self.exact_bounds, native_space=native_space)
        lines = self.lines
        if self.exact_bounds:
            # Cheapest first: a leading literal the engine skips to by itself; a ``^literal``
            # prefix, found as LF + literal; a literal rare enough that testing only the lines
            # holding it beats a scan; else the line-start scan (``^…``) or the whole-blob scan.
            if facts.leading_literal:
                if facts.stays_on_line:
                    return _line_local_hits(compiled, target, starts)
                return self._scan_blob(compiled, target, starts, exact)
            after_newline = (after_line_break(pattern.source, translation.flags, native_space=native_space)
                             if facts.line_anchored else None)
            prefix = facts.anchored_prefix
            if prefix and facts.anchored_literal_only:
                # ``^literal``: the lines starting with it are the answer, found at C speed
                return self._scan_candidates(pattern, compiled, target, starts, prefix, True, [], certain=True)
            if after_newline is not None and facts.literal_after_anchor:
                return self._scan_line_starts(after_newline, compiled, translation, starts, exact)

            literals = list(facts.required_literals)
            if prefix:
                primary, count = prefix, 0
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
                                             certain=facts.anchored_literal_only, known=known)
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
_SCAN_BUDGET = 5.0
