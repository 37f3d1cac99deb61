"""OmniRoute's own engines, timed by themselves on the same input in the same run as ours.

Benchmarks put the reference's time beside ours instead of quoting a number: ``run()`` feeds a
file to ``bench.mjs`` (OmniRoute's Caveman and RTK engines bundled for node, kept beside the
project under ``shared/reference/omniroute/bench/``) and returns what it measured in-process
(wall time of the engine call alone, best and median of ``repeats``). When node or that folder is
missing it returns a result that says why, so a benchmark can print "reference not run: …" —
never a constant in place of a measurement.

    ref = reference.run("rtk", path, repeats=3, command="pytest")
    print(ref.describe())              # "reference 217.3 ms/MB (best 2173.4 ms of 3, median …)"
    if ref.ran: ratio = ref.best_ms / our_best_ms

``RULEWRIGHT_REFERENCE_BENCH`` may name ``bench.mjs`` explicitly; otherwise it is looked for in
``shared/reference/omniroute/bench/`` beside this checkout or any folder above it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

KINDS = ("caveman", "rtk")
MB = 1_000_000
NODE_MIN_MAJOR = 20
RELATIVE = Path("shared") / "reference" / "omniroute" / "bench" / "bench.mjs"
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class ReferenceRun:
    """One timing of the reference, or why there is none (``reason`` set, times ``None``)."""

    kind: str
    bytes: int
    best_ms: float | None = None
    median_ms: float | None = None
    repeats: int = 0
    reason: str | None = None

    @property
    def ran(self) -> bool:
        return self.reason is None

    @property
    def ms_per_mb(self) -> float | None:
        """Best time per MB (10^6 bytes of UTF-8 input), as our benches count a MB."""
        if self.best_ms is None or not self.bytes:
            return None
        return self.best_ms * MB / self.bytes

    def ratio(self, our_ms: float) -> float | None:
        """How many times faster we are (reference best / ours), ``None`` when it did not run."""
        if self.best_ms is None or our_ms <= 0:
            return None
        return self.best_ms / our_ms

    def describe(self) -> str:
        if not self.ran:
            return f"reference not run: {self.reason}"
        return (f"reference {self.ms_per_mb:.1f} ms/MB (OmniRoute {self.kind} engine in node, wall, "
                f"best {self.best_ms:.1f} ms of {self.repeats}, median {self.median_ms:.1f} ms)")


def find_script() -> Path | None:
    """``bench.mjs`` from ``RULEWRIGHT_REFERENCE_BENCH`` or ``shared/`` beside a parent folder."""
    named = os.environ.get("RULEWRIGHT_REFERENCE_BENCH")
    if named:
        return Path(named) if Path(named).is_file() else None
    for folder in ROOT.parents:
        candidate = folder / RELATIVE
        if candidate.is_file():
            return candidate
    return None


def _node() -> tuple[str | None, str | None]:
    """(node executable, None) or (None, why it cannot be used)."""
    node = shutil.which("node")
    if node is None:
        return None, "node missing (not on PATH)"
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30,
                                 check=False).stdout.strip()
        major = int(version.lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None, f"node at {node} did not report a version"
    if major < NODE_MIN_MAJOR:
        return None, f"node {version} is older than {NODE_MIN_MAJOR}"
    return node, None


def unavailable() -> str | None:
    """Why the reference cannot run here, or ``None`` when it can."""
    if find_script() is None:
        return f"../shared absent (no {RELATIVE} above {ROOT}; set RULEWRIGHT_REFERENCE_BENCH)"
    return _node()[1]


def run(kind: str, path: Path | str, *, repeats: int = 3, command: str | None = None,
        timeout: float = 900.0) -> ReferenceRun:
    """Time the reference's ``kind`` engine (``caveman`` or ``rtk``) on the file at ``path``.

    ``command`` is the RTK command line the output came from (filter choice), as ours gets it.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    size = Path(path).stat().st_size
    script = find_script()
    if script is None:
        return ReferenceRun(kind, size, reason=unavailable())
    node, why = _node()
    if node is None:
        return ReferenceRun(kind, size, reason=why)
    argv = [node, str(script), kind, str(path), str(max(1, repeats))]
    if command:
        argv.append(command)
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return ReferenceRun(kind, size, reason=f"reference timed out after {timeout:.0f} s")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return ReferenceRun(kind, size, reason=f"reference failed (exit {done.returncode}): {last[:200]}")
    try:
        found = json.loads(done.stdout.strip().splitlines()[-1])
        return ReferenceRun(kind, int(found["bytes"]), float(found["best_ms"]), float(found["median_ms"]),
                            max(1, repeats))
    except (IndexError, KeyError, TypeError, ValueError):
        return ReferenceRun(kind, size, reason=f"reference printed no timing: {done.stdout[:200]!r}")


def run_text(kind: str, text: str, folder: Path, *, repeats: int = 3, command: str | None = None,
             timeout: float = 900.0) -> ReferenceRun:
    """``run()`` on ``text`` written (UTF-8) to a file in ``folder`` — the same text ours gets."""
    path = Path(folder) / f"reference-input-{kind}.txt"
    path.write_text(text, encoding="utf-8")
    return run(kind, path, repeats=repeats, command=command, timeout=timeout)
