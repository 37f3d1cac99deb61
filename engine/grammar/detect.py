"""Collect every family's candidates in the reference's order (spec §3.11) and select (§4)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.grammar.candidates import GRAMMAR_NAMES, Candidate, Hits, ParseContext, select_candidates
from engine.grammar.parsers import dsml, invoke, kimi, minimax_text, mistral, pythonic, toolcall


def collect(ctx: ParseContext) -> list[Candidate]:
    found: list[Candidate] = []
    if ctx.has("dsml"):
        blocks = dsml.parse_blocks(ctx)
        found += blocks
        found += dsml.parse_dangling_markers(ctx, blocks)
    if ctx.has("kimi"):
        found += kimi.parse(ctx)
    if ctx.has("mistral"):
        found += mistral.parse_tool_calls(ctx)
        found += mistral.parse_bare_json(ctx, "mistral")
    if ctx.has("minimax-text"):
        found += minimax_text.parse(ctx)
    if ctx.has("invoke"):
        found += invoke.parse(ctx)
    if ctx.has("qwen") or ctx.has("glm") or ctx.has("granite"):
        found += toolcall.parse(ctx)
    if ctx.has("granite"):
        found += pythonic.parse_granite_lines(ctx)
    if ctx.has("llama"):
        found += pythonic.parse_python_tag(ctx)
        found += mistral.parse_bare_json(ctx, "llama")
    if ctx.has("olmo"):
        found += pythonic.parse_olmo(ctx)
    return [c for c in found if c.end > c.start]


def enabled_grammars(grammars: Iterable[str] | None) -> frozenset[str]:
    """Names outside the ten are ignored; ``None`` means all ten."""
    if grammars is None:
        return frozenset(GRAMMAR_NAMES)
    return frozenset(g for g in grammars if g in GRAMMAR_NAMES)


@dataclass
class Detection:
    """The kept candidates of one text, plus text-level quirk notes."""

    text: str
    kept: list[Candidate]
    hits: Hits = field(default_factory=Hits)
    fence_disagreements: list[int] = field(default_factory=list)

    @property
    def calls(self) -> list[Candidate]:
        return [c for c in self.kept if not c.strip_only]


def detect(text: str, grammars: Iterable[str] | None = None, *, strict: bool = False) -> Detection:
    ctx = ParseContext(text, strict, enabled_grammars(grammars))
    kept = select_candidates(collect(ctx))
    if ctx.fence.disagreements:
        ctx.hits.add(
            "GRM-Q10",
            "the triple-backtick parity test and Markdown fences disagree about "
            f"{len(ctx.fence.disagreements)} match position(s)",
        )
    return Detection(text, kept, ctx.hits, list(ctx.fence.disagreements))
