"""``rulewright validate PATH...``: located diagnostics; exit 0 clean, 1 problems, 2 usage."""

from __future__ import annotations

import argparse
import json
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="files or folders: packs under rules/<lang>/, filter files, .rtk/filters.json|toml, trust.json")
    parser.add_argument("--json", action="store_true", help="print the diagnostics as a JSON array")
    parser.add_argument("--profile", default="omniroute", choices=["omniroute", "strict"],
                        help="omniroute: check as OmniRoute loads the files, quirks included (default); "
                             "strict: check as the strict profile loads them")
    parser.epilog = ("Diagnostics go to stdout as path:line:col: level: message, the summary to stderr. "
                     "Exit status: 0 clean, 1 errors or warnings, 2 usage error.")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.diagnostics import Diagnostic
    from engine.validate import iter_files, validate_paths

    files = list(iter_files(args.paths))
    # a folder with nothing to check is a mistake in a CI gate (a typo, a moved rules/ folder)
    empty = [Diagnostic("no packs or filter files (*.json, *.toml) in this folder", "warning", "io", path, 1, 1)
             for path in args.paths if Path(path).is_dir() and not any(iter_files([path]))]
    diagnostics = empty + validate_paths(args.paths, profile=args.profile)
    if args.json:
        print(json.dumps([d.to_dict() for d in diagnostics], ensure_ascii=False, indent=2))
    else:
        for d in diagnostics:
            print(d.format())
        counts = {level: sum(1 for d in diagnostics if d.level == level) for level in ("error", "warning", "info")}
        print(f"{len(files)} file(s) checked: {counts['error']} error(s), {counts['warning']} warning(s), "
              f"{counts['info']} note(s)", file=sys.stderr)
    return 1 if any(d.level in ("error", "warning") for d in diagnostics) else 0
