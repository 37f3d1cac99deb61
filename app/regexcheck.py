"""Compile a pattern the way the reference would, for inline errors while typing.

Uses ``engine.jsregex.compile_js`` (V8 semantics and V8's exact messages), imported on first use
so opening the editor does not pay for it; a missing layer is a broken installation and fails.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RegexProblem:
    """Why a pattern does not compile: V8's whole message (it repeats the pattern), its reason
    alone, and the UTF-16 offset of what is wrong (None: the flags, or no position known)."""

    message: str
    reason: str
    offset: int | None = None

    def headline(self) -> str:
        """The reason first, where to look next: what a narrow error line can show whole
        (V8's message puts the reason after the pattern, where it was elided)."""
        if self.offset is None:
            return self.reason
        return f"{self.reason} (char {self.offset + 1})"


def compile_problem(source: str, flags: str = "") -> RegexProblem | None:
    """What ``new RegExp(source, flags)`` would throw, or None when it compiles."""
    from engine.jsregex import JSSyntaxError, compile_js

    try:
        compile_js(source, flags)
    except JSSyntaxError as exc:
        return RegexProblem(str(exc), exc.reason or str(exc), exc.offset)
    except ImportError:
        raise  # a broken installation must not read as "no error in this pattern"
    except Exception as exc:  # a translator bug is not the user's error; still show it
        message = f"could not check this pattern: {type(exc).__name__}: {exc}"
        return RegexProblem(message, message)
    return None

