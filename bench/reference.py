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

KINDS = ("caveman", "caveman-body", "rtk")  # caveman-body: the file is a chat body (JSON), not one message
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
    cpu_ms: float | None = None  # mean CPU of one call (``cpu=True``): node's CPU, start-up subtracted

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

    @property
    def cpu_ms_per_mb(self) -> float | None:
        if self.cpu_ms is None or not self.bytes:
            return None
        return self.cpu_ms * MB / self.bytes

    def describe(self) -> str:
        if not self.ran:
            return f"reference not run: {self.reason}"
        cpu = f", CPU {self.cpu_ms_per_mb:.1f} ms/MB" if self.cpu_ms is not None else ""
        return (f"reference {self.ms_per_mb:.1f} ms/MB (OmniRoute {self.kind} engine in node, wall, "
                f"best {self.best_ms:.1f} ms of {self.repeats}, median {self.median_ms:.1f} ms{cpu})")


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


# ``bench.mjs`` finds its packs and filters through links beside it (``open-sse/services/
# compression/rules`` → the reference's ``rules/``; ``…/engines/rtk/filters`` → ``filters/``). Where
# the shared folder holds those links as plain files naming their target (a copy that flattened
# them), the bundle finds no packs and no filters: its Caveman ran OmniRoute's hard-coded English
# fallback rules instead of the packs ours run (their rulesApplied differed on 149 of 300 random
# texts; with the packs linked, on none), and its RTK ran without its built-in filters (a 1 MB
# pytest log: 75 ms, against 147 ms with them). So the script runs from a mirror with real links.
FLAT_LINK_MAX = 256  # a flattened link is a small file holding a relative path


def _flattened_links(bench: Path) -> dict[Path, Path]:
    """The flattened links under ``bench`` (path relative to it → the folder it names)."""
    found: dict[Path, Path] = {}
    for path in (bench / "open-sse").rglob("*") if (bench / "open-sse").is_dir() else []:
        if not path.is_file() or path.is_symlink() or path.stat().st_size > FLAT_LINK_MAX:
            continue
        try:
            target = (path.parent / path.read_text(encoding="utf-8").strip()).resolve()
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        if target.is_dir():
            found[path.relative_to(bench)] = target
    return found


_MIRRORS: dict[Path, Path] = {}


def runnable_script(script: Path) -> Path:
    """``script`` itself, or a copy of it in a temporary folder beside real links to the folders
    its flattened links name (made once per process, removed at exit). A copy, not a link:
    node resolves a linked module to where it lies, and the bundle looks for its data there."""
    mirror = _MIRRORS.get(script)
    if mirror is not None:
        return mirror
    links = _flattened_links(script.parent)
    if not links:
        _MIRRORS[script] = script
        return script
    import atexit
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="rulewright-ref-bench-"))
    atexit.register(shutil.rmtree, folder, True)
    for relative, target in links.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).symlink_to(target, target_is_directory=True)
    mirror = folder / script.name
    shutil.copyfile(script, mirror)
    _MIRRORS[script] = mirror
    return mirror


_BODY_SCRIPTS: dict[Path, Path] = {}


def body_script(script: Path) -> Path:
    """A copy of ``script`` (in a temporary folder beside links to its data, as
    ``runnable_script``'s) whose ``caveman-body`` kind reads its file as a whole chat body (JSON,
    parsed once before the timed calls) instead of one message: agent traffic is bodies of many
    messages, and the bundle's entry point only times one. Its timed call is the same
    ``cavemanCompress(body, options)``."""
    made = _BODY_SCRIPTS.get(script)
    if made is not None:
        return made
    import atexit
    import re
    import tempfile

    source = runnable_script(script)
    text = source.read_text(encoding="utf-8")
    read = re.compile(r'(var text = [\w$]+\.readFileSync\([\w$]+, "utf8"\);)')
    call = 'cavemanCompress({ messages: [{ role: "user", content: text }] }'
    branch = 'if (kind === "caveman")'
    if len(read.findall(text)) != 1 or text.count(call) != 1 or text.count(branch) != 1:
        raise ValueError("bench.mjs's entry point is not the one expected (no body mode)")
    text = read.sub(r'\1 var parsedBody = kind === "caveman-body" ? JSON.parse(text) : null;', text)
    text = text.replace(call, 'cavemanCompress(parsedBody ?? { messages: [{ role: "user", content: text }] }')
    text = text.replace(branch, 'if (kind === "caveman" || kind === "caveman-body")')
    folder = Path(tempfile.mkdtemp(prefix="rulewright-ref-body-"))
    atexit.register(shutil.rmtree, folder, True)
    (folder / "open-sse").symlink_to(source.parent / "open-sse", target_is_directory=True)
    made = folder / script.name
    made.write_text(text, encoding="utf-8")
    _BODY_SCRIPTS[script] = made
    return made


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


def data_dir(name: str) -> Path | None:
    """The reference's own ``filters``/``rules`` folder (what ``bench.mjs`` loads), or ``None``."""
    script = find_script()
    folder = script.parent.parent / name if script is not None else None
    return folder if folder is not None and folder.is_dir() else None


SIDE_BY_SIDE = "vs reference:"  # `python -m bench` repeats every line starting so in its summary


def side_by_side(what: str, our_ms: float, ref: ReferenceRun, *, our_cpu_ms: float | None = None) -> str:
    """One summary line: ours and the reference's time on the same input in the same run, and the
    ratios (wall: best call of each, in-process; CPU when both were measured)."""
    ours = f"ours {our_ms * MB / ref.bytes:.1f} ms/MB wall" if ref.bytes else f"ours {our_ms:.1f} ms wall"
    if our_cpu_ms is not None and ref.bytes:
        ours += f", {our_cpu_ms * MB / ref.bytes:.1f} CPU"
    if not ref.ran:
        return f"{SIDE_BY_SIDE} {what}: {ours}; reference not run: {ref.reason}"
    theirs = f"OmniRoute {ref.ms_per_mb:.1f} ms/MB wall"
    ratios = f"{ref.ratio(our_ms):.2f}x wall"
    if ref.cpu_ms is not None and our_cpu_ms:
        theirs += f", {ref.cpu_ms_per_mb:.1f} CPU"
        ratios += f", {ref.cpu_ms / our_cpu_ms:.2f}x CPU"
    return f"{SIDE_BY_SIDE} {what}: {ours}; {theirs} -> ours faster by {ratios} (same input, same run)"


def unavailable() -> str | None:
    """Why the reference cannot run here, or ``None`` when it can."""
    if find_script() is None:
        return f"../shared absent (no {RELATIVE} above {ROOT}; set RULEWRIGHT_REFERENCE_BENCH)"
    return _node()[1]


def _node_run(argv: list[str], timeout: float) -> tuple[subprocess.CompletedProcess, float]:
    """Run node; (the completed process, its CPU seconds: user + system, its threads included)."""
    before = os.times()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return done, cpu


def _startup_cpu(node: str, script: Path, kind: str, timeout: float) -> float:
    """CPU seconds of a reference run that does no work (one call on an empty file)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="rulewright-ref-") as folder:
        empty = Path(folder) / "empty.txt"
        empty.write_text("{}" if kind == "caveman-body" else "", encoding="utf-8")
        return _node_run([node, str(script), kind, str(empty), "1"], timeout)[1]


def run(kind: str, path: Path | str, *, repeats: int = 3, command: str | None = None,
        timeout: float = 900.0, cpu: bool = False) -> ReferenceRun:
    """Time the reference's ``kind`` engine (``caveman`` or ``rtk``) on the file at ``path``.

    ``command`` is the RTK command line the output came from (filter choice), as ours gets it.
    ``cpu``: also its mean CPU time per call: node's CPU time (user + system, all its threads) for
    the ``repeats`` calls, less that of a run on an empty file (start-up, loading the packs or
    filters), divided by ``repeats``. On a busy machine wall time counts the waits for a CPU —
    the longer the call, the more of them — so CPU time is the fairer comparison there.
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
    try:
        script = body_script(script) if kind == "caveman-body" else runnable_script(script)
    except (OSError, ValueError) as exc:
        return ReferenceRun(kind, size, reason=f"no body mode: {exc}")
    argv = [node, str(script), kind, str(path), str(max(1, repeats))]
    if command:
        argv.append(command)
    try:
        done, cpu_n = _node_run(argv, timeout)
        if cpu and done.returncode == 0:
            cpu_start = _startup_cpu(node, script, kind, timeout)
    except subprocess.TimeoutExpired:
        return ReferenceRun(kind, size, reason=f"reference timed out after {timeout:.0f} s")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return ReferenceRun(kind, size, reason=f"reference failed (exit {done.returncode}): {last[:200]}")
    try:
        found = json.loads(done.stdout.strip().splitlines()[-1])
        return ReferenceRun(kind, int(found["bytes"]), float(found["best_ms"]), float(found["median_ms"]),
                            max(1, repeats),
                            cpu_ms=max(0.0, cpu_n - cpu_start) * 1000 / max(1, repeats) if cpu else None)
    except (IndexError, KeyError, TypeError, ValueError):
        return ReferenceRun(kind, size, reason=f"reference printed no timing: {done.stdout[:200]!r}")


def run_text(kind: str, text: str, folder: Path, *, repeats: int = 3, command: str | None = None,
             timeout: float = 900.0, cpu: bool = False) -> ReferenceRun:
    """``run()`` on ``text`` written (UTF-8) to a file in ``folder`` — the same text ours gets."""
    path = Path(folder) / f"reference-input-{kind}.txt"
    path.write_text(text, encoding="utf-8")
    return run(kind, path, repeats=repeats, command=command, timeout=timeout, cpu=cpu)
