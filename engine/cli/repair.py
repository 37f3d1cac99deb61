"""``rulewright repair``: run the tool-argument repair pipeline (pi-repair-layer 0.4.3)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.repair.model import RepairResult

PROFILES = ("pi-repair-layer", "strict")


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("args_file", nargs="?", metavar="ARGS_FILE",
                        help="the raw tool arguments as JSON ('-' or omitted: standard input)")
    parser.add_argument("--schema", metavar="FILE",
                        help="the tool's parameter JSON Schema (required, except with --jsonl)")
    parser.add_argument("--config", metavar="FILE",
                        help="repair options JSON (resources/schemas/repair-config.schema.json)")
    parser.add_argument("--policy", choices=("conservative", "adaptive", "recover"),
                        help="repair policy (default: the config's, else adaptive)")
    parser.add_argument("--model-id", metavar="ID", help="model id gating anchor-bleed / grammar-tokens")
    parser.add_argument("--tool", metavar="NAME", help="tool name used in notes and the retry message")
    parser.add_argument("--preset", choices=("read", "bash", "edit", "write", "grep", "find", "ls"),
                        help="use pi's built-in preset for that tool (its preprocessors and legacy config)")
    parser.add_argument("--raw", action="store_true",
                        help="treat ARGS_FILE as a raw string (what a model sent), not as JSON")
    parser.add_argument("--profile", choices=PROFILES, default="pi-repair-layer",
                        help="pi-repair-layer: reproduce the reference with its quirks (default); "
                             "strict: fix them")
    parser.add_argument("--explain", action="store_true",
                        help="with the readable summary, also print what each stage did")
    parser.add_argument("--json", action="store_true", help="print the result as JSON (trace included)")
    parser.epilog = ("Exit status: 0 the tool would receive arguments, 1 bad input or the tool adapter throws "
                     "(unrepairable), 2 usage error.")


def _read_text(path: str | None, what: str) -> tuple[str, str]:
    """FILE or standard input as text; on any problem print it located and raise SystemExit."""
    from engine.cli.common import read_input

    text, shown, status = read_input(path, "repair")
    if text is None or status:
        raise SystemExit(status or 1)
    return text, shown


def _parse_json(text: str, shown: str, what: str, hint: str = "") -> Any:
    try:
        from engine.jsondoc import loads_js

        return loads_js(text)
    except json.JSONDecodeError as exc:
        verb = "are" if what == "arguments" else "is"
        print(f"{shown}:{exc.lineno}:{exc.colno}: error: {what} {verb} not JSON: {exc.msg}{hint}", file=sys.stderr)
        raise SystemExit(1) from None


def _read_json(path: str, what: str) -> Any:
    """Parse a JSON file; on failure print ``path:line:col: error: ...`` and raise SystemExit(1)."""
    text, shown = _read_text(path, what)
    return _parse_json(text, shown, what)


def _read_args(args: argparse.Namespace) -> Any:
    text, shown = _read_text(args.args_file, "arguments")
    if args.raw:
        return text
    return _parse_json(text, shown, "arguments", " (use --raw to repair a raw string)")


def _printable(text: str) -> str:
    """Lone surrogates (a retry message may cut a pair, as JS does) cannot be printed as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _summary(result: RepairResult, adapter: dict[str, Any], explain: bool = False) -> str:
    from engine.repair.jsdata import to_json_data

    lines = [f"outcome: {result.outcome}   policy: {result.policy}"]
    if explain:
        lines += [f"  {step.stage}: {step.message}" for step in result.trace]
    for change in result.changes:
        lines.append(f"  [{change.stage}] {change.rule_id}: {change.note}")
    for obs in result.observations:
        lines.append(f"  observed {obs.rule_id} ({obs.stage})")
    if result.issue_summary:
        lines.append(f"issues: {result.issue_summary}   fingerprint: {result.fingerprint}")
    if adapter["threw"]:
        lines.append("tool adapter throws UnrepairableToolInputError")
    else:
        lines.append("args: " + json.dumps(to_json_data(adapter["returned"]), ensure_ascii=False))
    for diag in result.diagnostics:
        lines.append(f"  {diag.level}: {diag.message} [{diag.code}]")
    return "\n".join(lines)


def _adapter_view(result: RepairResult, raw: Any, unrepairable: str) -> dict[str, Any]:
    """What pi's tool adapter does: return the arguments, or throw (``repair.md`` §10)."""
    from engine.repair import UnrepairableToolInputError, adapt_result

    try:
        return {"threw": False, "returned": adapt_result(result, raw, unrepairable=unrepairable)}
    except UnrepairableToolInputError as exc:
        return {"threw": True, "errorMessage": exc.message}


def run(args: argparse.Namespace) -> int:
    from engine.repair import run_repair
    from engine.repair.jsdata import js_values, to_json_data

    if not args.schema:
        print("rulewright repair: error: --schema FILE is required (or use --jsonl)", file=sys.stderr)
        return 2
    from_stdin = [name for name, value in (("--schema", args.schema), ("--config", args.config),
                                           ("ARGS_FILE", args.args_file or "-")) if value == "-"]
    if len(from_stdin) > 1:
        print(f"rulewright repair: error: standard input (-) can be read only once ({' and '.join(from_stdin)})",
              file=sys.stderr)
        return 2
    try:
        schema = _read_json(args.schema, "schema")
        options = _read_json(args.config, "config") if args.config else {}
        if not isinstance(options, dict):
            print(f"{args.config}:1:1: error: the config must be a JSON object", file=sys.stderr)
            return 1
        raw = _read_args(args)
    except SystemExit as exc:
        return int(exc.code or 1)
    if args.policy:
        options["policy"] = args.policy
    if args.model_id:
        options["modelId"] = args.model_id
    if args.tool:
        options["toolName"] = args.tool
    if args.preset:
        options["builtinTool"] = args.preset
    raw = js_values(raw, exact_ints=args.profile == "strict")
    try:
        result = run_repair(schema, raw, options, profile=args.profile)
    except ValueError as exc:
        print(f"{args.config or '<options>'}:1:1: error: {exc}", file=sys.stderr)
        return 1
    except (TypeError, AttributeError, KeyError) as exc:
        # a malformed JSON Schema (e.g. "type": {}) fails deep in the validator; say which file
        print(f"{args.schema}:1:1: error: the schema cannot be used: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    adapter = _adapter_view(result, raw, options.get("unrepairable", "throw"))
    if args.json:
        out = result.to_dict()
        out["threw"] = adapter["threw"]
        if adapter["threw"]:
            out["errorMessage"] = adapter["errorMessage"]
        else:
            out["returned"] = to_json_data(adapter["returned"])
        print(json.dumps(out, ensure_ascii=True, indent=2))
    else:
        print(_printable(_summary(result, adapter, args.explain)))
    if adapter["threw"]:
        print(_printable(adapter["errorMessage"]), file=sys.stderr)
        return 1
    return 0


def handle_request(request: dict[str, Any]) -> dict[str, Any]:
    """One ``--jsonl`` request ``{"schema", "args", "options", "profile"?}`` (conformance README)."""
    from engine.repair import run_repair
    from engine.repair.jsdata import js_values, to_json_data

    if "schema" not in request:
        return {"error": 'request needs a "schema"'}
    options = request.get("options") or {}
    if not isinstance(options, dict):
        return {"error": '"options" must be an object'}
    if not isinstance(request["schema"], (dict, bool)):
        return {"error": '"schema" must be a JSON Schema (an object or a boolean)'}
    profile = request.get("profile", "pi-repair-layer")
    if profile not in PROFILES:
        return {"error": f"unknown profile {json.dumps(profile)} (expected one of {', '.join(PROFILES)})"}
    raw = js_values(request.get("args"), exact_ints=profile == "strict")
    try:
        result = run_repair(request["schema"], raw, options, profile=profile)
    except ValueError as exc:          # an option the pipeline refuses, said in its own words
        return {"error": str(exc)}
    except (TypeError, AttributeError, KeyError) as exc:
        return {"error": f"the schema cannot be used: {type(exc).__name__}: {exc}"}
    response = result.to_dict()
    response["observations"] = [o.rule_id for o in result.observations]
    adapter = _adapter_view(result, raw, options.get("unrepairable", "throw"))
    response["threw"] = adapter["threw"]
    if adapter["threw"]:
        response["errorMessage"] = adapter["errorMessage"]
    else:
        response["returned"] = to_json_data(adapter["returned"])
    return response
