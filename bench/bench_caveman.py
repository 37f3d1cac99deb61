"""Caveman throughput on synthetic English prose (10 KB, 1 MB, 8 MB) at ``full``, and on 1 MB of
mixed prose (code, links, emoji) for information.

    python bench/bench_caveman.py [RULES_DIR]

RULES_DIR defaults to OmniRoute's packs in ../shared/reference/omniroute/rules (read only, when
present); without it the benchmark says so and exits 0. The prose is generated here from a
seeded vocabulary (no reference text is used). Targets: ≤ 100 ms per MB, and linear
(8 MB ≤ 9 × the 1 MB time). OmniRoute itself needs about 5 s per MB (its placeholder restore is
quadratic).
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_RULES = ROOT.parent / "shared" / "reference" / "omniroute" / "rules"
OUR_RULES = ROOT / "rules"
REFERENCE_MS_PER_MB = 5000.0
TARGET_MS_PER_MB = 100.0

_SUBJECTS = ("the service", "our build", "a worker", "the parser", "this module", "the cache", "an index",
             "the scheduler", "my script", "the request handler", "the database layer", "a client")
_VERBS = ("returns", "loads", "rejects", "retries", "parses", "writes", "reads", "drops", "validates",
          "renders", "sends", "stores")
_OBJECTS = ("the response", "a large payload", "the configuration", "every record", "an empty list",
            "the session token", "a stale value", "the authentication header", "the dependency graph",
            "a partial result", "the implementation details", "the application state")
_FILLERS = ("basically", "actually", "really", "quite", "simply", "currently", "very", "probably")
_OPENERS = ("Please", "I think that", "In order to fix it,", "Furthermore,", "However,", "Note that",
            "It seems like", "To be honest,", "Could you please check why", "As mentioned before,")
_TAILS = ("when the queue is full", "after a restart", "for every request", "in production",
          "on the second run", "without any warning", "as well as the logs", "each and every time")
_EXTRAS = ("see `retry()` in the docs", "version 2.4.1", "https://example.org/docs/page",
           "the MAX_RETRY limit", "file ./src/app/main.ts", "thanks in advance")


def sentence(rng: random.Random) -> str:
    parts = []
    if rng.random() < 0.35:
        parts.append(rng.choice(_OPENERS))
    parts.append(rng.choice(_SUBJECTS))
    if rng.random() < 0.4:
        parts.append(rng.choice(_FILLERS))
    parts += [rng.choice(_VERBS), rng.choice(_OBJECTS)]
    if rng.random() < 0.5:
        parts.append(rng.choice(_TAILS))
    if rng.random() < 0.08:
        parts.append("(" + rng.choice(_EXTRAS) + ")")
    text = " ".join(parts)
    return text[0].upper() + text[1:] + rng.choice((".", ".", ".", "?", "!"))


def prose(size: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    paragraphs, total = [], 0
    while total < size:
        para = " ".join(sentence(rng) for _ in range(rng.randint(3, 7)))
        paragraphs.append(para)
        total += len(para) + 2
    return "\n\n".join(paragraphs)[:size]


_CODE_BITS = ("see `fetch_{i}()` first", "open https://example.org/item/{i}?page=2",
              "call client{i}.send(payload)", "raise LIMIT_{i}_EXCEEDED", "pin v{i}.4.{j}",
              "edit ./src/mod{i}/index.ts", "the 😀 reaction {i}", "ΔT was {i} ms")


def mixed_prose(size: int, seed: int = 11) -> str:
    """The same prose with what real requests carry every few sentences: inline code, links,
    calls, constants, versions and paths that differ from one another, emoji (astral
    characters: UTF-16 offsets differ from indices) and non-ASCII letters."""
    rng = random.Random(seed)
    paragraphs, total, i = [], 0, 0
    while total < size:
        parts = []
        for _ in range(rng.randint(3, 7)):
            parts.append(sentence(rng))
            if rng.random() < 0.3:
                i += 1
                parts.append(rng.choice(_CODE_BITS).format(i=i, j=i % 10) + ".")
        para = " ".join(parts)
        paragraphs.append(para)
        total += len(para) + 2
    return "\n\n".join(paragraphs)[:size]


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # not available on this platform
        return "unknown"


def main(argv: list[str]) -> int:
    rules = Path(argv[0]) if argv else DEFAULT_RULES
    if not (rules / "en").is_dir():
        print(f"skipped: no English pack at {rules} (pass a rules folder laid out <lang>/<category>.json)")
        return 0
    from engine.caveman import Compressor, PackSource

    source = PackSource.from_dir(rules)
    source.rules_for("en")
    config = {"enabled": True, "minMessageLength": 0, "intensity": "full", "compressRoles": ["user"]}

    def timed(text: str, repeat: int, packs: PackSource = source, cfg: dict = config) -> tuple[float, float, str]:
        """Best wall time and best CPU time (the CPU time is steadier on a busy machine). Best of
        ``repeat`` runs: the first run at a new size also pays the page faults of the process's
        heap growing to hold its strings (~18 k more on 8 MB, ~10 % of that run)."""
        best, best_cpu, out = float("inf"), float("inf"), ""
        for _ in range(repeat):
            started, started_cpu = time.perf_counter(), time.process_time()
            result = Compressor(packs, cfg).compress_body({"messages": [{"role": "user", "content": text}]})
            best = min(best, time.perf_counter() - started)
            best_cpu = min(best_cpu, time.process_time() - started_cpu)
            out = result.body["messages"][0]["content"]
        return best, best_cpu, out

    timed(prose(10_000), 1)  # warm the regex translation caches
    print(f"load average before: {_load()}  (CPU time is inflated on a busy machine)")
    figures = {}
    for label, size, repeat in (("10 KB", 10_000, 20), ("1 MB", 1_000_000, 3), ("8 MB", 8_000_000, 3)):
        text = prose(size)
        seconds, cpu, out = timed(text, repeat)
        mb = len(text.encode("utf-8")) / 1_000_000
        figures[label] = cpu
        print(f"{label:>5}: wall {seconds * 1000:9.1f} ms  cpu {cpu * 1000:9.1f} ms  {cpu * 1000 / mb:7.1f} ms/MB (cpu)  "
              f"output {len(out) / len(text):.3f} of input  "
              f"{REFERENCE_MS_PER_MB / (cpu * 1000 / mb):6.1f}x faster than OmniRoute (~5 s/MB)")
    text = mixed_prose(1_000_000)
    _seconds, cpu, out = timed(text, 3)
    mb = len(text.encode("utf-8")) / 1_000_000
    print(f"mixed 1 MB (code, links, emoji; no target): cpu {cpu * 1000:7.1f} ms  {cpu * 1000 / mb:7.1f} ms/MB (cpu)  "
          f"output {len(out) / len(text):.3f} of input")
    text = prose(1_000_000)
    _seconds, cpu, out = timed(text, 3, PackSource.from_dir(OUR_RULES), {**config, "language": "en"})
    print(f"our English pack (rules/en) on the same 1 MB (no target): cpu {cpu * 1000:7.1f} ms/MB  "
          f"output {len(out) / len(text):.3f} of input")
    one, eight = figures["1 MB"], figures["8 MB"]
    per_mb = one * 1000
    linear = eight / one
    print(f"1 MB: {per_mb:.1f} ms/MB (target <= {TARGET_MS_PER_MB:.0f})  "
          f"8 MB / 1 MB time ratio: {linear:.2f} (target <= 9)")
    print(f"load average after: {_load()}")
    ok = per_mb <= TARGET_MS_PER_MB and linear <= 9
    print("targets met" if ok else "targets NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
