"""Per-call state every stage reads: tool name, profile, policy, schema and quirk reporting."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.diagnostics import Diagnostic, Level

from .policy import RepairPolicy
from .quirks import QUIRKS


@dataclass(frozen=True)
class TraceStep:
    """One line of the explanation: which stage, what it did, and small structured details."""

    stage: str
    message: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"stage": self.stage, "message": self.message, **({"data": self.data} if self.data else {})}


@dataclass
class RepairContext:
    tool_name: str
    schema: Any  # the built (TypeBox-tagged or plain) schema
    policy: RepairPolicy
    profile: str = "pi-repair-layer"
    model_id: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    trace: list[TraceStep] = field(default_factory=list)

    def step(self, stage: str, message: str, **data: object) -> None:
        """Record what a stage did, for the playground's explanation of a result."""
        self.trace.append(TraceStep(stage, message, data))

    @property
    def strict(self) -> bool:
        return self.profile == "strict"

    def quirk(self, quirk_id: str, message: str, *, pointer: str | None = None,
              level: Level = "info") -> None:
        """Say that a reference quirk changed (or, under strict, would have changed) a result."""
        text = f"{message} ({QUIRKS[quirk_id]})"
        if any(d.code == quirk_id and d.message == text for d in self.diagnostics):
            return
        self.diagnostics.append(Diagnostic(text, level, quirk_id, pointer=pointer, source="repair"))

    def note(self, code: str, message: str, *, level: Level = "warning", pointer: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(message, level, code, pointer=pointer, source="repair"))
