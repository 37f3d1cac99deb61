"""Exceptions of the JavaScript-regex layer."""

from __future__ import annotations

from .total import exhausted_words


class JSSyntaxError(ValueError):
    """``new RegExp(source, flags)`` would throw; ``str()`` is V8's exact message. ``offset``:
    the UTF-16 offset in ``source`` of what is wrong (the open ``[`` or ``(`` of an unterminated
    class or group), for editors and ``file:line:col``; None for bad flags."""

    def __init__(self, message: str, source: str = "", flags: str = "", reason: str = "",
                 offset: int | None = None) -> None:
        super().__init__(message)
        self.source = source
        self.flags = flags
        self.reason = reason
        self.offset = offset


class RegexTimeout(TimeoutError):
    """A regex call ran past its time budget (OmniRoute would stall on such a pattern)."""

    def __init__(self, source: str, flags: str, timeout: float) -> None:
        self.source = source
        self.flags = flags
        self.timeout = timeout
        shown = source if len(source) <= 200 else source[:200] + "…"  # never echo a huge pattern whole
        # a call stopped because the run's total budget (engine.jsregex.budget) was spent says so
        self.total = exhausted_words()
        if self.total is not None:
            super().__init__(f"regex /{shown}/{flags} was stopped: {self.total}")
        else:
            super().__init__(f"regex /{shown}/{flags} timed out after {round(timeout * 1000)} ms")


class JSUnsupportedError(ValueError):
    """The pattern is valid JavaScript but needs data Rulewright does not ship (JSR-Q12)."""
