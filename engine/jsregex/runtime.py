"""JavaScript RegExp objects and String.prototype methods on top of a translation.

Subjects are prepared once per call (§1 step 3, §5): without ``u`` astral characters are split
into surrogate units so indices are UTF-16 and ``.`` eats half an emoji (JSR-Q6); under ``i``
the pattern runs on a canonicalized copy of the same length (JSR-Q7) while every string that
leaves comes from the original. All offsets that leave are UTF-16.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import Any

import regex

from engine import memo

from ..jsvalues import from_utf16_units, to_utf16_units
from .budget import ReplacementTooLarge, check_total, output_cap
from .budget import clip as budget_clip
from .errors import JSUnsupportedError, RegexTimeout
from .subject import canonicalize
from .template import BEFORE, MATCH, pieces, regex_template
from .translate import Translation

_DEFAULT_TIMEOUT: float | None = 0.25
_SURROGATE = re.compile("[\ud800-\udfff]")
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def set_default_timeout(seconds: float | None) -> None:
    """Budget of every regex call that does not pass its own ``timeout=`` (None: no limit)."""
    global _DEFAULT_TIMEOUT
    _DEFAULT_TIMEOUT = seconds


def get_default_timeout() -> float | None:
    """The per-call budget, cut to what an enclosing ``budget.total_budget`` has left."""
    return budget_clip(_DEFAULT_TIMEOUT)


class JSMatch:
    """One match, as JavaScript's exec result: offsets in UTF-16 units, unset groups ``None``."""

    __slots__ = ("cp_index", "end", "groups", "index", "indices", "input", "match", "named", "named_indices")

    def __init__(self, index: int, end: int, cp_index: int, match: str, groups: tuple[str | None, ...],
                 named: dict[str, str | None], indices: list[tuple[int, int] | None] | None,
                 named_indices: dict[str, tuple[int, int] | None] | None, input: str) -> None:
        self.index = index
        self.end = end
        self.cp_index = cp_index
        self.match = match
        self.groups = groups
        self.named = named
        self.indices = indices
        self.named_indices = named_indices
        self.input = input

    def group(self, n: int | str = 0) -> str | None:
        if isinstance(n, str):
            return self.named.get(n)
        return self.match if n == 0 else self.groups[n - 1]

    def __repr__(self) -> str:
        return f"<JSMatch index={self.index} match={self.match!r} groups={self.groups!r}>"


class _Subject:
    """A subject prepared for one translation: UTF-16 units, the match target, offset helpers.

    Every mode matches on UTF-16 units (astral characters split into surrogate pairs), as V8
    does, so internal offsets are the JS offsets; ``u``/``v`` patterns are emitted to read pairs
    as code points (``surrogates.py``).
    """

    __slots__ = ("_pairs", "expanded", "js_length", "lf_only", "original", "target", "unicode", "units")

    def __init__(self, s: str, t: Translation) -> None:
        self.original = s
        self.unicode = t.unicode
        self._pairs: list[int] | None = None
        self.lf_only = "\r" not in s and (s.isascii() or ("\u2028" not in s and "\u2029" not in s))
        if s.isascii():
            self.units = s
            self.expanded = False
            self.target = s.upper() if t.ignore_case else s
            self.js_length = len(s)
            return
        self.units = to_utf16_units(s)
        self.expanded = _SURROGATE.search(self.units) is not None
        self.js_length = len(self.units)
        if not t.ignore_case:
            self.target = self.units
        elif t.unicode and self.expanded:
            # fold code points (astral letters fold too, within their plane), then split again
            self.target = to_utf16_units(canonicalize(from_utf16_units(self.units), True))
        else:
            self.target = canonicalize(self.units, t.unicode)

    def text(self, a: int, b: int) -> str:
        piece = self.units[a:b]
        return from_utf16_units(piece) if self.expanded else piece

    def pair_at(self, i: int) -> bool:
        """Whether a surrogate pair starts at unit ``i``."""
        units = self.units
        return (i + 1 < len(units) and "\ud800" <= units[i] <= "\udbff" and "\udc00" <= units[i + 1] <= "\udfff")

    def advance(self, i: int) -> int:
        """AdvanceStringIndex: one unit, or a whole pair in u/v mode."""
        return i + 2 if self.unicode and self.expanded and self.pair_at(i) else i + 1

    def mid_pair(self, i: int) -> bool:
        return self.expanded and i > 0 and self.pair_at(i - 1)

    def cp_index(self, i: int) -> int:
        """Code points in ``input.slice(0, i)``: a pair cut in half counts its lead as one."""
        if not self.expanded:
            return i
        if self._pairs is None:
            self._pairs = [m.start() for m in _PAIR.finditer(self.units)]
        return i - bisect_left(self._pairs, i - 1)


# Engines run many rules over the same text: share the prepared subject (UTF-16 split, case
# canonicalization) between regex objects with the same mode. Keyed by identity; the entry holds
# the string, so the id cannot be reused while cached.
_SHARED_MIN_LENGTH = 256
_SHARED: memo.MemoDict[tuple[int, bool, bool], _Subject] = memo.MemoDict(f"{__name__}._SHARED", 8)


def _shared_subject(s: str, t: Translation) -> _Subject:
    key = (id(s), t.unicode, t.ignore_case)
    found = _SHARED.get(key)
    if found is not None and found.original is s:
        return found
    subj = _Subject(s, t)
    _SHARED[key] = subj  # the oldest entry goes when full (under the memo's lock)
    return subj


class JSRegExp:
    """``new RegExp(source, flags)``: JS semantics, including ``lastIndex`` state for g/y."""

    __slots__ = ("_has_indices", "_names", "_subject_cache", "_t", "last_index", "profile", "timeout")

    def __init__(self, translation: Translation, timeout: float | None = None, profile: str = "v8") -> None:
        self._t = translation
        self.timeout = timeout
        self.profile = profile
        self.last_index = 0
        self._has_indices = "d" in translation.flags
        self._subject_cache: _Subject | None = None
        self._names = translation.group_slots

    # ------------------------------------------------------------------ properties

    source = property(lambda self: self._t.source)
    flags = property(lambda self: self._t.flags)
    is_global = property(lambda self: "g" in self._t.flags)
    sticky = property(lambda self: "y" in self._t.flags)
    unicode = property(lambda self: self._t.unicode)
    unicode_sets = property(lambda self: "v" in self._t.flags)
    ignore_case = property(lambda self: self._t.ignore_case)
    multiline = property(lambda self: "m" in self._t.flags)
    dot_all = property(lambda self: "s" in self._t.flags)
    has_indices = property(lambda self: "d" in self._t.flags)
    group_count = property(lambda self: self._t.group_count)
    group_names = property(lambda self: list(self._t.group_names))
    translation = property(lambda self: self._t)

    def __repr__(self) -> str:
        return f"/{self._t.source}/{self._t.flags}"

    # ------------------------------------------------------------------ plumbing

    def _deadline(self, timeout: float | None) -> float | None:
        if self._t.unsupported:
            source = self._t.source if len(self._t.source) <= 200 else self._t.source[:200] + "…"
            raise JSUnsupportedError(f"/{source}/{self._t.flags}: unsupported in Rulewright: "
                                     f"{self._t.unsupported}")
        _ = self._t.compiled, self._t.compiled_lf  # compile (once, cached) outside the time budget
        check_total(self._t.source, self._t.flags)
        budget = budget_clip(timeout if timeout is not None else self.timeout if self.timeout is not None
                             else _DEFAULT_TIMEOUT)
        return None if budget is None else time.monotonic() + budget

    def _budget(self, timeout: float | None) -> float:
        budget = budget_clip(timeout if timeout is not None else self.timeout if self.timeout is not None
                             else _DEFAULT_TIMEOUT)
        return budget or 0.0

    def _subject(self, s: str) -> _Subject:
        cached = self._subject_cache
        if cached is not None and cached.original is s:
            return cached
        subj = _shared_subject(s, self._t) if len(s) >= _SHARED_MIN_LENGTH else _Subject(s, self._t)
        self._subject_cache = subj
        return subj

    def _compiled(self, subj: _Subject) -> regex.Pattern[str]:
        t = self._t
        return t.compiled_lf if (t.compiled_lf is not None and subj.lf_only) else t.compiled

    def _step(self, subj: _Subject, pos: int, sticky: bool, deadline: float | None,
              timeout: float | None) -> regex.Match[str] | None:
        compiled = self._compiled(subj)
        fn = compiled.match if sticky else compiled.search
        if deadline is None:
            return fn(subj.target, pos)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise RegexTimeout(self._t.source, self._t.flags, self._budget(timeout))
        try:
            return fn(subj.target, pos, timeout=remaining)
        except TimeoutError:
            raise RegexTimeout(self._t.source, self._t.flags, self._budget(timeout)) from None

    def _iterate(self, subj: _Subject, sticky: bool, deadline: float | None,
                 timeout: float | None) -> Iterator[regex.Match[str]]:
        """Every match as a global exec loop finds them (empty match: advance one unit/code point)."""
        if not sticky and not self._t.nullable:
            # no empty matches: Python's finditer walks exactly like JS's exec loop, in C
            if deadline is None:
                yield from self._compiled(subj).finditer(subj.target)
                return
            try:
                yield from self._compiled(subj).finditer(subj.target,
                                                          timeout=max(deadline - time.monotonic(), 1e-6))
            except TimeoutError:
                raise RegexTimeout(self._t.source, self._t.flags, self._budget(timeout)) from None
            return
        pos = 0
        limit = len(subj.units)
        while pos <= limit:
            m = self._step(subj, pos, sticky, deadline, timeout)
            if m is None:
                return
            yield m
            start, end = m.span()
            pos = subj.advance(end) if end == start else end

    def _group_spans(self, m: regex.Match[str]) -> list[tuple[int, int] | None]:
        spans: list[tuple[int, int] | None] = []
        for gname, ename in self._names:
            span = m.span(gname)
            if span[0] < 0:
                spans.append(None)
                continue
            if ename is not None:
                marker = m.span(ename)
                if marker[0] < 0 or marker[1] > marker[0]:
                    spans.append(None)  # reset by a later iteration of an enclosing loop
                    continue
            spans.append(span)
        return spans

    def _to_match(self, m: regex.Match[str], subj: _Subject) -> JSMatch:
        start, end = m.span()
        t = self._t
        if t.group_count:
            spans = self._group_spans(m)
            text = subj.text
            groups = tuple([None if sp is None else text(sp[0], sp[1]) for sp in spans])
            named = {name: groups[t.name_index[name] - 1] for name in t.group_names} if t.group_names else {}
        else:
            spans, groups, named = [], (), {}
        indices = named_indices = None
        if self._has_indices:
            indices = [(start, end), *spans]
            named_indices = {name: indices[t.name_index[name]] for name in t.group_names}
        return JSMatch(start, end, subj.cp_index(start), subj.text(start, end),
                       groups, named, indices, named_indices, subj.original)

    def _exec_stateful(self, subj: _Subject, deadline: float | None, timeout: float | None) -> regex.Match[str] | None:
        """RegExpBuiltinExec: honours and updates ``last_index`` for g/y."""
        flags = self._t.flags
        uses_last_index = "g" in flags or "y" in flags
        if not uses_last_index:
            return self._step(subj, 0, False, deadline, timeout)
        last = max(0, int(self.last_index))
        if last > subj.js_length:
            self.last_index = 0
            return None
        m = None
        if self._t.unicode and not self._t.v8_atom and subj.mid_pair(last):
            # V8 first tries from the lead surrogate of a pair split by lastIndex, then from lastIndex
            m = self._step(subj, last - 1, True, deadline, timeout)
        if m is None:
            m = self._step(subj, last, "y" in flags, deadline, timeout)
        self.last_index = 0 if m is None else m.end()
        return m

    # ------------------------------------------------------------------ public API

    def prepare(self, s: str) -> str:
        """The string ``translation.compiled`` searches for ``s``: UTF-16 units (one Python char per
        unit), case-canonicalized under ``i``. Offsets into it are JS (UTF-16) offsets into ``s``.
        For engines that drive ``translation.compiled`` themselves (line scans, prefilters)."""
        return self._subject(s).target

    def exec(self, s: str, timeout: float | None = None) -> JSMatch | None:
        """``re.exec(s)``."""
        deadline = self._deadline(timeout)
        subj = self._subject(s)
        m = self._exec_stateful(subj, deadline, timeout)
        return None if m is None else self._to_match(m, subj)

    def test(self, s: str, timeout: float | None = None) -> bool:
        """``re.test(s)`` (stateful like JS for g/y)."""
        deadline = self._deadline(timeout)
        return self._exec_stateful(self._subject(s), deadline, timeout) is not None

    def search(self, s: str, pos: int = 0, timeout: float | None = None) -> JSMatch | None:
        """First match at or after UTF-16 offset ``pos`` (only at ``pos`` with y); no state."""
        deadline = self._deadline(timeout)
        subj = self._subject(s)
        if pos > subj.js_length:
            return None
        pos = max(0, pos)
        m = None
        if self._t.unicode and not self._t.v8_atom and subj.mid_pair(pos):
            m = self._step(subj, pos - 1, True, deadline, timeout)
        if m is None:
            m = self._step(subj, pos, "y" in self._t.flags, deadline, timeout)
        return None if m is None else self._to_match(m, subj)

    def match_all(self, s: str, timeout: float | None = None) -> list[JSMatch]:
        """``[...s.matchAll(re)]`` as if ``g`` were set (the sticky chain with y)."""
        deadline = self._deadline(timeout)
        subj = self._subject(s)
        return [self._to_match(m, subj) for m in self._iterate(subj, "y" in self._t.flags, deadline, timeout)]

    def replace(self, s: str, repl: str | Callable[[JSMatch], Any], timeout: float | None = None) -> str:
        """``s.replace(re, repl)``: a template string (``$``-patterns) or a function of the match."""
        deadline = self._deadline(timeout)
        subj = self._subject(s)
        flags = self._t.flags
        if isinstance(repl, str) and self._can_sub(flags):
            template = repl if repl.isascii() else to_utf16_units(repl)
            converted = regex_template(template, self._t.group_count, tuple(self._t.name_index.items()))
            # regex.sub builds its output in C, out of reach of the cap: only when the cap cannot
            # be reached (each unit of the subject yields at most the template's length)
            if converted is not None and len(subj.units) * (1 + len(template)) <= output_cap(len(subj.units)):
                self.last_index = 0
                try:
                    if deadline is None:
                        out = self._compiled(subj).sub(converted, subj.units)
                    else:
                        out = self._compiled(subj).sub(converted, subj.units,
                                                   timeout=max(deadline - time.monotonic(), 1e-6))
                except TimeoutError:
                    raise RegexTimeout(self._t.source, self._t.flags, self._budget(timeout)) from None
                return out if out.isascii() else from_utf16_units(out)
        if "g" in flags:
            self.last_index = 0
            found = list(self._iterate(subj, "y" in flags, deadline, timeout))
        elif "y" in flags and self.profile == "strict":
            # strict fixes JSR-Q8: every replace call starts at 0 and leaves no state behind
            m = self._step(subj, 0, True, deadline, timeout)
            found = [] if m is None else [m]
        else:
            m = self._exec_stateful(subj, deadline, timeout)
            found = [] if m is None else [m]
        if not found:
            return s
        units = subj.units
        pieces: list[str] = []
        position = 0
        cap = output_cap(len(units))
        size = 0
        if callable(repl):
            for m in found:
                start, end = m.span()
                pieces.append(units[position:start])
                value = repl(self._to_match(m, subj))
                value = value if isinstance(value, str) else str(value)
                pieces.append(value)
                size += start - position + len(value)
                if size > cap:
                    raise ReplacementTooLarge(self._t.source, self._t.flags, cap)
                position = end
        else:
            template = repl if repl.isascii() else to_utf16_units(repl)
            simple = "$" not in template
            for m in found:
                start, end = m.span()
                pieces.append(units[position:start])
                value = template if simple else self._expand(template, m, subj, cap - size)
                pieces.append(value)
                size += start - position + len(value)
                if size > cap:
                    raise ReplacementTooLarge(self._t.source, self._t.flags, cap)
                position = end
        pieces.append(units[position:])
        out = "".join(pieces)
        return out if out.isascii() else from_utf16_units(out)

    def _can_sub(self, flags: str) -> bool:
        """`regex.sub` gives JS's answer: global, not sticky, no empty matches, subject not folded."""
        return "g" in flags and "y" not in flags and not self._t.nullable and not self._t.ignore_case

    def _expand(self, template: str, m: regex.Match[str], subj: _Subject, room: int | None = None) -> str:
        """GetSubstitution (``template``) on working units. ``room``: the most it may produce
        (``ReplacementTooLarge`` beyond: ``$&`` × 100,000 stops early)."""
        t = self._t
        units = subj.units
        start, end = m.span()
        spans: list[tuple[int, int] | None] | None = None
        out: list[str] = []
        size = 0
        for piece in pieces(template, t.group_count, bool(t.group_names)):
            if isinstance(piece, str):
                value = piece
            else:
                index = t.name_index.get(piece[0], 0) if isinstance(piece, tuple) else piece
                if index > 0:
                    if spans is None:
                        spans = self._group_spans(m)
                    sp = spans[index - 1]
                    value = "" if sp is None else units[sp[0]:sp[1]]
                elif isinstance(piece, tuple):
                    value = ""  # no group has that name
                elif piece == MATCH:
                    value = units[start:end]
                elif piece == BEFORE:
                    value = units[:start]
                else:
                    value = units[end:]
            out.append(value)
            if room is not None:
                size += len(value)
                if size > room:
                    raise ReplacementTooLarge(t.source, t.flags, output_cap(len(units)))
        return "".join(out)

    def split(self, s: str, limit: int | None = None, timeout: float | None = None) -> list[str | None]:
        """``s.split(re, limit)`` as V8 runs it.

        Without ``y`` V8 takes its fast path: a search from each position (so in u/v mode an empty
        match between the halves of a pair splits there). With ``y`` it runs ECMA-262 @@split
        literally: sticky attempts at code-point positions only.
        """
        deadline = self._deadline(timeout)
        lim = 2**32 - 1 if limit is None else int(limit) % 2**32
        if lim == 0:
            return []
        subj = self._subject(s)
        size = len(subj.units)
        if size == 0:
            return [] if self._step(subj, 0, True, deadline, timeout) is not None else [s]
        out: list[str | None] = []
        spec_path = self._t.unicode and "y" in self._t.flags
        p = 0
        q = 0
        while q < size:
            m = self._step(subj, q, False, deadline, timeout)
            if m is None or m.start() >= size:
                break
            if spec_path and subj.mid_pair(m.start()):
                q = m.start() + 1  # the spec's sticky steps move by code points: never inside a pair
                continue
            e = min(m.end(), size)
            if e == p:
                q = subj.advance(m.start())
                continue
            out.append(subj.text(p, m.start()))
            if len(out) == lim:
                return out
            p = e
            for sp in self._group_spans(m):
                out.append(None if sp is None else subj.text(sp[0], sp[1]))
                if len(out) == lim:
                    return out
            q = p
        out.append(subj.text(p, size))
        return out
