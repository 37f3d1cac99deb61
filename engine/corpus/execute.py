"""Run a corpus on a local process pool or on a Dask cluster, streaming results back.

Samples are read in this process and sent to the workers in chunks; at most a few chunks per
worker are in flight, so memory stays bounded however large the corpus. The setups (current
and, for A/B, baseline) travel to each worker once: as the pool's initializer arguments, or
scattered to every Dask worker with ``broadcast=True``. Results come back in any order;
``engine.corpus.aggregate`` does not depend on it.

``stop`` (a ``threading.Event``) or Ctrl+C ends the run early: queued chunks are cancelled and
what has been evaluated is reported (``partial``).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from engine.corpus.evaluate import evaluate
from engine.corpus.samples import CorpusProblem, Item, Sample
from engine.corpus.setup import EvalSetup

CHUNK_SAMPLES = 32
CHUNK_CHARS = 1 << 20  # a chunk closes at 32 samples or about a million characters
IN_FLIGHT_PER_WORKER = 3

Setups = tuple[EvalSetup, EvalSetup | None]
Result = tuple[int, dict[str, Any], dict[str, Any] | None]  # (position, row, baseline row)


@dataclass
class Progress:
    samples: int = 0
    chars: int = 0


def evaluate_chunk(setups: Setups, chunk: list[tuple[int, Sample]]) -> list[Result]:
    """Rows of a chunk under the current setup and, when given, the baseline."""
    current, baseline = setups
    return [(index, evaluate(current, sample), evaluate(baseline, sample) if baseline is not None else None)
            for index, sample in chunk]


def sample_size(sample: Sample) -> int:
    if sample.body is not None:
        return sum(_message_size(m) for m in sample.body.get("messages", []))
    return len(sample.text)


def _message_size(message: object) -> int:
    content = message.get("content") if isinstance(message, dict) else None
    return len(content) if isinstance(content, str) else 64


def chunks(items: Iterable[Item], on_problem: Callable[[CorpusProblem], None]) -> Iterator[list[tuple[int, Sample]]]:
    """Numbered samples in chunks; problems are handed to ``on_problem`` as they are met."""
    chunk: list[tuple[int, Sample]] = []
    size = 0
    index = 0
    for item in items:
        if isinstance(item, CorpusProblem):
            on_problem(item)
            continue
        chunk.append((index, item))
        index += 1
        size += sample_size(item)
        if len(chunk) >= CHUNK_SAMPLES or size >= CHUNK_CHARS:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


# ------------------------------------------------------------------ local

_WORKER_SETUPS: Setups | None = None


def _init_worker(setups: Setups) -> None:
    global _WORKER_SETUPS
    _WORKER_SETUPS = setups
    try:
        os.nice(5)  # the author's editor keeps its core
    except OSError:
        pass


def _pooled_chunk(chunk: list[tuple[int, Sample]]) -> list[Result]:
    assert _WORKER_SETUPS is not None, "worker started without its setups"
    return evaluate_chunk(_WORKER_SETUPS, chunk)


def run_local(items: Iterable[Item], setups: Setups, *, workers: int, on_result: Callable[[Result], None],
              on_problem: Callable[[CorpusProblem], None], on_chunk: Callable[[int, int], None] | None = None,
              stop: threading.Event | None = None) -> bool:
    """Evaluate every sample; returns False when stopped early."""
    stream = chunks(items, on_problem)
    if workers <= 1:
        for chunk in stream:
            if stop is not None and stop.is_set():
                return False
            for result in evaluate_chunk(setups, chunk):
                on_result(result)
            if on_chunk:
                on_chunk(len(chunk), sum(sample_size(s) for _i, s in chunk))
        return True
    context = multiprocessing.get_context("spawn")  # no fork of a process that may hold threads
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker,
                             initargs=(setups,)) as pool:
        pending: dict[Future[list[Result]], tuple[int, int]] = {}
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < workers * IN_FLIGHT_PER_WORKER:
                    if stop is not None and stop.is_set():
                        exhausted = True
                        break
                    batch = next(stream, None)
                    if batch is None:
                        exhausted = True
                        break
                    future = pool.submit(_pooled_chunk, batch)
                    pending[future] = (len(batch), sum(sample_size(s) for _i, s in batch))
                if not pending:
                    break
                done, _ = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
                if stop is not None and stop.is_set():
                    break
                for future in done:
                    counts = pending.pop(future)
                    for result in future.result():
                        on_result(result)
                    if on_chunk:
                        on_chunk(*counts)
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        if pending:
            pool.shutdown(wait=False, cancel_futures=True)
            return False
    return not (stop is not None and stop.is_set())


# ------------------------------------------------------------------ Dask

def run_dask(items: Iterable[Item], setups: Setups, *, scheduler: Any, on_result: Callable[[Result], None],
             on_problem: Callable[[CorpusProblem], None], on_chunk: Callable[[int, int], None] | None = None,
             stop: threading.Event | None = None) -> bool:
    """The same run on a Dask cluster: ``scheduler`` is an address or a ``distributed.Client``."""
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise RuntimeError("--scheduler needs Dask: pip install 'rulewright[cluster]'") from exc
    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    own_client = client is not scheduler
    try:
        shipped = client.scatter(setups, broadcast=True)  # once per worker, not once per chunk
        limit = max(2, sum(client.nthreads().values())) * IN_FLIGHT_PER_WORKER
        stream = chunks(items, on_problem)
        counts: dict[Any, tuple[int, int]] = {}
        running = as_completed()
        for _ in range(limit):
            chunk = next(stream, None)
            if chunk is None:
                break
            future = client.submit(evaluate_chunk, shipped, chunk, pure=False)
            counts[future.key] = (len(chunk), sum(sample_size(s) for _i, s in chunk))
            running.add(future)
        try:
            for future in running:
                for result in future.result():
                    on_result(result)
                if on_chunk:
                    on_chunk(*counts.pop(future.key))
                if stop is not None and stop.is_set():
                    break
                chunk = next(stream, None)
                if chunk is not None:
                    nxt = client.submit(evaluate_chunk, shipped, chunk, pure=False)
                    counts[nxt.key] = (len(chunk), sum(sample_size(s) for _i, s in chunk))
                    running.add(nxt)
            else:
                return True
        except KeyboardInterrupt:
            running.clear()
            raise
        running.clear()
        return False
    finally:
        if own_client:
            client.close()
