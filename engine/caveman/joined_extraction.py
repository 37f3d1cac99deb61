"""Protected regions of many short parts at once: each region pattern once over their texts
joined (``engine.jsregex.edges`` and ``engine.caveman.joined`` say when that is exact), each
part's matches wrapped into its own blocks, numbered as the part alone numbers them.

A chat body of ~1,250 messages spent ~280 µs a message extracting, most of it one scan per
pattern and message; joined, ~60 µs (~75 ms for the body), most of it what stays per part:
the line scans for fences and frontmatter, the stand-ins, the blocks' places.
"""

from __future__ import annotations

from bisect import bisect_right

from engine import memo
from engine.caveman.apply import budget_for
from engine.caveman.fast import FastRegex
from engine.caveman.fences import fence_spans_each
from engine.caveman.joined import choose, replace_joined
from engine.caveman.preservation import Extracting, Extraction, ExtractionPlan, PatternStep, preserve_regex
from engine.caveman.spans import join, starts_of
from engine.jsregex import RegexTimeout
from engine.jsregex.edges import SEPARATORS, separators_for, start_twin


def extract_joined(texts: list[str], custom: list[FastRegex], *, profile: str = "omniroute",
                   timeout: float | None = None, use_stand_ins: bool = True) -> list[Extraction | RegexTimeout]:
    """``preservation.extract`` of each text: its extraction, or the ``RegexTimeout`` that
    stopped it. Parts with the same placeholder seed share each joinable pattern's scan; a part
    on pooled stand-ins runs alone."""
    plan = ExtractionPlan.of(profile, custom)
    jobs = [Extracting(text, plan, use_stand_ins=use_stand_ins, fences=fences)
            for text, fences in zip(texts, fence_spans_each(texts))]
    failed: dict[int, RegexTimeout] = {}
    groups: dict[str, list[int]] = {}
    for i, job in enumerate(jobs):
        if job.pooled:
            _alone(jobs, i, job.steps, timeout, failed)
        else:
            groups.setdefault(job.seed, []).append(i)
    for members in groups.values():
        _Joined(jobs, members, timeout, failed).run()
    return [failed[i] if i in failed else job.finish() for i, job in enumerate(jobs)]


def _alone(jobs: list[Extracting], i: int, steps: tuple[PatternStep, ...], timeout: float | None,
           failed: dict[int, RegexTimeout]) -> None:
    try:
        for step in steps:
            jobs[i].run_alone(step, timeout)
    except RegexTimeout as exc:
        failed[i] = exc


class _Joined:
    """The pattern steps of parts that share a seed, step by step."""

    def __init__(self, jobs: list[Extracting], members: list[int], timeout: float | None,
                 failed: dict[int, RegexTimeout]) -> None:
        self.jobs = jobs
        self.live = members  # (a part a pattern stopped on leaves)
        self.timeout = timeout
        self.failed = failed
        self.separator = SEPARATORS[0]
        self.texts = [jobs[i].text for i in members]  # (the live parts' texts, as ``joined`` holds them)
        self.joined, self.starts = join(self.texts, self.separator)

    def run(self) -> None:
        steps = self.jobs[self.live[0]].steps  # (the same for every part: profile and custom patterns)
        for number, step in enumerate(steps):
            if not self.live:
                return
            lead = self.jobs[self.live[0]]
            rx = lead.regex(step)
            accepted = separators_for(rx.source, rx.flags) if len(self.live) > 1 else ()
            # (a line break where it may: the region patterns' classes mostly stop at one, so
            # fewer matches run into the next part, and a long run of openers stays in its part)
            separator = choose(accepted, SEPARATORS[0] if SEPARATORS[0] in accepted else self.separator)
            twin = start_twin(rx.source, rx.flags) if separator is None and len(self.live) > 1 else None
            if twin is not None:  # (a pattern anchored at the text's start: its m twin, at the parts' starts)
                rx, separator = _twin_regex(rx.source, twin), SEPARATORS[0]
            if separator is None:
                if self._each_alone(number, range(len(self.live))):
                    self._rejoin()
                continue
            if separator != self.separator:
                self.separator = separator
                self._rejoin()
            if not lead.skips(step, self.joined):  # (literals no part holds: nothing to run)
                self._step(number, step, rx, at_starts=twin is not None)

    def _each_alone(self, number: int, which: range | list[int]) -> bool:
        """Step ``number`` on each of these parts (places in ``live``) alone. Returns whether the
        joined text no longer holds the live parts' texts (one moved on, or a part stopped)."""
        stopped = []
        moved = False
        for k in which:
            i = self.live[k]
            before = self.jobs[i].text
            try:
                self.jobs[i].run_alone(self.jobs[i].steps[number], self.timeout)
            except RegexTimeout as exc:
                self.failed[i] = exc
                stopped.append(i)
            moved = moved or self.jobs[i].text is not before
        if stopped:
            self.live = [i for i in self.live if i not in stopped]
        return moved or bool(stopped)

    def _rejoin(self) -> None:
        self.texts = [self.jobs[i].text for i in self.live]
        self.joined, self.starts = join(self.texts, self.separator)

    def _step(self, number: int, step: PatternStep, rx: FastRegex, *, at_starts: bool = False) -> None:
        """``step`` over the joined parts on ``rx``; ``at_starts``: a ``start_twin``, whose
        matches count at the parts' starts alone (the others are left as they are)."""
        jobs, live, starts = self.jobs, self.live, self.starts
        wrapped: dict[int, list[str]] = {}  # part → the matches it wraps, in order

        def values_of(offsets: list[int], matched: list[str]) -> list[str]:
            out = []
            for at, s in zip(offsets, matched):
                if not Extracting.wraps(s):
                    out.append(s)
                    continue
                k = bisect_right(starts, at) - 1
                if at_starts and at != starts[k]:
                    out.append(s)
                    continue
                job = jobs[live[k]]
                taken = wrapped.setdefault(k, [])
                out.append(job.placeholder(job.block_count + len(taken)))
                taken.append(s)
            return out

        try:
            result = replace_joined(rx, self.joined, starts, values_of, budget_for(self.joined, self.timeout))
        except RegexTimeout:
            if self._each_alone(number, range(len(live))):  # (each part says so where it happens)
                self._rejoin()
            return
        finally:
            rx.forget()
        whole = not result.crossed
        texts = self.texts
        for k, piece in result.pieces.items():
            job = jobs[live[k]]
            if piece == texts[k]:
                continue
            if job.skips(step):  # (a kind the part lacks the literals for never runs on it)
                whole = False
                continue
            job.take(step, piece, wrapped.get(k, []))
        if result.crossed:
            self._each_alone(number, sorted(result.crossed))
        if whole:  # (every piece is its part's text now: the same, or taken)
            for k, piece in result.pieces.items():
                texts[k] = piece
            self.joined = result.joined
            self.starts = starts_of(texts) if result.pieces else self.starts
        else:
            self._rejoin()


@memo.lru(maxsize=64)
def _twin_regex(source: str, flags: str) -> FastRegex:
    """A ``start_twin``'s regex (with the defaults' candidate finders), made once."""
    return preserve_regex(source, flags)
