"""``rulewright filter``: RTK-filter command output as OmniRoute would.

``--stage engine`` (default) runs detection, filter choice, the filter, engine dedup and the
final caps; ``--stage filter`` runs one filter's line pipeline alone (as the verify gate does).
Built-in filters come from ``--builtin DIR`` (default: the project's own ``filters/`` folder);
``--project`` / ``--data-dir`` add project and global filters through ``engine.rtk.sources``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.rtk.builtin import load_builtin as load_builtin  # re-exported: `learn` imports it from here

if TYPE_CHECKING:
    from engine.rtk.model import RtkFilter
    from engine.rtk.verify import QuirkEffect

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def default_builtin_dir() -> Path:
    from engine.paths import builtin_filters_dir

    return builtin_filters_dir()


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("file", nargs="?", default="-", help="command output to filter (default: stdin)")
    parser.add_argument("--command", dest="shell_command", metavar="CMD",
                        help="the command line that produced the output")
    parser.add_argument("--stage", choices=("engine", "filter", "body"), default="engine",
                        help="engine: the whole RTK engine (default); filter: one filter's pipeline only; body: "
                        "the input is a whole request body (chat, OpenAI Responses or Kiro) and its tool results "
                        "are filtered as OmniRoute's applyRtkCompression does")
    parser.add_argument("--builtin", metavar="DIR", help="folder of built-in filter JSON files")
    parser.add_argument("--project", metavar="DIR", help="project folder (its .rtk/filters.json|toml)")
    parser.add_argument("--data-dir", metavar="DIR", help="OmniRoute DATA_DIR (global <DIR>/rtk/filters.*)")
    parser.add_argument("--filter", metavar="FILE", dest="filter_file",
                        help="a filter file: run only this filter (with --stage filter) or add it as a project filter")
    parser.add_argument("--filter-id", metavar="ID", help="which filter of --filter FILE to use (default: the first)")
    parser.add_argument("--config", metavar="JSON", help="RtkConfig overrides as a JSON object")
    parser.add_argument("--profile", choices=("omniroute", "strict"), default="omniroute",
                        help="omniroute: reproduce the reference and report its quirks (default); strict: fix them")
    parser.add_argument("--trace", action="store_true", help="include the per-stage trace (with --json)")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")


# ----------------------------------------------------------------------------- shared helpers


def _diagnostic_dict(d: Any) -> dict[str, Any]:
    if isinstance(d, dict):
        return d
    out = {"source": d.source or "rtk", "level": d.level, "message": d.message}
    if d.code:
        out["code"] = d.code
    if d.path:
        out["file"] = d.path
    if d.pointer:
        out["pointer"] = d.pointer
    return out


def _collect(builtin: str | None, project: str | None, data_dir: str | None, config: dict[str, Any] | None,
             profile: str) -> tuple[list[RtkFilter], list[dict[str, Any]]]:
    builtin_dir = builtin or str(default_builtin_dir())
    if project or data_dir:
        from engine.rtk.sources import collect_filters

        filters, diagnostics = collect_filters(builtin_dir, project_dir=project, data_dir=data_dir, config=config,
                                               environ=dict(os.environ), profile=profile)
        return list(filters), [_diagnostic_dict(d) for d in diagnostics]
    filters, diagnostics = load_builtin(builtin_dir, profile)
    return list(filters), [_diagnostic_dict(d) for d in diagnostics]


def run_filter_stage(output: str, filter_obj: Any, *, profile: str = "omniroute", filter_id: str | None = None,
                     trace: bool = False) -> dict[str, Any]:
    from engine.rtk.model import parse_filter_file
    from engine.rtk.stages import apply_line_filter
    from engine.rtk.tokens import estimate_tokens
    from engine.rtk.trace import Trace

    filters, diagnostics = parse_filter_file(filter_obj, profile=profile, source="project")
    if not filters:
        errors = [d for d in diagnostics if d.level == "error"]
        message = errors[0].message if errors else "no filter in the file"
        return {"error": message, "diagnostics": [_diagnostic_dict(d) for d in diagnostics]}
    chosen = filters[0]
    if filter_id is not None:
        wanted = next((f for f in filters if f.id == filter_id), None)
        if wanted is None:
            return {"error": f"no filter with id {filter_id!r}"}
        chosen = wanted
    recorder = Trace() if trace else None
    result = apply_line_filter(output, chosen, profile=profile, trace=recorder)
    response: dict[str, Any] = {
        "text": result.text, "filterId": chosen.id, "filterSource": None, "detectedType": None,
        "confidence": None, "rulesApplied": result.applied_rules, "strippedLines": result.stripped_lines,
        "keptByRule": result.kept_by_rule, "originalTokens": estimate_tokens(output),
        "compressedTokens": estimate_tokens(result.text),
        "diagnostics": [_diagnostic_dict(d) for d in diagnostics + result.diagnostics],
    }
    if recorder is not None:
        response["trace"] = recorder.to_dict()
    return response


def run_engine_stage(output: str, command: str | None, *, builtin: str | None = None, project: str | None = None,
                     data_dir: str | None = None, config: dict[str, Any] | None = None, profile: str = "omniroute",
                     extra_filters: list[RtkFilter] | None = None, trace: bool = False) -> dict[str, Any]:
    from engine.rtk.engine import RtkConfig, process_rtk_text
    from engine.rtk.trace import Trace

    merged = {"enabled": True, **(config or {})}
    filters, diagnostics = _collect(builtin, project, data_dir, merged, profile)
    if extra_filters:
        filters = list(extra_filters) + filters
    recorder = Trace() if trace else None
    result = process_rtk_text(output, command, RtkConfig.from_dict(merged), filters, profile=profile,
                              trace=recorder)
    response = result.to_dict()
    response["diagnostics"] = diagnostics + [_diagnostic_dict(d) for d in result.diagnostics]
    return response


# ----------------------------------------------------------------------------- batch


def run_body_stage(body: Any, *, builtin: str | None = None, project: str | None = None,
                   data_dir: str | None = None, config: dict[str, Any] | None = None,
                   profile: str = "omniroute") -> dict[str, Any]:
    """``applyRtkCompression`` on a whole request body (chat, Responses or Kiro; ``rtk.md`` §8)."""
    from engine.rtk.messages import apply_rtk_compression

    filters, diagnostics = _collect(builtin, project, data_dir, {"enabled": True, **(config or {})}, profile)
    result = apply_rtk_compression(body, config, filters=filters, profile=profile)
    stats = result.stats or {}
    return {
        "body": result.body, "compressed": result.compressed,
        "rulesApplied": stats.get("rulesApplied") or [], "techniquesUsed": stats.get("techniquesUsed") or [],
        "originalTokens": stats.get("originalTokens"), "compressedTokens": stats.get("compressedTokens"),
        "results": result.results,
        "diagnostics": diagnostics + [_diagnostic_dict(d) for d in result.diagnostics],
    }


def handle_request(request: dict[str, Any]) -> dict[str, Any]:
    if request.get("stage") == "body":
        config = request.get("config")
        if config is not None and not isinstance(config, dict):
            raise ValueError('"config" must be an object')
        if "body" not in request:
            raise ValueError('stage "body" needs a "body" (a request body)')
        return run_body_stage(request["body"], builtin=request.get("builtin"), project=request.get("project"),
                              data_dir=request.get("dataDir"), config=config,
                              profile=request.get("profile", "omniroute"))
    output = request.get("output")
    if not isinstance(output, str):
        raise ValueError('"output" must be a string')
    command = request.get("command")
    if command is not None and not isinstance(command, str):
        raise ValueError('"command" must be a string or null')
    profile = request.get("profile", "omniroute")
    stage = request.get("stage", "engine")
    if stage == "filter":
        if "filter" not in request:
            raise ValueError('stage "filter" needs a "filter" object')
        return run_filter_stage(output, request["filter"], profile=profile, filter_id=request.get("filterId"),
                                trace=bool(request.get("trace")))
    if stage != "engine":
        raise ValueError(f'unknown stage {stage!r} (expected "engine", "filter" or "body")')
    config = request.get("config")
    if config is not None and not isinstance(config, dict):
        raise ValueError('"config" must be an object')
    return run_engine_stage(output, command, builtin=request.get("builtin"), project=request.get("project"),
                            data_dir=request.get("dataDir"), config=config, profile=profile,
                            trace=bool(request.get("trace")))


# ----------------------------------------------------------------------------- command line


def _check_folders(args: argparse.Namespace) -> int:
    """Folders named on the command line must exist (a typo must not filter with nothing)."""
    from engine.cli.common import usage_error

    for option, value in (("--builtin", args.builtin), ("--project", args.project)):
        if value and not Path(value).is_dir():
            return usage_error("filter", f"{option} {value}: no such folder")
    if args.data_dir and Path(args.data_dir).exists() and not Path(args.data_dir).is_dir():
        return usage_error("filter", f"--data-dir {args.data_dir}: not a folder")
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    from engine.cli.common import read_input

    folders = _check_folders(args)
    if folders:
        return folders
    output, _shown, code = read_input(args.file, "filter")
    if output is None or code:
        return code or EXIT_PROBLEMS
    config = None
    if args.config:
        try:
            config = json.loads(args.config)
        except json.JSONDecodeError as exc:
            print(f"<config>:1:{exc.colno}: error: --config is not JSON: {exc.msg}", file=sys.stderr)
            return EXIT_USAGE
        if not isinstance(config, dict):
            print("<config>:1:1: error: --config must be a JSON object", file=sys.stderr)
            return EXIT_USAGE
    filter_obj = None
    if args.filter_file:
        filter_obj = _load_filter_file(args.filter_file, args.profile)
        if filter_obj is None:
            return EXIT_PROBLEMS
    if args.stage == "body":
        return _run_body(output, _shown, args, config)
    if args.stage == "filter":
        if filter_obj is None:
            print("error: --stage filter needs --filter FILE", file=sys.stderr)
            return EXIT_USAGE
        response = run_filter_stage(output, filter_obj, profile=args.profile, filter_id=args.filter_id,
                                    trace=args.trace)
        stopped = any(d.get("code") == "RTK-TIMEOUT" for d in response.get("diagnostics", []))
        # a run its regex budget stopped compares with nothing: running it twice more under the
        # other profile would only triple the time the user already waited (issue 23, finding 6)
        if "error" not in response and args.profile != "strict" and not stopped:
            quirk = _quirk_effect(output, filter_obj, response["filterId"], args.profile)
            if quirk is not None:  # said beside the result, with strict's answer (issue 16)
                response["quirk"] = {k: v for k, v in quirk.to_dict().items() if k != "strictPassed"}
                print(f"{args.filter_file}: note: output changed by {', '.join(quirk.ids)}; under --profile strict "
                      f"the output is:\n{_printable(quirk.strict_actual)}", file=sys.stderr)
    else:
        extra = None
        if filter_obj is not None:
            from engine.rtk.model import parse_filter_file

            extra, _ = parse_filter_file(filter_obj, profile=args.profile, source="project", path=args.filter_file)
            if args.filter_id is not None:
                extra = [f for f in extra if f.id == args.filter_id]
        try:
            response = run_engine_stage(output, args.shell_command, builtin=args.builtin, project=args.project,
                                        data_dir=args.data_dir, config=config, profile=args.profile,
                                        extra_filters=extra, trace=args.trace)
        except RuntimeError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_PROBLEMS
    if "error" in response:
        where = args.filter_file or "<filter>"
        print(f"{where}: error: {response['error']}", file=sys.stderr)
        return EXIT_PROBLEMS
    if args.json:
        sys.stdout.write(_printable(json.dumps(response, ensure_ascii=False, indent=2)) + "\n")
    else:
        text = _printable(response["text"])
        sys.stdout.write(text)
        if text and not text.endswith("\n"):
            sys.stdout.write("\n")
        for d in response.get("diagnostics", []):
            if d.get("level") in ("error", "warning"):
                print(f"{d.get('file') or '<rtk>'}: {d['level']}: {d['message']}", file=sys.stderr)
    return EXIT_OK


def _quirk_effect(output: str, filter_obj: object, filter_id: str, profile: str) -> QuirkEffect | None:
    """Whether a reference quirk changed this filter's output (``engine.rtk.verify.quirk_effect``)."""
    from engine.rtk.model import parse_filter_file
    from engine.rtk.stages import apply_line_filter
    from engine.rtk.verify import quirk_effect

    filters, _ = parse_filter_file(filter_obj, profile=profile, source="project")
    flt = next((f for f in filters if f.id == filter_id), None)
    if flt is None:
        return None
    return quirk_effect(flt, output, apply_line_filter(output, flt, profile=profile), "")


def _run_body(text: str, shown: str, args: argparse.Namespace, config: dict[str, Any] | None) -> int:
    """``--stage body``: print the rewritten body (or the whole response with ``--json``)."""
    try:
        body = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"{shown}:{exc.lineno}:{exc.colno}: error: not a JSON request body: {exc.msg}", file=sys.stderr)
        return EXIT_PROBLEMS
    response = run_body_stage(body, builtin=args.builtin, project=args.project, data_dir=args.data_dir,
                              config=config, profile=args.profile)
    shown_body = response if args.json else response["body"]
    sys.stdout.write(_printable(json.dumps(shown_body, ensure_ascii=False, indent=2)) + "\n")
    if not args.json:
        for d in response.get("diagnostics", []):
            print(f"{shown}: {d.get('level', 'info')}: {d.get('message')}"
                  + (f" [{d['code']}]" if d.get("code") else ""), file=sys.stderr)
    return EXIT_OK


def _printable(text: str) -> str:
    """Lone surrogates (JavaScript strings may hold them; the char cut can make one) cannot be
    written as UTF-8: show them as U+FFFD."""
    if text.isascii():
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _load_filter_file(name: str, profile: str) -> Any:
    """The parsed filter document, or ``None`` after printing every problem at ``path:line:col``
    (unreadable file, JSON syntax, schema issues and invalid patterns, located by pointer)."""
    from engine.jsondoc import read_json_file
    from engine.rtk.model import check_filter_file

    doc = read_json_file(name)
    problems = [d for d in doc.diagnostics if d.level == "error"]
    if doc.ok and not problems:
        problems = [doc.locate(d) for d in check_filter_file(doc.value, profile=profile, path=name)
                    if d.level == "error"]
    for diagnostic in problems:
        print(diagnostic.format(), file=sys.stderr)
    return None if problems or not doc.ok else doc.value
