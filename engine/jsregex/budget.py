"""Regex work bounded end to end: one total deadline over many calls, and a cap on replacement output.

Every call already runs under its own timeout (``runtime``: 250 ms by default), but per-call
budgets add up: a drop pattern taking 0.17 s a line on 400 lines is 67 s of calls that each kept
their budget. ``total_budget(seconds, what)`` opens a deadline for a whole unit of work — one RTK
filter run, one Caveman pack run over a body, one ``tests[]`` run — and every timed call inside
it gets ``min(its own budget, what is left)``. When nothing is left, calls stop at once with a
``RegexTimeout`` whose message names the work whose total ran out; engines already turn a
``RegexTimeout`` into a diagnostic naming the rule and keep the text. Deadlines nest (the inner
one can only be shorter) and are per thread/task (a ``ContextVar``).

``output_cap(length)`` is the most a replacement may produce for a subject of ``length`` units
(a ratio of the input, with an absolute floor): a template of ``$&`` × 100,000 would otherwise
write hundreds of megabytes. Going over raises ``ReplacementTooLarge`` (a ``RegexTimeout``, so
the same engine paths report it and keep the text).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import overload

from .errors import RegexTimeout
from .total import DEADLINE, exhausted_words

DEFAULT_TOTAL_SECONDS = 10.0
OUTPUT_RATIO = 8  # a replacement may make its subject this many times longer …
OUTPUT_FLOOR = 1 << 24  # … or 16 M units, whichever is more

_deadline = DEADLINE


def total_seconds() -> float:
    """``RULEWRIGHT_REGEX_BUDGET_S`` (default 10): the total for one filter, pack or tests[] run."""
    try:
        seconds = float(os.environ.get("RULEWRIGHT_REGEX_BUDGET_S", DEFAULT_TOTAL_SECONDS))
    except ValueError:
        return DEFAULT_TOTAL_SECONDS
    return seconds if 0 < seconds < float("inf") else DEFAULT_TOTAL_SECONDS


@contextmanager
def total_budget(seconds: float | None = None, what: str = "this run") -> Iterator[None]:
    """Every timed regex call inside shares one deadline of ``seconds`` (default ``total_seconds()``)."""
    seconds = total_seconds() if seconds is None else seconds
    deadline = time.monotonic() + seconds
    outer = _deadline.get()
    if outer is not None and outer[0] <= deadline:
        yield  # the enclosing budget ends first: it rules
        return
    token = _deadline.set((deadline, what, seconds))
    try:
        yield
    finally:
        _deadline.reset(token)


def left() -> float | None:
    """Seconds left in the enclosing total budget (None: no total budget is open)."""
    current = _deadline.get()
    return None if current is None else current[0] - time.monotonic()


@overload
def clip(per_call: float) -> float: ...
@overload
def clip(per_call: None) -> float | None: ...
def clip(per_call: float | None) -> float | None:
    """A call's budget: its own, cut to what the enclosing total budget has left (at least 1 µs,
    so `regex` times out at once rather than running unbounded)."""
    remaining = left()
    if remaining is None:
        return per_call
    remaining = max(remaining, 1e-6)
    return remaining if per_call is None or per_call <= 0 else min(per_call, remaining)


def check_total(source: str, flags: str) -> None:
    """Raise ``RegexTimeout`` at once when the enclosing total budget is spent."""
    words = exhausted_words()
    if words is not None:
        raise RegexTimeout(source, flags, 0.0)


def output_cap(length: int) -> int:
    return max(OUTPUT_FLOOR, OUTPUT_RATIO * length)


class ReplacementTooLarge(RegexTimeout):
    """A replacement would produce more than ``output_cap`` of its subject."""

    def __init__(self, source: str, flags: str, cap: int) -> None:
        super().__init__(source, flags, 0.0)
        self.cap = cap
        shown = source if len(source) <= 200 else source[:200] + "…"
        self.args = (f"regex /{shown}/{flags}: the replacement would produce more than {cap:,} characters "
                     f"(at most {OUTPUT_RATIO}× the input, or {OUTPUT_FLOOR:,}); the text is kept",)

    def __str__(self) -> str:
        return str(self.args[0])
