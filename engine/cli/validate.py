"""``rulewright validate PATH...``: located diagnostics; exit 0 clean, 1 problems, 2 usage."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.cli.common import FieldCheck
    from engine.diagnostics import Diagnostic


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="files or folders: packs under rules/<lang>/, filter files, .rtk/filters.json|toml, trust.json")
    parser.add_argument("--json", action="store_true", help="print the diagnostics as a JSON array")
    parser.add_argument("--profile", default="omniroute", choices=PROFILES,
                        help="omniroute: check as OmniRoute loads the files, quirks included (default); "
                             "strict: check as the strict profile loads them")
    parser.epilog = ("Diagnostics go to stdout as path:line:col: level: message, the summary to stderr. "
                     "Exit status: 0 clean, 1 errors or warnings, 2 usage error.")


PROFILES = ("omniroute", "strict")


def _check(paths: list[str], profile: str) -> tuple[int, list[Diagnostic]]:
    """(files checked, diagnostics) for files and folders, as the command line reports them."""
    from pathlib import Path

    from engine.diagnostics import Diagnostic
    from engine.validate import iter_files, validate_paths

    files = list(iter_files(paths))
    # a folder with nothing to check is a mistake in a CI gate (a typo, a moved rules/ folder)
    empty = [Diagnostic("no packs or filter files (*.json, *.toml) in this folder", "warning", "io", path, 1, 1)
             for path in paths if Path(path).is_dir() and not any(iter_files([path]))]
    return len(files), empty + validate_paths(paths, profile=profile)


def _is_path_list(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, str) for item in value)


_REQUEST_FIELDS: dict[str, FieldCheck] = {
    "path": ((str,), "a path string"),
    "paths": (_is_path_list, "a non-empty array of path strings"),
    "text": ((str,), "a string (the file's content, checked as if it were at \"path\")"),
    "profile": ((str,), "a string"),
}


def handle_request(request: dict[str, Any]) -> dict[str, Any]:
    """``{"path"|"paths", "text"?, "profile"?}`` → the diagnostics and counts of ``--json``.

    ``text`` checks an unsaved buffer as if it were the file at ``path`` (what the IDE does).
    """
    from engine.cli.common import request_problem

    problem = request_problem(request, _REQUEST_FIELDS)
    if problem:
        return {"error": problem}
    profile = request.get("profile", "omniroute")
    if profile not in PROFILES:
        return {"error": f"unknown profile {json.dumps(profile)} (expected one of {', '.join(PROFILES)})"}
    if ("path" in request) == ("paths" in request):
        return {"error": 'request needs exactly one of "path" (a string) or "paths" (an array)'}
    if "text" in request:
        if "path" not in request:
            return {"error": '"text" is checked as the file at "path": give "path", not "paths"'}
        from engine.validate import validate_file

        files, diagnostics = 1, validate_file(request["path"], text=request["text"], profile=profile)
    else:
        files, diagnostics = _check(request.get("paths") or [request["path"]], profile)
    counts = {level: sum(1 for d in diagnostics if d.level == level) for level in ("error", "warning", "info")}
    return {"ok": not (counts["error"] or counts["warning"]), "files": files, "errors": counts["error"],
            "warnings": counts["warning"], "notes": counts["info"], "diagnostics": [d.to_dict() for d in diagnostics]}


def run(args: argparse.Namespace) -> int:
    files, diagnostics = _check(args.paths, args.profile)
    if args.json:
        print(json.dumps([d.to_dict() for d in diagnostics], ensure_ascii=False, indent=2))
    else:
        for d in diagnostics:
            print(d.format())
        counts = {level: sum(1 for d in diagnostics if d.level == level) for level in ("error", "warning", "info")}
        print(f"{files} file(s) checked: {counts['error']} error(s), {counts['warning']} warning(s), "
              f"{counts['info']} note(s)", file=sys.stderr)
    return 1 if any(d.level in ("error", "warning") for d in diagnostics) else 0
