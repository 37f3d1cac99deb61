"""Caveman on hostile text: every stage stays linear, whatever the text holds.

The three corpora of ``bench_caveman`` are text people send; this bench is text built to break
a scan: a megabyte of one opener and no closer (backticks, fences, ``[``, ``\\begin{a}``), of
items packed edge to edge (``$``, ``A_``, ``1.``), of stack lines, of one endless line, of
noise. Each case is compressed (both profiles), explained, and compressed as a chat body of
800-character messages (whose parts run joined), at 256 KB and 1 MB, in a process of its own, and prints CPU ms per MB and the growth from 256 KB to 1 MB (4 is linear; a scan
that walks back over the text per item shows 10 and more). It misses its target when a growth
passes ``GROWTH_LIMIT`` (confirmed from 1 to 4 MB: a quarter MB that fits the caches can flatter
the smaller time) or a case does not finish within ``CASE_SECONDS``.

A case may cost far more per MB than prose (every character an item is work per item) and may
end in a ``CAV-timeout`` (the reference's own ``markdown_link`` pattern is quadratic on
``[a](`` repeated: the part is then left unchanged, after the regex budget), but never grows
faster than the text. OmniRoute is not run here: several of these cases are quadratic in it.

``python bench/bench_caveman_hostile.py [CASE...]``
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.bench_caveman import verdict  # noqa: E402

SIZES = (1 << 18, 1 << 20)
GROWTH_LIMIT = 6.0  # 1 MB / 256 KB: 4 is linear; the rest is room for caches and a noisy host
CASE_SECONDS = 240
REPEATS = 2
NOISE_MS = 100  # a 1 MB time below this is not judged: its growth is caches and timer noise (a quadratic case is far above)
MESSAGE = 800  # the "body" mode cuts the text into messages of this many characters
WORDS = ["the", "basically", "really", "actually", "just", "simply", "please", "note", "that", "in", "order", "to", "very", "a", "an", "it", "is"]


def _repeat(unit: str) -> Callable[[int], str]:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


def _one_line(n: int) -> str:
    rnd = random.Random(7)
    return " ".join(rnd.choice(WORDS) for _ in range(n // 5))[:n]


def _noise(n: int) -> str:
    rnd = random.Random(7)
    alphabet = "ab `$_.()[]{}\n\r\t/:#*~-=<>\"'\\0123456789AZ\u00e9\u00df\U0001F600\u0130"
    return "".join(rnd.choice(alphabet) for _ in range(n))


CASES: dict[str, Callable[[int], str]] = {
    "backticks": _repeat("`"),
    "unclosed fences": _repeat("```\n"),
    "tilde fences": _repeat("~~~py\ntext\n"),
    "inline code pairs": _repeat("`a` "),
    "calls": _repeat("f("),
    "nested parens": lambda n: "(" * (n // 2) + ")" * (n // 2),
    "schemes": _repeat("http://"),
    "urls": _repeat("https://a.b/c?d=e "),
    "one line of words": _one_line,
    "CRLF paragraphs": _repeat("basically the\r\n\r\n"),
    "CR only": _repeat("really a\r"),
    "dollars": _repeat("$"),
    "math blocks": _repeat("$$x"),
    "CONST_CASE run": _repeat("A_"),
    "digit dots": _repeat("1."),
    "versions": _repeat("v1.2.3-"),
    "emoji": _repeat("\U0001F600 the "),
    "combining marks": _repeat("e\u0301 basically "),
    "placeholder look-alikes": _repeat("\x00OMNI_CAVEMAN_"),
    "link openers": _repeat("[a]("),
    "unclosed labels": lambda n: "[" * (n - 1) + "]",
    "headings": _repeat("# "),
    "emphasis": _repeat("**a"),
    "dots": _repeat("a."),
    "spaces": _repeat(" "),
    "newlines": _repeat("\n"),
    "LaTeX openers": _repeat("\\begin{a}"),
    "paths": _repeat("./a/"),
    "stack lines": _repeat("Error: x\n    at y\n"),
    "noise": _noise,
}


def child(name: str, sizes: tuple[int, ...] = SIZES, only: str | None = None) -> None:
    """Measure one case: print ``{mode: [ms at each size]}`` as JSON (``only``: that mode)."""
    from bench.bench_caveman import DEFAULT_RULES
    from engine.caveman import Compressor, PackSource
    from engine.caveman.explain import explain

    packs = PackSource.from_dir(Path(DEFAULT_RULES))
    config = {"enabled": True, "minMessageLength": 0, "intensity": "full", "compressRoles": ["user"]}

    def compress(profile: str) -> Callable[[str], object]:
        return lambda text: Compressor(packs, config, profile=profile).compress_body(
            {"messages": [{"role": "user", "content": text}]})

    def body(text: str) -> object:  # (the text as a chat body of messages: the parts run joined)
        return Compressor(packs, config, profile="omniroute").compress_body(
            {"messages": [{"role": "user", "content": text[k:k + MESSAGE]} for k in range(0, len(text), MESSAGE)]})

    modes: dict[str, Callable[[str], object]] = {
        "omniroute": compress("omniroute"), "strict": compress("strict"),
        "explain": lambda text: explain(text, packs, config), "body": body}
    out: dict[str, list[float]] = {}
    for mode, run in modes.items():
        if only is not None and mode != only:
            continue
        for size in sizes:
            text = CASES[name](size)
            best = float("inf")
            for _ in range(REPEATS):
                started = time.process_time()
                run(text)
                best = min(best, time.process_time() - started)
            out.setdefault(mode, []).append(best * 1000)
    print(json.dumps(out))


def _run_child(name: str, *extra: str) -> dict[str, list[float]] | str:
    """The child's times, or why there are none."""
    try:
        done = subprocess.run([sys.executable, __file__, "--child", name, *extra], capture_output=True, text=True,
                              timeout=CASE_SECONDS, cwd=HERE.parent)
    except subprocess.TimeoutExpired:
        return f"did not finish within {CASE_SECONDS} s"
    if done.returncode:
        return f"failed: {done.stderr.strip().splitlines()[-1:]}"
    times: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return times


def main(names: list[str]) -> int:
    missed = []
    print(f"CPU ms per MB at {SIZES[-1] >> 20} MB (best of {REPEATS}) and growth {SIZES[-1] >> 10} KB / "
          f"{SIZES[0] >> 10} KB (target <= {GROWTH_LIMIT}; 4 is linear)")
    for name in names or list(CASES):
        times = _run_child(name)
        if isinstance(times, str):
            print(f"  {name:24} {times}", flush=True)
            missed.append(f"{name}: {times}")
            continue
        cells = []
        for mode, (small, large) in times.items():
            growth = large / max(small, 0.5)
            cells.append(f"{mode} {large / (SIZES[-1] / (1 << 20)):7.0f} ms/MB x{growth:4.1f}")
            if growth > GROWTH_LIMIT and large > NOISE_MS:
                # a small size that fits the caches can flatter the ratio: measured again, 1 → 4 MB
                again = _run_child(name, str(SIZES[-1]), str(4 * SIZES[-1]), mode)
                if isinstance(again, str) or again[mode][1] / max(again[mode][0], 0.5) > GROWTH_LIMIT:
                    missed.append(f"{name} {mode}: growth {growth:.1f}"
                                  + (f", 4 MB / 1 MB {again[mode][1] / max(again[mode][0], 0.5):.1f}"
                                     if not isinstance(again, str) else f" ({again})"))
                else:
                    cells[-1] += f" (4 MB / 1 MB x{again[mode][1] / max(again[mode][0], 0.5):.1f})"
        print(f"  {name:24} " + " | ".join(cells), flush=True)
    return verdict(missed, "all cases linear")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        if len(sys.argv) > 3:
            child(sys.argv[2], (int(sys.argv[3]), int(sys.argv[4])), sys.argv[5])
        else:
            child(sys.argv[2])
    else:
        sys.exit(main(sys.argv[1:]))
