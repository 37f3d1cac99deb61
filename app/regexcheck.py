"""Compile a pattern the way the reference would, for inline errors while typing.

Uses ``engine.jsregex.compile_js`` (V8 semantics and V8's exact messages). The layer is imported
lazily so the editor still works — without the check — in a build that lacks it.
"""

from __future__ import annotations


def compile_error(source: str, flags: str = "") -> str | None:
    """V8's message for ``new RegExp(source, flags)``, or None when it compiles."""
    try:
        from engine.jsregex import JSSyntaxError, compile_js
    except ImportError:
        return None
    try:
        compile_js(source, flags)
    except JSSyntaxError as exc:
        return str(exc)
    except Exception as exc:  # a translator bug is not the user's error; still show it
        return f"could not check this pattern: {type(exc).__name__}: {exc}"
    return None
