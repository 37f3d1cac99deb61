"""Which of two equivalent evaluations a pattern takes on a text, from measured costs: a full
scan or the anchored loop over candidates; timed ``regex`` calls or untimed ``re`` twins (once a
pattern has met enough text to repay their set-up); the plain or charset-led twin for whole
scans. Both paths of every choice give the same matches; only the cheaper one is taken."""

from __future__ import annotations

import re
import time

from engine import memo
from engine.jsregex.charset_led import charset_led_twin

# Measured costs per pattern, shared by every run of the process: (source, flags) →
# [seconds per text unit of a full scan, seconds per candidate of the anchored loop, seconds per
# text unit of a full substitution by the PCRE2 twin] (0.0: not measured yet). Both paths give the same matches (every possible start is among the
# candidates); only the cheaper one is taken. A pattern whose first literal ``regex`` finds by
# itself (``,\\s*and also``, ``\\bdatabase\\b``) scans 1 MB in ~1 ms, less than a few thousand
# anchored calls (each ~1.5 µs timed, most of it ``regex`` handling the ``timeout=`` argument;
# ~0.5 µs untimed on the ``re`` twin). An unmeasured full scan is timed on a sample of the text.
MAX_COSTS = 4096
_COSTS: memo.MemoDict[tuple[str, str], list[float]] = memo.MemoDict(f"{__name__}._COSTS", MAX_COSTS)
ANCHORED_GUESS = 1.5e-6  # seconds per anchored call before one is measured
UNTIMED_GUESS = 0.5e-6  # the same, on the untimed ``re`` twin
SAMPLE_UNITS = 65_536  # a large text's unmeasured full-scan cost is learnt on this many units
EXPLORE = 2000  # more than one candidate per EXPLORE units: measure a full scan once
MEASURE_MIN = 64  # anchored loops with fewer candidates are too short to time

# (source, flags) → UTF-16 units of the texts a pattern has been run on (see
# FastRegex._untimed_calls): the untimed set-up (two linearity analyses of the parsed pattern
# and an ``re`` compile, ~1 ms for a long alternation) is made once the pattern has met this
# much text. Below that it does not repay itself — a live preview runs a rule whose pattern is
# being typed, a new pattern at each keystroke, on a 10 KB sample — and calls stay on the
# timed ``regex`` translation (the same matches).
_UNITS_MET: memo.MemoDict[tuple[str, str], int] = memo.MemoDict(f"{__name__}._UNITS_MET", MAX_COSTS)
UNTIMED_MIN_UNITS = 65_536


FULL, ANCHORED, SUBSTITUTE = 0, 1, 2  # the slots of a pattern's costs (see ``_COSTS``)


def costs_for(key: tuple[str, str]) -> list[float]:
    costs = _COSTS.get(key)
    if costs is None:
        costs = _COSTS.setdefault(key, [0.0, 0.0, 0.0])
    return costs


def record(costs: list[float], which: int, seconds: float, count: int) -> None:
    """Keep the lowest cost seen (the steadiest estimate on a busy machine)."""
    if count <= 0:
        return
    rate = seconds / count
    if costs[which] == 0.0 or rate < costs[which]:
        costs[which] = rate


def prefer_full_scan(costs: list[float], length: int, count: int, anchored_guess: float = ANCHORED_GUESS,
                     full: int = FULL) -> bool:
    """Whether a full scan of ``length`` units (``full``: its cost's slot, ``FULL`` or
    ``SUBSTITUTE``) is expected to be cheaper than ``count`` anchored calls (unmeasured full
    scans are tried once when the candidates are not sparse)."""
    if costs[full] == 0.0:
        return count * EXPLORE > length
    return costs[full] * length < (costs[ANCHORED] or anchored_guess) * count


# (source, flags) → the ``re`` twin whole scans of that pattern run on (see FastRegex._whole_scanner)
_WHOLE_SCANNERS: memo.MemoDict[tuple[str, str], re.Pattern[str]] = memo.MemoDict(f"{__name__}._WHOLE_SCANNERS",
                                                                                  MAX_COSTS)


def meet(source: str, flags: str, units: int) -> None:
    """Count ``units`` more of text met by ``/source/flags`` (up to ``UNTIMED_MIN_UNITS``).
    When the count gets there, the calls may turn untimed: the costs measured so far, of timed
    calls, are forgotten (kept, a dear full scan measured on ``regex`` would keep the anchored
    loop chosen although the ``re`` twin scans several times faster)."""
    key = (source, flags)
    met = _UNITS_MET.get(key, 0)
    if met < UNTIMED_MIN_UNITS:
        _UNITS_MET[key] = met + units
        costs = _COSTS.get(key)
        if met + units >= UNTIMED_MIN_UNITS and costs is not None:
            costs[:] = [0.0] * len(costs)  # (in place: the pattern's FastRegex objects hold this list)


def _faster(plain: re.Pattern[str], led: re.Pattern[str], sample: str) -> re.Pattern[str]:
    """The one of two equivalent scanners that scans ``sample`` faster (best of two runs each,
    alternated: the steadiest comparison on a busy machine)."""
    best = {id(plain): float("inf"), id(led): float("inf")}
    for _round in range(2):
        for scanner in (plain, led):
            started = time.perf_counter()
            for _m in scanner.finditer(sample):
                pass
            best[id(scanner)] = min(best[id(scanner)], time.perf_counter() - started)
    return led if best[id(led)] < best[id(plain)] else plain


def within(budget: float | None, started: float) -> None:
    """An untimed call (one that cannot stall) still answers for its budget afterwards."""
    if budget is not None and time.perf_counter() - started > budget:
        raise TimeoutError


def untimed_ready(source: str, flags: str) -> bool:
    """Whether ``/source/flags`` has met ``UNTIMED_MIN_UNITS`` of text (see ``meet``)."""
    return _UNITS_MET.get((source, flags), 0) >= UNTIMED_MIN_UNITS


def whole_scanner(source: str, flags: str, emitted: str, plain: re.Pattern[str], target: str) -> re.Pattern[str]:
    """The ``re`` twin whole scans of ``/source/flags`` run on: the plain twin, or its
    charset-led form (``engine.jsregex.charset_led``: same matches, but ``re`` skips to the
    characters a match can start with) when that is faster on this pattern's texts — which
    depends on how common those characters are, so the first text of at least
    ``2 * SAMPLE_UNITS`` decides, by timing both on its start. Shorter texts scan on the plain
    twin without building the other."""
    key = (source, flags)
    chosen = _WHOLE_SCANNERS.get(key)
    if chosen is not None:
        return chosen
    if len(target) < 2 * SAMPLE_UNITS:
        # undecided: too short a text to time on, and to repay building the charset-led form
        # (~1 ms for a pattern edited at each keystroke of a live preview)
        return plain
    led = charset_led_twin(source, flags, emitted)
    chosen = plain if led is None else _faster(plain, led, target[:SAMPLE_UNITS])
    _WHOLE_SCANNERS[key] = chosen
    return chosen
