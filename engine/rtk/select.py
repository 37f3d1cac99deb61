"""Choosing the filter for an output — OmniRoute's ``matchRtkFilter`` (``rtk.md`` §3).

Filters from every scope arrive in one list, each tagged by its ``source`` (project, global,
builtin). They are sorted (scope, format, priority, id), then each scope is searched in turn
with four criteria in order — TOML command, output type, command pattern, output pattern — and
the first criterion any filter of the scope meets decides. Criterion order beats priority inside a
scope, by design. The ``generic-output`` type is the fallback. Enable/disable lists are applied to
the winner only (RTK-Q5); ``strict`` falls through to the next candidate instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, cmp_to_key
from itertools import groupby
from operator import is_

from engine import memo
from engine.diagnostics import Diagnostic
from engine.jsregex import JSSyntaxError, RegexTimeout, pattern_facts
from engine.jsvalues import from_utf16_units, js_sort_key, locale_compare
from engine.rtk.detect import Detection, detect_command_type
from engine.rtk.memo import active_memo
from engine.rtk.model import FORMAT_RANK, SOURCE_RANK, RtkFilter
from engine.rtk.patterns import compile_cached

# A filter tagged with where it came from: ``RtkFilter.source`` is the scope (project, global,
# builtin) and ``source_format`` the format, so loaders hand their filters over as they are.
ScopedFilter = RtkFilter

SCOPES = ("project", "global", "builtin")
CRITERIA = ("toml-command", "outputTypes", "commands", "patterns")
GENERIC_TYPE = "generic-output"


@dataclass
class Selection:
    filter: RtkFilter | None
    detection: Detection
    scope: str | None = None
    criterion: str | None = None  # one of CRITERIA, "generic-fallback", or None
    pattern: str | None = None
    pointer: str | None = None
    disabled: RtkFilter | None = None  # the winner that enable/disable lists switched off
    diagnostics: list[Diagnostic] = field(default_factory=list)


def sort_filters(filters: Iterable[RtkFilter], *, profile: str = "omniroute") -> list[RtkFilter]:
    """Scope rank, format rank and priority descending, then id by ICU collation (RTK-Q15;
    ``strict``: UTF-16 code-unit order). Stable.

    The ids only break ties of the first three keys, so the list is sorted by those keys (a C
    sort) and each run of ties by id on its own: the same order as one sort by the whole
    comparison, with a collation comparison per tie instead of per comparison of the sort."""
    items = list(filters)
    key: tuple[str | int, ...] = (profile, *map(id, items))
    found = _SORTED.get(key)
    if found is not None and all(map(is_, found[0], items)):
        return list(found[1])
    ordered = _sort_filters(items, profile)
    # (the oldest filter set goes when full; the filters themselves are kept with the order, so their ids cannot be reused meanwhile)
    _SORTED[key] = (tuple(items), tuple(ordered))
    return ordered


# The sorted order of the last few filter sets, keyed by the identity of each filter in order:
# a run sorts the same loaded filters every time (the collation ties alone cost milliseconds), and
# ``RtkFilter`` is frozen, so the same objects always sort the same way; a changed or reloaded
# filter is a new object, hence a new key.
_SORTED: memo.MemoDict[tuple[str | int, ...], tuple[tuple[RtkFilter, ...], tuple[RtkFilter, ...]]] = memo.MemoDict(
    f"{__name__}._SORTED", 8)


def _sort_filters(items: list[RtkFilter], profile: str) -> list[RtkFilter]:
    if not all(isinstance(f.priority, int) for f in items):
        return _sort_by_comparison(items, profile)
    ranked = sorted(items, key=_rank_key)
    out: list[RtkFilter] = []
    for _, group in groupby(ranked, key=_rank_key):
        ties = list(group)
        out.extend(_sort_by_comparison(ties, profile) if len(ties) > 1 else ties)
    return out


def _rank_key(f: RtkFilter) -> tuple[int, int, int]:
    return (-SOURCE_RANK.get(f.source, 0), -FORMAT_RANK.get(f.source_format, 0), -f.priority)


def _sort_by_comparison(filters: list[RtkFilter], profile: str) -> list[RtkFilter]:
    """The reference's comparison sort, as it is written."""

    def compare(a: RtkFilter, b: RtkFilter) -> int:
        for key in (lambda f: SOURCE_RANK.get(f.source, 0), lambda f: FORMAT_RANK.get(f.source_format, 0),
                    lambda f: f.priority):
            ka, kb = key(a), key(b)
            if ka != kb:
                return -1 if ka > kb else 1
        if profile == "strict":
            ia, ib = js_sort_key(a.id), js_sort_key(b.id)
            return (ia > ib) - (ia < ib)
        return locale_compare(a.id, b.id)

    return sorted(filters, key=cmp_to_key(compare))


def _search(source: str, flags: str, subject: str, notes: list[Diagnostic]) -> bool:
    memo = active_memo()
    if memo is not None:
        known = memo.search(subject, source, flags)
        if known is not None:
            return known
    try:
        # (before compiling: a command lacks the literals of most filters' command patterns, and a
        # fresh ``rulewright filter`` compiled ~30 of them, ~15 ms of its 140, to find that out)
        if _lacks_a_literal(source, flags, subject):
            return False
    except JSSyntaxError:
        return False  # (it does not compile either: no match, as below)
    regex, _ = compile_cached(source, flags)
    if regex is None:
        return False
    try:
        found = regex.search(subject) is not None
        if memo is not None:
            memo.remember(subject, source, flags, found)
        return found
    except RegexTimeout as exc:
        notes.append(Diagnostic(f"pattern {source!r} ran out of time ({exc.timeout}s) and counts as not "
                                "matching", "warning", "RTK-TIMEOUT", source="rtk"))
        return False


@memo.lru(maxsize=4096)
def _literals(source: str) -> tuple[str, ...]:
    """The texts every match holds, as the pattern spells them (read without ``i``: the caller
    folds ASCII itself), longest first; none that splits an astral character."""
    texts = {from_utf16_units(text) for text in pattern_facts(source).required_literals}
    return tuple(sorted((t for t in texts if not _SURROGATE.search(t)), key=len, reverse=True))


@memo.lru(maxsize=4096)
def _prefix(source: str) -> str:
    """The text every match of a ``^…`` pattern starts with, as the pattern spells it."""
    prefix = from_utf16_units(pattern_facts(source).anchored_prefix)
    return "" if _SURROGATE.search(prefix) else prefix


_SURROGATE = re.compile("[\ud800-\udfff]")


class _Haystack:
    """A subject's lower-cased form and line heads, computed once per subject."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ascii = text.isascii()
        # JS line starts are exactly the starts of the "\n"-split lines only without these.
        self.simple_breaks = "\r" not in text and "\u2028" not in text and "\u2029" not in text

    @cached_property
    def folded(self) -> str:
        return self.text.lower()

    @cached_property
    def _present(self) -> dict[tuple[str, bool], bool]:
        return {}

    def holds(self, literal: str, fold: bool) -> bool:
        """``literal`` occurs (ASCII-folded when ``fold``); remembered, as filters share literals."""
        key = (literal, fold)
        found = self._present.get(key)
        if found is None:
            found = self._present[key] = (literal.lower() in self.folded) if fold else (literal in self.text)
        return found

    @cached_property
    def heads(self) -> frozenset[str]:
        """The first one and two characters of every line."""
        two = {line[:2] for line in self.text.split("\n")}
        return frozenset(two | {head[:1] for head in two})

    @cached_property
    def folded_heads(self) -> frozenset[str]:
        return frozenset(head.lower() for head in self.heads)


_LAST: memo.MemoDict[int, _Haystack] = memo.MemoDict(f"{__name__}._LAST", 1)  # id → the last subject


def _haystack(subject: str) -> _Haystack:
    last = _LAST.get(id(subject))
    if last is not None and last.text is subject:
        return last
    hay = _Haystack(subject)
    _LAST[id(subject)] = hay
    return hay


def _lacks_a_literal(source: str, flags: str, subject: str) -> bool:
    """``subject`` misses a literal every match of ``source`` contains, so the search cannot
    match: no line starts with the literal a ``^literal…`` multiline pattern needs there, or
    the subject lacks one of its required literals (found at C speed, where a whole-text search
    of a large output costs a regex pass per pattern). With ``i``, only ASCII literals on an
    ASCII subject are checked, where lower-casing both is exactly JavaScript's case-insensitive
    comparison."""
    hay = _haystack(subject)
    fold = "i" in flags
    if fold and not hay.ascii:
        return False
    if "m" in flags and hay.simple_breaks:
        prefix = _prefix(source)
        if prefix and prefix.isascii():
            heads = hay.folded_heads if fold else hay.heads
            if (prefix[:2].lower() if fold else prefix[:2]) not in heads:
                return True
    return any(not hay.holds(literal, fold) for literal in _literals(source) if not fold or literal.isascii())


def _criterion_hit(flt: RtkFilter, criterion: str, text: str, command: str, detected_type: str,
                   profile: str, notes: list[Diagnostic]) -> tuple[str | None, str | None] | None:
    """``(pattern, pointer)`` when ``flt`` meets ``criterion``, else ``None``."""
    if criterion == "toml-command":
        if not flt.is_toml or not command:
            return None
        flags = "m" if profile == "strict" else "im"  # RTK-Q16
        return _first(flt, "command_patterns", flt.command_patterns, flags, command, notes)
    if criterion == "outputTypes":
        return (None, None) if detected_type in flt.command_types else None
    if criterion == "commands":
        if not command:
            return None
        flags = "m" if profile == "strict" and flt.is_toml else "im"  # RTK-Q16
        return _first(flt, "command_patterns", flt.command_patterns, flags, command, notes)
    return _first(flt, "match_patterns", flt.match_patterns, "im", text, notes)


def _first(flt: RtkFilter, field_name: str, sources: Sequence[str], flags: str, subject: str,
           notes: list[Diagnostic]) -> tuple[str, str | None] | None:
    for index, source in enumerate(sources):
        if _search(source, flags, subject, notes):
            return source, flt.pointer_of(field_name, index)
    return None


def _blocked(flt: RtkFilter, enabled: Sequence[str], disabled: Sequence[str]) -> bool:
    return flt.id in disabled or (bool(enabled) and flt.id not in enabled)


def _choose(candidates: list[RtkFilter], text: str, command: str, detection: Detection, profile: str,
            notes: list[Diagnostic]) -> Selection:
    """Scope by scope, the first filter meeting the first criterion any filter of the scope meets;
    else the first ``generic-output`` filter."""
    for scope in SCOPES:
        in_scope = [f for f in candidates if f.source == scope]
        for criterion in CRITERIA:
            for flt in in_scope:
                hit = _criterion_hit(flt, criterion, text, command, detection.type, profile, notes)
                if hit is not None:
                    return Selection(flt, detection, scope, criterion, hit[0], hit[1])
    fallback = next((f for f in candidates if GENERIC_TYPE in f.command_types), None)
    return Selection(fallback, detection, fallback.source if fallback else None,
                     "generic-fallback" if fallback else None)


def _quirk_notes(chosen: Selection, candidates: list[RtkFilter], text: str, command: str,
                 detection: Detection) -> list[Diagnostic]:
    """RTK-Q15 / RTK-Q16: say when the id collation or case-insensitive TOML matching decided."""
    notes: list[Diagnostic] = []
    winner = chosen.filter
    assert winner is not None
    ties = [f for f in candidates if (f.source, f.source_format, f.priority)
            == (winner.source, winner.source_format, winner.priority)]
    if len(ties) > 1 and [f.id for f in sort_filters(ties)] != [f.id for f in sort_filters(ties, profile="strict")]:
        by_code_point = sort_filters(candidates, profile="strict")
        other = _choose(by_code_point, text, command, detection, "omniroute", []).filter
        if other is not None and other.id != winner.id:
            notes.append(Diagnostic(
                f"filter {winner.id!r} won a tie with {other.id!r} by ICU collation of the ids; in code-point "
                f"order {other.id!r} would have been chosen", "info", "RTK-Q15", source="rtk"))
    if chosen.criterion == "toml-command" and chosen.pattern is not None:
        regex, _ = compile_cached(chosen.pattern, "m")
        try:
            sensitive = regex is not None and regex.search(command) is not None
        except RegexTimeout:
            sensitive = True
        if not sensitive:
            notes.append(Diagnostic(
                f"TOML filter {winner.id!r} matched the command only case-insensitively (rtk matches "
                "match_command case-sensitively)", "info", "RTK-Q16", source="rtk"))
    return notes


def select_filter(
    text: str,
    command: str | None,
    filters: Sequence[ScopedFilter],
    *,
    detection: Detection | None = None,
    enabled: Sequence[str] = (),
    disabled: Sequence[str] = (),
    profile: str = "omniroute",
    presorted: bool = False,
) -> Selection:
    """The filter OmniRoute would run on ``text`` (see the module docstring)."""
    if detection is None:
        detection = detect_command_type(text, command, profile=profile)
    detected_command = detection.command or command or ""
    ordered = list(filters) if presorted else sort_filters(filters, profile=profile)
    strict = profile == "strict"
    candidates = [f for f in ordered if not (strict and _blocked(f, enabled, disabled))]
    notes: list[Diagnostic] = []
    chosen = _choose(candidates, text, detected_command, detection, profile, notes)
    if not strict and chosen.filter is not None:
        notes.extend(_quirk_notes(chosen, candidates, text, detected_command, detection))
    chosen.diagnostics.extend(notes)
    if chosen.filter is not None and not strict and _blocked(chosen.filter, enabled, disabled):
        # RTK-Q5: the lists switch off the winner; OmniRoute does not try the next candidate.
        blocked = chosen.filter
        chosen.disabled, chosen.filter = blocked, None
        chosen.diagnostics.append(Diagnostic(
            f"filter {blocked.id!r} was chosen but is disabled by the enabled/disabled lists, so no filter "
            "ran (OmniRoute does not fall through to the next candidate)", "info", "RTK-Q5", source="rtk",
            data={"filterId": blocked.id}))
    return chosen
