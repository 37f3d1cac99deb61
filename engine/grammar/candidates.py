"""What the parsers produce: candidates with ranges, and the quirks that shaped them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.grammar.textscan import FenceTest

GRAMMAR_NAMES: tuple[str, ...] = (
    "dsml", "invoke", "qwen", "kimi", "mistral", "llama", "glm", "granite", "minimax-text", "olmo",
)


@dataclass(frozen=True)
class QuirkHit:
    """One place where a GRM-Qn behaviour (or its strict fix) made a difference."""

    quirk: str
    message: str


class Hits(list[QuirkHit]):
    """A list of QuirkHit with a one-call ``add``."""

    def add(self, quirk: str, message: str) -> None:
        hit = QuirkHit(quirk, message)
        if hit not in self:
            self.append(hit)


@dataclass
class Call:
    """A parsed call before it gets a range and a label."""

    name: str
    arguments: dict[str, Any]
    hits: Hits = field(default_factory=Hits)


@dataclass
class Candidate:
    """A call (or a strip-only DSML marker) found in one text part; ``[start, end)`` in code points."""

    name: str
    arguments: dict[str, Any]
    grammar: str
    start: int
    end: int
    strip_only: bool = False
    hits: Hits = field(default_factory=Hits)

    @property
    def range(self) -> tuple[int, int]:
        return self.start, self.end

    @classmethod
    def of(cls, call: Call, grammar: str, start: int, end: int) -> Candidate:
        return cls(call.name, call.arguments, grammar, start, end, hits=Hits(call.hits))


@dataclass
class ParseContext:
    """One text part being parsed under one profile."""

    text: str
    strict: bool
    enabled: frozenset[str]
    fence: FenceTest = field(init=False)
    hits: Hits = field(init=False)  # text-level notes that belong to no candidate

    def __post_init__(self) -> None:
        self.fence = FenceTest(self.text, strict=self.strict)
        self.hits = Hits()

    def fenced(self, index: int) -> bool:
        return self.fence.inside(index)

    def has(self, grammar: str) -> bool:
        return grammar in self.enabled


def select_candidates(candidates: list[Candidate]) -> list[Candidate]:
    """§4: earliest, then longest, wins; identical ranges all survive (GRM-Q1, GRM-Q9).

    Walking in start order, a candidate can only clash with kept ones that end after its start,
    so only those stay in view; the walk is linear for the usual flat text.
    """
    ordered = sorted(candidates, key=lambda c: (c.start, -(c.end - c.start)))
    kept: list[Candidate] = []
    active: list[Candidate] = []
    for cand in ordered:
        active = [k for k in active if k.end > cand.start]
        if any(k.start != cand.start or k.end != cand.end for k in active):
            continue
        kept.append(cand)
        active.append(cand)
    return kept
