"""``rulewright trust [PROJECT_DIR] (--check | --write)``: a project's ``.rtk/trust.json``.

``--check`` reports each project filter file's verdict as OmniRoute would decide it (exit 1
unless every file is trusted); ``--write`` shows each file and its risk summary, then records the
hashes of the bytes on disk.
"""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("project", nargs="?", default=".", metavar="PROJECT_DIR",
                        help="project folder holding .rtk/ (default: the current folder)")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 unless every project filter file is trusted")
    mode.add_argument("--write", action="store_true", help="review, then write .rtk/trust.json")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--profile", choices=("omniroute", "strict"), default="omniroute",
                        help="strict: case-insensitive hash comparison, legacy key accepted, env override "
                             "only in CI (VT-Q2/Q4/Q11)")
    parser.add_argument("--quiet", action="store_true", help="--write: do not print the files")
    parser.epilog = ("Exit status: 0 every project filter file is trusted (--check) or trust.json was written "
                     "(--write), 1 otherwise, 2 usage error.")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    project = Path(args.project)
    if not project.is_dir():
        reason = "no such folder" if not project.exists() else "not a folder (give the project folder that holds .rtk/)"
        print(f"{project}:1:1: error: {reason}", file=sys.stderr)
        return 1
    # reading a pipe standing as one of these files would block for ever
    odd = [project / ".rtk" / name for name in ("filters.json", "filters.toml", "trust.json")
           if (project / ".rtk" / name).exists() and not (project / ".rtk" / name).is_file()]
    for path in odd:
        print(f"{path}:1:1: error: not a regular file (a folder, device or pipe)", file=sys.stderr)
    if odd:
        return 1
    return _check(project, args) if args.check else _write(project, args)


def _check(project, args) -> int:
    import json

    from engine.rtk.trust import decide_trust, project_filter_files

    files = project_filter_files(project)
    decisions = [decide_trust(f, profile=args.profile) for f in files]
    ok = bool(decisions) and all(d.trusted for d in decisions)
    if args.json:
        print(json.dumps({"project": str(project), "trusted": ok,
                          "files": [d.to_dict() for d in decisions]}, indent=2, ensure_ascii=False))
        return 0 if ok else 1
    if not files:
        print(f"{project / '.rtk'}:1:1: error: no filters.json or filters.toml (nothing to trust)", file=sys.stderr)
        return 1
    for d in decisions:
        detail = f" ({d.reason})" if d.reason not in ("hash-match",) else ""
        print(f"{d.file}: {d.verdict}{detail}" + (f" — {d.message}" if d.message else ""))
        for note in d.diagnostics:
            print(f"  {note.level}: {note.message} [{note.code}]")
    return 0 if ok else 1


def _write(project, args) -> int:
    import json

    from engine.rtk.risk import risk_summary
    from engine.rtk.sources import read_filter_file
    from engine.rtk.trust import TrustWriteError, project_filter_files, write_trust

    files = project_filter_files(project)
    if not files:
        print(f"{project / '.rtk'}:1:1: error: no filters.json or filters.toml to trust", file=sys.stderr)
        return 1
    reviews = []
    for file in files:
        read = read_filter_file(file, profile=args.profile)
        summary = risk_summary(read.text, read.filters, is_toml=read.format == "rtk-toml-v1")
        reviews.append((file, read, summary))
        if args.json:
            continue
        rel = f".rtk/{file.name}"
        if not args.quiet:
            print(f"=== {rel} ===")
            print(read.text, end="" if read.text.endswith("\n") else "\n")
            print("=========================")
        for d in read.diagnostics:
            print(d.format(), file=sys.stderr)
        print(summary.format())
        print()
    try:
        result = write_trust(project, files)
    except TrustWriteError as exc:
        print(f"rulewright trust: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        target = exc.filename2 if isinstance(exc.filename2, str) else project / ".rtk" / "trust.json"
        print(f"{target}:1:1: error: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"trust": result.to_dict(),
                          "reviews": [{"file": str(f), "risk": s.to_dict(),
                                       "errors": [d.to_dict() for d in r.diagnostics if d.level == "error"]}
                                      for f, r, s in reviews]}, indent=2, ensure_ascii=False))
        return 0
    for d in result.diagnostics:
        print(d.format(), file=sys.stderr)
    for key, digest in result.entries.items():
        name = "filters.toml" if key == "filtersTomlSha256" else "filters.json"
        print(f"Trusted .rtk/{name} (sha256:{digest[:16]})")
    if result.removed:
        print(f"removed stale {', '.join(result.removed)} from trust.json")
    invalid = [r for _, r, _ in reviews if not r.ok]
    if invalid:
        print("rulewright trust: warning: some trusted files do not load (see the errors above); OmniRoute will skip them",
              file=sys.stderr)
    print("Project-local filters will now be applied.")
    return 0
