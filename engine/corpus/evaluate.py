"""One sample through the engine: what it saved, which rules or filters fired, what was lost.

Prose and chat bodies go through Caveman, command outputs through the RTK engine. The row is
plain JSON data with no timing in it, so a run on a Dask cluster gives the same rows as a local
run. "Lost" means: for RTK, error and summary lines of the output that no line of the filtered
output contains (``engine.rtk.signal``, the rule our own filters are held to); for Caveman,
protected regions (code, URLs, paths…) whose text the compressed part no longer contains.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from engine.caveman.compress import Compressor, estimate_tokens
from engine.corpus.samples import Sample
from engine.corpus.setup import EvalSetup
from engine.rtk import tokens as rtk_tokens
from engine.rtk.engine import RtkConfig, process_rtk_text
from engine.rtk.signal import missing_lines

QUIRK_ID = re.compile(r"^[A-Z]+-Q\d+$")
TIMEOUT_CODES = frozenset({"CAV-timeout", "RTK-TIMEOUT"})
MAX_LISTED = 20  # lost lines / altered regions kept per sample (the count is always exact)
PREVIEW = 160  # characters of a lost line or region kept in the report


def evaluate(setup: EvalSetup, sample: Sample) -> dict[str, Any]:
    """The row of one sample; an engine failure becomes the row's ``error``, never an exception."""
    try:
        if sample.kind == "output":
            row = _rtk(setup, sample)
        else:
            row = _caveman(setup, sample)
    except RecursionError:
        row = _failed(sample, "input nested too deeply")
    except (ValueError, TypeError, KeyError, OverflowError, MemoryError) as exc:
        row = _failed(sample, f"{type(exc).__name__}: {str(exc)[:300]}")
    return {"id": sample.id, "kind": sample.kind, "format": sample.format, "command": sample.command, **row}


def _failed(sample: Sample, message: str) -> dict[str, Any]:
    return {"tokensBefore": 0, "tokensAfter": 0, "savingsPercent": 0.0, "fired": [], "filter": None,
            "fallback": False, "timeouts": [], "quirks": [], "lost": [], "lostCount": 0, "ruleSavings": {},
            "error": message}


def _savings(before: int, after: int) -> float:
    return round((before - after) * 100 / before, 2) if before else 0.0


def _codes(diagnostics: list[Any]) -> tuple[list[str], list[str]]:
    """(quirk ids, names of the rules or filters that ran out of time), each sorted and unique."""
    quirks, timeouts = set(), set()
    for d in diagnostics:
        code = d.get("code") if isinstance(d, dict) else getattr(d, "code", None)
        data = (d.get("data") if isinstance(d, dict) else getattr(d, "data", None)) or {}
        if code and QUIRK_ID.match(code):
            quirks.add(code)
        if code in TIMEOUT_CODES:
            timeouts.add(str(data.get("rule") or data.get("filterId") or "?"))
    return sorted(quirks), sorted(timeouts)


def _preview(text: str) -> str:
    return text if len(text) <= PREVIEW else text[:PREVIEW] + "…"


# ------------------------------------------------------------------ Caveman

def _caveman(setup: EvalSetup, sample: Sample) -> dict[str, Any]:
    body = sample.body if sample.kind == "chat" else {"messages": [{"role": setup.roles[0], "content": sample.text}]}
    compressor = Compressor(setup.packs, setup.caveman_config(), profile=setup.profile, record=True)
    result = compressor.compress_body(body)
    rule_savings: Counter[str] = Counter()
    altered: list[str] = []
    altered_count = 0
    for part in result.parts:
        for run in part.runs:
            if run.changed:
                rule_savings[run.rule.name] += estimate_tokens(run.before) - estimate_tokens(run.after)
        if part.extraction is not None and part.extraction.blocks:
            lost = _altered_regions(part.extraction.blocks, part.text)
            altered_count += len(lost)
            altered.extend(_preview(b) for b in lost[: max(0, MAX_LISTED - len(altered))])
    stats = result.stats
    quirks, timeouts = _codes(result.diagnostics)
    return {"tokensBefore": stats["originalTokens"], "tokensAfter": stats["compressedTokens"],
            "savingsPercent": _savings(stats["originalTokens"], stats["compressedTokens"]),
            "fired": sorted(set(stats.get("rulesApplied", []))), "filter": None,
            "fallback": bool(stats.get("fallbackApplied", False)), "timeouts": timeouts, "quirks": quirks,
            "lost": altered, "lostCount": altered_count, "ruleSavings": dict(sorted(rule_savings.items())),
            "error": None}


def _altered_regions(blocks: list[Any], final: str) -> list[str]:
    """Protected texts that occur fewer times in the final part than they were protected."""
    wanted = Counter(b.content.strip() for b in blocks if b.content.strip())  # edges are whitespace cleanup may trim
    return [content for content, count in sorted(wanted.items()) if final.count(content) < count]


# ------------------------------------------------------------------ RTK

def _rtk(setup: EvalSetup, sample: Sample) -> dict[str, Any]:
    result = process_rtk_text(sample.text, sample.command, RtkConfig.from_dict({"enabled": True}), setup.filters,
                              profile=setup.profile)
    out = result.to_dict()
    lost = missing_lines(sample.text, result.text)
    before, after = rtk_tokens.estimate_tokens(sample.text), rtk_tokens.estimate_tokens(result.text)
    quirks, timeouts = _codes(out.get("diagnostics", []))
    fired = [out["filterId"]] if out.get("filterId") else []
    return {"tokensBefore": before, "tokensAfter": after, "savingsPercent": _savings(before, after),
            "fired": fired, "filter": out.get("filterId"), "fallback": False, "timeouts": timeouts,
            "quirks": quirks, "lost": [_preview(line) for line in lost[:MAX_LISTED]], "lostCount": len(lost),
            "ruleSavings": {fired[0]: before - after} if fired else {}, "error": None}
