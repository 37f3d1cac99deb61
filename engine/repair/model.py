"""Result and change records shared by every stage of the pipeline."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.diagnostics import Diagnostic

from .jsdata import to_json_data

# Declared stage names (the reference's `RepairStage`); changes only ever carry envelope,
# preprocess and schema-repair; observations carry valid-value.
STAGES = ("envelope", "owner-shim", "preprocess", "valid-value", "strict-validation",
          "schema-repair", "final-validation")


@dataclass(frozen=True)
class RepairChange:
    rule_id: str
    stage: str
    note: str

    def to_dict(self) -> dict[str, str]:
        return {"ruleId": self.rule_id, "stage": self.stage, "note": self.note}


@dataclass(frozen=True)
class RepairObservation:
    rule_id: str
    tool_name: str
    channel: str = "tool"
    stage: str = "valid-value"
    outcome: str = "detected"

    def to_dict(self) -> dict[str, str]:
        return {"channel": self.channel, "stage": self.stage, "ruleId": self.rule_id,
                "toolName": self.tool_name, "outcome": self.outcome}


@dataclass
class RepairResult:
    """What ``runRepairPipeline`` returns, plus Rulewright's quirk diagnostics."""

    outcome: str  # "valid" | "repaired" | "unrepairable"
    args: Any
    policy: str
    changes: list[RepairChange] = field(default_factory=list)
    observations: list[RepairObservation] = field(default_factory=list)
    issue_summary: str | None = None
    fingerprint: str | None = None
    retry_message: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    trace: list[Any] = field(default_factory=list)  # TraceStep: what each stage did

    @property
    def error_message(self) -> str:
        """The message of the ``UnrepairableToolInputError`` an adapter throws."""
        return self.retry_message or "Tool input could not be repaired safely."

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "args": to_json_data(self.args),
            "policy": self.policy,
            "changes": [c.to_dict() for c in self.changes],
            "observations": [o.to_dict() for o in self.observations],
            "issueSummary": self.issue_summary,
            "fingerprint": self.fingerprint,
            "retryMessage": self.retry_message,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "trace": [t.to_dict() for t in self.trace],
        }


class UnrepairableToolInputError(Exception):
    """Thrown by the tool adapter when the pipeline ends ``unrepairable`` (fail closed)."""

    name = "UnrepairableToolInputError"

    def __init__(self, result: RepairResult) -> None:
        super().__init__(result.error_message)
        self.result = result

    @property
    def message(self) -> str:
        return str(self)
