"""Compiling filter patterns once, through ``engine.jsregex``, with invalid ones set aside.

Filter patterns are JavaScript regexes from files, so they always go through ``engine.jsregex``.
OmniRoute compiles them on every call and skips the ones that throw (RTK-Q3); we compile each
(source, flags) pair once per process and remember whether it was valid. Only stateless
operations are used on the cached ``JSRegExp`` objects (``search`` and ``replace``), so sharing
them is safe. Which of many lines a pattern matches is ``engine.rtk.linescan``'s job.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import memo
from engine.jsregex import JSRegExp, JSSyntaxError, compile_js


@dataclass(frozen=True)
class CompiledPattern:
    index: int  # position in the filter's list
    source: str
    regex: JSRegExp
    test: Callable[[str], bool]


@memo.lru(maxsize=4096)
def compile_cached(source: str, flags: str) -> tuple[JSRegExp | None, str | None]:
    """``(JSRegExp, None)`` or ``(None, V8 error message)``."""
    try:
        regex = compile_js(source, flags)
    except JSSyntaxError as exc:
        return None, str(exc)
    unsupported = regex.translation.unsupported
    if unsupported:
        # Valid JavaScript that the regex layer cannot run (JSR-Q12): set aside like an invalid one.
        return None, f"unsupported by Rulewright's regex layer: {unsupported}"
    return regex, None


def tester(regex: JSRegExp) -> Callable[[str], bool]:
    """A stateless yes/no test (``RegExp.prototype.test`` of a fresh regex): ``test`` itself
    for plain regexes, ``search`` for g/y ones, whose ``test`` would advance ``lastIndex``."""
    if regex.is_global or regex.sticky:
        search = regex.search
        return lambda text: search(text) is not None
    return regex.test


def compile_list(sources: Sequence[str], flags: str) -> tuple[list[CompiledPattern], list[tuple[int, str, str]]]:
    """Compile every pattern; returns the valid ones and ``(index, source, error)`` for the rest."""
    valid: list[CompiledPattern] = []
    invalid: list[tuple[int, str, str]] = []
    for index, source in enumerate(sources):
        regex, error = compile_cached(source, flags)
        if regex is None:
            invalid.append((index, source, error or "invalid regex"))
        else:
            valid.append(CompiledPattern(index, source, regex, tester(regex)))
    return valid, invalid
