"""Run every benchmark in this folder, one after another, each in its own interpreter.

``python -m bench``            all benchmarks
``python -m bench caveman rtk`` only those whose file name contains one of the words
Each benchmark prints its own figures (ms per MB, ratios against the reference's published
numbers); a failing benchmark makes the exit status 1.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    words = [a for a in argv if not a.startswith("-")]
    scripts = sorted(p for p in HERE.glob("bench_*.py") if not words or any(w in p.stem for w in words))
    failed = []
    for script in scripts:
        print(f"\n=== {script.stem} ===", flush=True)
        started = time.perf_counter()
        code = subprocess.call([sys.executable, str(script)], cwd=HERE.parent)
        print(f"--- {script.stem}: exit {code}, {time.perf_counter() - started:.1f} s", flush=True)
        if code:
            failed.append(script.stem)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
