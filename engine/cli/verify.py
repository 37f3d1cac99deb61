"""``rulewright verify [PATH...]``: run the inline ``tests[]`` of RTK filter files (the verify gate).

Paths are filter files (``*.json``, ``*.toml``) or folders of them; with none it tests the
built-in library shipped with Rulewright — not the folder you stand in (give ``.`` for that), and
it says so. With ``--project``/``--data-dir`` (and no paths) it runs OmniRoute's gate over every
scope instead: built-ins, global ``DATA_DIR/rtk`` files and the project's trusted ``.rtk`` files,
with the loader's diagnostics. Exit 1 when a test fails, or with ``--require-all`` when a filter
has no tests. ``--accept`` writes the actual output of failing tests (all, one filter's, or one
test) as their expected output, editing only those values in the files, and prints each change.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sized
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from engine.cli.common import FieldCheck
    from engine.diagnostics import Diagnostic
    from engine.jsvalues import JsonObject
    from engine.rtk.model import RtkFilter
    from engine.rtk.toml_io import SemanticsComparison
    from engine.rtk.verify import TestOutcome, VerifyResult


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="filter files or folders (default: the BUILT-IN library shipped with Rulewright, not "
                             "the current folder; give . to test the filters where you stand)")
    parser.add_argument("--filter", metavar="ID", dest="filter_id", help="only this filter's tests")
    parser.add_argument("--test", metavar="N", help="with --filter: only its test number N (1 = first) or named N")
    parser.add_argument("--accept", action="store_true",
                        help="write the actual output of each failing test (of --filter/--test) as its expected "
                             "output, keeping the rest of the file as it is, and print what changed")
    parser.add_argument("--require-all", action="store_true", help="fail when a filter has no tests")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    parser.add_argument("--profile", choices=("omniroute", "strict"), default="omniroute",
                        help="strict: a test whose command selects another filter fails (VT-Q5)")
    parser.add_argument("--no-activation", action="store_true",
                        help="do not check that tests[].command selects the filter")
    parser.add_argument("--rtk", action="store_true",
                        help="TOML files: also run each inline test as rtk v0.38 would and show differences")
    parser.add_argument("--project", metavar="DIR", help="gate over all scopes: this project's .rtk/ filters")
    parser.add_argument("--data-dir", metavar="DIR", help="gate over all scopes: global DATA_DIR/rtk/ filters")
    parser.add_argument("--builtin", metavar="DIR", help="built-in filter folder for the all-scopes gate")
    parser.add_argument("--trust-project", action="store_true",
                        help="all-scopes gate: treat project filters as trusted (trustProjectFilters)")
    parser.epilog = ("Exit status: 0 every test passes, 1 a test fails, a file does not load, or (--require-all) "
                     "a filter has no tests, 2 usage error.")
    parser.add_argument("--engine", action="store_true",
                        help="also run the whole engine on each test input and flag divergences (VT-Q6)")


def _default_paths() -> list[str]:
    from engine.paths import builtin_filters_dir

    return [str(builtin_filters_dir())]


def _workspace_files(paths: list[str]) -> list[Path]:
    """For folders that hold no filter files themselves (``verify .`` at a workspace's root, as
    the hint above suggests): the workspace's filter files in its subfolders (``filters/``,
    ``.rtk/``…), as the IDE's Tests panel runs them. A flat folder of filters keeps the reference's
    one-folder reading."""
    from pathlib import Path

    from engine.workspace.filter_files import filter_files_of

    folders = [Path(p) for p in paths if Path(p).is_dir()]
    if len(folders) != len(paths):
        return []
    return [f for folder in folders for f in filter_files_of(folder)]


def run(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from engine.rtk.sources import filter_files_in
    from engine.rtk.verify import verify_filters

    scopes = bool(args.project or args.data_dir)
    if args.test is not None and not args.filter_id:
        return _usage("--test needs --filter ID (the test's number or name within that filter)")
    if scopes and (args.accept or args.filter_id):
        return _usage("--accept and --filter apply to PATHs, not to the all-scopes gate")
    if scopes and args.paths:
        return _usage("give PATHs, or --project/--data-dir for the all-scopes gate, not both")
    if not scopes and (args.builtin or args.trust_project):
        return _usage("--builtin and --trust-project apply to the all-scopes gate (add --project or --data-dir)")
    if scopes and (args.rtk or args.engine or args.no_activation):
        return _usage("--rtk, --engine and --no-activation apply to PATHs, not to the all-scopes gate")
    # a missing DATA_DIR is normal (no global filters yet); a missing project or built-in folder is a typo
    bad_folders = [(option, value) for option, value in (("--project", args.project),
                                                         ("--data-dir", args.data_dir),
                                                         ("--builtin", args.builtin))
                   if value is not None and not Path(value).is_dir()
                   and (option != "--data-dir" or Path(value).exists())]
    for option, value in bad_folders:
        reason = "no such folder" if not Path(value).exists() else "not a folder"
        print(f"{value}:1:1: error: {option}: {reason}", file=sys.stderr)
    if bad_folders:
        return 1
    if scopes:
        return _run_scopes(args)
    builtin = not args.paths
    paths = args.paths or _default_paths()
    if builtin and not args.json:
        print(f"Testing the built-in filter library ({paths[0]}), not the current folder; "
              "give PATH (e.g. .) to test your own filters.")
    missing = [p for p in paths if not Path(p).exists()]
    for p in missing:
        print(f"{p}:1:1: error: no such file or folder", file=sys.stderr)
    if missing:
        return 1
    files = filter_files_in(paths)
    if not files:
        files = _workspace_files(paths)
        if files and not args.json:
            shown = ", ".join(str(f) for f in files[:8]) + (" …" if len(files) > 8 else "")
            print(f"No filter files directly in {', '.join(paths)}: testing the workspace's ({shown}).")
    if not files:
        print(f"{', '.join(paths)}:1:1: error: no filter files (*.json, *.toml) to verify", file=sys.stderr)
        return 1
    contents = _contents(files)
    filters, problems, comparisons = _read(files, args.profile, args.rtk, contents)
    for d in problems:
        print(d.format(), file=sys.stderr)
    pool = filters
    if args.filter_id:
        filters = [f for f in filters if f.id == args.filter_id]
        if not filters:
            print(f"rulewright verify: error: no filter with id {args.filter_id!r} in {', '.join(paths)}",
                  file=sys.stderr)
            return 1
    result = verify_filters(filters, require_all=args.require_all, profile=args.profile,
                            check_activation=not args.no_activation, check_engine=args.engine, selection_pool=pool)
    if args.test is not None:
        result.outcomes = _chosen_test(result.outcomes, args.test)
        if not result.outcomes:
            print(f"rulewright verify: error: filter {args.filter_id!r} has no test {args.test!r}", file=sys.stderr)
            return 1
        result.passed = all(o.passed for o in result.outcomes)
    if args.accept:
        return _accept(result, contents, args, problems)
    if args.json:
        out = result.to_dict()
        out["passed"] = bool(result.passed and not problems)  # the exit status's verdict
        out["library"] = "builtin" if builtin else "paths"
        out["files"] = [str(f) for f in files]
        out["errors"] = [d.to_dict() for d in problems]
        if args.rtk:
            out["rtkSemantics"] = [{"file": f, **c.to_dict()} for f, c in comparisons]
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        _print_report(result, files)
        if args.rtk:
            _print_semantics(comparisons)
    if problems or not result.passed:
        return 1
    return 0


def _contents(files: list[Path]) -> dict[Path, bytes | None]:
    """One read of each file: the bytes tested are the bytes ``--accept`` edits."""
    from engine.fsutil import read_input_bytes

    out: dict[Path, bytes | None] = {}
    for file in files:
        try:
            out[file] = read_input_bytes(file)
        except OSError:
            out[file] = None  # read_filter_file reports it
    return out


def _chosen_test(outcomes: list[TestOutcome], wanted: str) -> list[TestOutcome]:
    if wanted.isdigit():
        n = int(wanted)
        return [outcomes[n - 1]] if 1 <= n <= len(outcomes) else []
    return [o for o in outcomes if o.test_name == wanted]


def _accept(result: VerifyResult, contents: dict[Path, bytes | None], args: argparse.Namespace,
            problems: list[Diagnostic]) -> int:
    """Write actual as expected for the failing outcomes; print (or --json) each change."""
    import json
    from pathlib import Path

    from engine.fsutil import atomic_write_bytes, read_input_bytes
    from engine.rtk.accept import Accepted, AcceptError, accept_json, accept_toml
    from engine.rtk.verify import unified_diff

    failing = [o for o in result.outcomes if not o.passed]
    by_file: dict[str | None, list[TestOutcome]] = {}
    for o in failing:
        by_file.setdefault(o.path, []).append(o)
    report: list[tuple[str, Accepted]] = []
    code = 1 if problems else 0
    for path, outcomes in by_file.items():
        if path is None:  # (outcomes of the files read here always name their file)
            continue
        file = Path(path)
        data = contents.get(file)
        if data is None:
            continue
        try:
            editor = accept_toml if file.suffix.lower() == ".toml" else accept_json
            text, done = editor(data.decode("utf-8"), outcomes)
            if read_input_bytes(file) != data:
                raise AcceptError("the file changed while the tests ran; run again")
            atomic_write_bytes(file, text.encode("utf-8"))
        except (AcceptError, UnicodeDecodeError, OSError) as exc:
            print(f"{path}:1:1: error: cannot accept: {exc}", file=sys.stderr)
            code = 1
            continue
        report += [(path, a) for a in done]
    if args.json:
        print(json.dumps({"accepted": [{"file": p, **a.to_dict()} for p, a in report],
                          "passedAlready": len(result.outcomes) - len(failing),
                          "errors": [d.to_dict() for d in problems]}, indent=2, ensure_ascii=False))
        return code
    for path, a in report:
        print(f"{path}:{a.line}:{a.column}: accepted the actual output of [{a.filter_id}] {a.test_name} as expected")
        for line in unified_diff(a.before.rstrip("\n"), a.after, ("old expected", "new expected")).splitlines():
            print(f"    {line}")
    if not failing:
        print(f"nothing to accept: {len(result.outcomes)} test(s) already pass")
    else:
        print(f"accepted {len(report)} of {len(failing)} failing test(s)")
    return code


def _read(files: list[Path], profile: str, rtk: bool, contents: dict[Path, bytes | None] | None = None
          ) -> tuple[list[RtkFilter], list[Diagnostic], list[tuple[str, SemanticsComparison]]]:
    """(filters, load errors, rtk-semantics comparisons) of filter files."""
    from engine.rtk.sources import read_filter_file

    filters: list[RtkFilter] = []
    problems: list[Diagnostic] = []
    comparisons: list[tuple[str, SemanticsComparison]] = []
    for file in files:
        read = read_filter_file(file, profile=profile, data=(contents or {}).get(file))
        problems += [d for d in read.diagnostics if d.level == "error"]
        filters += read.filters
        if rtk and read.toml is not None:
            from engine.rtk.toml_io import compare_semantics

            comparisons += [(str(file), c) for c in compare_semantics(read.toml, profile)]
    return filters, problems, comparisons


def _is_path_list(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, str) for item in value)


_REQUEST_FIELDS: dict[str, FieldCheck] = {
    "paths": (_is_path_list, "a non-empty array of path strings"),
    "requireAll": ((bool,), "true or false"),
    "profile": ((str,), "a string"),
    "activation": ((bool,), "true or false"),
    "engine": ((bool,), "true or false"),
    "rtk": ((bool,), "true or false"),
    "project": ((str,), "a folder path string"),
    "dataDir": ((str,), "a folder path string"),
    "builtin": ((str,), "a folder path string"),
    "trustProject": ((bool,), "true or false"),
}


def handle_request(request: dict[str, Any]) -> JsonObject:
    """``{"paths"?, "requireAll"?, "profile"?, "activation"?, "engine"?, "rtk"?}`` — or, for the
    all-scopes gate, ``{"project"?, "dataDir"?, "builtin"?, "trustProject"?}`` — → what ``--json``
    prints, with ``"passed"`` (the exit status's verdict: load errors count as a failure)."""
    import json
    from pathlib import Path

    from engine.cli.common import request_problem
    from engine.rtk.sources import filter_files_in
    from engine.rtk.verify import run_rtk_filter_tests, verify_filters

    problem = request_problem(request, _REQUEST_FIELDS)
    if problem:
        return {"error": problem}
    profile = request.get("profile", "omniroute")
    if profile not in ("omniroute", "strict"):
        return {"error": f"unknown profile {json.dumps(profile)} (expected one of omniroute, strict)"}
    scopes = "project" in request or "dataDir" in request
    if scopes:
        if any(key in request for key in ("paths", "rtk", "engine", "activation")):
            return {"error": '"paths", "rtk", "engine" and "activation" do not apply to the all-scopes gate'}
        for key in ("project", "builtin"):
            if key in request and not Path(request[key]).is_dir():
                return {"error": f'"{key}": no such folder: {request[key]}'}
        result = run_rtk_filter_tests(builtin_dir=request.get("builtin") or _default_paths()[0],
                                      project_dir=request.get("project"), data_dir=request.get("dataDir"),
                                      require_all=request.get("requireAll", False),
                                      trust_project_filters=request.get("trustProject", False), profile=profile)
        return result.to_dict()
    if "builtin" in request or "trustProject" in request:
        return {"error": '"builtin" and "trustProject" apply to the all-scopes gate (add "project" or "dataDir")'}
    paths = request.get("paths") or _default_paths()
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        return {"error": f"no such file or folder: {missing[0]}"}
    files = filter_files_in(paths)
    if not files:
        return {"error": f"no filter files (*.json, *.toml) to verify in {', '.join(paths)}"}
    filters, problems, comparisons = _read(files, profile, request.get("rtk", False))
    result = verify_filters(filters, require_all=request.get("requireAll", False), profile=profile,
                            check_activation=request.get("activation", True), check_engine=request.get("engine", False))
    out = result.to_dict()
    out["passed"] = bool(result.passed and not problems)
    out["files"] = [str(f) for f in files]
    out["errors"] = [d.to_dict() for d in problems]
    if request.get("rtk"):
        out["rtkSemantics"] = [{"file": f, **c.to_dict()} for f, c in comparisons]
    return out


def _usage(message: str) -> int:
    print(f"rulewright verify: error: {message}", file=sys.stderr)
    return 2


def _run_scopes(args: argparse.Namespace) -> int:
    import json

    from engine.rtk.verify import run_rtk_filter_tests

    result = run_rtk_filter_tests(builtin_dir=args.builtin or _default_paths()[0], project_dir=args.project,
                                  data_dir=args.data_dir, require_all=args.require_all,
                                  trust_project_filters=args.trust_project, profile=args.profile)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        _print_report(result, sorted({o.path for o in result.outcomes if o.path}))
    return 0 if result.passed else 1


def _print_semantics(comparisons: list[tuple[str, SemanticsComparison]]) -> None:
    from engine.rtk.verify import unified_diff

    for file, c in comparisons:
        if c.differs:
            print(f"{file}: DIFFERS IN RTK [{c.filter_id}] {c.test_name}" + (f" — {c.note}" if c.note else ""))
            if c.rtk is not None:
                for line in unified_diff(c.omniroute, c.rtk, ("omniroute", "rtk")).splitlines():
                    print(f"    {line}")
    if comparisons:
        passed = sum(1 for _, c in comparisons if c.rtk_passed)
        same = sum(1 for _, c in comparisons if not c.differs)
        print(f"rtk v0.38 semantics: {passed}/{len(comparisons)} tests pass, {same}/{len(comparisons)} identical "
              "to OmniRoute (regexes approximated on the JavaScript layer)")


def _print_report(result: VerifyResult, files: Sized) -> None:
    from engine.rtk.verify import unified_diff

    for outcome in result.failed:
        where = f"{outcome.path}: " if outcome.path else ""
        print(f"{where}FAIL [{outcome.filter_id}] {outcome.test_name}"
              + (f" — {outcome.quirk.message()}" if outcome.quirk is not None else ""))
        for line in outcome.diff.splitlines():
            print(f"    {line}")
        if outcome.quirk is not None:
            for line in unified_diff(outcome.actual, outcome.quirk.strict_actual,
                                     ("omniroute", "strict")).splitlines():
                print(f"    {line}")
    for d in result.diagnostics:
        print(d.format(), file=sys.stderr)
    if result.require_all:
        for fid in result.filters_without_tests:
            print(f"MISSING tests for filter: {fid}")
    total = len(result.outcomes)
    passed = total - len(result.failed)
    if total:
        print(f"{passed}/{total} tests passed ({len(files)} file(s))")
    else:
        print(f"No inline tests found ({len(files)} file(s)).")
    checked = [o for o in result.outcomes if o.activation is not None]
    if checked:
        print(f"activation: {len(checked) - len(result.activation_failures)}/{len(checked)} test commands select "
              "their filter")
    engine_checked = [o for o in result.outcomes if o.engine is not None]
    if engine_checked:
        print(f"engine: {len(engine_checked) - len(result.engine_divergences)}/{len(engine_checked)} test inputs "
              "give the same output at run time")
    if result.benchmark:
        print("savings by category:")
        for row in result.benchmark:
            print(f"  {row.category:<8} {row.average_savings_percent:6.2f}%  "
                  f"({row.filters} filter(s), {row.tests} test(s))")
    if result.require_all and result.filters_without_tests:
        print(f"{len(result.filters_without_tests)} filter(s) have no inline tests", file=sys.stderr)
