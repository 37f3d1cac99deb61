"""``rulewright regex``: run a JavaScript regular expression with V8 semantics.

    rulewright regex PATTERN [--flags F] [--replace R] [FILE|-] [--json]

Without ``--replace`` it lists the matches (UTF-16 index, text, groups) as ``matchAll`` finds
them with ``g`` added; with ``--replace`` it prints ``input.replace(new RegExp(PATTERN, F), R)``.
An invalid pattern prints V8's SyntaxError message and exits 1.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("pattern", nargs="?", metavar="PATTERN", help="the JavaScript pattern source (without slashes)")
    parser.add_argument("input", nargs="?", default="-", metavar="FILE",
                        help="file to search, or - for standard input (the default)")
    parser.add_argument("--flags", "-f", default="", metavar="F", help="JavaScript flags, any of dgimsuvy (g is implied "
                        "when listing matches)")
    parser.add_argument("--replace", "-r", metavar="R", help="replacement template ($1, $<name>, $&, $$ …)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.epilog = ("Lists matches as 'start-end: \"text\"  1=group …' (UTF-16 offsets), or prints the replaced "
                     "text with --replace. Exit status: 0 ran (even with no match), 1 bad pattern, flags or input, "
                     "2 usage error.")
    parser.add_argument("--timeout", type=_seconds, default=None, metavar="S",
                        help="time budget in seconds (default 0.25; 0 = none)")


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value!r}") from None
    if not seconds >= 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 or a positive number of seconds, got {value!r}")
    return seconds


def run(args: argparse.Namespace) -> int:
    from engine.cli.batch import clip
    from engine.cli.common import dumps_json, printable, read_input, usage_error
    from engine.jsregex import JSSyntaxError, JSUnsupportedError, RegexTimeout, compile_js

    if args.pattern is None:
        return usage_error("regex", "the following arguments are required: PATTERN (or use --jsonl)")
    text, _shown, status = read_input(args.input, "regex")
    if text is None:
        return status
    timeout = None if args.timeout is None else (args.timeout or 1e9)
    try:
        rx = compile_js(args.pattern, args.flags, timeout=timeout)
        if args.replace is not None:
            result = rx.replace(text, args.replace)
            if args.json:
                print(dumps_json({"result": result}))
            else:
                sys.stdout.write(printable(result))
            return status
        matches = _all_matches(args.pattern, args.flags, text, timeout)
    except (JSSyntaxError, JSUnsupportedError, RegexTimeout) as exc:
        # the message quotes the pattern: a multi-megabyte one is cut, not echoed whole; a
        # syntax error's column is the character at fault (its UTF-16 offset, 1-based)
        print(f"<pattern>:1:{_offset(exc).get('offset', 0) + 1}: error: {clip(str(exc))}", file=sys.stderr)
        return 1
    if args.json:
        print(dumps_json({"matches": [match_to_json(m) for m in matches]}))
        return status
    for m in matches:
        line = f"{m.index}-{m.end}: {dumps_json(m.match)}"
        if m.groups:
            labels = {index: name for name, index in zip(rx.group_names, _named_indexes(rx))}
            parts = []
            for n, value in enumerate(m.groups, start=1):
                label = f"{n}<{labels[n]}>" if n in labels else str(n)
                parts.append(f"{label}={'undefined' if value is None else dumps_json(value)}")
            line += "  " + " ".join(parts)
        print(line)
    if not matches:
        print("no match", file=sys.stderr)
    return status


def _named_indexes(rx: Any) -> list[int]:
    return [rx.translation.name_index[name] for name in rx.group_names]


def _all_matches(pattern: str, flags: str, text: str, timeout: float | None) -> list[Any]:
    from engine.jsregex import compile_js

    return compile_js(pattern, flags, timeout=timeout).match_all(text)


def match_to_json(m: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "index": m.index,
        "cpIndex": m.cp_index,
        "match": m.match,
        "groups": list(m.groups),
        "named": dict(m.named),
    }
    if m.indices is not None:
        out["indices"] = [None if span is None else list(span) for span in m.indices]
        out["namedIndices"] = {k: None if v is None else list(v) for k, v in m.named_indices.items()}
    return out


def handle_request(request: dict[str, Any]) -> dict[str, Any]:
    """One ``--jsonl`` request: ``{"pattern", "flags", "op", "input", "replacement"?}``."""
    from engine.jsregex import JSSyntaxError, compile_js

    if "pattern" not in request:
        return {"error": 'request needs a "pattern" string'}
    pattern = request["pattern"]
    flags = request.get("flags", "") or ""
    op = request.get("op", "matches")
    text = request.get("input", "") or ""
    if not isinstance(pattern, str) or not isinstance(flags, str) or not isinstance(text, str):
        return {"error": "pattern, flags and input must be strings"}
    if op == "compile":
        try:
            compile_js(pattern, flags)
        except JSSyntaxError as exc:
            return {"ok": False, "error": str(exc), **_offset(exc)}
        return {"ok": True}
    try:
        rx = compile_js(pattern, flags)
    except JSSyntaxError as exc:
        return {"error": str(exc), "syntaxError": True, **_offset(exc)}
    if op == "replace":
        replacement = request.get("replacement", "")
        if not isinstance(replacement, str):
            return {"error": "replacement must be a string"}
        return {"result": rx.replace(text, replacement)}
    if op == "matches":
        response: dict[str, Any] = {"matches": [match_to_json(m) for m in rx.match_all(text)]}
        if not rx.is_global:
            first = compile_js(pattern, flags).exec(text)
            response["exec"] = None if first is None else match_to_json(first)
        return response
    return {"error": f"unknown op {op!r} (expected replace, matches or compile)"}


def _offset(exc: Exception) -> dict[str, int]:
    """``{"offset": n}``: the UTF-16 offset in the pattern of what a syntax error is about."""
    offset = getattr(exc, "offset", None)
    return {} if offset is None else {"offset": offset}
