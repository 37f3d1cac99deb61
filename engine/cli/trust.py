"""``rulewright trust [PROJECT_DIR] (--check | --diff | --write) [--lines]``: a project's ``.rtk/trust.json``.

``--check`` reports each project filter file's verdict as OmniRoute would decide it (exit 1
unless every file is trusted). ``--diff`` shows, for a file changed after trust, what changed
filter by filter and how much riskier it is, from the trusted content found in git history or in
Rulewright's snapshots. ``--write`` reads each file once, shows it with its risk summary and a
filter-by-filter comparison with what was trusted before, asks (``--yes`` without a terminal),
and records the hash of exactly the bytes shown — refusing if the file changed meanwhile.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from engine.cli.common import FieldCheck
    from engine.jsvalues import JsonObject
    from engine.rtk.snapshot import FileSnapshot
    from engine.rtk.trust import TrustDecision
    from engine.rtk.trust_diff import ContentComparison
    from engine.rtk.trust_history import TrustedContent


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("project", nargs="?", default=".", metavar="PROJECT_DIR",
                        help="project folder holding .rtk/ (default: the current folder)")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 unless every project filter file is trusted")
    mode.add_argument("--diff", action="store_true",
                      help="what changed since the last trust, filter by filter, with the risk of each change "
                           "(trusted content from git history or Rulewright's snapshots)")
    mode.add_argument("--write", action="store_true",
                      help="show each file, its risk summary and what changed since the last trust, ask, then "
                           "write .rtk/trust.json")
    parser.add_argument("--yes", "-y", action="store_true",
                        help="--write: trust without asking (required when standard input is not a terminal)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--profile", choices=("omniroute", "strict"), default="omniroute",
                        help="strict: case-insensitive hash comparison, legacy key accepted, env override "
                             "only in CI (VT-Q2/Q4/Q11)")
    parser.add_argument("--quiet", action="store_true", help="--write: do not print the files")
    parser.add_argument("--lines", action="store_true",
                        help="--diff, --write: also each changed file's line diff against its trusted version "
                             "(unified; with --json, its 'lineDiff')")
    parser.epilog = ("Exit status: 0 every project filter file is trusted (--check), unchanged since trust "
                     "(--diff) or trust.json was written (--write); 1 otherwise (also when the answer is no); "
                     "2 usage error, or --write without a terminal and without --yes.")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    if args.yes and not args.write:
        print("rulewright trust: error: --yes applies to --write", file=sys.stderr)
        return 2
    if args.lines and not (args.diff or args.write):
        print("rulewright trust: error: --lines applies to --diff and --write", file=sys.stderr)
        return 2
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
    if args.check:
        return _check(project, args)
    return _diff(project, args) if args.diff else _write(project, args)


def _decisions(project: Path, profile: str) -> tuple[list[Path], list[TrustDecision], bool]:
    """(filter files, their trust decisions, every file trusted)."""
    from engine.rtk.trust import decide_trust, project_filter_files

    files = project_filter_files(project)
    decisions = [decide_trust(f, profile=profile) for f in files]
    return files, decisions, bool(decisions) and all(d.trusted for d in decisions)


def _project_problem(project: Path) -> str | None:
    """Why ``project`` cannot be checked or trusted (said before anything is read), or None."""
    if not project.is_dir():
        return "no such folder" if not project.exists() else "not a folder (give the project folder that holds .rtk/)"
    odd = [name for name in ("filters.json", "filters.toml", "trust.json")
           if (project / ".rtk" / name).exists() and not (project / ".rtk" / name).is_file()]
    if odd:  # reading a pipe standing as one of these files would block for ever
        return f".rtk/{odd[0]}: not a regular file (a folder, device or pipe)"
    return None


_REQUEST_FIELDS: dict[str, FieldCheck] = {
    "project": ((str,), "a folder path string"),
    "mode": (lambda v: v == "check", '"check" (writing trust asks first: use `rulewright trust --write`)'),
    "profile": (lambda v: v in ("omniroute", "strict"), '"omniroute" or "strict"'),
}


def handle_request(request: dict[str, Any]) -> JsonObject:
    """``{"project", "mode"?: "check", "profile"?}`` → what ``--check --json`` prints.

    Only checking: ``--write`` shows the files and asks before trusting, which a batch cannot do.
    """
    from pathlib import Path

    from engine.cli.common import request_problem

    problem = request_problem(request, _REQUEST_FIELDS)
    if problem:
        return {"error": problem}
    if "project" not in request:
        return {"error": 'request needs "project" (the folder that holds .rtk/)'}
    project = Path(request["project"])
    problem = _project_problem(project)
    if problem:
        return {"error": f"{project}: {problem}"}
    _, decisions, ok = _decisions(project, request.get("profile", "omniroute"))
    return {"project": str(project), "trusted": ok, "files": [d.to_dict() for d in decisions]}


def _check(project: Path, args: argparse.Namespace) -> int:
    import json

    files, decisions, ok = _decisions(project, args.profile)
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
        for note in d.diagnostics:  # (with the file and the place in it, where known)
            print("  " + (note.format() if note.line is not None else f"{note.level}: {note.message} [{note.code}]"))
        if d.verdict == "changed":
            print(f"  see what changed: rulewright trust {project} --diff")
    return 0 if ok else 1


def _snapshots(project: Path) -> tuple[list[FileSnapshot] | None, int]:
    """One read of each project filter file, or (None, exit code) after saying why."""
    from engine.rtk.trust import TrustWriteError, project_filter_files, snapshot_files

    files = project_filter_files(project)
    if not files:
        print(f"{project / '.rtk'}:1:1: error: no filters.json or filters.toml to trust", file=sys.stderr)
        return None, 1
    try:
        return snapshot_files(files), 0
    except TrustWriteError as exc:
        print(f"rulewright trust: error: {exc}", file=sys.stderr)
        return None, 1


def _diff(project: Path, args: argparse.Namespace) -> int:
    import json

    from engine.rtk.trust_diff import diff_since_trust
    from engine.rtk.trust_history import keep_verified_copy

    snapshots, code = _snapshots(project)
    if snapshots is None:
        return code
    diffs = [diff_since_trust(s, args.profile) for s in snapshots]
    unchanged = all(d.verdict == "trusted" for d in diffs)
    for d, snap in zip(diffs, snapshots):
        keep_verified_copy(snap, d.stored, d.verdict)  # (what the next --diff after an edit compares with)
    lines = [_line_diff(d.found, s) if args.lines else None for d, s in zip(diffs, snapshots)]
    if args.json:
        files = [{**d.to_dict(), **({"lineDiff": diff} if diff is not None else {})} for d, diff in zip(diffs, lines)]
        print(json.dumps({"project": str(project), "unchanged": unchanged, "files": files},
                         indent=2, ensure_ascii=False))
    else:
        for d, diff in zip(diffs, lines):
            print("\n".join(d.format()))
            if diff:
                print(diff)
    return 0 if unchanged else 1


def _line_diff(found: TrustedContent | None, snap: FileSnapshot) -> str | None:
    """The trusted bytes against the bytes now, as a unified diff (None: no trusted version was
    found to set beside them; '' when the texts are equal)."""
    from engine.rtk.verify import unified_diff

    if found is None:
        return None
    name = snap.path.name
    return unified_diff(found.text, snap.text, (f"{name} (trusted, {found.origin} {found.detail})", f"{name} (now)"))


def _previous(snap: FileSnapshot, profile: str) -> tuple[str, ContentComparison | None, TrustedContent | None]:
    """(what the last trust covered, in words; the comparison with it or None; the trusted
    content found, or None)."""
    from engine.rtk.trust import decide_trust
    from engine.rtk.trust_diff import compare_contents, untrusted_head
    from engine.rtk.trust_history import find_trusted_content

    decision = decide_trust(snap.path, data=snap.data, profile=profile, environ={})
    if decision.verdict == "trusted":
        return "unchanged since the last trust", None, None
    if decision.verdict == "changed" and decision.stored:
        found = find_trusted_content(snap.path, decision.stored)
        if found is not None:
            return (f"changed since the last trust (trusted content from {found.origin}: {found.detail})",
                    compare_contents(snap.path, found.data, snap.data, profile), found)
        return ("changed since the last trust; the trusted content was not found (git history, snapshots), so "
                "every filter is compared with nothing", compare_contents(snap.path, None, snap.data, profile), None)
    return untrusted_head(decision.reason), compare_contents(snap.path, None, snap.data, profile), None


def _ask(question: str) -> bool | None:
    """y/N on the terminal; None when there is no terminal to ask on."""
    from engine.cli.common import _is_terminal

    if not _is_terminal(sys.stdin):
        return None
    print(question + " [y/N] ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline()
    return answer.strip().lower() in ("y", "yes")


def _write(project: Path, args: argparse.Namespace) -> int:
    import json

    from engine.rtk.risk import risk_summary
    from engine.rtk.sources import read_filter_file
    from engine.rtk.test_status import test_problems, tests_lines
    from engine.rtk.trust import TrustWriteError, trust_entries, write_trust

    snapshots, code = _snapshots(project)
    if snapshots is None:
        return code
    reviews = []
    for snap in snapshots:
        read = read_filter_file(snap.path, profile=args.profile, data=snap.data)
        summary = risk_summary(read.text, read.filters, is_toml=read.format == "rtk-toml-v1")
        previous, comparison, found = _previous(snap, args.profile)
        tested, problems = sum(1 for f in read.filters if f.tests), test_problems(read.filters)
        line_diff = _line_diff(found, snap) if args.lines else None
        reviews.append((snap, read, summary, previous, comparison, tested, problems, line_diff))
        if args.json:
            continue
        rel = f".rtk/{snap.path.name}"
        if not args.quiet:
            print(f"=== {rel} ===")
            print(read.text, end="" if read.text.endswith("\n") else "\n")
            print("=========================")
        for d in read.diagnostics:
            print(d.format(), file=sys.stderr)
        print(summary.format())
        print(f"Compared with the last trust: {previous}")
        if comparison is not None:
            print("\n".join(comparison.format()))
        if line_diff:
            print(line_diff)
        print("Inline tests: " + "\n".join(tests_lines(f".rtk/{snap.path.name}", tested, problems)))
        print()
    names = ", ".join(f".rtk/{s.path.name} (sha256:{s.sha256[:16]})" for s in snapshots)
    try:
        trust_entries(snapshots)  # refuse content that cannot be trusted before asking about it
    except TrustWriteError as exc:
        print(f"rulewright trust: error: {exc}", file=sys.stderr)
        return 1
    if not args.yes:
        answer = _ask(f"Trust {names} exactly as shown?")
        if answer is None:
            print("rulewright trust: error: --write asks before trusting, and standard input is not a terminal; "
                  "review the output, then run again with --yes (nothing was written)", file=sys.stderr)
            return 2
        if not answer:
            print("not trusted: nothing was written", file=sys.stderr)
            return 1
    try:
        result = write_trust(project, snapshots=snapshots)
    except TrustWriteError as exc:
        print(f"rulewright trust: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        target = exc.filename2 if isinstance(exc.filename2, str) else project / ".rtk" / "trust.json"
        print(f"{target}:1:1: error: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"trust": result.to_dict(),
                          "reviews": [{"file": str(s.path), "sha256": s.sha256, "risk": summary.to_dict(),
                                       "previous": previous,
                                       "comparison": comparison.to_dict() if comparison is not None else None,
                                       "errors": [d.to_dict() for d in r.diagnostics if d.level == "error"],
                                       "tests": {"tested": tested, "problems": problems},
                                       **({"lineDiff": line_diff} if line_diff is not None else {})}
                                      for s, r, summary, previous, comparison, tested, problems, line_diff
                                      in reviews]},
                         indent=2, ensure_ascii=False))
        return 0
    for d in result.diagnostics:
        print(d.format(), file=sys.stderr)
    for key, digest in result.entries.items():
        name = "filters.toml" if key == "filtersTomlSha256" else "filters.json"
        print(f"Trusted .rtk/{name} (sha256:{digest[:16]})")
    if result.removed:
        print(f"removed stale {', '.join(result.removed)} from trust.json")
    invalid = [r for _, r, *_ in reviews if not r.ok]
    if invalid:
        print("rulewright trust: warning: some trusted files do not load (see the errors above); OmniRoute will skip them",
              file=sys.stderr)
    print("Project-local filters will now be applied.")
    return 0
