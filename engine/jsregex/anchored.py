"""JavaScript's global match loop, tried only at known candidate positions, under one budget.

Callers that know where a match can start (``engine.jsregex.starts`` gives literal anchors; Caveman's
``engine.caveman.fast`` plans with them)
try the translated pattern *anchored* at each candidate, left to right, skipping candidates
inside the previous match, exactly as JavaScript's ``lastIndex`` loop would find them.

``regex`` spends ~0.7 µs of every call setting up its ``timeout`` timer, more than a short
literal-led match itself. When every attempt of the pattern is linear in the text it reads
(``backtracking.linear_attempts``) one call cannot stall, so the calls run untimed and the
deadline is checked between them; otherwise each call gets the budget left (positionally:
a third cheaper than the keyword). Either way the whole loop shares one budget and raises
``TimeoutError`` when it is spent.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable

import regex

from engine import memo

CHECK_EVERY = 32  # untimed calls between deadline checks (a check costs about a tenth of a call)


def anchored_spans(compiled: regex.Pattern[str] | re.Pattern[str], target: str, positions: Iterable[int], budget: float | None, *,
                   linear: bool, first_only: bool = False) -> list[tuple[int, int]]:
    """Spans of the matches JavaScript's global loop finds when matches can only start at
    ``positions`` (sorted). ``compiled``: the translated ``regex`` pattern, or its ``re`` twin
    when ``linear`` (only a ``regex`` pattern takes a per-call timeout); ``target``: the subject
    it runs on. ``budget``: seconds for the whole loop (None: unlimited)."""
    out: list[tuple[int, int]] = []
    append, match = out.append, compiled.match
    pos = 0
    if budget is None or linear:
        deadline = None if budget is None else time.monotonic() + budget
        now = time.monotonic
        countdown = CHECK_EVERY
        for p in positions:
            if p < pos:
                continue
            if deadline is not None:
                countdown -= 1
                if not countdown:
                    if now() > deadline:
                        raise TimeoutError
                    countdown = CHECK_EVERY
            m = match(target, p)
            if m is None:
                continue
            start, end = m.span()
            append((start, end))
            if first_only:
                break
            pos = end + 1 if end == start else end
        if deadline is not None and now() > deadline:
            raise TimeoutError
        return out
    if not isinstance(compiled, regex.Pattern):
        raise TypeError("a timed loop needs a `regex` pattern (an `re` twin takes no timeout)")
    match = compiled.match
    now = time.monotonic
    deadline = now() + budget
    positional = _positional_timeout()
    for p in positions:
        if p < pos:
            continue
        left = deadline - now()
        if left <= 0:
            raise TimeoutError
        m = match(target, p, None, None, False, left) if positional else match(target, p, timeout=left)
        if m is None:
            continue
        start, end = m.span()
        append((start, end))
        if first_only:
            break
        pos = end + 1 if end == start else end
    return out


@memo.lru(maxsize=1)
def _positional_timeout() -> bool:
    """Whether ``regex``'s ``Pattern.match(string, pos, endpos, concurrent, partial, timeout)``
    takes its budget positionally: checked once, with a 1 ms budget, on a pattern that needs
    ~70 ms."""

    try:
        regex.compile(r"(?:(a|aa)+)+c").match("a" * 20 + "b", 0, None, None, False, 0.001)
    except TimeoutError:
        return True
    except Exception:  # another signature: keep the keyword
        return False
    return False
