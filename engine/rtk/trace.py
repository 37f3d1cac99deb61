"""What happened to an output, stage by stage, so the IDE can explain every dropped line.

A ``Trace`` is optional (collecting it costs time on multi-megabyte logs): pass one to the stage
runner or the engine and it fills it in. Line numbers are 0-based indexes into the lines that
*entered* the stage; per-stage line events are capped (``MAX_EVENTS``) and ``events_truncated``
says when some were left out.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

MAX_EVENTS = 5000


@dataclass
class LineEvent:
    """One line's fate in one stage: ``dropped``, ``kept``, ``collapsed``, ``changed``,
    ``truncated`` or ``priority`` (kept by a preserve pattern in truncation)."""

    line: int
    action: str
    text: str
    pattern: str | None = None
    pointer: str | None = None
    after: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass
class StageTrace:
    stage: str
    lines_in: int
    lines_out: int = 0
    tag: str | None = None
    events: list[LineEvent] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)
    note: str = ""
    events_truncated: bool = False

    def add(self, event: LineEvent) -> None:
        if len(self.events) < MAX_EVENTS:
            self.events.append(event)
        else:
            self.events_truncated = True

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"stage": self.stage, "linesIn": self.lines_in, "linesOut": self.lines_out,
                               "tag": self.tag, "events": [e.to_dict() for e in self.events],
                               "markers": list(self.markers)}
        if self.note:
            out["note"] = self.note
        if self.events_truncated:
            out["eventsTruncated"] = True
        return out


@dataclass
class SelectionTrace:
    """Why this filter (or none) was chosen."""

    filter_id: str | None
    scope: str | None = None
    criterion: str | None = None  # toml-command | outputTypes | commands | patterns | generic-fallback
    pattern: str | None = None
    pointer: str | None = None
    detected_command: str = ""
    detected_type: str = "unknown"
    considered: int = 0
    disabled: bool = False
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"filterId": self.filter_id, "scope": self.scope, "criterion": self.criterion,
                "pattern": self.pattern, "pointer": self.pointer, "detectedCommand": self.detected_command,
                "detectedType": self.detected_type, "considered": self.considered,
                "disabled": self.disabled, "note": self.note}


@dataclass
class Trace:
    detection: dict[str, Any] | None = None
    selection: SelectionTrace | None = None
    stages: list[StageTrace] = field(default_factory=list)
    steps: list[StageTrace] = field(default_factory=list)  # engine steps after the filter

    def stage(self, name: str, lines_in: int) -> StageTrace:
        stage = StageTrace(name, lines_in)
        self.stages.append(stage)
        return stage

    def step(self, name: str, lines_in: int) -> StageTrace:
        step = StageTrace(name, lines_in)
        self.steps.append(step)
        return step

    def to_dict(self) -> dict[str, Any]:
        return {"detection": self.detection,
                "selection": self.selection.to_dict() if self.selection else None,
                "stages": [s.to_dict() for s in self.stages],
                "steps": [s.to_dict() for s in self.steps]}
