"""pi-repair-layer's legacy facade ``repairToolInput`` (spec §9).

It runs the same pipeline with a ``ToolRepairConfig`` as legacy config, reports
``envelope.decode-json`` under its old name ``parseJsonStringifiedRootObject`` and adds the
unique fired rule names and the notes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .jsdata import to_json_data
from .model import RepairChange
from .pipeline import run_repair
from .quirks import DEFAULT_PROFILE


@dataclass
class LegacyRepairResult:
    outcome: str
    args: Any
    rules_fired: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    changes: list[RepairChange] = field(default_factory=list)
    issue_summary: str | None = None
    fingerprint: str | None = None
    retry_message: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.outcome, "args": to_json_data(self.args), "rulesFired": self.rules_fired,
                "notes": self.notes, "changes": [c.to_dict() for c in self.changes],
                "issueSummary": self.issue_summary, "fingerprint": self.fingerprint,
                "retryMessage": self.retry_message}


def repair_tool_input(tool_name: str, schema: object, args: object, config: dict[str, Any] | None = None,
                      *, profile: str = DEFAULT_PROFILE) -> LegacyRepairResult:
    result = run_repair(schema, args, {"toolName": tool_name, "legacyConfig": config or {}}, profile=profile)
    changes = [RepairChange("parseJsonStringifiedRootObject", c.stage, c.note)
               if c.rule_id == "envelope.decode-json" else c for c in result.changes]
    fired = list(dict.fromkeys(c.rule_id for c in changes))
    return LegacyRepairResult(result.outcome, result.args, fired, [c.note for c in changes], changes,
                              result.issue_summary, result.fingerprint, result.retry_message)
