"""Generated patterns run through the JavaScript-regex layer like any filter pattern.

One compiled object per (pattern, flags); a pattern that runs out of time counts as matching,
so a check that asks "does this drop pattern touch a protected line?" errs on the safe side.
"""

from __future__ import annotations

from engine import memo
from engine.jsregex import JSRegExp, JSSyntaxError, RegexTimeout, compile_js


@memo.lru(maxsize=4096)
def _compiled(pattern: str, flags: str) -> JSRegExp | None:
    try:
        return compile_js(pattern, flags)
    except JSSyntaxError:
        return None


def is_valid(pattern: str, flags: str = "i") -> bool:
    return _compiled(pattern, flags) is not None


def search(pattern: str, flags: str, text: str) -> bool:
    rx = _compiled(pattern, flags)
    if rx is None:
        return False
    try:
        return rx.search(text) is not None
    except RegexTimeout:
        return True
