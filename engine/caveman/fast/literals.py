"""Candidate match starts on large texts: occurrences of a plan's literals (on the text's
bytes, ``needles``), the line starts, the runs before a literal (identifiers before ``(``,
digit runs before ``.<digit>``), and the ``LiteralIndex`` a run's rules share to know which
literals a text lacks without a scan per literal.

Most anchor literals of a pack never occur in a given text. The rules of one run share a
``LiteralIndex``: one multi-needle pass finds which literals occur, and each rewrite only
re-examines short windows around its replacements, so a rule whose literals are all absent is
skipped without scanning the text once per literal.

The literals that do occur are searched for one by one (``needles.find_all``), when their rule
runs, on that rule's input: ~0.1–0.3 ms per MB each (``str.find`` took 0.6–1.2 ms). One pass
for all of them up front, with the hit positions carried through each rewrite (shifted past
it; re-searched in a window around each replacement), was measured and does not pay: carrying
~17 K positions through the 14 rewrites of 1 MB of English prose (numpy shifts plus window
searches) cost ~19 ms, more than all the searches. Each literal is searched for once per run,
so carrying positions lazily would save nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from engine import memo
from engine.caveman.fast.plan import WORD, Plan, literals_of
from engine.caveman.fast.texts import RELEASE_MIN, bmp_only, canonical, canonical_uncached, holds_text
from engine.caveman.needles import find_all, present
from engine.jsvalues import JS_WHITESPACE

DENSITY = 50  # fall back to a full scan when more than 1 position in DENSITY is a candidate
LINE_TERMINATORS = ("\n", "\r", "\u2028", "\u2029")


def starts_with_anchor(plan: Plan, text: str) -> bool:
    """Whether ``text`` holds one of the plan's anchor literals where it allows one at the start
    (a ``"text"`` plan's one candidate, 0, is then worth an attempt). The plan has anchors."""
    reach, tests = _head_tests(plan)
    head = text[:reach]
    hay = canonical_uncached(head) if plan.ignore_case else head  # (the mapping is per character)
    return any(hay.startswith(literals, k) for literals, k in tests)


def ascii_starts_with_anchor(plan: Plan, texts: list[str]) -> list[bool]:
    """``starts_with_anchor`` of each of these ASCII texts (their canonical case is ``upper()``),
    with one set-up for all: a body's ~1,250 messages asked it one call at a time."""
    reach, tests = _head_tests(plan)
    heads = [text[:reach].upper() for text in texts] if plan.ignore_case else [text[:reach] for text in texts]
    return [any(head.startswith(literals, k) for literals, k in tests) for head in heads]


@memo.lru(maxsize=memo.PATTERN_MEMO_SIZE)
def _head_tests(plan: Plan) -> tuple[int, tuple[tuple[tuple[str, ...], int], ...]]:
    """How far into a text ``starts_with_anchor`` reads, and its tests (the literals that may
    start at each offset, grouped: one ``startswith`` per offset; six such rules a short
    message made it ~15 µs of each)."""
    reach = max(hi for _literals, _lo, hi in plan.anchors) + max(map(len, literals_of(plan)))
    return reach, tuple((tuple(literals), k) for literals, lo, hi in plan.anchors for k in range(lo, hi + 1))


def candidates(plan: Plan, text: str, *, limit: int | None = None,
               absent: frozenset[str] | set[str] = frozenset()) -> list[int] | None:
    """Sorted positions where a match may start, or None when a full scan is cheaper.

    ``absent``: literals already known not to occur in the (case-canonical) text; they are not
    scanned for."""
    n = len(text)
    if limit is None:
        limit = max(64, n // DENSITY)
    if plan.start and not plan.anchors:
        return [0] if plan.start == "text" else _line_starts(text, limit)
    if absent and all(literals <= absent for literals, _lo, _hi in plan.anchors):
        return []  # (without case-folding a text no literal occurs in)
    if plan.start == "text":  # only a match at 0: look there instead of scanning
        return [0] if starts_with_anchor(plan, text) else []
    hay = canonical(text) if plan.ignore_case else text
    if len(hay) != n:
        return None
    # one- and two-character literals are the likely dense ones: count those first (cheaper
    # than listing their occurrences) and give up early when a full scan is cheaper
    short = [lit for literals, _lo, _hi in plan.anchors for lit in literals if len(lit) < 3 and lit not in absent]
    counted = 0
    for lit in short:  # (each count is a pass over the text: stop at the first that is enough)
        counted += hay.count(lit)
        if counted > limit:
            return None
    starts: list[int] = []
    for literals, lo, hi in plan.anchors:
        for lit in literals:
            if lit in absent:
                continue
            found = occurrences(hay, lit)
            if not found:
                continue
            if lo == hi:
                starts.extend(found if lo == 0 else [i - lo for i in found])
            else:
                for i in found:
                    starts.extend(range(max(0, i - hi), i - lo + 1))
            if len(starts) > limit:
                return None
    if plan.start == "line":
        return sorted({p for p in starts if p == 0 or (p <= n and text[p - 1] in LINE_TERMINATORS)})
    return sorted(set(starts))


def _line_starts(text: str, limit: int) -> list[int] | None:
    out = [0]
    for term in LINE_TERMINATORS:
        found = occurrences(text, term)
        if len(out) + len(found) > limit:
            return None
        out.extend(i + 1 for i in found)
    return sorted(set(out))


def occurrences(hay: str, lit: str) -> list[int]:
    """Every start index of ``lit`` in ``hay``, overlapping ones included: on the text's bytes
    (``needles``), or with ``str.find`` for a text with astral characters, which has no byte
    view (the rules run on UTF-16 units, which always have one)."""
    found = find_all(hay, lit)
    if found is not None:
        return found
    out = []
    i = hay.find(lit)
    while i >= 0:
        out.append(i)
        i = hay.find(lit, i + 1)
    return out


class LiteralIndex:
    """Which anchor literals of a rule list a text lacks, carried along the chain of rewrites the
    rules make (most literals of a pack never occur in a given text: the rule can then be
    skipped without scanning the text once per literal).

    Each literal is tracked by its first ``KEY`` characters (a literal is absent when its key
    is). One multi-needle pass over the case-canonical text (``needles.present``) finds the keys
    that occur. When a rule rewrites the text, a key absent before can only occur afterwards
    where it overlaps a replacement (or the join a deletion leaves), so only those short windows
    are searched again. Only ``i`` plans are served (their haystack is the canonical text), only
    for texts without astral characters (offsets = indices).
    """

    KEY = 8
    MIN_LENGTH = 32768  # below this the per-literal scans are as cheap as one extra pass

    def __init__(self, literals: frozenset[str]) -> None:
        # literals holding the window separator cannot be tracked (never claimed absent)
        self.literals = frozenset(lit for lit in literals if lit and _SEPARATOR not in lit)
        self._by_key: dict[str, set[str]] = {}
        for lit in self.literals:
            self._by_key.setdefault(lit[:self.KEY], set()).add(lit)
        self._keys = frozenset(self._by_key)
        # (text, keys absent from it, literals absent from it)
        self._state: tuple[str, frozenset[str], frozenset[str]] | None = None

    @property
    def available(self) -> bool:
        return bool(self._keys)

    def _remember(self, text: str, keys: frozenset[str]) -> frozenset[str]:
        by_key = self._by_key  # few keys occur: subtract their literals from all
        literals = self.literals.difference(*(by_key[key] for key in self._keys - keys))
        self._state = (text, keys, literals)
        if len(text) >= RELEASE_MIN:
            holds_text(self)
        return literals

    def forget(self) -> None:
        self._state = None

    def absent(self, text: str) -> frozenset[str]:
        """Literals known absent from the canonical form of ``text``."""
        if not self._keys:
            return frozenset()
        state = self._state
        if state is not None and state[0] is text:
            return state[2]
        if len(text) < self.MIN_LENGTH or not bmp_only(text):
            return frozenset()
        found = present(canonical(text), self._keys)
        if found is None:  # (no byte view: never claim a key absent without having searched)
            return frozenset()
        return self._remember(text, self._keys - found)

    def known_absent(self, text: str) -> frozenset[str] | None:
        """``absent(text)``, or None when the index does not serve this text (too short, astral
        characters): then nothing is known either way (``absent`` remembered nothing)."""
        absent = self.absent(text)
        state = self._state
        return absent if state is not None and state[0] is text else None

    def absent_keys(self, text: str) -> frozenset[str]:
        """The keys (first ``KEY`` characters of literals) known absent from the canonical form
        of ``text``: the index's one pass over it, made now if it was not yet."""
        self.absent(text)
        state = self._state
        return state[1] if state is not None and state[0] is text else frozenset()

    def rewritten(self, before: str, after: str, windows: list[tuple[int, int]]) -> None:
        """``after`` is ``before`` with the pieces at ``windows`` (start, end in ``after``, in
        order) replaced; carry the absent keys over by searching only around those pieces."""
        state = self._state
        if state is None or state[0] is not before:
            return
        self._state = None
        keys = state[1]
        if not keys or len(after) < self.MIN_LENGTH or not bmp_only(after):
            return
        reach = max(map(len, keys)) - 1
        # overlapping windows repeat some text; the separator keeps matches inside one window
        hay = canonical_uncached(_SEPARATOR.join([after[a - reach if a > reach else 0:b + reach]
                                                   for a, b in windows]))
        found = present(hay, keys)
        if found is None:
            return
        self._remember(after, keys - found if found else keys)


_SEPARATOR = "\x00"


def index_literals(plans: list[Plan | None], required: Sequence[frozenset[str]] = ()) -> frozenset[str]:
    """The literals a ``LiteralIndex`` tracks: ``i`` plans' anchors, and the ``required``
    literals of ``i`` patterns (canonical, as the index's text is)."""
    return frozenset(lit for plan in plans if plan is not None and plan.ignore_case
                     for literals, _lo, _hi in plan.anchors for lit in literals).union(*required)


def back_run_candidates(literal: str, run_chars: frozenset[str], *, skip_ws: bool = False,
                        follow: frozenset[str] | None = None) -> Callable[[str], list[int] | None]:
    """Candidates for patterns that start at a ``\\b`` and end their identifier-like run right
    before ``literal`` (``foo.bar(``, ``call (x)``, ``MAX_RETRY``): the word-boundary positions
    of the maximal run of ``run_chars`` (after skipping JS whitespace backwards when
    ``skip_ws``) before each occurrence of ``literal``, or, with ``follow``, each occurrence
    followed by one of those characters (``a.b``, not the dot ending a sentence). The runs are
    found by one ``re`` scan of the reversed text (the reversed literal, then the blanks, then
    the run)."""
    run_class = "[" + "".join(map(re.escape, sorted(run_chars))) + "]*"
    ws_class = "[" + "".join(map(re.escape, JS_WHITESPACE)) + "]*" if skip_ws else ""
    # the reversed literal, and (in the reversed text, what follows the literal stands right
    # before it) a look behind it, so that the scan still starts from a literal search
    lead = re.escape(literal[::-1])
    if follow is not None:
        lead += "(?<=[" + "".join(map(re.escape, sorted(follow))) + "]" + re.escape(literal[::-1]) + ")"
    # a scan consumes the blanks and the run, so it would hide an occurrence of the literal
    # inside them: then each occurrence is measured on its own
    one_scan = len(literal) == 1 and literal not in run_chars and not (skip_ws and literal in JS_WHITESPACE)
    scan_rx = re.compile(lead + ws_class + "(" + run_class + ")")
    # the same scan reporting non-empty runs only: an occurrence with none (``snake_case`` for a
    # run of capitals before "_") is skipped in C instead of listed and dropped (no blank is a
    # run character, so a failed attempt hides no occurrence: the next starts one unit on)
    nonempty_rx = re.compile(lead + ws_class + "(" + run_class[:-1] + "+)") \
        if not (skip_ws and run_chars & set(JS_WHITESPACE)) else None
    ws_rx, run_rx = re.compile(ws_class), re.compile(run_class)
    nonword = tuple(run_chars - WORD)  # without these in a run, its only boundary is at its start
    # when every run character is a word character, a run has a boundary at its start exactly
    # when the character before it is none (or the text starts there): the scan checks that
    # itself (one C-level lookahead in the reversed text instead of a Python test per run: the
    # placeholders before ``const_case`` are two runs each, ~12,000 per MB)
    bounded_rx = re.compile(nonempty_rx.pattern + "(?![" + "".join(map(re.escape, sorted(WORD))) + "])") \
        if one_scan and nonempty_rx is not None and not nonword else None
    # with other run characters too (``$``, ``.``), the same for the runs of word characters
    # alone whose character before is neither a run nor a word character; the runs holding
    # another run character (a boundary may fall inside) are listed by a second scan
    word_class = "".join(map(re.escape, sorted(run_chars & WORD)))
    split_rxs = (re.compile(lead + ws_class + "([" + word_class + "]+)(?!["
                            + "".join(map(re.escape, sorted(run_chars | WORD))) + "])"),
                 re.compile(lead + ws_class + "([" + word_class + "]*["
                            + "".join(map(re.escape, sorted(nonword))) + "]" + run_class + ")")) \
        if one_scan and nonempty_rx is not None and nonword and word_class else None

    def runs(text: str, rev: str) -> Iterator[tuple[int, int]]:
        """(k, j): each occurrence's run text[k:j]."""
        n = len(text)
        if one_scan:
            for m in scan_rx.finditer(rev):
                yield n - m.end(1), n - m.start(1)
            return
        size = len(literal)
        for i in occurrences(text, literal):
            if follow is not None and text[i + size:i + size + 1] not in follow:
                continue
            ws = ws_rx.match(rev, n - i)  # (starred classes: both always match)
            r = n - i if ws is None else ws.end()
            run = run_rx.match(rev, r)
            yield n - (r if run is None else run.end()), n - r

    def find(text: str) -> list[int] | None:
        limit = max(64, len(text) // DENSITY)
        if literal not in text:
            return []
        n, word = len(text), WORD
        pure_rx = bounded_rx
        if pure_rx is None and split_rxs is not None and not any(c in text for c in nonword):
            pure_rx = split_rxs[0]  # (no other run character in the text: every run is of word characters)
        if pure_rx is not None:  # the starts of the runs with a boundary there, directly
            starts_at = [n - m.end(1) for m in pure_rx.finditer(text[::-1])]
            starts_at.reverse()  # (found from the end: one run per occurrence, so no repeats)
            return None if len(starts_at) > limit else starts_at
        if split_rxs is not None:
            rev = text[::-1]
            found = {n - m.end(1) for m in split_rxs[0].finditer(rev)}
            for s, e in (m.span(1) for m in split_rxs[1].finditer(rev)):  # (a boundary may fall inside)
                found.update(p for p in range(n - e, n - s) if (p > 0 and text[p - 1] in word) != (text[p] in word))
            return None if len(found) > limit else sorted(found)
        if one_scan:  # (k, j) of every non-empty run, from the match spans in the reversed text
            rev = text[::-1]  # rev[n - i] is text[i - 1]
            if nonempty_rx is not None:
                pairs = [(n - e, n - s) for s, e in (m.span(1) for m in nonempty_rx.finditer(rev))]
            else:
                pairs = [(n - e, n - s) for s, e in (m.span(1) for m in scan_rx.finditer(rev)) if s != e]
        else:
            pairs = [(k, j) for k, j in runs(text, text[::-1]) if k != j]
        starts: set[int] = set()
        present = [c for c in nonword if c in text]  # (one memchr each: usually none occurs at all)
        if present:
            odd = [pair for pair in pairs if any(c in text[pair[0]:pair[1]] for c in present)]
            for k, j in odd:  # a run with a non-word character has a boundary inside it
                starts.update(p for p in range(k, j) if (p > 0 and text[p - 1] in word) != (text[p] in word))
            if odd:
                pairs = [pair for pair in pairs if not any(c in text[pair[0]:pair[1]] for c in present)]
        # otherwise the run's only possible boundary is at its start
        starts.update(k for k, _j in pairs if (k > 0 and text[k - 1] in word) != (text[k] in word))
        if len(starts) > limit:
            return None
        return sorted(starts)

    return find


_DOT_BEFORE_DIGIT = re.compile(r"\.(?=[0-9])")  # a literal first character: searched for, not tried everywhere
_DIGITS = frozenset("0123456789")


def digits_before_dot_digit(text: str) -> list[int]:
    """Every index of a digit followed by ``.<digit>`` (overlapping: ``1.2.3`` gives two), found
    from the ``.<digit>`` occurrences (a pattern that starts with a literal character is
    searched for quickly, on any text, instead of being tried at every position)."""
    if "." not in text:
        return []
    digits = _DIGITS
    return [i - 1 for i in (m.start() for m in _DOT_BEFORE_DIGIT.finditer(text)) if i and text[i - 1] in digits]


def digit_run_candidates(text: str) -> list[int] | None:
    """Candidates for ``\\b\\d+(?:\\.\\d+)…`` (versions): starts of the digit runs that are
    followed by ``.<digit>``, where a word boundary holds."""
    limit = max(64, len(text) // DENSITY)
    starts: set[int] = set()
    for k in digits_before_dot_digit(text):
        while k > 0 and text[k - 1] in _DIGITS:
            k -= 1
        if k == 0 or text[k - 1] not in WORD:
            starts.add(k)
            if len(starts) > limit:
                return None
    return sorted(starts)


_LINE_TERMINATOR_CLASS = "[" + "".join(map(re.escape, LINE_TERMINATORS)) + "]"
_JS_WS_CLASS = "[" + "".join(map(re.escape, JS_WHITESPACE)) + "]"


# a "\r" not before a "\n": led by the rare "\r", ``re`` skips to each (~0.4 ms per MB of agent
# sessions, where counting "\r" and "\r\n" to compare cost ~1.7 ms for every line-lead kind)
_LONE_CR = re.compile("\r(?!\n)")


def line_lead_candidates(leads: str, *, blanks: bool = True) -> Callable[[str], list[int] | None]:
    """Candidates for a multi-line (``m``) pattern that starts with ``^``, then (``blanks``)
    ``\\s*``, then one of the ``leads`` characters (``^\\s*\\|…``, ``^#{1,6}…``): the line starts
    from which the first character that is not JavaScript whitespace is a lead. (``\\s*``
    stops only where a lead stands, so a match's blank run is the whole run.) The plan of such
    a pattern is every line start, each tried with a timed call when the pattern may
    backtrack: ~15 K calls per MB of text with short lines. The line starts found here come
    from one ``re`` scan led by the line terminators; a run of blanks holding more terminators
    gives a line start after each."""
    lead_class = "[" + "".join(map(re.escape, leads)) + "]"
    run = _JS_WS_CLASS + "*" if blanks else ""
    # one scan per line terminator, each led by it: ``re`` skips from one to the next (~0.6 ms
    # per MB for "\n"), where a class of the four is tried at every position (~3.4 ms). A text
    # whose every "\r" stands before a "\n" needs the "\n" scan alone (the line start after
    # such a "\r" is that "\n", whose run is the next line's)
    scans = {term: re.compile(re.escape(term) + run + lead_class) for term in LINE_TERMINATORS}
    head_rx = re.compile(run + lead_class)
    terminator_rx = re.compile(_LINE_TERMINATOR_CLASS)

    def find(text: str) -> list[int] | None:
        if not any(c in text for c in leads):
            return []
        limit = max(64, len(text) // DENSITY)
        out = [0] if head_rx.match(text) else []
        crlf = "\r" in text
        others = [term for term in LINE_TERMINATORS[2:] if term in text]
        newlines_only = not others and (not crlf or _LONE_CR.search(text) is None)
        terms = ["\n"] if newlines_only else ["\n", *(["\r"] if crlf else []), *others]
        for term in terms:
            for m in scans[term].finditer(text):
                s, e = m.span()
                if blanks and newlines_only and crlf and s and text[s - 1] == "\r" and (not out or out[-1] < s):
                    out.append(s)  # (the line start after the "\r": the "\n" itself)
                out.append(s + 1)
                # (a blank run: more line starts inside it? The indentation of a code line mostly
                # holds none: a find per terminator rules that out, where a search and a list
                # cost ~2.5 µs a line)
                if e - s > 2 and any(text.find(t, s + 1, e - 1) >= 0 for t in terms):
                    out.extend(t.end() for t in terminator_rx.finditer(text, s + 1, e - 1))
                if len(out) > limit:
                    return None
        return out if len(terms) == 1 else sorted(set(out))

    return find


def path_candidates(*, drive: bool) -> Callable[[str], list[int] | None]:
    """Candidates for ``(?:^|\\s)(?:\\.{0,2}/…`` (and, with ``drive``, ``|[A-Za-z]:\\\\…``) without
    ``m``: 0, and each JavaScript blank followed by ``/``, ``./``, ``../`` (or a letter and
    ``:\\``). The plan for it is every unit up to three before a ``/``, too dense on code and
    logs: a full scan of the alternation led by ``(?:^|\\s)`` tries every position (~55 ms per
    MB of agent sessions). Here ``re`` scans led by ``/`` (and by ``:``), with look-behinds for
    what must precede it, finds the few that qualify."""
    # two scans, each led by one literal character, which ``re`` skips to (one alternation of
    # both was tried at every position: ~6 ms per MB of agent sessions, ~1.7 ms as two)
    slash_rx = re.compile(rf"/(?:(?<={_JS_WS_CLASS}/)|(?<={_JS_WS_CLASS}\./)|(?<={_JS_WS_CLASS}\.\./))")
    drive_rx = re.compile(rf":\\(?<={_JS_WS_CLASS}[A-Za-z]:\\)")

    def find(text: str) -> list[int] | None:
        has_drive = drive and ":\\" in text
        if "/" not in text and not has_drive:
            return [0]
        limit = max(64, len(text) // DENSITY)
        out = [0]
        for m in slash_rx.finditer(text):
            i = m.start()
            if text[i - 1] != ".":
                start = i - 1
            else:
                start = i - 2 if text[i - 2] != "." else i - 3
            if start > 0:  # (0 is always tried)
                out.append(start)
            if len(out) > limit:
                return None
        if has_drive:
            drives = [m.start() - 2 for m in drive_rx.finditer(text)]
            if drives:
                out = sorted({*out, *drives})
                if len(out) > limit:
                    return None
        return out

    return find


def union_candidates(*finders: Callable[[str], list[int] | None]) -> Callable[[str], list[int] | None]:
    """The candidates of all ``finders`` (None when any of them gives up)."""

    def find(text: str) -> list[int] | None:
        out: set[int] = set()
        for finder in finders:
            found = finder(text)
            if found is None:
                return None
            out.update(found)
        return sorted(out)

    return find
