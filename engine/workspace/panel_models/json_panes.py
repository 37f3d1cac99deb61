"""The playgrounds' JSON panes: parse one with a 1-based line and column on error, print one."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PaneError:
    pane: str
    message: str
    line: int
    column: int

    def format(self) -> str:
        return f"{self.pane}:{self.line}:{self.column}: {self.message}"


def parse_pane(text: str, pane: str, *, empty: Any = None) -> tuple[Any, PaneError | None]:
    """Parse a JSON pane; an empty pane is ``empty``; errors carry a 1-based line and column."""
    if not text.strip():
        return empty, None
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, PaneError(pane, exc.msg, exc.lineno, exc.colno)


def pretty(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)
