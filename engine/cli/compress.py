"""``rulewright compress``: Caveman-compress prose or a chat body, as OmniRoute would.

Default rules: the bundled ``rules/`` folder beside the ``engine`` package (it may hold no packs
yet; then only the diagnostics say what OmniRoute would have done). ``--jsonl`` follows the
batch contract of ``conformance/README.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from engine import memo

if TYPE_CHECKING:
    from engine.caveman.compress import Compressor, CompressResult
    from engine.caveman.packs import PackSource, Rule

INTENSITIES = ("lite", "full", "ultra")
BAR_DELAY = 0.5  # seconds a run goes before its progress bar is drawn (a quick run draws none)
PROFILES = ("omniroute", "strict")


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("file", nargs="?", default="-", metavar="FILE",
                        help="text to compress, or - for standard input (the default)")
    parser.add_argument("--rules", metavar="DIR", help="rule packs laid out <language>/<category>.json "
                        "(default: the bundled rules/ folder)")
    parser.add_argument("--fallback-rules", metavar="FILE",
                        help="OmniRoute's built-in English list as data, used where it falls back (CAV-Q3)")
    parser.add_argument("--language", default=None, help="pack language (default: en)")
    parser.add_argument("--auto-detect", action="store_true", help="detect the language of each part")
    parser.add_argument("--intensity", choices=INTENSITIES, default="full",
                        help="which rules run: lite, full (default) or ultra")
    parser.add_argument("--role", choices=("user", "assistant", "system", "tool"), default="user",
                        help="role of the message (plain text input)")
    parser.add_argument("--profile", choices=PROFILES, default="omniroute",
                        help="omniroute reproduces the reference and its quirks (default); strict fixes them")
    parser.add_argument("--min-length", type=_length, default=50, metavar="N",
                        help="skip texts shorter than N UTF-16 units (OmniRoute's default: 50)")
    parser.add_argument("--skip-rule", action="append", default=[], metavar="NAME", help="do not run this rule")
    parser.add_argument("--messages", "--body", dest="messages", action="store_true",
                        help="input and output are a whole request body: chat {\"messages\"}, OpenAI Responses "
                        "{\"input\"} or Kiro {\"conversationState\"}, adapted as OmniRoute does (compressRoles = --role)")
    parser.add_argument("--json", action="store_true", help="print the result object instead of the text")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar (one is drawn on a terminal when a run takes over half a second)")
    parser.epilog = ("The compressed text goes to stdout, diagnostics to stderr. "
                     "Exit status: 0 done, 1 bad input or rules, 2 usage error.")


def _advance(bar: Any, fraction: float, stage: str) -> None:
    """The bar at ``fraction`` of the input (the run's progress is by characters of the body)."""
    bar.update(max(0, round(fraction * bar.total) - bar.n))
    bar.set_postfix_str(stage, refresh=False)


def _length(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not 0 <= number < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number ≥ 0, got {value!r}")
    return number


# ---------------------------------------------------------------- shared by run and handle_request

@memo.lru(maxsize=None)
def _dir_source(path: str) -> PackSource:
    from engine.caveman.packs import PackSource

    return PackSource.from_dir(path)


@memo.lru(maxsize=None)
def _fallback(path: str) -> list[Rule]:
    from engine.caveman.packs import load_fallback_rules

    return load_fallback_rules(path)


def default_rules_dir() -> str:
    from engine.paths import builtin_rules_dir

    return str(builtin_rules_dir())


def _response(result: CompressResult, *, messages_mode: bool) -> dict[str, Any]:
    stats = result.stats
    out: dict[str, Any] = {}
    if messages_mode:
        out["messages"] = result.body.get("messages") if isinstance(result.body, dict) else None
    else:
        out["text"] = result.body["messages"][0]["content"]
    out.update({
        "rulesApplied": stats.get("rulesApplied", []),
        "fallbackApplied": bool(stats.get("fallbackApplied", False)),
        "preservedBlockCount": stats.get("preservedBlockCount", 0),
        "originalTokens": stats["originalTokens"],
        "compressedTokens": stats["compressedTokens"],
        "savingsPercent": stats["savingsPercent"],
        "validationErrors": stats.get("validationErrors", []),
        "validationWarnings": stats.get("validationWarnings", []),
        "compressed": result.compressed,
        "diagnostics": [d.to_dict() for d in result.diagnostics],
    })
    return out


def _config(language: str | None, intensity: str, role: str, min_length: float,
            overrides: Mapping[str, Any] | None = None, skip: Iterable[str] = ()) -> dict[str, Any]:
    config: dict[str, Any] = {"enabled": True, "compressRoles": [role], "minMessageLength": min_length,
                              "autoDetectLanguage": False, "intensity": intensity}
    if language is not None:
        config["language"] = language
    if skip:
        config["skipRules"] = list(skip)
    config.update(overrides or {})
    return config


# request key -> (accepted JSON types, how to say it); a wrong type is answered, never a crash
_REQUEST_FIELDS: dict[str, tuple[tuple[type, ...], str]] = {
    "text": ((str,), "a string"),
    "messages": ((list,), "an array"),
    "body": ((dict, list, str, int, float, bool, type(None)), "a request body"),
    "packs": ((list, dict), "an array or an object"),
    "rules": ((str,), "a folder path string"),
    "fallbackRules": ((str,), "a file path string"),
    "config": ((dict,), "an object"),
    "language": ((str, type(None)), "a string"),
    "intensity": ((str,), "a string"),
    "role": ((str,), "a string"),
    "minLength": ((int, float), "a number"),
    "profile": ((str,), "a string"),
}


def handle_request(request: dict[str, Any]) -> dict[str, Any]:
    from engine.caveman.compress import Compressor
    from engine.caveman.packs import PackSource
    from engine.cli.common import request_problem

    problem = request_problem(request, _REQUEST_FIELDS)
    if problem:
        return {"error": problem}
    role = request.get("role", "user")
    config = _config(request.get("language"), request.get("intensity", "full"), role,
                     request.get("minLength", 50), request.get("config"))
    if "packs" in request:
        source = PackSource.from_packs(request["packs"])
    else:
        source = _dir_source(request.get("rules") or default_rules_dir())
    fallback = _fallback(request["fallbackRules"]) if request.get("fallbackRules") else None
    profile = request.get("profile", "omniroute")
    if profile not in PROFILES:
        return {"error": f"unknown profile {json.dumps(profile)} (expected one of {', '.join(PROFILES)})"}
    compressor = Compressor(source, config, profile=profile, fallback_rules=fallback)
    if "body" in request:
        return compress_request_body(compressor, request["body"], profile)
    if "messages" in request:
        body = {"messages": request["messages"]}
        return _response(compressor.compress_body(body), messages_mode=True)
    text = request.get("text")
    if not isinstance(text, str):
        return {"error": 'request needs "text" (a string) or "messages" (an array)'}
    return _response(compressor.compress_body({"messages": [{"role": role, "content": text}]}),
                     messages_mode=False)


def compress_request_body(compressor: Compressor, body: Any, profile: str) -> dict[str, Any]:
    """A whole request body through the shared adapter (chat, Responses ``input``, Kiro), as
    OmniRoute's Caveman step runs it (``caveman.md`` §2.3)."""
    from engine.bodies import adapt_body

    adapted = adapt_body(body, profile=profile)
    result = compressor.compress_body(adapted.body)
    response = _response(result, messages_mode=True)
    del response["messages"]
    response["body"] = adapted.restore(result.body) if adapted.adapted else result.body
    response["diagnostics"] = [d.to_dict() for d in adapted.diagnostics] + response["diagnostics"]
    return response


# ---------------------------------------------------------------- the command

def _load_fallback(path: str) -> tuple[list[Rule] | None, str | None]:
    """The ``--fallback-rules`` file, or why it cannot be used as ``path:line:col: error: ...``."""
    from engine.caveman.packs import load_fallback_rules

    try:
        return load_fallback_rules(path), None
    except OSError as exc:
        return None, f"{path}:1:1: error: cannot read fallback rules: {exc.strerror or exc}"
    except UnicodeDecodeError as exc:
        return None, f"{path}:1:1: error: fallback rules are not UTF-8 text: {exc.reason}"
    except json.JSONDecodeError as exc:
        return None, f"{path}:{exc.lineno}:{exc.colno}: error: fallback rules are not JSON: {exc.msg}"
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        detail = f"missing key {exc}" if isinstance(exc, KeyError) else str(exc)
        return None, (f"{path}:1:1: error: fallback rules must be a list (or {{\"rules\": [...]}}) of "
                      f"objects with name and pattern: {detail}")


def _unknown_rule_names(names: list[str], source: PackSource, fallback: list[Rule] | None) -> list[str]:
    """``--skip-rule`` names that match no rule of any loadable pack (a typo skips nothing)."""
    from engine.caveman.packs import PackError

    if not names:
        return []
    known = {rule.name for rule in fallback or []}
    for language in source.languages():
        try:
            known.update(rule.name for rule in source.rules_for(language))
        except PackError:
            continue
    return [name for name in names if name not in known]


def _below_min_length(body: object, role: str, min_length: float) -> list[dict[str, float]]:
    """Messages Caveman left alone only because they are shorter than ``minMessageLength``."""
    from engine.caveman.compress import content_string
    from engine.jsvalues import utf16_len

    out: list[dict[str, float]] = []
    messages = body.get("messages") if isinstance(body, dict) else None
    for n, msg in enumerate(messages if isinstance(messages, list) else []):
        content = msg.get("content") if isinstance(msg, dict) else None
        if not isinstance(content, str | list) or msg.get("role") != role:
            continue
        length = utf16_len(content_string(content))
        if 0 < length < min_length:
            out.append({"message": n, "length": length, "minLength": min_length})
    return out


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.caveman.compress import Compressor
    from engine.caveman.packs import PackError, PackSource
    from engine.cli.common import dumps_json, printable, read_input, terminal_bar

    text, shown, status = read_input(args.file, "compress")
    if text is None:
        return status
    rules_dir = args.rules or default_rules_dir()
    if args.rules and not Path(args.rules).is_dir():
        reason = "no such folder" if not Path(args.rules).exists() else "not a folder"
        print(f"{args.rules}:1:1: error: --rules: {reason} (expected <language>/<category>.json packs)",
              file=sys.stderr)
        return 1
    source = PackSource.from_dir(rules_dir)
    fallback = None
    if args.fallback_rules:
        fallback, problem = _load_fallback(args.fallback_rules)
        if problem:
            print(problem, file=sys.stderr)
            return 1
    config = _config(args.language, args.intensity, args.role, args.min_length, skip=args.skip_rule)
    if args.auto_detect:
        config["autoDetectLanguage"] = True
    if args.messages:
        try:
            body = json.loads(text)
        except json.JSONDecodeError as exc:
            print(f"{shown}:{exc.lineno}:{exc.colno}: error: not a JSON request body: {exc.msg}", file=sys.stderr)
            return 1
        if isinstance(body, list):
            body = {"messages": body}
        if not isinstance(body, dict):
            print(f"{shown}:1:1: error: a request body is an object (\"messages\", \"input\" or \"conversationState\")", file=sys.stderr)
            return 1
    else:
        body = {"messages": [{"role": args.role, "content": text}]}
    from engine.bodies import adapt_body

    adapted = adapt_body(body, profile=args.profile) if args.messages else None
    bar = None if args.quiet else terminal_bar(len(text), "compress", unit="char", delay=BAR_DELAY, leave=False)
    try:
        result = Compressor(source, config, profile=args.profile, fallback_rules=fallback,
                            progress=None if bar is None else partial(_advance, bar)).compress_body(
            adapted.body if adapted is not None else body)
    except PackError as exc:
        print(f"{rules_dir}:1:1: error: {exc}", file=sys.stderr)
        return 1
    finally:
        if bar is not None:
            bar.close()
    if not source.files:
        print(f"{rules_dir}:1:1: warning: no rule packs found; nothing was rewritten", file=sys.stderr)
    for name in _unknown_rule_names(args.skip_rule, source, fallback):
        print(f"rulewright compress: warning: --skip-rule {name}: no loaded rule has this name", file=sys.stderr)
    notes = (adapted.diagnostics if adapted is not None else []) + result.diagnostics
    for d in notes:
        print(d.with_location(path=d.path or shown).format(), file=sys.stderr)
    short = _below_min_length(adapted.body if adapted is not None else body, args.role,
                              args.min_length)
    for item in short:
        where = f"message {item['message']}" if args.messages else "the text"
        print(f"{shown}:1:1: note: {where} is {item['length']} UTF-16 units long, below the minimum of "
              f"{item['minLength']:g} (--min-length): left unchanged", file=sys.stderr)
    out_body = adapted.restore(result.body) if adapted is not None and adapted.adapted else result.body
    if args.json:
        response = _response(result, messages_mode=args.messages)
        response["belowMinLength"] = short
        if adapted is not None and adapted.adapted:
            del response["messages"]
            response["body"] = out_body
        sys.stdout.write(dumps_json(response, indent=2) + "\n")
    elif args.messages:
        sys.stdout.write(dumps_json(out_body, indent=2) + "\n")
    else:
        out = printable(result.body["messages"][0]["content"])
        sys.stdout.write(out if out.endswith("\n") else out + "\n")
    return status
