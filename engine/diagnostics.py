"""One diagnostics model for the CLI and the GUI.

A diagnostic says where (path, 1-based line and column, optional end), how bad (level), what
(code, message). Columns count UTF-16 code units, as Qt and the reference engines do, so the
same numbers work in the editor and in ``path:line:col`` output.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

MAX_SHOWN_MESSAGE = 2000  # characters of a message ``format`` prints

Level = Literal["error", "warning", "info"]
LEVELS: tuple[Level, ...] = ("error", "warning", "info")


@dataclass(frozen=True)
class Diagnostic:
    message: str
    level: Level = "error"
    code: str = ""
    path: str | None = None
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    pointer: str | None = None  # JSON pointer of the offending value, when known
    source: str | None = None  # which engine or stage produced it
    data: dict[str, Any] = field(default_factory=dict, compare=False)

    def with_location(self, **changes: Any) -> Diagnostic:
        return replace(self, **changes)

    def format(self) -> str:
        """``path:line:col: level: message [code]`` — the compiler convention editors parse."""
        where = self.path or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        code = f" [{self.code}]" if self.code else ""
        message = self.message
        if len(message) > MAX_SHOWN_MESSAGE:  # a message quoting a multi-megabyte pattern is cut
            message = f"{message[:MAX_SHOWN_MESSAGE]}… ({len(message) - MAX_SHOWN_MESSAGE} more characters)"
        return f"{where}: {self.level}: {message}{code}"

    def to_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if v is not None and v != {}}
        return out


def utf16_column(text: str, index: int) -> int:
    """1-based UTF-16 column of code-point ``index`` within its line of ``text``."""
    line_start = text.rfind("\n", 0, index) + 1
    return len(text[line_start:index].encode("utf-16-le", "surrogatepass")) // 2 + 1


def position(text: str, index: int) -> tuple[int, int]:
    """1-based (line, UTF-16 column) of code-point ``index`` in ``text``."""
    index = max(0, min(index, len(text)))
    line = text.count("\n", 0, index) + 1
    return line, utf16_column(text, index)


def has_errors(diagnostics: list[Diagnostic]) -> bool:
    return any(d.level == "error" for d in diagnostics)


def sort_key(d: Diagnostic) -> tuple[str, int, int, int, str]:
    return (d.path or "", d.line or 0, d.column or 0, LEVELS.index(d.level), d.message)
