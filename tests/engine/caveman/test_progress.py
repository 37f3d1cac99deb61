"""A compression's progress is the body's, by characters: it only goes forward, ends at 1, and
asking for it changes neither the result nor the path (a body's short parts still go joined)."""

from __future__ import annotations

import importlib
import random

import pytest

from bench.agent_corpus import message
from engine.caveman import Compressor, PackSource
from engine.paths import builtin_rules_dir

compress_module = importlib.import_module("engine.caveman.compress")  # (the package exports a function by that name)
CONFIG = {"enabled": True, "minMessageLength": 0, "compressRoles": ["user"], "intensity": "full"}


def _body(seed: int, count: int, long_at: int | None = None) -> dict:
    rng = random.Random(seed)
    texts = [message(rng).split(": ", 1)[1] for _ in range(count)]
    if long_at is not None:  # (a part too long to join: it goes alone, between two batches)
        texts[long_at] = " ".join(texts) * 3
    return {"messages": [{"role": "user", "content": text} for text in texts]}


def _run(body: dict, profile: str, progress=None):
    compressor = Compressor(PackSource.from_dir(builtin_rules_dir()), CONFIG, profile=profile, progress=progress)
    result = compressor.compress_body(body)
    return compressor, (result.body, [(d.code, d.message) for d in result.diagnostics])


@pytest.mark.parametrize("profile", ["omniroute", "strict"])
@pytest.mark.parametrize("long_at", [None, 20])
def test_a_bodys_progress_goes_forward_to_one_and_changes_nothing(profile, long_at, monkeypatch):
    body = _body(3, 40, long_at)
    joined = []
    real = compress_module.Compressor._compress_joined
    monkeypatch.setattr(compress_module.Compressor, "_compress_joined",
                        lambda self, jobs, shares: (joined.append(len(jobs)), real(self, jobs, shares))[1])
    seen: list[tuple[float, str]] = []
    _compressor, with_progress = _run(body, profile, lambda fraction, stage: seen.append((fraction, stage)))
    assert max(joined) > 1  # (the short parts went joined, as without progress)
    fractions = [f for f, _stage in seen]
    assert fractions == sorted(fractions) and fractions[0] >= 0 and fractions[-1] == pytest.approx(1.0)
    assert len(seen) > 40  # (stages and rules of the batches, and each part's validation)
    if long_at is not None:  # the long part's own stages, at its share of the body (more than half)
        stages = {stage for _f, stage in seen}
        assert {"protected regions", "cleanup", "validation"} <= stages
    monkeypatch.undo()
    _compressor, without = _run(body, profile)
    assert with_progress == without


def test_one_parts_progress_is_its_stages():
    seen: list[float] = []
    _run(_body(5, 1), "omniroute", lambda fraction, _stage: seen.append(fraction))
    assert seen[0] == pytest.approx(0.2) and seen[-1] == pytest.approx(1.0) and seen == sorted(seen)


def test_a_callback_that_raises_stops_the_run_and_the_compressor_runs_again():
    body = _body(7, 30)
    calls = [0]

    class Cancelled(Exception):
        pass

    def cancel_midway(fraction: float, _stage: str) -> None:
        calls[0] += 1
        if fraction > 0.5:
            raise Cancelled

    compressor = Compressor(PackSource.from_dir(builtin_rules_dir()), CONFIG, progress=cancel_midway)
    with pytest.raises(Cancelled):
        compressor.compress_body(body)
    compressor.progress = None
    again = compressor.compress_body(body)
    _c, fresh = _run(body, "omniroute")
    assert (again.body, [(d.code, d.message) for d in again.diagnostics]) == fresh
