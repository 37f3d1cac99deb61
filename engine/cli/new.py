"""``rulewright new filter|pack``: start a filter or a rule pack from a valid, schema-referenced file.

``new filter [ID] --command CMD`` derives the command pattern from the program and subcommand
(``engine.rtk.scaffold``), and the id too when it is not given (``kubectl get pods`` →
``kubectl-get``, as the IDE's New Filter suggests); ``--sample FILE`` adds a test from a real output. ``new pack LANG
CATEGORY`` writes an empty pack. Nothing existing is ever overwritten.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = ("Exit status: 0 written, 1 problems (the file exists, the sample cannot be read), "
                     "2 usage error.")
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True, help="filter or pack")
    flt = kinds.add_parser("filter", help="a new RTK filter for a command",
                           description="A new RTK filter: the command pattern comes from the program and its "
                                       "subcommand; every rule starts empty.",
                           epilog=parser.epilog)
    flt.add_argument("id", metavar="ID", nargs="?",
                     help="filter id (letters, digits, '-', '_', '.'); default: the program and subcommand of "
                          "--command, e.g. kubectl-get")
    flt.add_argument("--command", dest="cmd", required=True, metavar="CMD",
                     help="a command line whose output the filter is for, e.g. 'cargo clippy --all-targets'")
    flt.add_argument("--sample", metavar="FILE",
                     help="a real output of the command ('-' for standard input); becomes the filter's first test")
    flt.add_argument("-o", "--output", metavar="FILE",
                     help="where to write (default: filters/ID.json under the current folder; '-' prints it)")
    flt.add_argument("--json", action="store_true", help="print the result (path and filter) as JSON")
    pack = kinds.add_parser("pack", help="a new, empty Caveman rule pack",
                            description="A new Caveman rule pack with no rules yet.", epilog=parser.epilog)
    pack.add_argument("language", metavar="LANG", help="language key, e.g. en, pt-BR")
    pack.add_argument("category", metavar="CATEGORY", help="pack category, e.g. filler (the file name)")
    pack.add_argument("-o", "--output", metavar="DIR",
                      help="the rules folder (default: rules/ under the current folder); "
                           "the pack goes to DIR/LANG/CATEGORY.json ('-' prints it)")
    pack.add_argument("--json", action="store_true", help="print the result (path and pack) as JSON")


def run(args: argparse.Namespace) -> int:
    return _filter(args) if args.kind == "filter" else _pack(args)


def _usage(message: str) -> int:
    print(f"rulewright new: error: {message}", file=sys.stderr)
    return 2


def _filter(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.cli.common import read_input
    from engine.rtk.scaffold import ScaffoldError, command_words, render_filter, scaffold_filter, suggested_id

    ident = args.id if args.id is not None else suggested_id(args.cmd)
    if not ident:
        try:
            command_words(args.cmd)  # (an empty command is said as such)
        except ScaffoldError as exc:
            return _usage(str(exc))
        return _usage(f"no filter id could be made from the command {args.cmd!r}: give one (new filter ID "
                      "--command CMD)")
    sample = None
    if args.sample is not None:
        sample, _, code = read_input(args.sample, "new")
        if sample is None or code:
            return code or 1
    try:
        obj = scaffold_filter(ident, args.cmd, sample)
    except ScaffoldError as exc:
        return _usage(str(exc))
    target = None if args.output == "-" else Path(args.output or Path("filters") / f"{ident}.json")
    return _write(target, render_filter(obj), {"kind": "filter", "filter": obj}, args.json)


def _pack(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.caveman.scaffold import render_pack, scaffold_pack

    try:
        obj = scaffold_pack(args.language, args.category)
    except ValueError as exc:
        return _usage(str(exc))
    target = None if args.output == "-" else Path(args.output or "rules") / args.language / f"{args.category}.json"
    return _write(target, render_pack(obj), {"kind": "pack", "pack": obj}, args.json)


def _write(target: Path | None, text: str, payload: dict[str, Any], as_json: bool) -> int:
    """Create ``target`` (never replace it); None prints the text instead."""
    import json
    import os

    if target is not None:
        if os.path.lexists(target):
            print(f"{target}:1:1: error: already exists; choose another name or -o (nothing was written)",
                  file=sys.stderr)
            return 1
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            # O_EXCL: a file (or symlink) created meanwhile is not followed nor replaced
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
        except OSError as exc:
            reason = ("a folder on the way is a file" if isinstance(exc, (FileExistsError, NotADirectoryError))
                      and not os.path.lexists(target) else exc.strerror or str(exc))
            print(f"{target}:1:1: error: cannot write: {reason}", file=sys.stderr)
            return 1
    if as_json:
        print(json.dumps({"path": None if target is None else str(target), "written": target is not None,
                          **payload}, indent=2, ensure_ascii=False))
    elif target is None:
        sys.stdout.write(text)
    else:
        print(f"wrote {target}")
    return 0
