"""Corpus lab (`rulewright eval`): throughput with one and two workers, peak memory, and the same
report from a Dask LocalCluster.

    python bench/bench_eval.py [--size-mb N] [--big-mb N]

1. A seeded corpus (``engine.corpus.synth``: chat bodies in three wire formats mixing prose,
   code and stack traces; pytest, npm, cargo, git and ruff outputs, failures included) of
   ``--size-mb`` (default 20) is run by the real command, ``rulewright eval --workers 1`` and
   ``--workers 2``, wall clock. Target: two workers ≥ 1.7 × one worker's throughput.
2. Peak memory of the whole process tree (the command and its workers, RSS summed every 50 ms
   from ``/proc``) on ``--big-mb`` (default 200) and on a quarter of it: memory must not grow
   with the corpus. Target: ≤ 500 MB at the big size (the issue's 1 GB corpus: `--big-mb 1000`).
3. The same corpus on a ``LocalCluster`` of two workers (when ``dask.distributed`` is
   installed): the JSON report, minus ``timing``, byte-identical to the local run's.

OmniRoute has no corpus evaluation, so there is no reference time to put beside these figures.
Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.corpus.synth import write_corpus  # noqa: E402

SPEEDUP_TARGET = 1.7
MEMORY_TARGET_MB = 500.0


def _tree_rss_kb(pid: int) -> int:
    """RSS of ``pid`` and all its descendants, from /proc (Linux)."""
    total, stack, seen = 0, [pid], set()
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/status", encoding="ascii") as f:
                total += next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children", encoding="ascii") as f:
                    stack.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return total


def run_eval(corpus: Path, workers: int, report: Path) -> tuple[float, float, dict]:
    """(wall seconds, peak tree RSS MB, report) of one `rulewright eval` run."""
    cmd = [sys.executable, "-m", "engine", "eval", str(corpus), "--workers", str(workers), "--quiet",
           "--json", str(report)]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0]

    def sample() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], _tree_rss_kb(proc.pid))
            time.sleep(0.05)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    _out, err = proc.communicate()
    seconds = time.perf_counter() - started
    watcher.join()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"rulewright eval failed ({proc.returncode}): {err.decode(errors='replace')[-2000:]}")
    return seconds, peak[0] / 1024, json.loads(report.read_text(encoding="utf-8"))


def _without_timing(report: dict) -> str:
    return json.dumps({k: v for k, v in report.items() if k != "timing"}, sort_keys=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=float, default=20.0)
    parser.add_argument("--big-mb", type=float, default=200.0)
    args = parser.parse_args(argv)
    missed: list[str] = []
    load = os.getloadavg()[0]
    print(f"corpus lab benchmark ({os.cpu_count()} CPUs, load average {load:.2f} at the start; wall clock)")
    with tempfile.TemporaryDirectory(prefix="rulewright-bench-eval-") as tmp:
        base = Path(tmp)
        corpus = write_corpus(base / "corpus", size=int(args.size_mb * 1e6), seed=11)
        one_s, _one_mb, one = run_eval(corpus, 1, base / "one.json")
        two_s, _two_mb, two = run_eval(corpus, 2, base / "two.json")
        samples = one["corpus"]["samples"]
        speedup = one_s / two_s
        print(f"{args.size_mb:g} MB, {samples:,} samples: 1 worker {one_s:.1f} s ({samples / one_s:,.0f} samples/s, "
              f"{args.size_mb / one_s:.2f} MB/s); 2 workers {two_s:.1f} s ({samples / two_s:,.0f} samples/s); "
              f"speed-up {speedup:.2f}× (target ≥ {SPEEDUP_TARGET}×)")
        if _without_timing(one) != _without_timing(two):
            missed.append("the two-worker report differs from the one-worker report")
        if speedup < SPEEDUP_TARGET:
            missed.append(f"speed-up {speedup:.2f}× < {SPEEDUP_TARGET}×")
        try:
            import distributed
        except ImportError:
            print("Dask: not installed (pip install 'rulewright[cluster]'); LocalCluster run skipped")
        else:
            from engine.corpus.job import run_job
            from engine.corpus.setup import load_setup

            setup = load_setup("current", rules=None, filters=None)
            local = run_job([str(corpus)], setup, workers=1)
            with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
                    distributed.Client(cluster) as client:
                started = time.perf_counter()
                remote = run_job([str(corpus)], setup, scheduler=client)
                dask_s = time.perf_counter() - started
            same = _without_timing(local) == _without_timing(remote)
            print(f"Dask LocalCluster (2 workers): {dask_s:.1f} s; report identical to the local run: {same}")
            if not same:
                missed.append("the Dask report differs from the local report")
        for size in (args.big_mb / 4, args.big_mb):
            big = write_corpus(base / f"big-{size:g}", size=int(size * 1e6), seed=12)
            seconds, peak, report = run_eval(big, 2, base / "big.json")
            print(f"{size:g} MB, {report['corpus']['samples']:,} samples, 2 workers: {seconds:.1f} s, "
                  f"peak RSS of the process tree {peak:.0f} MB (target ≤ {MEMORY_TARGET_MB:.0f} MB)")
            if peak > MEMORY_TARGET_MB:
                missed.append(f"peak memory {peak:.0f} MB at {size:g} MB")
            import shutil

            shutil.rmtree(big)
    for miss in missed:
        print(f"MISSED: {miss}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
