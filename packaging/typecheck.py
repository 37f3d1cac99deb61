"""The type checker CI runs: ``mypy --strict`` on ``engine``, mypy's basic settings on ``app``.

Two runs because the layers are held to different bars: the engine is the product's contract
(strict), the app is thin Qt glue whose PySide6 stubs make strict mode mostly noise (basic).
With paths as arguments (``engine/rtk``, ``app``), only errors in those paths are reported and
counted, so one area can be made clean at a time; exit 1 when any reported error remains.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = (("engine", ["--strict"]), ("app", []))


def _errors(package: str, flags: list[str]) -> list[str]:
    """The error lines mypy reports for one package (notes and the summary line left out)."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", *flags, "-p", package],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    if done.returncode not in (0, 1):  # 2: mypy itself failed (bad config, crash)
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(2)
    return [line for line in done.stdout.splitlines() if ": error: " in line]


def _names(error: str, wanted: str) -> bool:
    """Whether an error line is in ``wanted``: a folder (``engine/rtk``) or a file (``engine/paths.py``)."""
    return error.startswith((wanted + "/", wanted + ":", wanted + ".py:"))


def main(argv: list[str]) -> int:
    wanted = [arg.rstrip("/") for arg in argv]
    total = 0
    for package, flags in RUNS:
        if wanted and not any(w == package or w.startswith(package + "/") for w in wanted):
            continue
        errors = _errors(package, flags)
        if wanted:
            errors = [e for e in errors if any(_names(e, w) for w in wanted)]
        for line in errors:
            print(line)
        mode = " ".join(flags) or "basic"
        print(f"mypy ({mode}) {package}: {len(errors)} error(s)", file=sys.stderr)
        total += len(errors)
    return 1 if total else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
