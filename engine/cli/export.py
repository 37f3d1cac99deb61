"""``rulewright export FILTER_FILE... -o PATH``: one ``.rtk/filters.json`` (or TOML) from filter files.

Onto an existing file the export merges (same id replaced in place, the others kept byte for
byte) unless ``--replace``; the plan — added, replaced, unchanged, kept, removed — is printed
before anything is written (``--dry-run`` stops there). Filters whose tests fail, or whose test
commands do not select them, are exported only with ``--allow-failing``.

``--install-global`` instead installs the TOML export as OmniRoute's global
``DATA_DIR/rtk/filters.toml`` (private modes, ``.bak`` of a replaced file; ``--overwrite`` needed).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.cli.common import FieldCheck


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("files", nargs="+", metavar="FILTER_FILE", help="filter files (*.json, *.toml) to export")
    parser.add_argument("-o", "--output", metavar="PATH",
                        help="output file, or a folder (filters.json / filters.toml inside it)")
    parser.add_argument("--install-global", action="store_true",
                        help="install as DATA_DIR/rtk/filters.toml (TOML) instead of writing -o")
    parser.add_argument("--data-dir", metavar="DIR", help="DATA_DIR for --install-global (default: $DATA_DIR "
                                                          "or ~/.omniroute)")
    parser.add_argument("--overwrite", action="store_true", help="--install-global: replace an existing file")
    parser.add_argument("--toml", action="store_true", help="write RTK TOML v1 instead of JSON (lossy, warned)")
    parser.add_argument("--with-trust", action="store_true",
                        help="also trust the result (the bytes just written); only for a project's "
                             ".rtk/filters.json or .rtk/filters.toml")
    parser.add_argument("--replace", action="store_true",
                        help="replace an existing output as a whole (default: merge into it; filters with the "
                             "same id are replaced, the others kept)")
    parser.add_argument("--allow-failing", action="store_true",
                        help="export filters whose tests fail or whose test commands do not select them")
    parser.add_argument("--dry-run", action="store_true", help="print what would be added, replaced and removed; "
                                                               "write nothing")
    parser.add_argument("--profile", choices=("omniroute", "strict"), default="omniroute",
                        help="omniroute reproduces the reference and its quirks (default); strict fixes them")
    parser.epilog = ("-o PATH is required unless --install-global. Exit status: 0 written (or --dry-run planned), "
                     "1 problems (a failing filter without --allow-failing, an output that is not a filter file "
                     "without --replace), 2 usage error.")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def _conflict(args: argparse.Namespace) -> str | None:
    """Options that cannot go together, said before anything is written."""
    if args.install_global:
        if args.output:
            return "-o/--output and --install-global are alternatives; give one"
        if args.with_trust:
            return "--with-trust applies to -o (the global filters.toml needs no trust.json)"
        if args.replace or args.dry_run:
            return "--replace and --dry-run apply to -o (--install-global replaces with --overwrite)"
        return None
    if not args.output:
        return "-o/--output is required (where to write: a project's is .rtk/filters.json), or use --install-global"
    for option, given in (("--overwrite", args.overwrite), ("--data-dir", args.data_dir)):
        if given:
            return f"{option} only applies with --install-global"
    suffix = Path(args.output).suffix.lower()
    if args.toml and suffix == ".json":
        return f"--toml writes TOML; name the output *.toml, not {args.output}"
    if not args.toml and suffix == ".toml":
        return f"{args.output} is a .toml name; add --toml to export TOML"
    return None


def _is_path_list(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, str) for item in value)


_REQUEST_FIELDS: dict[str, FieldCheck] = {
    "files": (_is_path_list, "a non-empty array of filter file paths"),
    "output": ((str,), "a path string"),
    "toml": ((bool,), "true or false"),
    "withTrust": ((bool,), "true or false"),
    "installGlobal": ((bool,), "true or false"),
    "dataDir": ((str,), "a folder path string"),
    "overwrite": ((bool,), "true or false"),
    "replace": ((bool,), "true or false"),
    "allowFailing": ((bool,), "true or false"),
    "dryRun": ((bool,), "true or false"),
    "profile": (lambda v: v in ("omniroute", "strict"), '"omniroute" or "strict"'),
}


def handle_request(request: dict[str, Any]) -> dict[str, Any]:
    """``{"files", "output"?, "toml"?, "withTrust"?, "installGlobal"?, "dataDir"?, "overwrite"?,
    "replace"?, "allowFailing"?, "dryRun"?, "profile"?}`` → what ``--json`` prints; a refused export
    answers ``{"error", "diagnostics"}`` (with the ``plan`` when one was made)."""
    import tempfile

    from engine.cli.common import request_problem
    from engine.rtk.export import (
        ExportError,
        InstallError,
        execute_export,
        export_toml,
        install_global_toml,
        plan_export,
    )
    from engine.rtk.sources import default_data_dir
    from engine.rtk.trust import TrustWriteError

    problem = request_problem(request, _REQUEST_FIELDS)
    if problem:
        return {"error": problem}
    if "files" not in request:
        return {"error": 'request needs "files" (an array of filter file paths)'}
    args = argparse.Namespace(files=request["files"], output=request.get("output"),
                              install_global=request.get("installGlobal", False), data_dir=request.get("dataDir"),
                              overwrite=request.get("overwrite", False), toml=request.get("toml", False),
                              with_trust=request.get("withTrust", False), profile=request.get("profile", "omniroute"),
                              replace=request.get("replace", False), dry_run=request.get("dryRun", False))
    allow_failing = request.get("allowFailing", False)
    problem = _conflict(args)
    if problem:
        return {"error": problem.replace("-o/--output", '"output"').replace("--install-global", '"installGlobal"')}
    try:
        if not args.install_global:
            target = Path(args.output)
            if target.exists() and not (target.is_file() or target.is_dir()):
                return {"error": f"{args.output}: not a regular file or folder (a device or pipe)"}
            plan = plan_export(args.files, args.output, toml=args.toml, replace=args.replace, profile=args.profile)
            if args.dry_run:
                return {"dryRun": True, "plan": plan.to_dict(), "diagnostics": [d.to_dict() for d in plan.notes]}
            try:
                return execute_export(plan, with_trust=args.with_trust, allow_failing=allow_failing,
                                      profile=args.profile).to_dict()
            except ExportError as exc:
                return {"error": str(exc), "diagnostics": [d.to_dict() for d in exc.diagnostics],
                        "plan": plan.to_dict()}
        with tempfile.TemporaryDirectory() as scratch:
            exported = export_toml(args.files, Path(scratch) / "filters.toml", profile=args.profile,
                                   allow_failing=allow_failing)
            content = Path(exported.path).read_text(encoding="utf-8")
        data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
        return install_global_toml(content, data_dir, overwrite=args.overwrite, profile=args.profile).to_dict()
    except ExportError as exc:
        return {"error": str(exc), "diagnostics": [d.to_dict() for d in exc.diagnostics]}
    except (InstallError, TrustWriteError) as exc:
        return {"error": str(exc)}


def run(args: argparse.Namespace) -> int:
    import json

    from engine.rtk.export import ExportError, execute_export, plan_export
    from engine.rtk.trust import TrustWriteError

    problem = _conflict(args)
    if problem:
        print(f"rulewright export: error: {problem}", file=sys.stderr)
        return 2
    if args.install_global:
        return _install(args)
    target = Path(args.output)
    if target.exists() and not (target.is_file() or target.is_dir()):
        # the write is atomic (a temp file then os.replace), which would swap a device or pipe for a file
        print(f"{args.output}:1:1: error: not a regular file or folder (a device or pipe); "
              "write to a file instead", file=sys.stderr)
        return 1
    if args.output.endswith(("/", os.sep)):
        # "-o build/" means a folder even before it exists (it used to become a file named "build")
        Path(args.output).mkdir(parents=True, exist_ok=True)
    try:
        plan = plan_export(args.files, args.output, toml=args.toml, replace=args.replace, profile=args.profile)
        if not args.json:
            print("\n".join(plan.lines()))
        if args.dry_run:
            if args.json:
                print(json.dumps({"dryRun": True, "plan": plan.to_dict(),
                                  "diagnostics": [d.to_dict() for d in plan.notes]}, indent=2, ensure_ascii=False))
            else:  # a dry run must say what the write would cost (e.g. a TOML file rewritten whole)
                for d in plan.notes:
                    print(d.format(), file=sys.stderr)
            return 1 if plan.failing and not args.allow_failing else 0
        result = execute_export(plan, with_trust=args.with_trust, allow_failing=args.allow_failing,
                                profile=args.profile)
    except ExportError as exc:
        for d in exc.diagnostics:
            print(d.format(), file=sys.stderr)
        print(f"rulewright export: error: {exc}", file=sys.stderr)
        return 1
    except TrustWriteError as exc:
        print(f"rulewright export: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        # the atomic write fails on its temporary file; name the output the user asked for
        reason = ("a folder on the way is a file" if isinstance(exc, (FileExistsError, NotADirectoryError))
                  else exc.strerror or str(exc))
        print(f"{args.output}:1:1: error: cannot write: {reason}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        for d in result.diagnostics:
            print(d.format(), file=sys.stderr)
        held = result.plan.file_count if result.plan is not None else len(result.filter_ids)
        print(f"wrote {result.path}: {len(result.filter_ids)} filter(s) exported, {held} in the file")
        if result.test_outcomes:
            passed = sum(1 for o in result.test_outcomes if o.passed)
            print(f"inline tests after export: {passed}/{len(result.test_outcomes)} pass (OmniRoute semantics)")
        if result.semantics:
            rtk_passed = sum(1 for c in result.semantics if c.rtk_passed)
            print(f"inline tests after export: {rtk_passed}/{len(result.semantics)} pass (rtk v0.38 semantics, "
                  "approximate regex dialect)")
        if result.trust is not None:
            for key, digest in result.trust.entries.items():
                print(f"trusted in {result.trust.trust_path}: {key} = {digest}")
    errors = [d for d in result.diagnostics if d.level == "error"]
    return 1 if errors else 0


def _install(args: argparse.Namespace) -> int:
    import json
    import tempfile
    from pathlib import Path

    from engine.rtk.export import ExportError, InstallError, export_toml, install_global_toml
    from engine.rtk.sources import default_data_dir

    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    with tempfile.TemporaryDirectory() as scratch:
        try:
            exported = export_toml(args.files, Path(scratch) / "filters.toml", profile=args.profile,
                                   allow_failing=args.allow_failing)
        except ExportError as exc:
            for d in exc.diagnostics:
                print(d.format(), file=sys.stderr)
            print(f"rulewright export: error: {exc}", file=sys.stderr)
            return 1
        content = Path(exported.path).read_text(encoding="utf-8")
    for d in exported.diagnostics:
        print(d.format(), file=sys.stderr)
    try:
        result = install_global_toml(content, data_dir, overwrite=args.overwrite, profile=args.profile)
    except InstallError as exc:
        print(f"{data_dir / 'rtk' / 'filters.toml'}:1:1: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        reason = ("a folder on the way is a file" if isinstance(exc, (FileExistsError, NotADirectoryError))
                  else exc.strerror or str(exc))
        print(f"{data_dir / 'rtk' / 'filters.toml'}:1:1: error: cannot install: {reason}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(f"installed {result.absolute_path} ({len(result.parse.filters)} filter(s))"
              + (", previous file kept as filters.toml.bak" if result.backup_created else ""))
    return 0
