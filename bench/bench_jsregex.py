"""JavaScript-regex layer throughput: translation, matching, per-call overhead.

    python bench/bench_jsregex.py

* translation: parse + emit + `regex.compile` of freshly generated rule-like patterns (cache off);
* replace / matchAll over 1 MB of synthetic prose and log text, for typical Caveman and RTK
  shapes, against the raw `regex` package given the same pattern (the naive pass-through, which
  is *wrong* on many inputs — it is here only as the speed yardstick);
* per-call overhead: ``compile_js(...).test(short)`` thousands of times (cached translation).

Prints ms, ms/MB and the ratio to raw `regex`. The text is generated here from a seeded
vocabulary. Targets: per-call overhead ≤ 20 µs; global replace ≤ 3 × raw `regex`; exit 1 when
one is missed.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import regex

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.reference import SIDE_BY_SIDE  # noqa: E402
from engine.jsregex import compile_js  # noqa: E402
from engine.jsregex.translate import cache_clear, translate  # noqa: E402

TARGET_OVERHEAD_US = 20.0
TARGET_REPLACE_RATIO = 3.0
V8_SCRIPT = Path(__file__).with_name("v8_regex.mjs")

WORDS = ("please", "could", "you", "basically", "actually", "the", "service", "returns", "error", "when",
         "queue", "is", "full", "and", "retries", "request", "handler", "café", "naïve", "résumé", "über")
LOG_LINES = ("    at Object.<anonymous> (/app/src/index.js:12:5)", "error: connection refused (code 111)",
             "WARN retry 3/5 after 250ms", "Compiling module foo v0.1.0", "   Finished dev [unoptimized]",
             "index 1111111..2222222 100644", "test result: ok. 42 passed; 0 failed", "✓ renders 😀 fine")

# (name, JS pattern, flags, replacement) — shapes taken from the rule formats, not from any pack
CASES = (
    ("caveman filler words", r"\b(?:basically|actually|really|quite|simply)\b\s*", "gi", ""),
    ("caveman phrase + group", r"\b(could|would) you (please )?", "gi", "$1 "),
    ("rtk stack frame lines", r"^\s+at\s+.*$", "gm", ""),
    ("rtk numbers", r"\d+(?:\.\d+)?", "g", "N"),
    ("rtk key=value", r"(\w+)=(\S+)", "g", "$1"),
    ("unicode words", r"\p{L}+", "gu", "w"),
)


def _text(size: int, rng: random.Random) -> str:
    parts: list[str] = []
    total = 0
    while total < size:
        if rng.random() < 0.3:
            line = rng.choice(LOG_LINES) + f" x={rng.randint(0, 999)}"
        else:
            line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 14))).capitalize() + "."
        parts.append(line)
        total += len(line) + 1
    return "\n".join(parts)


def _timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def _naive(pattern: str, flags: str):
    mapped = (regex.I if "i" in flags else 0) | (regex.M if "m" in flags else 0) | (regex.S if "s" in flags else 0)
    return regex.compile(pattern, mapped | regex.V0)


def bench_translation() -> None:
    rng = random.Random(7)
    patterns = []
    for i in range(300):
        words = rng.sample(WORDS, rng.randint(2, 8))
        patterns.append((r"\b(?:" + "|".join(words) + rf")\b\s*(\d+)?{'x' * (i % 5)}", rng.choice(["g", "gi", "gu", "gm"])))
    cache_clear()
    started = time.perf_counter()
    for source, flags in patterns:
        translate(source, flags)
    fresh = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    for source, flags in patterns:
        translate(source, flags)
    cached = (time.perf_counter() - started) * 1000
    print(f"translation: {fresh / len(patterns):.3f} ms per new pattern ({len(patterns)} patterns), "
          f"{cached * 1000 / len(patterns):.2f} µs per cached lookup")


def bench_matching(text: str, ours_ms: dict[str, float]) -> list[float]:
    mb = len(text.encode("utf-8")) / 1e6
    ratios = []
    print(f"subject: {mb:.2f} MB")
    for name, pattern, flags, replacement in CASES:
        rx = compile_js(pattern, flags, timeout=10)
        ours = _timed(lambda rx=rx, replacement=replacement: rx.replace(text, replacement))
        ours_ms[name] = ours
        ours_all = _timed(lambda rx=rx: rx.match_all(text), repeat=1)
        naive_rx = None if "u" in flags else _naive(pattern, flags)
        if naive_rx is not None:
            raw_replacement = replacement.replace("$", "\\")
            raw = _timed(lambda naive_rx=naive_rx, r=raw_replacement: naive_rx.sub(r, text))
            ratio = ours / raw if raw else float("nan")
            ratios.append(ratio)
            versus = f"raw regex {raw / mb:7.1f} ms/MB  ratio {ratio:4.2f}"
        else:
            versus = "(no raw equivalent: \\p needs u)"
        print(f"  {name:26s} replace {ours / mb:7.1f} ms/MB  matchAll {ours_all / mb:7.1f} ms/MB  {versus}")
    return ratios


def bench_v8(text: str, ours_ms: dict[str, float]) -> None:
    """V8's String.replace on the same text and patterns, in this run (node), beside ours."""
    import json
    import shutil
    import subprocess
    import tempfile

    node = shutil.which("node")
    if node is None:
        print("reference not run: node missing (V8's RegExp is the semantic reference of engine.jsregex)")
        return
    mb = len(text.encode("utf-8")) / 1e6
    with tempfile.TemporaryDirectory(prefix="rulewright-bench-") as folder:
        text_file, cases_file = Path(folder) / "text.txt", Path(folder) / "cases.json"
        text_file.write_text(text, encoding="utf-8")
        cases_file.write_text(json.dumps(CASES), encoding="utf-8")
        done = subprocess.run([node, str(V8_SCRIPT), str(text_file), str(cases_file), "3"],
                              capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        print(f"reference not run: node failed: {done.stderr.strip()[-200:]}")
        return
    v8 = json.loads(done.stdout)["best"]
    for name, ours in ours_ms.items():
        print(f"{SIDE_BY_SIDE} JS regex replace, {name}: ours {ours / mb:.1f} ms/MB wall; V8 (node) "
              f"{v8[name] / mb:.1f} ms/MB wall -> V8 faster by {ours / v8[name]:.1f}x (same text, same run)")


def bench_overhead() -> float:
    n = 20000
    samples = ["please retry", "error 42", "über café", "nothing here"]
    started = time.perf_counter()
    for i in range(n):
        compile_js(r"\b(?:please|error)\b", "i").test(samples[i % 4])
    ours = (time.perf_counter() - started) / n * 1e6
    raw_rx = regex.compile(r"\b(?:please|error)\b", regex.I)
    started = time.perf_counter()
    for i in range(n):
        raw_rx.search(samples[i % 4])
    raw = (time.perf_counter() - started) / n * 1e6
    print(f"per call: compile_js(cached)+test {ours:.1f} µs, raw regex search {raw:.1f} µs (ratio {ours / raw:.1f})")
    return ours


def main() -> int:
    text = _text(1_000_000, random.Random(11))
    bench_translation()
    ours_ms: dict[str, float] = {}
    ratios = bench_matching(text, ours_ms)
    bench_v8(text, ours_ms)
    overhead = bench_overhead()
    worst = max(ratios) if ratios else 0.0
    ok = worst <= TARGET_REPLACE_RATIO and overhead <= TARGET_OVERHEAD_US
    print(f"worst replace ratio vs raw regex: {worst:.2f} (target ≤ {TARGET_REPLACE_RATIO:g}); per-call overhead "
          f"{overhead:.1f} µs (target ≤ {TARGET_OVERHEAD_US:g}) — {'met' if ok else 'MISSED'} (wall time, best of runs)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
