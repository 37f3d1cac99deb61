"""Run every benchmark in this folder, one after another, each in its own interpreter.

``python -m bench``            all benchmarks
``python -m bench caveman rtk`` only those whose file name contains one of the words

Each benchmark prints its own figures and, where OmniRoute's engine can run here (node and
``../shared``, see ``bench/reference.py``), the reference's own time on the same input in the
same run; at the end the side-by-side lines of every benchmark are repeated in one summary.
A benchmark that misses its target exits 1, and so does this.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.reference import SIDE_BY_SIDE  # noqa: E402


def main(argv: list[str]) -> int:
    words = [a for a in argv if not a.startswith("-")]
    scripts = sorted(p for p in HERE.glob("bench_*.py") if not words or any(w in p.stem for w in words))
    failed, summary = [], []
    for script in scripts:
        print(f"\n=== {script.stem} ===", flush=True)
        started = time.perf_counter()
        with subprocess.Popen([sys.executable, str(script)], cwd=HERE.parent, stdout=subprocess.PIPE,
                              text=True, bufsize=1) as child:
            for line in child.stdout:
                print(line, end="", flush=True)
                if line.startswith(SIDE_BY_SIDE) or line.startswith("reference not run"):
                    summary.append(f"[{script.stem}] {line.rstrip()}")
        code = child.returncode
        print(f"--- {script.stem}: exit {code}, {time.perf_counter() - started:.1f} s", flush=True)
        if code:
            failed.append(script.stem)
    print("\n=== measured side by side (same input, same run) ===")
    print("\n".join(summary) if summary else "(no benchmark printed a side-by-side figure)")
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs "
          "(wall times count waiting for a busy CPU)")
    if failed:
        print(f"\nfailed (target missed or error): {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
