"""How a recovery decision explains itself: per-candidate reports and quirk diagnostics.

A diagnostic names a GRM-Qn quirk only where it changed a result (a stripped or promoted call,
a call kept as text, a re-spaced part), located by part, UTF-16 span and line/column.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.diagnostics import Diagnostic, Level, position
from engine.grammar.candidates import Candidate, Hits, QuirkHit
from engine.grammar.stopreason import stop_reason_label
from engine.jsvalues import py_to_utf16_index


@dataclass
class CandidateReport:
    """One kept candidate: where it is, what it is, and what happened to it."""

    part: int
    grammar: str
    name: str
    arguments: dict[str, Any]
    span: tuple[int, int]  # UTF-16 offsets in the part's original text
    strip_only: bool
    known: bool
    stripped: bool = False
    promoted: bool = False
    call_id: str | None = None
    reason: str = ""  # why it was (not) stripped or promoted
    quirks: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, cand: Candidate, part: int, text: str, known: bool, reason: str = "") -> CandidateReport:
        span = (py_to_utf16_index(text, cand.start), py_to_utf16_index(text, cand.end))
        return cls(part, cand.grammar, cand.name, cand.arguments, span, cand.strip_only,
                   known and not cand.strip_only, reason=reason, quirks=[h.quirk for h in cand.hits])

    def to_dict(self) -> dict[str, Any]:
        return {
            "part": self.part, "grammar": self.grammar, "name": self.name, "arguments": self.arguments,
            "span": list(self.span), "stripOnly": self.strip_only, "knownTool": self.known,
            "stripped": self.stripped, "promoted": self.promoted, "id": self.call_id,
            "reason": self.reason, "quirks": self.quirks,
        }


@dataclass
class PartScan:
    index: int
    text: str
    kept: list[Candidate]
    text_hits: Hits
    thinking: bool


def quirk_diagnostic(hit: QuirkHit, *, part: int | None = None, text: str | None = None,
                     cp_range: tuple[int, int] | None = None, level: Level = "info") -> Diagnostic:
    """A diagnostic naming a quirk; located in the part's text when the range is known."""
    data: dict[str, Any] = {}
    line = column = end_line = end_column = None
    if part is not None:
        data["part"] = part
    if text is not None and cp_range is not None:
        start, end = cp_range
        data["span"] = [py_to_utf16_index(text, start), py_to_utf16_index(text, end)]
        (line, column), (end_line, end_column) = position(text, start), position(text, end)
    return Diagnostic(hit.message, level, hit.quirk, source="grammar", line=line, column=column,
                      end_line=end_line, end_column=end_column, data=data)


def unique_diagnostics(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Calls that share a block carry the same notes; report each note once per place."""
    seen: set[tuple[Any, ...]] = set()
    out: list[Diagnostic] = []
    for d in diagnostics:
        key = (d.code, d.message, d.data.get("part"), tuple(d.data.get("span") or ()))
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def shared_range_notes(p: PartScan, chosen: list[Candidate], diagnostics: list[Diagnostic]) -> None:
    """GRM-Q9: a stripped block took calls with it that were meant to stay as text."""
    stripped = {c.range for c in chosen}
    for cand in p.kept:
        if cand.range in stripped and not any(cand is c for c in chosen) and not cand.strip_only:
            diagnostics.append(quirk_diagnostic(
                QuirkHit("GRM-Q9", f"the call to `{cand.name}` was stripped with its block although its text was to be kept"),
                part=p.index, text=p.text, cp_range=cand.range, level="warning"))


def decision_notes(parts: list[PartScan], reports: dict[int, CandidateReport], mode: str, promote: bool,
                    existing: list[object], odd_existing: list[object], stop_reason: object, diagnostics: list[Diagnostic],
                    strict: bool) -> None:
    """Name the quirks that shaped this decision, with the span of the call they touched."""
    for p in parts:
        for cand in p.kept:
            report = reports[id(cand)]
            if mode == "observe":
                continue
            if not (report.stripped or report.promoted):
                for hit in cand.hits:
                    diagnostics.append(quirk_diagnostic(hit, part=p.index, text=p.text, cp_range=cand.range))
                continue
            for hit in cand.hits:
                diagnostics.append(quirk_diagnostic(hit, part=p.index, text=p.text, cp_range=cand.range))
            if cand.strip_only:
                continue
            if p.thinking:
                diagnostics.append(quirk_diagnostic(QuirkHit(
                    "GRM-Q18", f"a call to `{cand.name}` in a thinking part was "
                    + ("promoted" if report.promoted else "stripped")), part=p.index, text=p.text, cp_range=cand.range, level="warning"))
            if report.stripped and not report.promoted and mode == "recover" and not strict:
                if report.known and not cand.arguments:
                    diagnostics.append(quirk_diagnostic(QuirkHit(
                        "GRM-Q12", f"the call to `{cand.name}` had no arguments: stripped, never run"),
                        part=p.index, text=p.text, cp_range=cand.range, level="warning"))
                elif report.known and existing:
                    diagnostics.append(quirk_diagnostic(QuirkHit(
                        "GRM-Q21", f"a real tool call blocked promotion, so the leaked `{cand.name}` call vanished"),
                        part=p.index, text=p.text, cp_range=cand.range, level="warning"))
                elif report.known and stop_reason != "stop":
                    diagnostics.append(quirk_diagnostic(QuirkHit(
                        "GRM-Q17", f"{stop_reason_label(stop_reason)} blocked promotion, yet the `{cand.name}` call was stripped"),
                        part=p.index, text=p.text, cp_range=cand.range, level="warning"))
            if report.stripped and report.known and not cand.arguments and mode == "strip":
                diagnostics.append(quirk_diagnostic(QuirkHit(
                    "GRM-Q12", f"the call to `{cand.name}` had no arguments and was stripped"),
                    part=p.index, text=p.text, cp_range=cand.range))
    if promote and odd_existing and not strict:
        diagnostics.append(quirk_diagnostic(QuirkHit(
            "GRM-Q26", "a toolCall part with a non-string name did not block promotion"), level="warning"))
