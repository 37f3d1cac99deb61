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
            if _IGNORE_CASE.search(emitted) is None:
                cheaper = negated_classes(emitted)
                if cheaper is not emitted:
                    return re.compile(cheaper)
            return re.compile(emitted)
    except (re.error, Warning, RecursionError, OverflowError, ValueError):
        return None


# ``re.compile`` lays a class out in a byte map one BMP code point at a time in Python
# (``_optimize_charset``): a class up to U+10FFFF, as the emitter writes a JavaScript ``[^…]`` of a
# few characters (``[\x00-\x09\x0b-\U0010ffff]``), costs ~2.5 ms to compile, the conformance-derived
# text's patterns ~25 ms of every CLI start; the same set written ``[^\n]`` costs nothing. Without
# case folding (``(?i)``, skipped) a class and the negation of its complement match the same
# characters. Only the emitter's own class layout is rewritten (``charset.class_body``: items
# ``a``, ``\xhh``, ``\uhhhh``, ``\Uhhhhhhhh`` and ranges of two of them).
_ITEM = r"(?:\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|\\U[0-9a-f]{8}|[0-9A-Za-z_])"
_TOKEN = re.compile(r"\\U[0-9a-f]{8}|\\u[0-9a-f]{4}|\\x[0-9a-f]{2}|\\.|\[\^?(?:\\.|[^\]\\])*\]|[^\\\[]+",
                    re.DOTALL)
_SIMPLE_CLASS = re.compile(rf"\[((?:{_ITEM}(?:-{_ITEM})?)+)\]")
_CLASS_ITEM = re.compile(rf"({_ITEM})(?:-({_ITEM}))?")
_IGNORE_CASE = re.compile(r"\(\?[a-zA-Z-]*i")  # any inline flag group setting i (a false hit only skips)
_BMP_COST = 0x100  # rewrite a class covering more BMP code points than this, beyond U+FFFF


def _code(item: str) -> int:
    return ord(item) if len(item) == 1 else int(item[2:], 16)


def negated_classes(emitted: str) -> str:
    """``emitted`` with each class of the emitter's layout that reaches U+10FFFF and covers more
    than ``_BMP_COST`` BMP code points written as the negation of its complement (``emitted``
    itself when none is)."""
    out: list[str] = []
    changed = False
    covered = 0
    for m in _TOKEN.finditer(emitted):
        token = m.group(0)
        covered += len(token)
        simple = _SIMPLE_CLASS.fullmatch(token) if token[0] == "[" else None
        if simple is not None:
            ranges = sorted((_code(lo), _code(hi) if hi else _code(lo))
                            for lo, hi in _CLASS_ITEM.findall(simple.group(1)))
            if ranges[-1][1] == 0x10FFFF:
                gaps, at = [], 0
                for lo, hi in ranges:
                    if lo > at:
                        gaps.append((at, lo - 1))
                    at = max(at, hi + 1)
                bmp = sum(min(hi, 0xFFFF) - lo + 1 for lo, hi in ranges if lo <= 0xFFFF)
                if gaps and bmp > _BMP_COST:
                    out.append("[^" + "".join(f"\\U{lo:08x}" if lo == hi else f"\\U{lo:08x}-\\U{hi:08x}"
                                              for lo, hi in gaps) + "]")
                    changed = True
                    continue
        out.append(token)
    # (a pattern the tokens do not read back whole, e.g. an unclosed ``[``, is left alone)
    return "".join(out) if changed and covered == len(emitted) else emitted
