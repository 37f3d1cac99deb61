"""``rulewright learn SAMPLE... --command CMD``: draft an RTK filter from captured outputs.

Each SAMPLE is one captured output of the same command (a file, or ``-`` for standard input).
Prints every proposed pattern with the sample lines it matched, the savings per sample and the
safety proof (``engine.rtk.learn.proof``). The filter is written to ``-o FILE`` (refused when the
file exists, unless ``--force``) or, without ``-o``, printed on standard output with the report
on standard error. A draft that fails its proof is never written. Exit 0 proved, 1 not proved or
unreadable input, 2 usage.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from engine.rtk.learn.draft import LearnResult

SHOWN_LINES = 3


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("samples", nargs="+", metavar="SAMPLE", help="captured outputs of one command (file or -)")
    parser.add_argument("--command", dest="shell_command", metavar="CMD", required=True,
                        help="the command line that produced the samples")
    parser.add_argument("--id", dest="filter_id", metavar="ID", help="the filter id (default: from the command)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the filter here (default: standard output)")
    parser.add_argument("--force", action="store_true", help="overwrite FILE when it exists")
    parser.add_argument("--builtin", metavar="DIR",
                        help="built-in filters the activation check selects among (default: filters/)")
    parser.add_argument("--project", metavar="DIR",
                        help="the project the filter is for: the proof names a filter of its .rtk/ that the "
                             "command selects instead")
    parser.add_argument("--json", action="store_true",
                        help="print the filter, proposals, savings and proof as one JSON object")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.cli.common import EXIT_PROBLEMS, dumps_json, read_input, usage_error
    from engine.cli.filter import default_builtin_dir, load_builtin
    from engine.rtk.learn import compose, learn
    from engine.rtk.learn.draft import schema_ref

    if args.samples.count("-") > 1:
        return usage_error("learn", "standard input (-) can be one SAMPLE only")
    if not args.shell_command.strip():
        return usage_error("learn", "--command is empty")
    out_path = Path(args.output) if args.output else None
    if out_path is not None and out_path.exists() and not args.force:
        print(f"{out_path}:1:1: error: the file exists; give --force to replace it", file=sys.stderr)
        return EXIT_PROBLEMS
    texts = []
    for name in args.samples:
        text, _, code = read_input(name, "learn")
        if text is None or code:
            return code or EXIT_PROBLEMS
        texts.append(text)
    builtin = args.builtin or default_builtin_dir()
    pool = load_builtin(builtin, "omniroute")[0] if Path(builtin).is_dir() else None
    neighbours = None
    if args.project:
        if not Path(args.project).is_dir():
            return usage_error("learn", f"--project {args.project}: not a folder")
        from engine.workspace.competing import workspace_neighbours

        neighbours = workspace_neighbours(args.project, ())
    try:
        draft = learn(texts, args.shell_command, filter_id=args.filter_id, pool=pool, neighbours=neighbours)
    except ValueError as exc:
        return usage_error("learn", str(exc))
    result = compose(draft)
    result.filter["$schema"] = schema_ref(out_path.parent if out_path else None)
    filter_text = dumps_json(result.filter, indent=2) + "\n"
    if args.json:
        print(dumps_json(result.to_dict(), indent=2))
    report = sys.stderr if out_path is None and not args.json else sys.stdout
    if not args.json:
        _print_report(result, args.samples, report)
    if not result.proof.passed:
        print("learn: the draft failed its safety proof; nothing written", file=sys.stderr)
        return EXIT_PROBLEMS
    if out_path is not None:
        from engine.fsutil import atomic_write_text

        try:
            atomic_write_text(out_path, filter_text)
        except OSError as exc:
            print(f"{out_path}:1:1: error: cannot write: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_PROBLEMS
        if not args.json:
            print(f"wrote {out_path} (check it with: rulewright verify {out_path})", file=report)
    elif not args.json:
        sys.stdout.write(filter_text)
    return 0


def _print_report(result: LearnResult, names: list[str], out: TextIO) -> None:
    from engine.cli.common import printable

    def say(text: str = "") -> None:
        print(printable(text), file=out)

    say(f"proposed patterns ({len(result.proposals)}):")
    for p in result.proposals:
        say(f"  {p.field:<26} {p.pattern}")
        say(f"  {'':<26} {p.reason}; matches {len(p.matches)} line(s)")
        for sample, line, text in p.matches[:SHOWN_LINES]:
            say(f"  {'':<28}{names[sample]}:{line}: {text.strip()[:100]}")
        if len(p.matches) > SHOWN_LINES:
            say(f"  {'':<28}… and {len(p.matches) - SHOWN_LINES} more")
    for p, why in result.refused:
        say(f"  refused {p.field} {p.pattern}: {why}")
    for note in result.notes:
        say(f"note: {note}")
    say(f"line limits: maxLines {result.limits.max_lines}, head {result.limits.head_lines}, "
        f"tail {result.limits.tail_lines} ({result.limits.reason})")
    for name, saving in zip(names, result.savings):
        say(f"savings on {name}: {saving:.1f}%")
    say("safety proof:")
    for check in result.proof.checks:
        say(f"  {'PASS' if check.passed else 'FAIL'} {check.name}: {check.detail}")
    for lost in result.proof.lost:
        say(f"  lost in {names[lost.sample]} ({lost.stage}): {lost.line}")
