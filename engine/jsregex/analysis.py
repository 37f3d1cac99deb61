"""Quirk diagnostics for one pattern (first version: the parser's own quirk events)."""

from __future__ import annotations

from engine.diagnostics import Diagnostic

from .errors import JSSyntaxError
from .translate import translate


def pattern_quirks(source: str, flags: str, *, profile: str = "v8", replacement: str | None = None) -> list[Diagnostic]:
    try:
        t = translate(source, flags)
    except JSSyntaxError as exc:
        return [Diagnostic(str(exc), "error", "JSR-SYNTAX", source="jsregex")]
    out = []
    for q in t.quirks:
        out.append(Diagnostic(q.message, "info" if profile != "strict" else "warning", q.code, source="jsregex",
                              column=q.start + 1, end_column=q.end + 1, data={"span": [q.start, q.end]}))
    return out
