"""Fold sample rows into a report, in bounded memory and independent of arrival order.

Workers finish in any order; every aggregate here is a sum of integers, a sorted array, or a
bounded heap whose ties are broken by the sample's position in the corpus, so a local run and a
cluster run of the same corpus give byte-identical reports (timings aside). What grows with the
corpus is one float per sample (the savings, for percentiles); everything else is capped.
"""

from __future__ import annotations

import hashlib
import heapq
import math
from array import array
from collections import Counter
from typing import Any

from engine.caveman.packs import PackError
from engine.corpus.samples import CorpusProblem
from engine.corpus.setup import EvalSetup

WORST = 20  # worst samples, top regressions and improvements listed
MAX_LOSSES = 500  # samples with losses listed (all are counted)
MAX_PROBLEMS = 200  # unreadable files or lines listed (all are counted)
SCATTER_POINTS = 2000  # A/B points kept for the scatter plot, chosen by a hash of the sample id
BINS = [(-math.inf, 0.0)] + [(float(lo), float(lo + 5)) for lo in range(0, 100, 5)]


class _Bounded:
    """The ``size`` smallest items by key, whatever order they arrive in."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._heap: list[tuple[Any, ...]] = []  # max-heap by negated key

    def offer(self, key: tuple[Any, ...], item: Any) -> None:
        entry = (tuple(_negate(k) for k in key), item)
        if len(self._heap) < self.size:
            heapq.heappush(self._heap, entry)
        elif entry[0] > self._heap[0][0]:
            heapq.heapreplace(self._heap, entry)

    def items(self) -> list[Any]:
        return [item for _key, item in sorted(self._heap, key=lambda e: e[0], reverse=True)]


def _negate(value: int | float) -> int | float:
    return -value


def _histogram(values: array[float]) -> list[dict[str, Any]]:
    counts = [0] * len(BINS)
    for v in values:  # bin 0: negative savings; then 5-point bins, 100 % in the last
        counts[0 if v < 0 else min(int(v // 5), len(BINS) - 2) + 1] += 1
    return [{"from": None if math.isinf(lo) else lo, "to": hi, "count": c} for (lo, hi), c in zip(BINS, counts)]


def _percentile(ordered: list[float], pct: float) -> float:
    if not ordered:
        return 0.0
    rank = max(0, min(len(ordered) - 1, math.ceil(pct / 100 * len(ordered)) - 1))
    return ordered[rank]


def _summary(values: array[float]) -> dict[str, Any]:
    ordered = sorted(values)
    out: dict[str, Any] = {"mean": round(math.fsum(ordered) / len(ordered), 2) if ordered else 0.0}
    for pct in (10, 25, 50, 75, 90, 99):
        out[f"p{pct}"] = _percentile(ordered, pct)
    out["min"] = ordered[0] if ordered else 0.0
    out["max"] = ordered[-1] if ordered else 0.0
    out["histogram"] = _histogram(values)
    return out


class Aggregate:
    """The report of one setup over the corpus."""

    def __init__(self, setup: EvalSetup) -> None:
        self.setup = setup
        self.count = 0
        self.errors = 0
        self.before = self.after = 0
        self.savings = array("d")
        self.by_kind: dict[str, list[int]] = {}  # kind -> [samples, tokens before, tokens after]
        self.fired: Counter[str] = Counter()
        self.saved: Counter[str] = Counter()
        self.quirks: Counter[str] = Counter()
        self.timeouts: Counter[str] = Counter()
        self.fallbacks = 0
        self.loss_samples = 0
        self.lost_total = 0
        self.worst = _Bounded(WORST)
        self.losses = _Bounded(MAX_LOSSES)
        self.error_rows = _Bounded(MAX_LOSSES)

    def add(self, index: int, row: dict[str, Any]) -> None:
        self.count += 1
        if row.get("error"):
            self.errors += 1
            self.error_rows.offer((index,), {"id": row["id"], "error": row["error"]})
            return
        self.before += row["tokensBefore"]
        self.after += row["tokensAfter"]
        self.savings.append(row["savingsPercent"])
        kind = self.by_kind.setdefault(row["kind"], [0, 0, 0])
        kind[0] += 1
        kind[1] += row["tokensBefore"]
        kind[2] += row["tokensAfter"]
        self.fired.update(row["fired"])
        self.saved.update(row["ruleSavings"])
        self.quirks.update(row["quirks"])
        self.timeouts.update(row["timeouts"])
        self.fallbacks += bool(row["fallback"])
        if row["lostCount"]:
            self.loss_samples += 1
            self.lost_total += row["lostCount"]
            self.losses.offer((index,), {"id": row["id"], "kind": row["kind"], "lostCount": row["lostCount"],
                                         "lost": row["lost"]})
        self.worst.offer((row["savingsPercent"], index), _brief(row))

    def known_names(self) -> list[str]:
        names = [f.id for f in self.setup.filters if f.id not in self.setup.context_ids]
        language = self.setup.language or "en"
        try:
            names.extend(rule.name for rule in self.setup.packs.rules_for(language))
        except PackError:  # a broken pack is already among the setup's problems
            pass
        return sorted(set(names))

    def report(self) -> dict[str, Any]:
        names = sorted(set(self.fired) | set(self.saved),
                       key=lambda name: (-self.saved[name], -self.fired[name], name))
        rules = [{"name": name, "samples": self.fired[name], "tokensSaved": self.saved[name]} for name in names]
        return {
            "setup": {"label": self.setup.label, "sources": self.setup.sources, "profile": self.setup.profile,
                      "intensity": self.setup.intensity,
                      "filters": len(self.setup.filters), "problems": list(self.setup.problems)},
            "samples": self.count, "errors": self.errors, "errorSamples": self.error_rows.items(),
            "tokens": {"before": self.before, "after": self.after,
                       "savingsPercent": round((self.before - self.after) * 100 / self.before, 2) if self.before else 0.0},
            "savings": _summary(self.savings),
            "byKind": {k: {"samples": v[0], "tokensBefore": v[1], "tokensAfter": v[2]}
                       for k, v in sorted(self.by_kind.items())},
            "rules": rules,
            "neverFired": [n for n in self.known_names() if n not in self.fired],
            "worst": self.worst.items(),
            "losses": {"samples": self.loss_samples, "lines": self.lost_total, "listed": self.losses.items()},
            "fallbacks": self.fallbacks,
            "timeouts": dict(sorted(self.timeouts.items())),
            "quirks": dict(sorted(self.quirks.items())),
        }


def _brief(row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "kind": row["kind"], "savingsPercent": row["savingsPercent"],
            "tokensBefore": row["tokensBefore"], "tokensAfter": row["tokensAfter"], "fired": row["fired"]}


class Comparison:
    """Per-sample deltas between the current setup and the baseline."""

    def __init__(self) -> None:
        self.regressions = _Bounded(WORST)
        self.improvements = _Bounded(WORST)
        self.new_losses = _Bounded(MAX_LOSSES)
        self.new_loss_samples = 0
        self.changed = 0
        self.points = _Bounded(SCATTER_POINTS)

    def add(self, index: int, row: dict[str, Any], base: dict[str, Any]) -> None:
        if row.get("error") or base.get("error"):
            return
        delta = round(row["savingsPercent"] - base["savingsPercent"], 2)
        entry = {"id": row["id"], "kind": row["kind"], "baseline": base["savingsPercent"],
                 "current": row["savingsPercent"], "delta": delta}
        if delta:
            self.changed += 1
        if delta < 0:
            self.regressions.offer((delta, index), entry)
        elif delta > 0:
            self.improvements.offer((-delta, index), entry)
        if row["lostCount"] > base["lostCount"]:
            self.new_loss_samples += 1
            self.new_losses.offer((index,), {"id": row["id"], "kind": row["kind"], "lost": row["lost"],
                                             "lostCount": row["lostCount"], "baselineLostCount": base["lostCount"]})
        digest = int.from_bytes(hashlib.blake2b(row["id"].encode("utf-8", "surrogatepass"), digest_size=8).digest())
        self.points.offer((digest, index), [base["savingsPercent"], row["savingsPercent"]])

    def report(self) -> dict[str, Any]:
        return {"changedSamples": self.changed, "topRegressions": self.regressions.items(),
                "topImprovements": self.improvements.items(),
                "newLosses": {"samples": self.new_loss_samples, "listed": self.new_losses.items()},
                "scatter": self.points.items()}


class Problems:
    """Unreadable files and lines: all counted, the first ``MAX_PROBLEMS`` listed."""

    def __init__(self) -> None:
        self.count = 0
        self.listed: list[str] = []

    def add(self, problem: CorpusProblem) -> None:
        self.count += 1
        if len(self.listed) < MAX_PROBLEMS:
            self.listed.append(str(problem))
