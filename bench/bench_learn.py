"""Quality of learned filters: learn from some runs of a command, judge on held-out runs.

    python bench/bench_learn.py [REFERENCE_ROOT] [--seed N] [--details]

For each of the 16 commands of ``bench/learn_corpus.py`` (six seeded runs each, clean and
failing), ``rulewright learn`` drafts a filter from runs 1-3 (clean, failing, clean); runs 4-6
(failing, clean, failing) are held out. Every held-out run then goes through the whole engine
(detection, selection, the filter, engine dedup, final cap) three times:

* with the learned filter (alone, so it is the one selected);
* with our hand-written ``filters/`` (the engine selects among them, as at run time);
* with OmniRoute's built-in filters from REFERENCE_ROOT (default ../shared/reference/omniroute;
  "reference not present" when absent — nothing from it is stored in the project).

Per command and overall it prints the token savings (%) on the held-out runs and the *lines
lost*: error, failure, location and summary lines of the input missing from the output, by the
same check our own filters pass (``engine.rtk.signal``). The exit status is 1 when the learned
filters lose any line, or a draft fails its proof.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.learn_corpus import corpus  # noqa: E402

# beside the checkout (../shared), or beside the folder of worktrees (../../shared)
DEFAULT_REFERENCE = next((p / "shared" / "reference" / "omniroute" for p in (ROOT.parent, ROOT.parent.parent)
                          if (p / "shared" / "reference" / "omniroute").is_dir()),
                         ROOT.parent / "shared" / "reference" / "omniroute")
TRAIN = 3


@dataclass
class Score:
    savings: list[float]
    lost: int

    @property
    def average(self) -> float:
        return sum(self.savings) / len(self.savings) if self.savings else 0.0


def run_engine(text: str, command: str, filters: list) -> tuple[float, list[str], str | None]:
    from engine.rtk.engine import process_rtk_text
    from engine.rtk.signal import missing_lines
    from engine.rtk.verify import savings_percent

    result = process_rtk_text(text, command, {"enabled": True}, filters)
    return (savings_percent(text, result.text), missing_lines(text, result.text),
            result.filter.id if result.filter else None)


def main(argv: list[str]) -> int:
    from engine.rtk.learn import learn_filter
    from engine.rtk.model import load_filter_dir, parse_filter

    args = [a for a in argv if not a.startswith("--")]
    details = "--details" in argv
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 20
    if "--seed" in argv:
        args.remove(str(seed))
    reference_root = Path(args[0]) if args else DEFAULT_REFERENCE
    ours, _ = load_filter_dir(ROOT / "filters")
    reference = None
    if (reference_root / "filters").is_dir():
        reference, _ = load_filter_dir(reference_root / "filters")
    totals = {"learned": Score([], 0), "ours": Score([], 0), "reference": Score([], 0)}
    failed_proofs = []
    rows = []
    learn_times = []
    for name, command, runs in corpus(seed):
        train = [text for text, _ in runs[:TRAIN]]
        held_out = runs[TRAIN:]
        started = time.perf_counter()
        learned = learn_filter(train, command, pool=ours)
        learn_times.append(time.perf_counter() - started)
        if not learned.proof.passed:
            failed_proofs.append(name)
        flt, _ = parse_filter(learned.filter, source="project")
        scores = {"learned": Score([], 0), "ours": Score([], 0), "reference": Score([], 0)}
        picked = set()
        for text, failing in held_out:
            for key, pool in (("learned", [flt]), ("ours", ours), ("reference", reference)):
                if pool is None:
                    continue
                saving, lost, chosen = run_engine(text, command, pool)
                scores[key].savings.append(saving)
                scores[key].lost += len(lost)
                if key != "learned":
                    picked.add(f"{key}:{chosen}")
                if details and lost:
                    print(f"  {name} {key} ({'failing' if failing else 'clean'} run) lost: {lost}")
        for key in totals:
            totals[key].savings += scores[key].savings
            totals[key].lost += scores[key].lost
        rows.append((name, command, scores, sorted(picked), learned))
    print(f"Learned filters vs hand-written, seed {seed}: learn from {TRAIN} runs per command, judge on "
          f"{len(PLAN_HELD)} held-out runs (whole engine)")
    ref_note = "" if reference is not None else "  (reference not present)"
    print(f"{'command':<16} {'learned %':>9} {'ours %':>7} {'OmniRoute %':>11}   lines lost (learned / ours / OmniRoute)"
          + ref_note)
    for name, _, scores, picked, _ in rows:
        ref = f"{scores['reference'].average:11.1f}" if reference is not None else f"{'n/a':>11}"
        ref_lost = str(scores["reference"].lost) if reference is not None else "n/a"
        print(f"{name:<16} {scores['learned'].average:9.1f} {scores['ours'].average:7.1f} {ref}   "
              f"{scores['learned'].lost} / {scores['ours'].lost} / {ref_lost}")
        if details:
            print(f"{'':<16} selected: {', '.join(picked)}")
    ref = f"{totals['reference'].average:11.1f}" if reference is not None else f"{'n/a':>11}"
    ref_lost = str(totals["reference"].lost) if reference is not None else "n/a"
    print(f"{'all':<16} {totals['learned'].average:9.1f} {totals['ours'].average:7.1f} {ref}   "
          f"{totals['learned'].lost} / {totals['ours'].lost} / {ref_lost}")
    print(f"learning took {min(learn_times):.2f}-{max(learn_times):.2f} s per command "
          f"(median {sorted(learn_times)[len(learn_times) // 2]:.2f} s, 3 runs each, proof included)")
    if failed_proofs:
        print(f"drafts that failed their proof: {', '.join(failed_proofs)}")
    if totals["learned"].lost or failed_proofs:
        print("FAIL: learned filters lost error/summary lines on held-out runs" if totals["learned"].lost
              else "FAIL: a draft failed its proof")
        return 1
    return 0


PLAN_HELD = range(3)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
