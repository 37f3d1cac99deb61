"""``rulewright grammar``: find and promote tool calls a model printed as text.

Runs pi-repair-layer's ``message_end`` decision on one assistant message (a text file or stdin)
and prints what was detected where, what was stripped or promoted, and why. ``--jsonl`` answers
the conformance requests: handler scenarios and the three ``api`` calls; a request may add
``"profile": "strict"`` to apply the quirk fixes.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import time
from typing import Any

PI_BUILTIN_TOOLS = ("read", "bash", "edit", "write", "grep", "find", "ls")


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("file", nargs="?", default="-", metavar="FILE",
                        help="assistant text to scan, or - for standard input (the default)")
    parser.add_argument("--model-id", default=None, metavar="ID", help="current model id (the leak-list gate)")
    parser.add_argument("--policy", choices=("conservative", "adaptive", "recover"), default=None,
                        help="policy profile (default from settings: adaptive)")
    parser.add_argument("--mode", choices=("off", "observe", "strip", "recover"), default=None,
                        help="grammar-recovery override (default: the policy's mode)")
    parser.add_argument("--tools", default=None, metavar="LIST",
                        help="comma-separated active tools (default: pi's seven built-ins)")
    parser.add_argument("--allowed-tools", default=None, metavar="LIST", help="comma-separated grammarAllowedTools")
    parser.add_argument("--unknown-text", choices=("preserve", "strip"), default=None,
                        help="what to do with leaked calls to unknown tools")
    parser.add_argument("--stop-reason", default="stop", metavar="REASON", help="the message's stop reason (default: stop)")
    parser.add_argument("--profile", choices=("pi-repair-layer", "strict"), default="pi-repair-layer",
                        help="pi-repair-layer reproduces 0.4.3 with its quirks (default); strict fixes them")
    parser.add_argument("--json", action="store_true", help="print the full decision record as JSON")
    parser.epilog = "Exit status: 0 scanned (whether or not a call was found), 1 bad input, 2 usage error."


def now_ms() -> int:
    """The clock: ``RULEWRIGHT_NOW_MS`` when set (reproducible ids), else the real time."""
    fixed = os.environ.get("RULEWRIGHT_NOW_MS")
    if fixed:
        try:
            return int(float(fixed))
        except ValueError:
            pass
    return int(time.time() * 1000)


def _split(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [t.strip() for t in value.split(",") if t.strip()]


def _strict(request_or_profile: Any) -> bool:
    from engine.grammar import is_strict

    profile = request_or_profile.get("profile", "pi-repair-layer") if isinstance(request_or_profile, dict) \
        else request_or_profile
    return is_strict(profile or "pi-repair-layer")


# request key -> what it accepts. Only the request's own switches are checked: every scenario field
# is read the way the reference reads it, whatever its type (engine.grammar.request).
_REQUEST_FIELDS = {"api": ((str, type(None)), "a string"), "profile": ((str,), "a string")}


def _finite(record: dict[str, Any]) -> dict[str, Any]:
    from engine.grammar.jsjson import finite_or_null

    finite: dict[str, Any] = finite_or_null(record)  # (a record stays a record)
    return finite


def handle_request(request: dict[str, Any]) -> dict[str, Any]:
    from engine.cli.common import request_problem
    from engine.grammar import (
        HookState,
        message_end,
        migrate,
        model_leaks_grammar,
        parse_tool_grammar_leaks,
        recover_grammar_leaks,
    )
    from engine.grammar.request import api_message as request_api_message
    from engine.grammar.request import grammar_list, model_id_of, require_known, scenario, tool_list
    from engine.jsvalues import js_string

    problem = request_problem(request, _REQUEST_FIELDS)
    if problem:
        return {"error": problem}
    strict = _strict(request)
    api = request.get("api")
    text = request.get("text", "")
    if api == "modelLeaksGrammar":
        return {"matches": model_leaks_grammar(model_id_of(request.get("modelId")), strict=strict)}
    if api == "parseToolGrammarLeaks":
        return _finite({"calls": parse_tool_grammar_leaks(text if isinstance(text, str) else "",
                                                          grammar_list(request.get("grammars")), strict=strict)})
    if api == "recoverGrammarLeaks":
        message = request_api_message(request)
        snapshot = copy.deepcopy(message)
        mode = request.get("grammarMode", "strip")
        result = recover_grammar_leaks(
            message,
            mode=mode if isinstance(mode, str) else js_string(mode),
            known_tools=tool_list(request.get("knownTools")),
            grammars=grammar_list(request.get("grammars")),
            require_known_tool=require_known(request.get("requireKnownTool")),
            unknown_tool_text="strip" if request.get("unknownToolText") == "strip" else "preserve",
            now_ms=now_ms(),
            strict=strict,
        )
        return _finite({**result.to_dict(), "inputMutated": message != snapshot})
    if api is not None:
        raise ValueError(f"unknown api {api!r}")

    scene = scenario(request)
    state = HookState(migrate(scene.stored_settings), scene.model_id, scene.active_tools, now_ms(), strict)
    return _finite(message_end(scene.message, state))


def run(args: argparse.Namespace) -> int:
    from engine.cli.common import dumps_json, printable, read_input
    from engine.grammar import HookState, message_end, migrate

    text, _shown, status = read_input(args.file, "grammar")
    if text is None:
        return status
    stored: dict[str, Any] = {}
    if args.policy:
        stored["policyProfile"] = args.policy
    if args.mode:
        stored["grammarRecovery"] = args.mode
    if args.unknown_text:
        stored["unknownGrammarText"] = args.unknown_text
    if args.allowed_tools is not None:
        stored["grammarAllowedTools"] = _split(args.allowed_tools)
    tools = _split(args.tools)
    state = HookState(migrate(stored), args.model_id, list(PI_BUILTIN_TOOLS) if tools is None else tools,
                      now_ms(), args.profile == "strict")
    message = {"role": "assistant", "content": [{"type": "text", "text": text}], "stopReason": args.stop_reason}
    record = _finite(message_end(message, state))
    if args.json:
        print(dumps_json(record, indent=2))
    else:
        print(printable(_summary(record, args.file, args.profile)))
    return status


def _summary(record: dict[str, Any], path: str, profile: str) -> str:
    where = "<stdin>" if path == "-" else path
    s = record["settings"]
    lines = [f"{where}: grammar mode {s['mode']} (policy {s['profile']}, engine profile {profile}), "
             f"model gate {'open' if record['modelGate'] else 'closed'}"]
    if record["skippedBy"]:
        lines.append(f"skipped: {record['skippedBy']}")
    for cand in record["candidates"]:
        what = "dangling marker" if cand["stripOnly"] else f"{cand['name']} {json.dumps(cand['arguments'], ensure_ascii=False)}"
        state = "promoted as " + cand["id"] if cand["promoted"] else ("stripped" if cand["stripped"] else "kept")
        lines.append(f"  [{cand['span'][0]}, {cand['span'][1]}) {cand['grammar']}: {what} — {state} ({cand['reason']})")
    if not record["candidates"]:
        lines.append("no leaked tool-call grammar found")
    if record["reasonsNotPromoted"]:
        lines.append("not promoted: " + ", ".join(record["reasonsNotPromoted"]))
    if record["changed"]:
        lines.append(f"stop reason: {record['stopReason']}")
        lines.append("text after stripping:")
        lines.append("  " + (record["strippedText"] or "").replace("\n", "\n  "))
    for note in record["notes"]:
        lines.append(f"note: {note}")
    for diag in record["diagnostics"]:
        at = f"{where}:{diag['line']}:{diag['column']}" if "line" in diag else where
        lines.append(f"{at}: {diag['level']}: {diag['message']} [{diag.get('code', '')}]")
    return "\n".join(lines)
