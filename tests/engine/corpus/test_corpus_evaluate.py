"""One sample through the engine, and the report folded from many."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.corpus.aggregate import Aggregate, Comparison
from engine.corpus.evaluate import evaluate
from engine.corpus.samples import Sample
from engine.corpus.setup import load_setup
from engine.workspace.templates import new_filter

from .conftest import PROSE


def test_prose_row_names_the_rules_that_fired_and_what_they_saved(rules_dir, filters_dir):
    setup = load_setup("t", rules=rules_dir, filters=filters_dir)
    row = evaluate(setup, Sample("s", "prose", text=PROSE))
    assert row["fired"] == ["basically", "please"]
    assert row["tokensAfter"] < row["tokensBefore"]
    assert set(row["ruleSavings"]) == {"basically", "please"} and all(v > 0 for v in row["ruleSavings"].values())
    assert row["lostCount"] == 0 and row["error"] is None


def test_an_output_row_counts_the_error_lines_a_filter_dropped(rules_dir, tmp_path):
    folder = tmp_path / "greedy"
    folder.mkdir()
    greedy = new_filter(set())
    greedy.update(id="greedy", label="greedy", category="build")
    greedy["match"]["commands"] = ["^make\\b"]
    greedy["rules"]["dropPatterns"] = ["error"]
    (folder / "greedy.json").write_text(json.dumps(greedy), encoding="utf-8")
    setup = load_setup("t", rules=rules_dir, filters=folder)
    text = "building\nerror: missing header foo.h\nsrc/a.c:3:1: error: bad\n" + "cc -c x.c\n" * 30
    row = evaluate(setup, Sample("o", "output", text=text, command="make all"))
    assert row["filter"] == "greedy"
    assert row["lostCount"] == 2
    assert row["lost"] == ["error: missing header foo.h", "src/a.c:3:1: error: bad"]


def test_a_protected_region_that_changes_is_a_loss(tmp_path, filters_dir):
    folder = tmp_path / "rules" / "en"
    folder.mkdir(parents=True)
    (folder / "bad.json").write_text(json.dumps({"language": "en", "category": "bad", "rules": [
        {"name": "eats_paths", "pattern": "config", "replacement": "cfg", "flags": "g"}]}), encoding="utf-8")
    setup = load_setup("t", rules=folder.parent, filters=filters_dir, profile="strict")
    row = evaluate(setup, Sample("p", "prose", text=PROSE))
    # the reference's validation falls back to the original when a protected region changed,
    # so nothing is lost, and the fallback is counted
    assert row["fallback"] is True or row["lostCount"] == 0


def _rows(n: int, seed: int) -> list[tuple[int, dict]]:
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        before = rng.randint(1, 500)
        after = rng.randint(0, before)
        lost = rng.randint(0, 2) if rng.random() < 0.2 else 0
        fired = rng.sample(["a", "b", "c", "d"], rng.randint(0, 2))
        rows.append((i, {"id": f"s{i}", "kind": rng.choice(["prose", "chat", "output"]), "format": "text",
                         "command": None, "tokensBefore": before, "tokensAfter": after,
                         "savingsPercent": round((before - after) * 100 / before, 2), "fired": fired, "filter": None,
                         "fallback": rng.random() < 0.1, "timeouts": [], "quirks": ["CAV-Q1"] if lost else [],
                         "lost": ["x"] * lost, "lostCount": lost, "ruleSavings": {f: 1 for f in fired},
                         "error": "boom" if rng.random() < 0.02 else None}))
    return rows


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=120), st.integers(), st.randoms(use_true_random=False))
def test_the_report_does_not_depend_on_the_order_results_arrive_in(n, seed, shuffler):
    from engine.caveman.packs import PackSource
    from engine.corpus.setup import EvalSetup

    setup = EvalSetup("t", PackSource(), [])
    rows = _rows(n, seed)
    ordered, shuffled = Aggregate(setup), Aggregate(setup)
    ab_ordered, ab_shuffled = Comparison(), Comparison()
    for index, row in rows:
        ordered.add(index, row)
        ab_ordered.add(index, row, rows[(index + 1) % n][1] | {"id": row["id"]} if n else row)
    mixed = list(rows)
    shuffler.shuffle(mixed)
    for index, row in mixed:
        shuffled.add(index, row)
        ab_shuffled.add(index, row, rows[(index + 1) % n][1] | {"id": row["id"]} if n else row)
    assert json.dumps(ordered.report()) == json.dumps(shuffled.report())
    assert json.dumps(ab_ordered.report()) == json.dumps(ab_shuffled.report())
    report = ordered.report()
    assert report["samples"] == n
    assert sum(b["count"] for b in report["savings"]["histogram"]) == n - report["errors"]
    assert report["losses"]["samples"] == sum(1 for _i, r in rows if r["lostCount"] and not r["error"])
