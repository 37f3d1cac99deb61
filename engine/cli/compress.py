"""``rulewright compress``: Caveman-compress prose or a chat body, as OmniRoute would.

Default rules: the bundled ``rules/`` folder beside the ``engine`` package (it may hold no packs
yet; then only the diagnostics say what OmniRoute would have done). ``--jsonl`` follows the
batch contract of ``conformance/README.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import cache
from typing import Any

INTENSITIES = ("lite", "full", "ultra")
PROFILES = ("omniroute", "strict")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-", help="text to compress (default: standard input)")
    parser.add_argument("--rules", metavar="DIR", help="rule packs laid out <language>/<category>.json "
                        "(default: the bundled rules/ folder)")
    parser.add_argument("--fallback-rules", metavar="FILE",
                        help="OmniRoute's built-in English list as data, used where it falls back (CAV-Q3)")
    parser.add_argument("--language", default=None, help="pack language (default: en)")
    parser.add_argument("--auto-detect", action="store_true", help="detect the language of each part")
    parser.add_argument("--intensity", choices=INTENSITIES, default="full")
    parser.add_argument("--role", choices=("user", "assistant", "system"), default="user",
                        help="role of the message (plain text input)")
    parser.add_argument("--profile", choices=PROFILES, default="omniroute")
    parser.add_argument("--min-length", type=float, default=50, metavar="N",
                        help="skip texts shorter than N UTF-16 units (OmniRoute's default: 50)")
    parser.add_argument("--skip-rule", action="append", default=[], metavar="NAME", help="do not run this rule")
    parser.add_argument("--messages", action="store_true",
                        help="input and output are a chat body {\"messages\": [...]} (compressRoles = --role)")
    parser.add_argument("--json", action="store_true", help="print the result object instead of the text")


# ---------------------------------------------------------------- shared by run and handle_request

@cache
def _dir_source(path: str):
    from engine.caveman.packs import PackSource

    return PackSource.from_dir(path)


@cache
def _fallback(path: str):
    from engine.caveman.packs import load_fallback_rules

    return load_fallback_rules(path)


def default_rules_dir() -> str:
    from engine.paths import builtin_rules_dir

    return str(builtin_rules_dir())


def _response(result, *, messages_mode: bool) -> dict[str, Any]:
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


def _config(language, intensity, role, min_length, overrides=None, skip=()) -> dict[str, Any]:
    config: dict[str, Any] = {"enabled": True, "compressRoles": [role], "minMessageLength": min_length,
                              "autoDetectLanguage": False, "intensity": intensity}
    if language is not None:
        config["language"] = language
    if skip:
        config["skipRules"] = list(skip)
    config.update(overrides or {})
    return config


def handle_request(request: dict[str, Any]) -> dict[str, Any]:
    from engine.caveman.compress import Compressor
    from engine.caveman.packs import PackSource

    role = request.get("role", "user")
    config = _config(request.get("language"), request.get("intensity", "full"), role,
                     request.get("minLength", 50), request.get("config"))
    if "packs" in request:
        source = PackSource.from_packs(request["packs"])
    else:
        source = _dir_source(request.get("rules") or default_rules_dir())
    fallback = _fallback(request["fallbackRules"]) if request.get("fallbackRules") else None
    compressor = Compressor(source, config, profile=request.get("profile", "omniroute"), fallback_rules=fallback)
    if "messages" in request:
        body = {"messages": request["messages"]}
        return _response(compressor.compress_body(body), messages_mode=True)
    text = request.get("text")
    if not isinstance(text, str):
        raise ValueError('request needs "text" (a string) or "messages" (an array)')
    return _response(compressor.compress_body({"messages": [{"role": role, "content": text}]}),
                     messages_mode=False)


# ---------------------------------------------------------------- the command

def _read_input(name: str) -> tuple[str | None, str]:
    if name == "-":
        return sys.stdin.read(), "<stdin>"
    from engine.jsondoc import read_text_file

    text, problems = read_text_file(name)
    for d in problems:
        print(d.format(), file=sys.stderr)
    return text, name


def run(args: argparse.Namespace) -> int:
    from engine.caveman.compress import Compressor
    from engine.caveman.packs import PackError, PackSource, load_fallback_rules

    text, shown = _read_input(args.file)
    if text is None:
        return 1
    rules_dir = args.rules or default_rules_dir()
    source = PackSource.from_dir(rules_dir)
    fallback = None
    if args.fallback_rules:
        try:
            fallback = load_fallback_rules(args.fallback_rules)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"{args.fallback_rules}:1:1: error: cannot load fallback rules: {exc}", file=sys.stderr)
            return 1
    config = _config(args.language, args.intensity, args.role, args.min_length, skip=args.skip_rule)
    if args.auto_detect:
        config["autoDetectLanguage"] = True
    if args.messages:
        try:
            body = json.loads(text)
        except json.JSONDecodeError as exc:
            print(f"{shown}:{exc.lineno}:{exc.colno}: error: not a JSON chat body: {exc.msg}", file=sys.stderr)
            return 1
        if isinstance(body, list):
            body = {"messages": body}
        if not isinstance(body, dict):
            print(f"{shown}:1:1: error: a chat body is an object with \"messages\"", file=sys.stderr)
            return 1
    else:
        body = {"messages": [{"role": args.role, "content": text}]}
    try:
        result = Compressor(source, config, profile=args.profile, fallback_rules=fallback).compress_body(body)
    except PackError as exc:
        print(f"{rules_dir}: error: {exc}", file=sys.stderr)
        return 1
    if not source.files:
        print(f"{rules_dir}: warning: no rule packs found; nothing was rewritten", file=sys.stderr)
    for d in result.diagnostics:
        print(d.with_location(path=d.path or shown).format(), file=sys.stderr)
    if args.json:
        response = _response(result, messages_mode=args.messages)
        sys.stdout.write(json.dumps(response, ensure_ascii=False, indent=2) + "\n")
    elif args.messages:
        sys.stdout.write(json.dumps(result.body, ensure_ascii=False, indent=2) + "\n")
    else:
        out = result.body["messages"][0]["content"]
        sys.stdout.write(out if out.endswith("\n") else out + "\n")
    return 0
