"""``rulewright eval``: what the rules and filters do to a whole corpus, optionally A/B.

Prints a summary; ``--json FILE`` and ``--html FILE`` write the full report (``-`` for standard
output with ``--json``), ``--samples FILE`` one JSON row per sample. A progress bar with rate
and ETA goes to standard error on a terminal. Ctrl+C stops cleanly and still writes the
(partial) report. Exit status: 0 done, nothing lost; 1 losses, errors or stopped early;
2 usage, or rules/filters/baseline that cannot be loaded.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO


def configure(parser: argparse.ArgumentParser) -> None:
    from engine.cli.common import allow_intermixed

    allow_intermixed(parser)
    parser.add_argument("corpus", nargs="+", metavar="CORPUS",
                        help="folders of samples, JSONL files of chat bodies, command-output captures")
    parser.add_argument("--rules", metavar="DIR", help="Caveman packs <language>/<category>.json (default: bundled)")
    parser.add_argument("--filters", metavar="DIR", help="RTK filter files (default: bundled)")
    parser.add_argument("--project", metavar="DIR", help="also the project's trusted .rtk/filters.json|toml")
    parser.add_argument("--with-bundled", action="store_true",
                        help="the bundled filters compete too, the --filters folder's above them in project "
                             "scope (as the IDE's RTK preview runs a workspace's filter files)")
    parser.add_argument("--profile", choices=("omniroute", "strict"), default="omniroute")
    parser.add_argument("--intensity", choices=("lite", "full", "ultra"), default="full")
    parser.add_argument("--language", default=None, help="Caveman pack language (default: en)")
    parser.add_argument("--roles", default="user", metavar="R,R",
                        help="chat roles Caveman compresses (default: user); prose counts as the first")
    parser.add_argument("--baseline", metavar="REV_OR_DIR",
                        help="A/B: a git revision of the workspace, or another rules/filters folder")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="local worker processes (default: the number of cores)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run on this Dask scheduler instead (pip install 'rulewright[cluster]')")
    parser.add_argument("--json", dest="json_file", metavar="FILE", help="write the report as JSON (- for stdout)")
    parser.add_argument("--html", dest="html_file", metavar="FILE", help="write a self-contained HTML report")
    parser.add_argument("--samples", dest="samples_file", metavar="FILE", help="write one JSON row per sample")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--progress-lines", action="store_true",
                        help="progress as JSON lines on stderr ({\"samples\", \"bytes\", \"total\"}), for the IDE")


def _options(args: argparse.Namespace) -> dict[str, Any]:
    roles = tuple(r.strip() for r in args.roles.split(",") if r.strip()) or ("user",)
    return {"intensity": args.intensity, "language": args.language, "roles": roles}


def run(args: argparse.Namespace) -> int:
    from engine.cli.common import usage_error
    from engine.corpus.setup import SetupError, load_baseline, load_setup

    if args.workers < 1:
        return usage_error("eval", "--workers must be at least 1")
    if args.json_file == "-" and args.samples_file == "-":
        return usage_error("eval", "--json - and --samples - cannot both use standard output")
    try:
        current = load_setup("current", rules=args.rules, filters=args.filters, project=args.project,
                             profile=args.profile, with_bundled=args.with_bundled, **_options(args))
        baseline = None
        if args.baseline:
            baseline = load_baseline(args.baseline, rules=args.rules, filters=args.filters, project=args.project,
                                     profile=args.profile, with_bundled=args.with_bundled, **_options(args))
    except SetupError as exc:
        print(f"rulewright eval: error: {exc}", file=sys.stderr)
        return 2
    for problem in current.problems:
        print(f"{problem}: warning: skipped for this run", file=sys.stderr)
    return _run(args, current, baseline)


def _run(args: argparse.Namespace, current: Any, baseline: Any) -> int:
    from engine.cli.common import terminal_bar
    from engine.corpus.job import corpus_chars, has_losses, run_job

    to_stdout = args.json_file == "-" or args.samples_file == "-"
    bar = None
    total = corpus_chars(args.corpus) if args.progress_lines else 0
    if not args.quiet and not to_stdout and not args.progress_lines:
        bar = terminal_bar(lambda: corpus_chars(args.corpus), "eval")
        if bar is not None:
            bar.set_postfix(samples=0)
    done = [0, 0]

    def on_chunk(samples: int, chars: int) -> None:
        done[0] += samples
        done[1] += chars
        if args.progress_lines:
            print(json.dumps({"samples": done[0], "bytes": done[1], "total": total}), file=sys.stderr, flush=True)
        if bar is not None:
            bar.update(chars)
            bar.set_postfix(samples=done[0], refresh=False)

    rows_out = _open_rows(args.samples_file)
    on_row = None
    if rows_out is not None:
        def on_row(result: Any) -> None:
            index, row, base = result
            record = {"index": index, **row}
            if base is not None:
                record["baseline"] = {k: base[k] for k in ("tokensAfter", "savingsPercent", "fired", "lostCount")}
            rows_out.write(json.dumps(record, ensure_ascii=False) + "\n")
    try:
        with _stop_on_sigterm():
            report = run_job(args.corpus, current, baseline, workers=args.workers, scheduler=args.scheduler,
                             on_chunk=on_chunk, on_row=on_row)
    except RuntimeError as exc:  # Dask missing, or the scheduler unreachable
        print(f"rulewright eval: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"rulewright eval: error: cannot reach the scheduler {args.scheduler}: {exc}", file=sys.stderr)
        return 2
    finally:
        if bar is not None:
            bar.close()
        if rows_out is not None and rows_out is not sys.stdout:
            rows_out.close()
    return _write(args, report, 1 if report["partial"] or has_losses(report) else 0)


@contextmanager
def _stop_on_sigterm() -> Iterator[None]:
    """While the run lasts, SIGTERM (the IDE's Stop, a CI timeout) ends it like Ctrl+C does:
    with a partial report. The previous handler is put back afterwards."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _open_rows(name: str | None) -> TextIO | None:
    if name is None:
        return None
    if name == "-":
        return sys.stdout
    return open(name, "w", encoding="utf-8", errors="surrogatepass")


def _write(args: argparse.Namespace, report: dict[str, Any], status: int) -> int:
    from engine.corpus.html import render
    from engine.fsutil import atomic_write_text

    text = json.dumps(report, ensure_ascii=False, indent=1) + "\n"
    if args.json_file == "-":
        sys.stdout.write(text)
    elif args.json_file:
        atomic_write_text(args.json_file, text)
    if args.html_file:
        atomic_write_text(args.html_file, render(report))
    if args.json_file != "-" and args.samples_file != "-":
        print(summary(report))
    return status


def summary(report: dict[str, Any]) -> str:
    """The few lines a terminal shows: totals, losses, the A/B verdict."""
    cur = report["current"]
    s, t = cur["savings"], cur["tokens"]
    lines = [f"{report['corpus']['samples']:,} samples{' (partial: stopped early)' if report['partial'] else ''}: "
             f"{t['before']:,} → {t['after']:,} tokens ({t['savingsPercent']:g} % saved); per sample mean "
             f"{s['mean']:g} %, median {s['p50']:g} %, p10 {s['p10']:g} %, p90 {s['p90']:g} %",
             f"losses: {cur['losses']['samples']:,} samples ({cur['losses']['lines']:,} lines or regions); "
             f"fallbacks {cur['fallbacks']:,}; timeouts {sum(cur['timeouts'].values()):,}; errors {cur['errors']:,}; "
             f"unreadable {report['corpus']['problems']:,}"]
    top = ", ".join(f"{r['name']} ({r['tokensSaved']:,})" for r in cur["rules"][:5])
    lines.append(f"top rules/filters by tokens saved: {top or 'none'}; never fired: {len(cur['neverFired'])}")
    lines.append(f"ran {cur['setup']['sources']}")
    if "ab" in report:
        ab, base = report["ab"], report["baseline"]["tokens"]
        lines.append(f"A/B vs {report['baseline']['setup']['label']}: {base['savingsPercent']:g} % → "
                     f"{t['savingsPercent']:g} %; {ab['changedSamples']:,} samples changed, "
                     f"{len(ab['topRegressions'])} listed regressions, new losses in {ab['newLosses']['samples']:,}")
    return "\n".join(lines)
