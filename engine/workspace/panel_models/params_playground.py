"""The request-params playground's view-model: the report for a pasted payload (or a provider
request body mapped to one), flattened into the features table and the plugin list."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import jsontree
from engine.fsutil import read_input_bytes
from engine.workspace.panel_models.json_panes import PaneError, parse_pane


@dataclass
class ParamsTemplate:
    name: str
    payload: Any


def load_params_templates(folder: Path) -> list[ParamsTemplate]:
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(read_input_bytes(path))
        except (OSError, ValueError, RecursionError):
            continue
        if isinstance(data, dict):
            data.pop("$schema", None)
            out.append(ParamsTemplate(path.stem, data))
    return out


@dataclass
class ParamsView:
    errors: list[PaneError]
    report: dict[str, Any] | None = None
    schema_findings: list[dict[str, Any]] = field(default_factory=list)  # with line/column in the pane
    feature_rows: list[dict[str, Any]] = field(default_factory=list)
    plugin_rows: list[dict[str, Any]] = field(default_factory=list)
    imported: Any = None  # engine.params.request_import.ImportResult when the pane held a request body

    @property
    def ok(self) -> bool:
        return self.report is not None


def run_params_view(payload_text: str, profile: str = "cherry-studio") -> ParamsView:
    """Build the report and flatten its ``explain`` into the features table and plugin list."""
    from engine.params import ParamsError, build_params_report
    from engine.params.request_import import detect_format, import_request

    payload, error = parse_pane(payload_text, "payload")
    if error is not None:
        return ParamsView([error])
    if payload is None:
        return ParamsView([PaneError("payload", "empty: pick a template or paste a payload", 1, 1)])
    imported = None
    if detect_format(payload) is not None:  # a pasted provider request: map it to the payload first
        imported = import_request(payload)
        payload = imported.payload
    try:
        report = build_params_report(payload, profile=profile)
    except ParamsError as exc:
        line, column = _pointer_position(payload_text, getattr(exc, "pointer", None)) if imported is None else (1, 1)
        return ParamsView([PaneError("payload", str(exc), line, column)], imported=imported)
    view = ParamsView([], report, imported=imported)
    if profile != "strict" and imported is None:  # strict reports them itself, as diagnostics of the report
        from engine.schemas import validate_against

        for finding in validate_against("params-payload", payload, code_prefix="schema"):
            line, column = _pointer_position(payload_text, finding.pointer or "")
            view.schema_findings.append({
                "message": f"{finding.message} (the reference schema would reject this; the pipeline uses it "
                           "as given)", "level": "warning", "code": finding.code, "pointer": finding.pointer,
                "line": line, "column": column})
    plugin_order = report.get("plugins", [])
    for feature in report.get("explain", {}).get("features", []):
        view.feature_rows.append({"name": feature["name"], "applied": feature["applied"], "why": feature.get("why", ""),
                                  "warning": feature.get("warning", ""),
                                  "plugins": [p["name"] for p in feature.get("plugins", [])]})
        for plugin in feature.get("plugins", []):
            if feature["applied"]:
                view.plugin_rows.append({**plugin, "feature": feature["name"]})
    view.plugin_rows.sort(key=lambda p: plugin_order.index(p["name"]) if p["name"] in plugin_order else len(plugin_order))
    return view


def _pointer_position(text: str, pointer: str | None) -> tuple[int, int]:
    if not pointer:
        return 1, 1
    parsed = jsontree.parse(text)
    node, _rest = jsontree.deepest(parsed.root, pointer) if parsed.ok else (None, "")
    if node is None:
        return 1, 1
    return jsontree.LineIndex(text).position(node.start)
