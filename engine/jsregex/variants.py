"""The translated pattern specialised for subjects a caller knows more about, emitted from the
parsed pattern (never by rewriting emitted text).

The general translation must meet all four JavaScript line terminators and JavaScript's exact
``\\s``; on a subject known to hold only LF breaks, ``regex``'s own ``(?m:^)``/``(?m:$)`` are
exact and let it jump from line to line instead of testing a lookbehind at every position
(most of a scan's cost); on a subject without U+0085 and U+FEFF, its own ``\\s``/``\\S`` are exact
and match about 1.3× faster (``emitter.NATIVE_SPACE_EXCEPTIONS``). Both are for ``m``-flag
patterns scanning many lines joined by LF (RTK's line scanner), where a ``^…`` pattern can also
be searched as ``\\n(?:…)`` behind an extra LF: the engine then finds each line start at C speed.
"""

from __future__ import annotations

import regex

from .. import memo
from . import ast as A
from .emitter import Emitter
from .translate import compile_emitted, parsed_root, translate


def specialised(source: str, flags: str, *, lf_only: bool, native_space: bool) -> regex.Pattern[str]:
    """``/source/flags`` compiled for a subject whose only line break is LF (``lf_only``) and/or
    that holds neither U+0085 nor U+FEFF (``native_space``); the general pattern when neither
    changes anything."""
    t = translate(source, flags)
    lines = lf_only and t.emitted_lf is not None
    spaces = native_space and t.emitted_native_space is not None
    if lines and spaces:
        return _both(source, t.flags)
    if lines:
        return t.compiled_lf or t.compiled
    if spaces and t.emitted_native_space is not None:
        return compile_emitted(t.emitted_native_space)
    return t.compiled


@memo.lru(maxsize=1024)
def _both(source: str, flags: str) -> regex.Pattern[str]:
    root = parsed_root(source, flags)
    return compile_emitted(_emitter(flags, native_space=True).emit_pattern(root))


@memo.lru(maxsize=1024)
def after_line_break(source: str, flags: str, *, native_space: bool) -> regex.Pattern[str] | None:
    """A pattern that starts with ``^`` (``m`` flag, LF-only subject) as ``\\n(?:rest)``, ``rest``
    with native line anchors (and native space classes when ``native_space``): a match at ``s``
    of ``"\\n" + subject`` is a match of the pattern at the line starting at ``s`` of the subject.
    None for another shape, or a pattern the layer does not translate."""
    t = translate(source, flags)
    if "m" not in t.flags or t.unsupported or t.too_large:
        return None
    root = parsed_root(source, t.flags)
    items = root.items if isinstance(root, A.Seq) else [root]
    first = items[0]
    if not (isinstance(first, A.Anchor) and first.kind == "^"):
        return None
    rest = items[1:]
    body = rest[0] if len(rest) == 1 else A.Seq(rest) if rest else A.Empty()
    emitted = _emitter(t.flags, native_space=native_space and t.emitted_native_space is not None).emit_pattern(body)
    return compile_emitted("\\n(?:" + emitted + ")")


def _emitter(flags: str, *, native_space: bool) -> Emitter:
    return Emitter(multiline=True, dot_all="s" in flags, unicode="u" in flags or "v" in flags,
                   native_line_anchors=True, native_space_classes=native_space)

