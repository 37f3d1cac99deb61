"""A Python ``re`` twin of a translated pattern, for calls that need no timer.

The emitter writes explicit classes, ``(?a:\\b)``, ``\\A``/``\\Z`` and lookarounds: plain syntax
that Python's ``re`` reads the same way as ``regex``'s VERSION0 mode, and ``re`` matches it two
to three times faster (no per-call timer, a lighter call). ``re`` has no timeout, so a twin may
only run where the pattern cannot stall: ``backtracking.linear_attempts`` (anchored calls) and
``linear_scan`` (whole scans), checked by the caller. A translation that uses anything ``re``
lacks (``regex`` property classes, repeated group names for capture resets, variable-length
lookbehind) or that ``re`` would warn about has no twin.
"""

from __future__ import annotations

import re
import warnings

from .. import memo


@memo.lru(maxsize=2048)
def re_twin(emitted: str) -> re.Pattern[str] | None:
    """``re.compile`` of an emitted pattern (``Translation.emitted``, which ``regex`` compiles in
    VERSION0 mode), or None when ``re`` may not read it exactly the same way."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # e.g. "possible nested set": keep regex's reading
            return re.compile(emitted)
    except (re.error, Warning, RecursionError, OverflowError, ValueError):
        return None
