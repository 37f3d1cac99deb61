"""ASCII stand-ins: the rules of a part run on pure ASCII when that is exact.

A text with a few non-ASCII characters costs the rules about twice as much as the same text in
ASCII. Some 1,200 emoji and Greek letters per MB of mixed prose took the rules stage from 44 to
85 ms. Every whole-text copy is then 2 bytes a character, ``str.upper`` and ``encode`` leave
their ASCII fast paths, and literal searches read a UTF-16 view. Agent traffic usually holds
only a handful of *distinct* non-ASCII UTF-16 units, though (an emoji is two units). Each such
unit is replaced by its own ASCII control character (its stand-in). The rules run on that
ASCII text, and the stand-ins are turned back into their units afterwards. UTF-16 offsets,
lengths and the unit sequence are kept, so the result is the same wherever the rules cannot
tell a unit from its stand-in.

That holds for a unit ``u`` and stand-in ``s`` when all of these are true:

* ``u`` is no JavaScript blank or line terminator, nor a blank to Python. The stand-ins are
  none either (no NUL, no ``\\t``–``\\r``, and not ``\\x1c``–``\\x1f``, which Python's ``re``
  treats as blanks). So ``.``, ``\\s``, ``^``/``$`` and ``\\b`` (ASCII words, outside ``u``)
  treat both alike.
* Every character class of every rule (a literal included) holds both or neither. Under ``i``
  the test is on ``u``'s Canonicalize image, since the parsed classes are case-folded images
  and a stand-in has no case.
* No rule has ``u``/``v`` (code points, not units), and no rule has a back-reference under
  ``i`` (``δ`` and ``Δ`` compare equal, their stand-ins would not).
* ``u`` lower-cased holds no ASCII character. Replacement-map keys are looked up lower-cased,
  and ``K`` (Kelvin) lower-cases to ``k``.
* No rule's replacement or map mentions a stand-in: a stand-in the rules insert would turn
  into a unit on the way back.

Otherwise the part's rules run as before (``stand_ins`` returns None). A text with more distinct
units than there are stand-ins (CJK, box drawing, arrows…: the conformance-derived text holds
559) can still run on ASCII in extraction and the rules: the units that pass those conditions
with one shared mark are *pooled* under it, and their order gives each its unit back
(``StandIns``, ``stand_ins_of_text(pool=True)``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from operator import is_

from engine import memo
from engine.caveman.fast.texts import canonical_uncached
from engine.caveman.packs import Rule
from engine.jsregex import ast as A
from engine.jsregex.charset import Ranges, contains, intersect, union
from engine.jsregex.translate import parsed_root
from engine.jsvalues import JS_WHITESPACE, from_utf16_units, to_utf16_units

# ASCII control characters no blank test takes: \x01–\x08, \x0e–\x1b, DEL
STAND_INS = tuple(map(chr, (*range(0x01, 0x09), *range(0x0E, 0x1C), 0x7F)))
_MARKS = frozenset(STAND_INS)
_CHUNK = 65536  # (a text in another script shows too many distinct units long before its end)


class PoolMismatch(AssertionError):
    """Pooled marks and pooled units no longer pair up (a guarded invariant: never expected)."""


@dataclass(frozen=True)
class StandIns:
    """Each distinct non-ASCII unit of a text and the ASCII character standing in for it.

    ``pool_mark``: one more mark, shared by every unit of ``pool`` — the *pooled* units of the
    text this describes, in their order. A text with more distinct units than there are marks
    (CJK, box drawing, arrows…) pools those that no class of any pattern tells apart: one mark
    stands for them all, and the order gives each its unit back. That holds while the pooled
    units are neither dropped nor copied nor reordered: extraction hands each wrapped region its
    share (``take``); a rule that changes how many there are sends the rules back to the real
    text (``compress``)."""

    units: tuple[str, ...]
    marks: tuple[str, ...]
    pool_mark: str = ""
    pool: tuple[str, ...] = ()

    def take(self, piece: str, pooled: Sequence[str]) -> str:
        """A piece holding ``pooled`` (its share of the pool, in order) as the string it stands
        for."""
        if self.pool_mark and pooled:
            return from_utf16_units(self._back_marks(self._unpool(piece, pooled)))
        return self.real(piece)

    def _unpool(self, text: str, pooled: Sequence[str]) -> str:
        """``text`` with its pooled marks replaced by ``pooled``, in order."""
        parts = text.split(self.pool_mark)
        if len(parts) - 1 != len(pooled):
            raise PoolMismatch(f"{len(parts) - 1} pooled marks for {len(pooled)} units")
        pieces = [""] * (2 * len(parts) - 1)
        pieces[0::2] = parts
        pieces[1::2] = pooled
        return "".join(pieces)

    def to_ascii(self, text: str) -> str:
        """``text`` with every unit replaced by its stand-in (one ``replace`` per unit: a
        handful of passes in C, where ``str.translate`` of a non-ASCII text is a loop per
        character)."""
        for unit, mark in zip(self.units, self.marks):
            text = text.replace(unit, mark)
        return text

    def back(self, text: str) -> str:
        """The units again in a text the rules made from ``to_ascii``'s (or, pooled, in the
        text this describes, with its pooled units in order)."""
        text = self._back_marks(text)
        return self._unpool(text, self.pool) if self.pool_mark else text

    def _back_marks(self, text: str) -> str:
        for unit, mark in zip(self.units, self.marks):
            text = text.replace(mark, unit)
        return text

    def string(self, units: str) -> str:
        """The string a whole text the rules made from ``to_ascii``'s stands for (``back``, its
        astral pairs joined)."""
        return from_utf16_units(self.back(units))

    def real(self, piece: str) -> str:
        """A piece of a ``to_ascii`` text as the string it stands for (astral pairs joined):
        for one of thousands of short pieces, most of which hold no stand-in (one search,
        where ``back`` makes a pass per unit)."""
        if not self.marks:  # (pooled units alone: a piece holds none of its own)
            return piece
        return from_utf16_units(self._back_marks(piece)) if self._marked(piece) is not None else piece

    def real_all(self, pieces: list[str]) -> list[str]:
        """``[self.real(p) for p in pieces]``, answered for all at once when none holds a mark
        (one search of their join: a separator that is no mark cannot make one)."""
        if not self.marks or self._marked("\x00".join(pieces)) is None:
            return pieces
        return list(map(self.real, pieces))

    @functools.cached_property
    def _marked(self) -> Callable[[str], re.Match[str] | None]:
        return _marks_search("".join(self.marks))


def stand_ins(units: str, rules: Sequence[Rule]) -> StandIns | None:
    """The stand-ins for the UTF-16 ``units`` of a text the ``rules`` run on, or None when the
    text is ASCII already or a condition of the module docstring fails."""
    if units.isascii():
        return None
    return stand_ins_for_patterns(units, [(rule.pattern, rule.flags) for rule in rules], _inserted_by(rules))


def fits(stand: StandIns, rules: Sequence[Rule]) -> bool:
    """Whether stand-ins chosen for another regex list (extraction's, on the same text) are
    exact for ``rules`` as well: no rule inserts one of them, and every class holds each unit
    exactly when it holds its stand-in."""
    marks = set(stand.marks) | ({stand.pool_mark} if stand.pool_mark else set())
    if not _inserted_by(rules).isdisjoint(marks):
        return False
    patterns = [(rule.pattern, rule.flags) for rule in rules]
    if stand.pool_mark and not _pool_fits(stand, rules, tuple(patterns)):
        return False
    return fits_patterns(stand, patterns)


def _pool_fits(stand: StandIns, rules: Sequence[Rule], patterns: tuple[tuple[str, str], ...]) -> bool:
    """The pool holds for ``rules`` too: every pooled unit passes their classes, no template can
    copy a pooled mark (``$``), and no map key holds a pooled unit (a lookup compares them)."""
    pooled = frozenset(stand.pool)
    folded = pooled | {unit.lower() for unit in pooled}
    for rule in rules:
        mapping = rule.replacement_map or {}
        if "$" in (rule.replacement or "") or any("$" in value for value in mapping.values()):
            return False
        if any(not folded.isdisjoint(key) for key in mapping):
            return False
    exact = _pool_test(patterns, stand.pool_mark)
    return exact is not None and all(map(exact, pooled))


def fits_patterns(stand: StandIns, patterns: Sequence[tuple[str, str]]) -> bool:
    """``fits`` for regexes given as ``(source, flags)`` that insert nothing (searches)."""
    pairs = tuple(zip(stand.units, stand.marks))
    return all(_exact(source, flags, pairs) for source, flags in patterns)


def stand_ins_for_patterns(units: str, patterns: Sequence[tuple[str, str]], taken: frozenset[str] = frozenset()
                           ) -> StandIns | None:
    """``stand_ins`` for regexes given as ``(source, flags)`` whose replacements insert none of
    the characters but those in ``taken`` (extraction's kinds insert placeholders alone)."""
    if units.isascii():
        return None
    seen: set[str] = set()  # the units, and marks already there: a pass in chunks, stopped once too many
    for chunk in _utf8_chunks(units.encode("utf-8", "surrogatepass")):
        seen |= _marks_and_non_ascii(chunk)
        if _too_many(seen):
            return None
    distinct = sorted(c for c in seen if c > "\x7f")
    if len(distinct) > len(STAND_INS) or not all(map(_unit_qualifies, distinct)):
        return None
    free = [mark for mark in STAND_INS if mark not in taken and mark not in seen]
    if len(free) < len(distinct):
        return None
    stand = StandIns(tuple(distinct), tuple(free[:len(distinct)]))
    return stand if fits_patterns(stand, patterns) else None


def stand_ins_of_text(text: str, patterns: Sequence[tuple[str, str]], taken: frozenset[str] = frozenset(),
                      *, pool: bool = False) -> tuple[StandIns, str] | None:
    """``stand_ins_for_patterns`` of ``text``'s UTF-16 units, and those units on the stand-ins,
    made from the string itself: its distinct characters are found on its UTF-8 bytes, chunk by
    chunk (``_marks_and_non_ascii``), and each is replaced by its unit's stand-in (an astral
    character by two): on the bytes for one character (``FEW_BY_BYTES``), else by a split of
    the string. Turning a whole text with emoji into units and then replacing each unit took
    twice as long (mixed prose: 7.4 against 3.9 ms per MB), and a regex scan for the characters
    half again as long (mixed prose 5.2 against 3.6 ms, agent sessions 5.2 against 2.0). The
    same stand-ins and the same text (a test checks it). ``pool``:
    past the marks, pool the units no pattern tells apart (``StandIns``) rather than give up."""
    if text.isascii():
        return None
    seen: set[str] = set()  # characters, and marks already there (as ``stand_ins_for_patterns``)
    units: set[str] = set()
    raw = text.encode("utf-8", "surrogatepass")
    for chunk in _utf8_chunks(raw):
        for c in _marks_and_non_ascii(chunk) - seen:
            seen.add(c)
            units.update(to_utf16_units(c) if c > "\x7f" else c)
        if _too_many(units):
            return _pooled(text, patterns, taken) if pool else None
    # (it reads only which units occur: the distinct ones, put together, stand for the text)
    stand = stand_ins_for_patterns("".join(sorted(units)), patterns, taken)
    if stand is None:
        return None
    mark = dict(zip(stand.units, stand.marks))
    table = {c: "".join(map(mark.__getitem__, to_utf16_units(c))) for c in seen if c > "\x7f"}
    if len(table) <= FEW_BY_BYTES:
        return stand, _replaced_in_utf8(raw, table)
    parts = _NON_ASCII_ALONE.split(text)  # text, character, text, …
    parts[1::2] = map(table.__getitem__, parts[1::2])
    return stand, "".join(parts)


_ASCII_BUT_MARKS = bytes([0, *range(0x09, 0x0E), *range(0x1C, 0x7F)])  # (ASCII that is no mark)


def _utf8_chunks(raw: bytes) -> Iterator[bytes]:
    """``raw`` (UTF-8) in pieces of about ``_CHUNK`` bytes, each cut before a character's first byte."""
    n, at = len(raw), 0
    while at < n:
        end = min(n, at + _CHUNK)
        while end < n and 0x80 <= raw[end] < 0xC0:  # (a continuation byte: inside a character)
            end += 1
        yield raw[at:end]
        at = end


def _marks_and_non_ascii(raw: bytes) -> set[str]:
    """The distinct marks and non-ASCII characters of the UTF-8 ``raw``: what is neither deleted
    from the bytes in C (a regex class test per character cost twice as much), then decoded."""
    return set(raw.translate(None, _ASCII_BUT_MARKS).decode("utf-8", "surrogatepass"))


# distinct characters up to which one ``bytes.replace`` each (~1.2 ms a MB) beats one split of
# the text (~2.5 ms a MB)
FEW_BY_BYTES = 1


def _replaced_in_utf8(raw: bytes, table: dict[str, str]) -> str:
    """The text of UTF-8 bytes ``raw`` (every non-ASCII character of it a key of ``table``, each
    value ASCII) with each key replaced by its value, on the bytes: the encoding of a character
    occurs there only where it stands (UTF-8 synchronises on every character), and a ``bytes``
    search skips from its lead byte on, where a split of the string tested every character."""
    for c, ascii_value in table.items():
        raw = raw.replace(c.encode("utf-8", "surrogatepass"), ascii_value.encode("ascii"))
    return raw.decode("ascii")


_NON_ASCII_ALONE = re.compile("([^\x00-\x7f])")
_MARK_FOUND = re.compile("[" + "".join(STAND_INS) + "]")


def view_of(stand: StandIns, text: str) -> str | None:
    """``text``'s UTF-16 units on ``stand``'s marks (as ``stand_ins_of_text`` makes them), for
    stand-ins chosen on a text it holds (a part's original, for those of the text extraction
    left): None when they are pooled, or ``text`` holds a unit they do not stand for, one of
    their marks as itself, or a lone surrogate (the view would then not pair up with it).
    Stand-ins for one character replace it on the text's UTF-8 bytes (agent sessions, one emoji:
    ~1.9 against ~2.4 ms a MB); for more, one split of the text at the characters to replace
    finds them too (finding them first cost more than the bytes replaces saved)."""
    if stand.pool_mark:
        return None
    if _characters(stand) <= FEW_BY_BYTES:
        raw = text.encode("utf-8", "surrogatepass")
        odd = _marks_and_non_ascii(raw)
        table = _view_table(stand, odd)
        return None if table is None else _replaced_in_utf8(raw, table) if table else text
    parts = _NON_ASCII_OR_MARK_ALONE.split(text)  # text, character, text, …
    if len(parts) == 1:
        return text
    found = set(parts[1::2])
    table = _view_table(stand, found)
    if table is None:
        return None
    table.update((c, c) for c in found if c <= "\x7f")  # (a control character no mark: itself)
    parts[1::2] = map(table.__getitem__, parts[1::2])
    return "".join(parts)


def _characters(stand: StandIns) -> int:
    """How many characters ``stand``'s units make (a low surrogate ends one, a high one starts it)."""
    return sum(1 for unit in stand.units if not "\ud800" <= unit <= "\udbff")


def _view_table(stand: StandIns, found: set[str]) -> dict[str, str] | None:
    """For the marks and non-ASCII characters ``found`` in a text, what each non-ASCII one is on
    ``stand``'s marks, or None when the text has no view on them (``view_of``)."""
    mark = dict(zip(stand.units, stand.marks))
    table: dict[str, str] = {}
    for c in found:
        if c <= "\x7f":
            if c in stand.marks:
                return None  # (a mark as itself: its view would read as a unit)
            continue
        units = to_utf16_units(c)
        if "\ud800" <= c <= "\udfff" or not all(u in mark for u in units):
            return None
        table[c] = "".join(map(mark.__getitem__, units))
    return table


_NON_ASCII_OR_MARK_ALONE = re.compile("([^\x00\x09-\x0d\x1c-\x7e])")  # (every character not in one is in the other)


def _pooled(text: str, patterns: Sequence[tuple[str, str]], taken: frozenset[str]) -> tuple[StandIns, str] | None:
    """``stand_ins_of_text`` for a text with more distinct units than marks: the units no class
    of ``patterns`` tells from the last free mark share it (the pool, in text order); the others
    get marks of their own. None when the others are too many, or a pattern cannot pool."""
    parts = _NON_ASCII_ALONE.split(text)  # text, character, text, … (its distinct characters from it too)
    chars = set(parts[1::2])
    present = set(_MARK_FOUND.findall(text))  # (a mark the text holds stands for nothing)
    free = [mark for mark in STAND_INS if mark not in taken and mark not in present]
    if not free:
        return None
    pool_mark = free.pop()
    exact = _pool_test(tuple(patterns), pool_mark)
    wide = [c for c in chars if c > "\x7f"]
    distinct = sorted({u for c in wide for u in to_utf16_units(c)})
    if exact is None or not all(map(_unit_qualifies, distinct)):
        return None
    pooled = {u for u in distinct if exact(u)}
    single = tuple(u for u in distinct if u not in pooled)
    if len(single) > len(free):
        return None
    stand = StandIns(single, tuple(free[:len(single)]), pool_mark)
    if single and not fits_patterns(stand, patterns):
        return None
    mark = {**dict(zip(stand.units, stand.marks)), **dict.fromkeys(pooled, pool_mark)}
    table = {c: "".join(map(mark.__getitem__, to_utf16_units(c))) for c in wide}
    shares = {c: tuple(u for u in to_utf16_units(c) if u in pooled) for c in wide}
    order = [u for c in parts[1::2] for u in shares[c]]
    parts[1::2] = map(table.__getitem__, parts[1::2])
    return replace(stand, pool=tuple(order)), "".join(parts)


@memo.lru(maxsize=64)
def _pool_test(patterns: tuple[tuple[str, str], ...], mark: str) -> Callable[[str], bool] | None:
    """Whether a unit can share ``mark`` for ``patterns`` (every class holds it exactly when it
    holds the mark, its Canonicalize image under ``i``), as one test of two unions: the classes
    that hold the mark must all hold the unit, the others none of them. None when a pattern
    cannot pool at all: one ``_classes`` cannot prove, or a back-reference that may compare
    pooled units (two would compare equal)."""
    sides: dict[tuple[bool, bool], list[Ranges]] = {(f, h): [] for f in (False, True) for h in (False, True)}
    for source, flags in patterns:
        classes = _classes(source, flags)
        if classes is None or _backref_sees_pool(source, flags, mark):
            return None
        for ranges in classes:
            sides["i" in flags, contains(ranges, ord(mark))].append(ranges)
    none_of = {folded: union(*sides[folded, False]) for folded in (False, True)}
    all_of = {folded: functools.reduce(intersect, sides[folded, True]) if sides[folded, True] else None
              for folded in (False, True)}

    def exact(unit: str) -> bool:
        for folded, probe in ((False, ord(unit)), (True, ord(canonical_uncached(unit)))):
            every = all_of[folded]
            if contains(none_of[folded], probe) or (every is not None and not contains(every, probe)):
                return False
        return True

    return exact


@memo.lru(maxsize=1024)
def _backref_sees_pool(source: str, flags: str, mark: str) -> bool:
    """Whether a back-reference of ``/source/flags`` may compare pooled units (two would then
    be equal): its group holds a ``.`` or a class that holds ``mark`` (a pooled unit is in the
    classes the mark is in, and no other). strict's ``\\end{\\1}`` compares letters alone."""
    groups: dict[int, A.Node] = {}
    refs: list[int] = []
    for node in A.walk(parsed_root(source, flags)):
        if isinstance(node, A.Group) and node.index:
            groups[node.index] = node.body
        elif isinstance(node, A.Backref):
            refs.append(node.index)
    for index in refs:
        body = groups.get(index)
        if body is None or any(isinstance(n, (A.Dot, A.Backref)) or (isinstance(n, A.CharSet)
                                                                    and contains(n.ranges, ord(mark)))
                               for n in A.walk(body)):
            return True
    return False


def _too_many(seen: set[str]) -> bool:
    """More distinct non-ASCII units among ``seen`` (units and marks) than there are stand-ins."""
    return len(seen) > len(STAND_INS) and sum(c > "\x7f" for c in seen) > len(STAND_INS)


@memo.lru(maxsize=64)
def _marks_search(marks: str) -> Callable[[str], re.Match[str] | None]:
    return re.compile("[" + re.escape(marks) + "]").search


@memo.lru(maxsize=64)
def _unit_qualifies(unit: str) -> bool:
    lowered = unit.lower()
    return unit not in JS_WHITESPACE and not unit.isspace() and not any(c.isascii() for c in lowered) \
        and len(canonical_uncached(unit)) == 1


# the last rule list's stand-ins inserted: each part of a body asks for the same list's (~35
# rules: a set per rule per part was ~3 µs of a message); ids of the rules → (the rules, kept
# alive so no id is another's, and the union; one tuple stored at once for concurrent runs)
_INSERTED: memo.MemoDict[tuple[int, ...], tuple[tuple[Rule, ...], frozenset[str]]] = \
    memo.MemoDict(f"{__name__}._INSERTED", 1)


def _inserted_by(rules: Sequence[Rule]) -> frozenset[str]:
    """The stand-ins any of ``rules`` inserts (``_inserted``), kept for the last list."""
    key = tuple(map(id, rules))
    last = _INSERTED.get(key)
    if last is not None and all(map(is_, last[0], rules)):
        return last[1]
    found = frozenset(set().union(*map(_inserted, rules)))
    _INSERTED[key] = (tuple(rules), found)
    return found


def _inserted(rule: Rule) -> set[str]:
    """The stand-ins ``rule``'s replacement and map hold (map keys too: a lookup compares them)."""
    held = set(rule.replacement or "")
    if rule.replacement_map is not None:
        for key, value in rule.replacement_map.items():
            held.update(key, value)
    return held & _MARKS


@memo.lru(maxsize=4096)
def _exact(source: str, flags: str, pairs: tuple[tuple[str, str], ...]) -> bool:
    """Whether every class of ``/source/flags`` holds each unit (its Canonicalize image under
    ``i``) exactly when it holds the unit's stand-in."""
    classes = _classes(source, flags)
    if classes is None:
        return False
    folded = "i" in flags
    for unit, mark in pairs:
        probe = ord(canonical_uncached(unit)) if folded else ord(unit)
        if any(contains(ranges, probe) != contains(ranges, ord(mark)) for ranges in classes):
            return False
    return True


@memo.lru(maxsize=1024)
def _classes(source: str, flags: str) -> tuple[Ranges, ...] | None:
    """The ranges of every character class and literal of ``/source/flags`` (case-folded
    images under ``i``), or None for a pattern stand-ins cannot be proven exact for."""
    if "u" in flags or "v" in flags:
        return None
    try:
        root = parsed_root(source, flags)
    except Exception:  # (an invalid pattern: its rule is reported and skipped elsewhere)
        return None
    out: list[Ranges] = []
    for node in A.walk(root):
        if isinstance(node, A.CharSet):
            if node.strings:
                return None
            out.append(node.ranges)
        elif isinstance(node, A.Backref):
            if "i" in flags:
                return None
        elif not isinstance(node, (A.Seq, A.Alt, A.Group, A.Look, A.Quant, A.Empty, A.Dot, A.Anchor)):
            return None  # (Unsupported, or a node this module does not know)
    return tuple(out)
