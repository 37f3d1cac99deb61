"""The tool-argument repair playground's view-model: the pipeline run on the three panes, the
before/after diff and each change with its rule, and the ready samples and tool presets."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.fsutil import read_input_bytes
from engine.workspace.diffrows import DiffRow, side_by_side
from engine.workspace.panel_models.json_panes import PaneError, parse_pane, pretty

# pi's seven built-in tools: the parameter schemas the presets are meant for (pi-coding-agent).
PRESET_SCHEMAS: dict[str, dict[str, Any]] = {
    "read": {"type": "object", "required": ["path"], "properties": {
        "path": {"type": "string", "description": "Path to the file to read (relative or absolute)"},
        "offset": {"type": "number", "description": "Line number to start reading from (1-indexed)"},
        "limit": {"type": "number", "description": "Maximum number of lines to read"}}},
    "bash": {"type": "object", "required": ["command"], "properties": {
        "command": {"type": "string", "description": "Bash command to execute"},
        "timeout": {"type": "number", "description": "Timeout in seconds (optional)"}}},
    "edit": {"type": "object", "required": ["path", "edits"], "properties": {
        "path": {"type": "string", "description": "Path to the file to edit"},
        "edits": {"type": "array", "items": {"type": "object", "required": ["oldText", "newText"], "properties": {
            "oldText": {"type": "string", "description": "Exact text to find and replace"},
            "newText": {"type": "string", "description": "New text to replace it with"}}}}}},
    "write": {"type": "object", "required": ["path", "content"], "properties": {
        "path": {"type": "string", "description": "Path to the file to write"},
        "content": {"type": "string", "description": "Content to write to the file"}}},
    "grep": {"type": "object", "required": ["pattern"], "properties": {
        "pattern": {"type": "string"}, "path": {"type": "string"}, "glob": {"type": "string"},
        "ignoreCase": {"type": "boolean"}, "literal": {"type": "boolean"}, "context": {"type": "number"},
        "limit": {"type": "number"}}},
    "find": {"type": "object", "required": ["pattern"], "properties": {
        "pattern": {"type": "string", "description": "Glob pattern to match files"},
        "path": {"type": "string"}, "limit": {"type": "number"}}},
    "ls": {"type": "object", "properties": {
        "path": {"type": "string", "description": "Directory to list"}, "limit": {"type": "number"}}},
}


@dataclass
class RepairSample:
    name: str
    title: str
    description: str
    schema: Any
    args: Any
    options: dict[str, Any]


def load_repair_samples(folder: Path) -> list[RepairSample]:
    """The ready samples (``resources/samples/repair/*.json``), sorted by title; bad files skipped."""
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(read_input_bytes(path))
        except (OSError, ValueError, RecursionError):
            continue
        if isinstance(data, dict) and "schema" in data and "args" in data:
            out.append(RepairSample(path.stem, str(data.get("title") or path.stem), str(data.get("description") or ""),
                                    data["schema"], data["args"], dict(data.get("options") or {})))
    return sorted(out, key=lambda s: s.title.lower())


@dataclass
class RepairRequest:
    schema_text: str
    args_text: str
    config_text: str = ""
    policy: str = ""  # "" = the config's (else adaptive)
    model_id: str = ""
    preset: str = ""  # "" or one of PRESET_SCHEMAS
    tool_name: str = ""
    raw_args: bool = False  # the arguments pane is the raw string the model sent
    profile: str = "pi-repair-layer"


@dataclass
class RepairView:
    errors: list[PaneError]
    result: dict[str, Any] | None = None
    threw: bool = False
    returned: Any = None
    error_message: str | None = None
    raw_pretty: str = ""
    final_pretty: str = ""
    diff: list[DiffRow] = field(default_factory=list)
    changes: list[dict[str, str]] = field(default_factory=list)  # each change + its rule summary
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors and self.result is not None


def run_repair_view(req: RepairRequest) -> RepairView:
    """Run the pipeline on the three panes and derive what the playground shows."""
    from engine.repair import RULES, UnrepairableToolInputError, adapt_result, run_repair
    from engine.repair.jsdata import js_values, to_json_data

    schema, e1 = parse_pane(req.schema_text, "schema")
    options, e2 = parse_pane(req.config_text, "config", empty={})
    if req.raw_args:
        raw, e3 = req.args_text, None
    else:
        raw, e3 = parse_pane(req.args_text, "arguments")
        if e3 is None and not req.args_text.strip():
            e3 = PaneError("arguments", "empty: type the arguments a model sent (or tick 'raw string')", 1, 1)
    errors = [e for e in (e1, e2, e3) if e is not None]
    if e1 is None and not req.schema_text.strip():
        errors.insert(0, PaneError("schema", "empty: paste the tool's parameter JSON Schema or pick a preset", 1, 1))
    if e2 is None and not isinstance(options, dict):
        errors.append(PaneError("config", "the config must be a JSON object", 1, 1))
    if errors:
        return RepairView(errors)
    options = dict(options)
    if req.policy:
        options["policy"] = req.policy
    if req.model_id.strip():
        options["modelId"] = req.model_id.strip()
    if req.preset:
        options["builtinTool"] = req.preset
    if req.tool_name.strip():
        options["toolName"] = req.tool_name.strip()
    raw = js_values(raw, exact_ints=req.profile == "strict")
    try:
        result = run_repair(schema, raw, options, profile=req.profile)
    except ValueError as exc:
        return RepairView([PaneError("config", str(exc), 1, 1)])
    report = result.to_dict()
    view = RepairView([], report, options=options)
    try:
        view.returned = to_json_data(adapt_result(result, raw, unrepairable=options.get("unrepairable", "throw")))
    except UnrepairableToolInputError as exc:
        view.threw, view.error_message = True, exc.message
    view.raw_pretty = pretty(to_json_data(raw))
    view.final_pretty = pretty(report["args"])
    view.diff = side_by_side(view.raw_pretty, view.final_pretty)
    for change in report["changes"]:
        info = RULES.get(change["ruleId"])
        view.changes.append({**change, "summary": info.summary if info else ""})
    return view
