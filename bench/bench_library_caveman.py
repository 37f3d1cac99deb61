"""Savings of our built-in Caveman packs (``rules/``) against OmniRoute's packs, per language.

    python bench/bench_library_caveman.py [REFERENCE_ROOT] [--only=en,de]

REFERENCE_ROOT defaults to OmniRoute's packs in ../shared/reference/omniroute/rules. The prose is
the ``text`` field of every case in ../shared/conformance/cases/caveman.jsonl, grouped by the
case's ``language`` (each distinct text once), read at run time and never stored. Both pack sets
compress the same texts with the same engine (profile ``omniroute``, role ``user``,
``minMessageLength`` 0, default protected regions). Savings % = 100 × (Σ original − Σ compressed)
/ Σ original with tokens = ceil(UTF-16 length / 4), per text part as OmniRoute counts them.
"Fallbacks" counts texts whose validation failed (the part was kept whole); "from our rules" are those
that do not fall back when no rule runs at all (the others come from the engine's second cleanup over
protected text, CAV-Q1, and fall back with any pack).

Without the reference folder or the cases the benchmark says so and exits 0. Exit 1 when ours
saves less than the reference somewhere or one of our rules causes a fallback; the table shows where.
"""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared"
DEFAULT_REFERENCE = SHARED / "reference" / "omniroute" / "rules"
CASES = SHARED / "conformance" / "cases" / "caveman.jsonl"
OURS = ROOT / "rules"
LANGUAGES = ("en", "es", "pt-BR", "de", "fr", "id", "ja", "zh")
INTENSITIES = ("lite", "full", "ultra")


def load_texts(cases: Path) -> dict[str, list[str]]:
    """Distinct case texts per language, in file order."""
    by_language: dict[str, dict[str, None]] = defaultdict(dict)
    with cases.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            case = json.loads(line)
            text, language = case.get("text"), case.get("language")
            if isinstance(text, str) and language in LANGUAGES:
                by_language[language][text] = None
    return {lang: list(texts) for lang, texts in by_language.items()}


def measure(source, language: str, intensity: str, texts: list[str]) -> dict[str, float]:
    """Token totals, savings % and fallback count for one pack set on one language's texts."""
    from engine.caveman import Compressor
    from engine.jsvalues import math_round

    config = {"enabled": True, "minMessageLength": 0, "intensity": intensity, "compressRoles": ["user"],
              "language": language, "autoDetectLanguage": False}
    original = compressed = 0
    fallbacks: set[int] = set()
    for i, text in enumerate(texts):
        stats = Compressor(source, config, diagnose=False).compress_body(
            {"messages": [{"role": "user", "content": text}]}).stats
        original += stats["originalTokens"]
        compressed += stats["compressedTokens"]
        if stats.get("fallbackApplied"):
            fallbacks.add(i)
    savings = math_round((original - compressed) / original * 10000) / 100 if original else 0.0
    return {"original": original, "compressed": compressed, "savings": savings, "fallbacks": fallbacks}


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--only=")]
    only = {lang for a in argv if a.startswith("--only=") for lang in a[len("--only="):].split(",")}
    reference = Path(args[0]) if args else DEFAULT_REFERENCE
    if not (reference / "en").is_dir():
        print(f"reference not run: no reference packs at {reference} (pass OmniRoute's rules folder)")
        return 0
    if not CASES.is_file():
        print(f"reference not run: no conformance prose at {CASES}")
        return 0
    from engine.caveman import PackSource

    texts = load_texts(CASES)
    ours, theirs, no_rules = PackSource.from_dir(OURS), PackSource.from_dir(reference), PackSource()
    started = time.perf_counter()
    print("| language | texts | intensity | reference savings % | ours savings % | Δ pts | "
          "our fallbacks | of which from our rules | reference fallbacks |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    short: list[str] = []
    for language in LANGUAGES:
        if language not in texts or (only and language not in only):
            continue
        for intensity in INTENSITIES:
            ref = measure(theirs, language, intensity, texts[language])
            own = measure(ours, language, intensity, texts[language])
            # texts that fall back with no rules at all (the engine's CAV-Q1 second cleanup)
            base = measure(no_rules, language, intensity, texts[language])
            ours_only = own["fallbacks"] - base["fallbacks"]
            delta = own["savings"] - ref["savings"]
            print(f"| {language} | {len(texts[language])} | {intensity} | {ref['savings']:.2f} | "
                  f"{own['savings']:.2f} | {delta:+.2f} | {len(own['fallbacks'])} | {len(ours_only)} | "
                  f"{len(ref['fallbacks'])} |")
            if delta < 0 or ours_only:
                short.append(f"{language}/{intensity}")
    print(f"\n{sum(map(len, texts.values()))} texts, {time.perf_counter() - started:.1f} s. Fallbacks that happen "
          "with no rules at all come from the engine's second cleanup over protected text (CAV-Q1).")
    if short:
        print(f"below the reference or with rule-caused fallbacks: {', '.join(short)}")
        return 1
    print("ours saves at least as much as the reference everywhere, with 0 rule-caused fallbacks")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
