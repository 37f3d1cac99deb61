"""What both previews lay over a text: shaded spans (UTF-16 offsets) and notes in plain words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass
class Span:
    """A shaded range of a text view: ``kind`` picks the colour, ``tip`` is the hover text."""

    start: int
    end: int
    kind: str  # removed | inserted | changed | protected | match | error | summary | dropped
    tip: str = ""
    rule: str | None = None  # the rule (Caveman) or pattern (RTK) this span is about
    label: str = ""  # protected-region kind, stage name…

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "kind": self.kind, "tip": self.tip, "rule": self.rule,
                "label": self.label}


def span_at(spans: Sequence[Span], pos: int) -> list[Span]:
    """Spans that cover UTF-16 position ``pos`` (an empty span covers its own position)."""
    return [s for s in spans if s.start <= pos < s.end or (s.start == s.end == pos)]


@dataclass
class Note:
    """A quirk or problem in plain words, with the code that names it."""

    code: str
    level: str
    text: str
    rule: str | None = None
