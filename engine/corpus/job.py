"""One corpus evaluation from start to report: read, run (locally or on Dask), aggregate.

The report is a plain dictionary (``--json`` writes it as it is, ``engine.corpus.html`` draws
it). Everything that depends on the machine (seconds, workers, rate) sits under ``timing``,
so two runs of the same corpus compare equal once that key is removed.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from engine import __version__
from engine.corpus.aggregate import Aggregate, Comparison, Problems
from engine.corpus.execute import Result, run_dask, run_local
from engine.corpus.samples import iter_corpus
from engine.corpus.setup import EvalSetup


def corpus_chars(paths: Iterable[str]) -> int:
    """The corpus size in bytes from ``stat`` alone (no reading), for a progress bar's total."""
    total = 0
    for path in paths:
        root = Path(path)
        if root.is_file():
            total += root.stat().st_size
            continue
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in files:
                if not name.startswith(".") and not name.endswith(".cmd"):
                    try:
                        total += os.stat(os.path.join(folder, name)).st_size
                    except OSError:
                        continue
    return total


def run_job(paths: list[str], current: EvalSetup, baseline: EvalSetup | None = None, *, workers: int = 1,
            scheduler: Any = None, on_chunk: Callable[[int, int], None] | None = None,
            on_row: Callable[[Result], None] | None = None, stop: threading.Event | None = None) -> dict[str, Any]:
    """Evaluate the corpus at ``paths``; Ctrl+C or ``stop`` gives a report marked ``partial``."""
    started = time.perf_counter()
    aggregates = Aggregate(current), Aggregate(baseline) if baseline is not None else None
    comparison = Comparison() if baseline is not None else None
    problems = Problems()

    def on_result(result: Result) -> None:
        index, row, base = result
        aggregates[0].add(index, row)
        if base is not None and aggregates[1] is not None and comparison is not None:
            aggregates[1].add(index, base)
            comparison.add(index, row, base)
        if on_row is not None:
            on_row(result)

    items = iter_corpus(paths)
    setups = (current, baseline)
    try:
        if scheduler is not None:
            complete = run_dask(items, setups, scheduler=scheduler, on_result=on_result, on_problem=problems.add,
                                on_chunk=on_chunk, stop=stop)
        else:
            complete = run_local(items, setups, workers=workers, on_result=on_result, on_problem=problems.add,
                                 on_chunk=on_chunk, stop=stop)
    except KeyboardInterrupt:
        complete = False
    seconds = time.perf_counter() - started
    report: dict[str, Any] = {
        "rulewright": f"rulewright {__version__}", "kind": "corpus-report", "partial": not complete,
        "corpus": {"paths": [str(p) for p in paths], "samples": aggregates[0].count, "problems": problems.count,
                   "problemList": problems.listed},
        "current": aggregates[0].report(),
    }
    if aggregates[1] is not None and comparison is not None:
        report["baseline"] = aggregates[1].report()
        report["ab"] = comparison.report()
    report["timing"] = {"seconds": round(seconds, 3), "workers": "dask" if scheduler is not None else workers,
                        "samplesPerSecond": round(aggregates[0].count / seconds, 1) if seconds else None}
    return report


def has_losses(report: dict[str, Any]) -> bool:
    """Whether the run lost anything a user must look at (exit status 1)."""
    current = report["current"]
    new = report.get("ab", {}).get("newLosses", {}).get("samples", 0)
    return bool(current["losses"]["samples"] or current["errors"] or new)
