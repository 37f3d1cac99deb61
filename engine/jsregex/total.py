"""The open total regex deadline (``budget.total_budget``) and how its running out is worded.

A leaf: ``errors.RegexTimeout`` words its message from it and ``budget`` opens and reads it,
so neither of those two modules needs the other's import.
"""

from __future__ import annotations

import time
from contextvars import ContextVar

# (deadline on time.monotonic, what the budget is for, its seconds), per thread/task
DEADLINE: ContextVar[tuple[float, str, float] | None] = ContextVar("jsregex_total_deadline", default=None)


def exhausted_words() -> str | None:
    """``"the total regex budget of 10 s for filter 'x' ran out"`` once it has, else None."""
    current = DEADLINE.get()
    if current is None or time.monotonic() < current[0]:
        return None
    return f"the total regex budget of {current[2]:g} s for {current[1]} ran out"
