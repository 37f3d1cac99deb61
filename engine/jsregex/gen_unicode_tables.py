"""Generate ``unicode_tables.py``: the case-canonicalization and CWKCF tables, precomputed.

Computing them takes a loop over every code point (~0.5 s of CPU), which every CLI run with an
``i`` pattern used to pay at start-up. The tables only change when the `regex` package (its
Unicode tables and case pairs) or Python's ``unicodedata`` changes, so they are shipped as data
and ``tests/engine/jsregex/test_unicode_tables.py`` checks that regenerating gives the same module.

Run ``python -m engine.jsregex.gen_unicode_tables`` after moving the exact `regex` pin in pyproject.toml
(or changing Python), and review the diff against V8.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import regex

from . import charset
from .charset import Ranges
from .unicode_data import ASSIGNED_AFTER_V8, _all_code_points, _regex_property

TARGET = Path(__file__).with_name("unicode_tables.py")

_TURKISH = (0x130, 0x131)  # İ and ı fold only to themselves in ECMAScript's simple case folding
# A case pair `regex` 2026.11.19 has that V8 11.3 / ICU 78 (Unicode 17.0) does not (besides the
# characters of ASSIGNED_AFTER_V8, which V8 does not know at all).
_NOT_IN_V8 = frozenset({0x1DF95})


def _known_to_v8(c: int) -> bool:
    return c not in _NOT_IN_V8 and not charset.contains(ASSIGNED_AFTER_V8, c)


def case_classes() -> dict[int, tuple[int, ...]]:
    """Simple case-folding equivalence classes (size > 1) keyed by each member."""
    candidates = regex.compile(r"[\p{Cased}\p{CWCM}\p{CWCF}]").finditer(_all_code_points())
    classes: dict[int, tuple[int, ...]] = {}
    for m in candidates:
        c = ord(m.group())
        if c in classes or c in _TURKISH or not _known_to_v8(c):
            continue
        # (``regex``'s C module has it; its type stubs do not list it)
        members = tuple(sorted(x for x in regex._regex.get_all_cases(regex.IGNORECASE, c)  # type: ignore[attr-defined]
                               if x not in _TURKISH and _known_to_v8(x)))
        if len(members) > 1:
            for x in members:
                classes[x] = members
    return classes


def unicode_canon_changes(classes: dict[int, tuple[int, ...]]) -> tuple[tuple[int, int], ...]:
    """``(c, canon(c))`` for every c that ``u``/``v``-mode Canonicalize changes.

    canon(c) is the smallest member of c's simple-case-folding class: any fixed representative
    gives the same equivalence, and the smallest keeps ASCII letters (and ſ, K → S, K) ASCII so
    that ``\\b`` on the canonicalized subject sees ECMAScript's ``iu`` word characters.
    """
    return tuple(sorted((c, members[0]) for c, members in classes.items() if members[0] != c))


def legacy_canon_changes(classes: dict[int, tuple[int, ...]]) -> tuple[tuple[int, int], ...]:
    """``(c, canon(c))`` for every UTF-16 unit that non-``u`` Canonicalize changes.

    ECMA-262 Canonicalize(rer, ch) without unicode: toUppercase(ch) if that is a single code unit
    and does not map a non-ASCII unit to ASCII.
    """
    changes = []
    for c in range(0x10000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        upper = chr(c).upper()
        if upper == chr(c) and c in classes and not _is_upper(c):
            # A mapping newer than Python's unicodedata (e.g. ƛ → U+A7DC in Unicode 16): take the
            # class's single upper-case member from `regex`'s tables.
            uppers = [x for x in classes[c] if x <= 0xFFFF and _is_upper(x)]
            upper = chr(uppers[0]) if len(uppers) == 1 else chr(c)
        if len(upper) != 1:
            continue
        u = ord(upper)
        if u != c and not (c >= 128 and u < 128):
            changes.append((c, u))
    return tuple(changes)


def _is_upper(c: int) -> bool:
    return regex.match(r"\p{Lu}", chr(c)) is not None


def changes_when_nfkc_casefolded() -> Ranges:
    """CWKCF as V8 sees it: `regex` has no table for it.

    NFKC_Casefold(c) != c, from Python's unicodedata (drift on characters newer than its Unicode
    version) plus the default ignorables it removes, less what V8 does not know yet.
    """
    ignorable = _regex_property("Default_Ignorable_Code_Point")
    chars = []
    for c in range(charset.MAX_CP + 1):
        if 0xD800 <= c <= 0xDFFF:
            continue
        ch = chr(c)
        folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", ch).casefold())
        if folded != ch:
            chars.append(c)
    return charset.difference(charset.union(charset.from_chars(chars), ignorable), ASSIGNED_AFTER_V8)


def to_runs(pairs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int, int, int], ...]:
    """``(first, count, step, delta)`` runs: ``first + k*step`` maps to itself plus ``delta``.

    Case pairs come in runs (a–z, or Ā/ā alternating), so this is ~10× smaller than the pairs;
    the order of ``pairs`` is kept; ``unicode_data._from_runs`` expands them.
    """
    runs: list[list[int]] = []
    for c, k in pairs:
        delta = k - c
        if runs:
            first, count, step, d = runs[-1]
            last = first + (count - 1) * step
            if d == delta and ((count == 1 and c > last) or c - last == step):
                runs[-1][1] += 1
                if count == 1:
                    runs[-1][2] = c - last
                continue
        runs.append([c, 1, 1, delta])
    return tuple((first, count, step, delta) for first, count, step, delta in runs)


def _literal(name: str, rows: tuple[tuple[int, ...], ...], per_line: int) -> str:
    """``name = ("…" "…")``: the rows' integers, space-separated, in one string.

    A string constant, not a tuple display: it compiles in microseconds where ~3,000 literal
    ints take ~8 ms, which counts when bytecode is not cached (PYTHONDONTWRITEBYTECODE).
    """
    lines = [f"{name} = ("]
    for i in range(0, len(rows), per_line):
        lines.append('    "' + "  ".join(" ".join(map(str, row)) for row in rows[i:i + per_line]) + ' "')
    lines.append(")")
    return "\n".join(lines)


def render() -> str:
    """The text of ``unicode_tables.py`` for the installed `regex` and ``unicodedata``."""
    classes = case_classes()
    parts = [
        '"""Precomputed Unicode tables for engine.jsregex — generated by gen_unicode_tables.py; do not edit.',
        "",
        "Each table is a string of integers: Canonicalize changes in groups of four, ``first count step",
        "delta`` runs (see gen_unicode_tables.to_runs); CWKCF in pairs, sorted ``lo hi`` code-point ranges.",
        '"""',
        "",
        f"REGEX_VERSION = {regex.__version__!r}",
        f"UNIDATA_VERSION = {unicodedata.unidata_version!r}",
        "",
        _literal("UNICODE_CANON_RUNS", to_runs(unicode_canon_changes(classes)), 6),
        "",
        _literal("LEGACY_CANON_RUNS", to_runs(legacy_canon_changes(classes)), 6),
        "",
        _literal("CWKCF_RANGES", changes_when_nfkc_casefolded(), 8),
        "",
    ]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = render()
    if argv == ["--check"]:
        same = TARGET.exists() and TARGET.read_text(encoding="utf-8") == text
        print(f"{TARGET.name}: {'up to date' if same else 'OUT OF DATE — regenerate'}")
        return 0 if same else 1
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
