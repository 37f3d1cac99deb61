"""Compile a pattern the way the reference would, for inline errors while typing.

Uses ``engine.jsregex.compile_js`` (V8 semantics and V8's exact messages), imported on first use
so opening the editor does not pay for it; a missing layer is a broken installation and fails.
"""

from __future__ import annotations


def compile_error(source: str, flags: str = "") -> str | None:
    """V8's message for ``new RegExp(source, flags)``, or None when it compiles."""
    from engine.jsregex import JSSyntaxError, compile_js

    try:
        compile_js(source, flags)
    except JSSyntaxError as exc:
        return str(exc)
    except ImportError:
        raise  # a broken installation must not read as "no error in this pattern"
    except Exception as exc:  # a translator bug is not the user's error; still show it
        return f"could not check this pattern: {type(exc).__name__}: {exc}"
    return None
