"""``rulewright params``: build AI request params as Cherry Studio's ``buildAgentParams`` would."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.diagnostics import Diagnostic


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("file", nargs="?", default="-", metavar="FILE",
                        help="payload JSON {request, provider, model, assistant, env?, "
                             "mcpServers?, cherryinProvider?}, or - for standard input (the default)")
    parser.add_argument("--json", action="store_true", help="print the full report as JSON")
    parser.epilog = "Exit status: 0 report built, 1 bad payload, 2 usage error."
    parser.add_argument("--profile", default="cherry-studio", choices=("cherry-studio", "strict"),
                        help="cherry-studio reproduces the reference and its quirks (default); "
                             "strict fixes them")


def handle_request(request: dict[str, Any]) -> dict[str, Any]:
    """One ``--jsonl`` line: the payload itself (a ``profile`` key may pick the profile)."""
    from engine.params import ParamsError, build_params_report

    profile = request.get("profile", "cherry-studio") if isinstance(request, dict) else None
    payload = {k: v for k, v in request.items() if k != "profile"}
    try:
        return build_params_report(payload, profile=profile)
    except ParamsError as exc:
        return {"error": exc.message, "pointer": exc.pointer}


def _locator(text: str) -> Callable[[str | None], tuple[int, int] | None]:
    """``pointer -> (line, column) or None`` over one source map of ``text``, computed once on
    the first question (a map per warning made thousands of warnings quadratic: issue 23 #8)."""
    from engine.jsondoc import JsonDocument

    doc = JsonDocument(text=text, ok=True)

    def locate(pointer: str | None) -> tuple[int, int] | None:
        span = doc.span(pointer or "")
        return None if span is None else doc.position(span[0])

    return locate


def run(args: argparse.Namespace) -> int:
    from engine.cli.common import dumps_json, printable, read_input
    from engine.jsondoc import loads_js
    from engine.params import ParamsError, build_params_report

    text, name, status = read_input(args.file, "params")
    if text is None or status:
        return status or 1
    try:
        payload = loads_js(text)
    except json.JSONDecodeError as exc:
        print(f"{name}:{exc.lineno}:{exc.colno}: error: not JSON: {exc.msg}", file=sys.stderr)
        return 1
    locate = _locator(text)
    try:
        report = build_params_report(payload, profile=args.profile)
    except ParamsError as exc:
        where = locate(exc.pointer)
        prefix = f"{name}:{where[0]}:{where[1]}" if where else name
        print(f"{prefix}: error: {exc.pointer or '/'}: {exc.message}", file=sys.stderr)
        return 1
    for finding in (_schema_findings(payload) if args.profile != "strict" else []):
        where = locate(finding.pointer)
        prefix = f"{name}:{where[0]}:{where[1]}" if where else name
        print(f"{prefix}: warning: {finding.message} (the reference schema would reject this; "
              f"the pipeline uses it as given) [{finding.code}]", file=sys.stderr)
    if args.json:
        sys.stdout.write(dumps_json(report, indent=2) + "\n")
    else:
        sys.stdout.write(printable(render_summary(report)))
    return 0


def _schema_findings(payload: Any) -> list[Diagnostic]:
    """The payload checked against resources/schemas/params-payload.schema.json."""
    from engine.schemas import validate_against

    return validate_against("params-payload", payload, code_prefix="schema")


def _fmt(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render_summary(report: dict[str, Any]) -> str:
    """A readable summary: routing, features and why, options, tools, system prompt, quirks."""
    sdk, scope, options, tools = (report["sdkConfig"], report["scope"], report["options"],
                                  report["tools"])
    lines = [f"profile        {report.get('profile', 'cherry-studio')}",
             f"sdk provider   {sdk['providerId']}  model {sdk['modelId']}",
             f"base URL       {sdk['providerSettings'].get('baseURL')}",
             f"endpoint type  {scope['endpointType']}  scope id {scope['aiSdkProviderId']}"]
    caps = scope.get("capabilities")
    if caps:
        on = [k for k in ("enableReasoning", "enableWebSearch", "isSupportedToolUse",
                          "streamOutput") if caps.get(k) is True]
        lines.append(f"capabilities   {', '.join(on) or 'none'}")
    else:
        lines.append("capabilities   (no assistant)")
    lines.append("")
    lines.append("features")
    for entry in report.get("explain", {}).get("features", []):
        mark = "+" if entry["applied"] else "-"
        lines.append(f"  {mark} {entry['name']:<30} {entry['why']}")
        for plugin in entry.get("plugins", []):
            flag = "" if plugin["actsOnChatPath"] else "  [param plugin: not on the chat path]"
            lines.append(f"      plugin {plugin['name']}{flag}")
            detail = report["pluginDetails"].get(plugin["name"])
            if detail:
                lines.append(f"        details {_fmt(detail)}")
            if plugin.get("effect"):
                lines.append(f"        effect  {_clip(_fmt(plugin['effect']))}")
    lines.append("")
    lines.append("options")
    for key in ("maxRetries", "stopWhenStepCount", "headers", "providerOptions",
                "standardParams", "telemetry"):
        lines.append(f"  {key:<18} {_fmt(options[key])}")
    lines.append("")
    lines.append(f"tools          active {len(tools['active'])}, deferred {len(tools['deferred'])}"
                 f", exposed {_fmt(tools['exposed'])}")
    lines.append("")
    system = report["system"]
    lines.append("system prompt" + (" (none)" if system is None else ":"))
    if system is not None:
        lines.extend(f"  | {line}" for line in system.split("\n"))
    if report.get("diagnostics"):
        lines.append("")
        lines.append("diagnostics")
        for d in report["diagnostics"]:
            lines.append(f"  {d['code']:<8} {d['message']}  ({d['pointer'] or '/'})")
    return "\n".join(lines) + "\n"
