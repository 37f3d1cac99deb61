"""``rulewright export FILTER_FILE... -o PATH``: one ``.rtk/filters.json`` (or TOML) from filter files.

``--install-global`` instead installs the TOML export as OmniRoute's global
``DATA_DIR/rtk/filters.toml`` (private modes, ``.bak`` of a replaced file; ``--overwrite`` needed).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


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
                        help="also write trust.json beside the output, from the bytes just written")
    parser.add_argument("--profile", choices=("omniroute", "strict"), default="omniroute",
                        help="omniroute reproduces the reference and its quirks (default); strict fixes them")
    parser.epilog = "-o PATH is required unless --install-global. Exit status: 0 written, 1 problems, 2 usage error."
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def _conflict(args: argparse.Namespace) -> str | None:
    """Options that cannot go together, said before anything is written."""
    if args.install_global:
        if args.output:
            return "-o/--output and --install-global are alternatives; give one"
        if args.with_trust:
            return "--with-trust applies to -o (the global filters.toml needs no trust.json)"
        return None
    if not args.output:
        return "-o/--output is required (or use --install-global)"
    for option, given in (("--overwrite", args.overwrite), ("--data-dir", args.data_dir)):
        if given:
            return f"{option} only applies with --install-global"
    suffix = Path(args.output).suffix.lower()
    if args.toml and suffix == ".json":
        return f"--toml writes TOML; name the output *.toml, not {args.output}"
    if not args.toml and suffix == ".toml":
        return f"{args.output} is a .toml name; add --toml to export TOML"
    return None


def _is_path_list(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, str) for item in value)


_REQUEST_FIELDS = {
    "files": (_is_path_list, "a non-empty array of filter file paths"),
    "output": ((str,), "a path string"),
    "toml": ((bool,), "true or false"),
    "withTrust": ((bool,), "true or false"),
    "installGlobal": ((bool,), "true or false"),
    "dataDir": ((str,), "a folder path string"),
    "overwrite": ((bool,), "true or false"),
    "profile": (lambda v: v in ("omniroute", "strict"), '"omniroute" or "strict"'),
}


def handle_request(request: dict) -> dict:
    """``{"files", "output"?, "toml"?, "withTrust"?, "installGlobal"?, "dataDir"?, "overwrite"?,
    "profile"?}`` → what ``--json`` prints; a refused export answers ``{"error", "diagnostics"}``."""
    import tempfile

    from engine.cli.common import request_problem
    from engine.rtk.export import ExportError, InstallError, export_json, export_toml, install_global_toml
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
                              with_trust=request.get("withTrust", False), profile=request.get("profile", "omniroute"))
    problem = _conflict(args)
    if problem:
        return {"error": problem.replace("-o/--output", '"output"').replace("--install-global", '"installGlobal"')}
    try:
        if not args.install_global:
            target = Path(args.output)
            if target.exists() and not (target.is_file() or target.is_dir()):
                return {"error": f"{args.output}: not a regular file or folder (a device or pipe)"}
            exporter = export_toml if args.toml else export_json
            return exporter(args.files, args.output, with_trust=args.with_trust, profile=args.profile).to_dict()
        with tempfile.TemporaryDirectory() as scratch:
            exported = export_toml(args.files, Path(scratch) / "filters.toml", profile=args.profile)
            content = Path(exported.path).read_text(encoding="utf-8")
        data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
        return install_global_toml(content, data_dir, overwrite=args.overwrite, profile=args.profile).to_dict()
    except ExportError as exc:
        return {"error": str(exc), "diagnostics": [d.to_dict() for d in exc.diagnostics]}
    except (InstallError, TrustWriteError) as exc:
        return {"error": str(exc)}


def run(args: argparse.Namespace) -> int:
    import json

    from engine.rtk.export import ExportError, export_json, export_toml
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
    exporter = export_toml if args.toml else export_json
    try:
        result = exporter(args.files, args.output, with_trust=args.with_trust, profile=args.profile)
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
        print(f"wrote {result.path}: {len(result.filter_ids)} filter(s)")
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
            exported = export_toml(args.files, Path(scratch) / "filters.toml", profile=args.profile)
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
