"""What changed since a filter file was trusted, filter by filter, and how much riskier it got.

``compare_contents(old, new)`` pairs filters by id (and occurrence, ids may repeat) and reports
each one added, removed or changed, with the fields that changed and the *risk delta* of the
change: a new ``matchOutput`` that can replace whole outputs, drop patterns that now remove lines
they kept before (measured on probe lines and the filters' own test inputs), include or priority
patterns removed, line limits changed, commands newly selected (security scanners above all), and
every review finding (``engine.rtk.risk``) that is new. ``diff_since_trust`` finds the trusted
content (``engine.rtk.trust_history``) for a file whose stored hash no longer matches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.jsvalues import JsonObject
from engine.rtk.model import RtkFilter
from engine.rtk.risk import (
    ANY_LINES,
    ERROR_LINES,
    SECURITY_COMMANDS,
    Level,
    RiskSummary,
    assess_filter,
    matches_every_line,
    pattern_matches,
    risk_summary,
)
from engine.rtk.snapshot import FileSnapshot
from engine.rtk.trust import decide_trust
from engine.rtk.trust_history import TrustedContent, find_trusted_content

# reference field names (RtkFilter.to_dict) -> what authors write, JSON / TOML
FIELD_NAMES = {
    "name": ("label", "(table name)"), "description": ("description", "description"),
    "category": ("category", "(derived)"), "priority": ("priority", "(fixed 50)"),
    "commandTypes": ("match.outputTypes", "-"), "commandPatterns": ("match.commands", "match_command"),
    "matchPatterns": ("match.patterns", "-"), "stripPatterns": ("rules.dropPatterns", "strip_lines_matching"),
    "keepPatterns": ("rules.includePatterns", "keep_lines_matching"),
    "priorityPatterns": ("preserve.errorPatterns/summaryPatterns", "-"),
    "collapsePatterns": ("rules.collapsePatterns", "-"), "stripAnsi": ("rules.stripAnsi", "strip_ansi"),
    "replace": ("rules.replace", "replace"), "matchOutput": ("rules.matchOutput", "match_output"),
    "truncateLineAt": ("rules.truncateLineAt", "truncate_lines_at"), "onEmpty": ("rules.onEmpty", "on_empty"),
    "filterStderr": ("rules.filterStderr", "filter_stderr"), "deduplicate": ("rules.deduplicate", "-"),
    "maxLines": ("rules.maxLines", "max_lines"), "preserveHead": ("rules.headLines", "head_lines"),
    "preserveTail": ("rules.tailLines", "tail_lines"), "tests": ("tests", "tests"),
    "rtkTomlHeadLines": ("-", "head_lines"), "rtkTomlTailLines": ("-", "tail_lines"),
    "rtkTomlMaxLines": ("-", "max_lines"),
}
_IGNORED = {"id", "source", "sourceFormat"}
_ERRORISH = re.compile(r"error|fail|fatal|panic|traceback|warn|denied|vulnerab|critical", re.I)
MAX_PROBE_LINES = 2000
COMMON_COMMANDS = ("git status", "git diff", "npm test", "npm install", "pytest -q", "cargo build", "make",
                   "docker build .", "kubectl get pods", "terraform plan", "ls -la", "ssh host", "curl -sS url")
_ORDER = {"high": 0, "medium": 1, "info": 2}


@dataclass(frozen=True)
class RiskDelta:
    level: Level
    code: str
    message: str

    def to_dict(self) -> JsonObject:
        return {"level": self.level, "code": self.code, "message": self.message}


@dataclass
class FilterChange:
    filter_id: str
    kind: str  # added | removed | changed
    fields: list[str] = field(default_factory=list)
    deltas: list[RiskDelta] = field(default_factory=list)

    @property
    def worst(self) -> str | None:
        return min((d.level for d in self.deltas), key=_ORDER.__getitem__, default=None)

    def to_dict(self) -> JsonObject:
        return {"filterId": self.filter_id, "kind": self.kind, "fields": list(self.fields),
                "risk": [d.to_dict() for d in self.deltas], "worst": self.worst}


@dataclass
class ContentComparison:
    changes: list[FilterChange]
    unchanged: list[str]
    old_errors: list[str] = field(default_factory=list)
    new_errors: list[str] = field(default_factory=list)
    # the current content's load warnings ("line:col: message"): what OmniRoute drops or ignores
    new_notes: list[str] = field(default_factory=list)
    # the bytes differ from the trusted ones, but every filter's effect is the same (formatting,
    # key order, or an entry OmniRoute drops): said, so "changed after trust" with nothing
    # changed is not a puzzle
    same_effect: bool = False

    def to_dict(self) -> JsonObject:
        return {"changes": [c.to_dict() for c in self.changes], "unchanged": list(self.unchanged),
                "previousErrors": list(self.old_errors), "currentErrors": list(self.new_errors),
                "currentNotes": list(self.new_notes), "sameEffect": self.same_effect}

    def format(self, indent: str = "  ") -> list[str]:
        return [line for line, _filter_id in self.format_rows(indent)]

    def format_rows(self, indent: str = "  ") -> list[tuple[str, str | None]]:
        """``format``'s lines, each with the id of the filter it heads when that filter is in the
        current content (an added or changed one: the IDE links the line to it)."""
        rows: list[tuple[str, str | None]] = []
        marks = {"added": "+ added  ", "removed": "- removed", "changed": "~ changed"}
        for c in self.changes:
            head = f"{indent}{marks[c.kind]} {c.filter_id}"
            if c.fields:
                head += f"  ({', '.join(c.fields)})"
            rows.append((head, c.filter_id if c.kind != "removed" else None))
            rows += [(f"{indent}    [{d.level}] {d.message}", None) for d in c.deltas]
        notes = []
        if self.unchanged:
            notes.append(f"{indent}= {len(self.unchanged)} unchanged: {', '.join(self.unchanged)}")
        if not self.changes and not self.unchanged:
            notes.append(f"{indent}(no filters on either side)")
        if self.same_effect:
            notes.append(f"{indent}(the bytes differ from the trusted ones, but no filter's effect does: formatting, "
                         "key order, or an entry OmniRoute drops)")
        notes += [f"{indent}! the trusted content does not load: {e}" for e in self.old_errors]
        notes += [f"{indent}! the current content does not load: {e}" for e in self.new_errors]
        notes += [f"{indent}! the current content: {note}" for note in self.new_notes]
        return rows + [(note, None) for note in notes]


def parse_content(path: str | Path, data: bytes, profile: str = "omniroute") -> tuple[list[RtkFilter], list[str]]:
    """The filters of one version of a file (no file read), and its load errors in words."""
    filters, errors, _warnings = _parse(path, data, profile)
    return filters, errors


def _parse(path: str | Path, data: bytes, profile: str) -> tuple[list[RtkFilter], list[str], list[str]]:
    """``parse_content`` and the load warnings, each as ``line:col: message``."""
    from engine.rtk.sources import read_filter_file

    read = read_filter_file(path, profile=profile, source="project", data=data)
    warnings = [(f"{d.line}:{d.column}: " if d.line else "") + d.message for d in read.diagnostics
                if d.level == "warning"]
    return read.filters, [d.message for d in read.diagnostics if d.level == "error"], warnings


def _view(f: RtkFilter) -> dict[str, Any]:
    return {k: v for k, v in f.to_dict().items() if k not in _IGNORED}


def _keyed(filters: list[RtkFilter]) -> dict[tuple[str, int], RtkFilter]:
    seen: dict[str, int] = {}
    out = {}
    for f in filters:
        n = seen.get(f.id, 0)
        seen[f.id] = n + 1
        out[(f.id, n)] = f
    return out


def _label(key: tuple[str, int]) -> str:
    return key[0] if key[1] == 0 else f"{key[0]} (#{key[1] + 1})"


def compare_filters(old: list[RtkFilter], new: list[RtkFilter]) -> ContentComparison:
    before, after = _keyed(old), _keyed(new)
    changes: list[FilterChange] = []
    unchanged: list[str] = []
    for key, flt in after.items():
        prev = before.get(key)
        if prev is None:
            changes.append(FilterChange(_label(key), "added", [], _added_risk(flt)))
            continue
        a, b = _view(prev), _view(flt)
        changed = [k for k in b if a.get(k) != b.get(k)]
        if not changed:
            unchanged.append(_label(key))
            continue
        names = [FIELD_NAMES.get(k, (k, k))[1 if flt.is_toml else 0] for k in changed]
        changes.append(FilterChange(_label(key), "changed", names, risk_delta(prev, flt)))
    for key in before:
        if key not in after:
            changes.append(FilterChange(_label(key), "removed", [], [RiskDelta(
                "info", "removed", "no longer applied: its outputs go to the next matching filter, or unfiltered")]))
    changes.sort(key=lambda c: (_ORDER.get(c.worst or "info", 3) if c.deltas else 3, c.kind))
    return ContentComparison(changes, unchanged)


def compare_contents(path: str | Path, old: bytes | None, new: bytes, profile: str = "omniroute"
                     ) -> ContentComparison:
    """Two versions of one file, filter by filter (``old`` None: never trusted, all added)."""
    old_filters, old_errors = parse_content(path, old, profile) if old is not None else ([], [])
    new_filters, new_errors, new_notes = _parse(path, new, profile)
    result = compare_filters(old_filters, new_filters)
    result.old_errors, result.new_errors, result.new_notes = old_errors, new_errors, new_notes
    result.same_effect = old is not None and old != new and not result.changes and not new_errors
    return result


# ---------------------------------------------------------------- risk deltas

def _added_risk(f: RtkFilter) -> list[RiskDelta]:
    out = [RiskDelta("medium", "new-filter", f"new filter, selected for {_selection(f)}")]
    out += [RiskDelta(x.level, x.code, x.message) for x in assess_filter(f)]
    return _sorted(out)


def _selection(f: RtkFilter) -> str:
    parts = []
    if f.command_patterns:
        parts.append("commands " + ", ".join(repr(p) for p in f.command_patterns))
    if f.command_types:
        parts.append("output types " + ", ".join(f.command_types))
    if f.match_patterns:
        parts.append("outputs matching " + ", ".join(repr(p) for p in f.match_patterns))
    return "; ".join(parts) or "nothing (no match criteria)"


def _probe_lines(*filters: RtkFilter) -> list[str]:
    lines = list(dict.fromkeys([*ANY_LINES, *ERROR_LINES]))
    for f in filters:
        for t in f.tests:
            lines += t.input.split("\n")
    return list(dict.fromkeys(line.rstrip("\r") for line in lines))[:MAX_PROBE_LINES]


def _any(patterns: Iterable[str], flags: str, line: str) -> bool:
    return any(pattern_matches(p, flags, line) for p in patterns)


def _kept(f: RtkFilter, line: str) -> bool:
    """Whether the line stages keep ``line`` (drop, then include patterns; flag ``i``)."""
    if _any(f.strip_patterns, "i", line):
        return False
    return not f.keep_patterns or _any(f.keep_patterns, "i", line)


def _example(lines: list[str]) -> str:
    first = next((x for x in lines if _ERRORISH.search(x)), lines[0])
    more = f" and {len(lines) - 1} more probe line(s)" if len(lines) > 1 else ""
    return f"{first!r}{more}"


def _limit(value: int | None) -> str:
    return "no limit" if not value else str(value)


def risk_delta(old: RtkFilter, new: RtkFilter) -> list[RiskDelta]:
    out: list[RiskDelta] = []

    def add(level: Level, code: str, message: str) -> None:
        out.append(RiskDelta(level, code, message))

    old_mo = {(r.pattern, r.message): r for r in old.match_output}
    for output in new.match_output:
        prev = old_mo.get((output.pattern, output.message))
        if prev is None:
            catch_all = matches_every_line(output.pattern, "im")
            add("high", "new-match-output", f"new matchOutput {output.pattern!r} can replace whole outputs with "
                f"{output.message!r}" + (" — it matches any output" if catch_all else "")
                + ("" if output.unless else ", with no 'unless' guard"))
        elif prev.unless and not output.unless:
            add("high", "unless-removed", f"matchOutput {output.pattern!r} lost its 'unless' guard "
                f"({prev.unless!r}): it now fires even when errors are present")
        elif prev.unless != output.unless:
            add("medium", "unless-changed", f"matchOutput {output.pattern!r}: 'unless' {prev.unless!r} → "
                f"{output.unless!r}")
    old_rep = {(r.pattern, r.replacement) for r in old.replace}
    for rule in new.replace:
        if (rule.pattern, rule.replacement) not in old_rep:
            level: Level = "high" if matches_every_line(rule.pattern, "g") else "medium"
            add(level, "new-replace", f"new replace {rule.pattern!r} → {rule.replacement!r} rewrites output")

    probes = _probe_lines(old, new)
    if old.strip_patterns != new.strip_patterns or old.keep_patterns != new.keep_patterns:
        lost = [line for line in probes if _kept(old, line) and not _kept(new, line)]
        regained = [line for line in probes if not _kept(old, line) and _kept(new, line)]
        if lost:
            errorish = [x for x in lost if _ERRORISH.search(x)]
            add("high" if errorish else "medium", "drops-more",
                f"line rules now drop lines they kept before, e.g. {_example(lost)}")
        if regained:
            add("info", "keeps-more", f"line rules now keep lines they dropped before, e.g. {_example(regained)}")
        for p in new.strip_patterns:
            if p not in old.strip_patterns and matches_every_line(p, "i"):
                add("high", "catch-all", f"new drop pattern {p!r} removes every line")
        removed_keep = [p for p in old.keep_patterns if p not in new.keep_patterns]
        if removed_keep:
            add("medium", "keep-removed", "removed include pattern(s) " + ", ".join(map(repr, removed_keep)))
    removed_priority = [p for p in old.priority_patterns if p not in new.priority_patterns]
    if removed_priority:
        add("medium", "priority-removed", "removed priority pattern(s) " + ", ".join(map(repr, removed_priority))
            + ": the lines they protected from truncation can now be cut")

    for label, a, b in (("maxLines", old.max_lines, new.max_lines),
                        ("max_lines", old.rtk_toml_max_lines, new.rtk_toml_max_lines),
                        ("headLines", old.preserve_head, new.preserve_head),
                        ("tailLines", old.preserve_tail, new.preserve_tail),
                        ("head_lines", old.rtk_toml_head_lines, new.rtk_toml_head_lines),
                        ("tail_lines", old.rtk_toml_tail_lines, new.rtk_toml_tail_lines),
                        ("truncateLineAt", old.truncate_line_at, new.truncate_line_at)):
        if a == b:
            continue
        unlimited = label in ("maxLines", "max_lines", "truncateLineAt")
        fewer = (b or 0) < (a or 0) if not unlimited else (bool(b) and (not a or (b or 0) < a))
        if fewer:
            add("medium", "limit-lowered", f"{label} lowered {_limit(a)} → {_limit(b)}: less output reaches the model")
        else:
            add("info", "limit-raised", f"{label} raised {_limit(a)} → {_limit(b)}: more output (and tokens) "
                "reaches the model")

    new_commands = [p for p in new.command_patterns if p not in old.command_patterns]
    if new_commands or new.match_patterns != old.match_patterns or new.command_types != old.command_types:
        gained = [c for c in (*SECURITY_COMMANDS, *COMMON_COMMANDS)
                  if _any(new.command_patterns, "im", c) and not _any(old.command_patterns, "im", c)]
        scanners = [c for c in gained if c in SECURITY_COMMANDS]
        if scanners:
            add("high", "security-tool", f"now selected for security tooling ({', '.join(scanners[:3])}): "
                "scanner output could be hidden")
        add("medium", "selection-changed", f"selection changed: now {_selection(new)}"
            + (f" (newly matches {', '.join(repr(c) for c in gained[:3])})" if gained else ""))
    if new.on_empty != old.on_empty and new.on_empty:
        add("medium", "on-empty-changed", f"onEmpty now {new.on_empty!r} (was {old.on_empty!r})")
    if new.priority > old.priority:
        add("info", "priority-raised", f"priority {old.priority} → {new.priority}: tried before more filters")
    if new.tests != old.tests:
        add("info", "tests-changed", f"tests changed ({len(old.tests)} → {len(new.tests)}): the expectations "
            "moved with the rules")

    known = {(x.code, x.message) for x in assess_filter(old)}
    codes = {d.code for d in out}
    covered = set()  # review findings a delta above already says
    if "new-match-output" in codes:
        covered |= {"match-output", "match-output-no-unless", "catch-all"}
    if "drops-more" in codes:
        covered |= {"drops-errors"}
    for x in assess_filter(new):
        if (x.code, x.message) not in known and x.code not in covered:
            add(x.level, x.code, "new finding: " + x.message)
    return _sorted(out)


def _sorted(deltas: list[RiskDelta]) -> list[RiskDelta]:
    return sorted(deltas, key=lambda d: _ORDER[d.level])


# ---------------------------------------------------------------- the whole question

_UNREAD_TRUST = {"invalid-json": "is not valid JSON", "unreadable": "cannot be read", "not-object": "is not an object"}


def untrusted_head(reason: str) -> str:
    """Why an untrusted file is compared with nothing, by its decision's reason: never trusted,
    or a trust.json that says nothing readable (then whether it was trusted is unknown)."""
    broken = _UNREAD_TRUST.get(reason)
    if broken is None:
        return "never trusted before: every filter is new"
    return f"trust.json {broken}, so there is no trusted version to compare with: every filter is shown as new"


@dataclass
class TrustDiff:
    """For one project filter file: its verdict and, when it changed, what changed since trust."""

    file: str
    verdict: str
    stored: str | None
    computed: str | None
    found: TrustedContent | None = None
    comparison: ContentComparison | None = None
    current_risk: RiskSummary | None = None

    @property
    def message(self) -> str:
        if self.verdict == "trusted":
            return "unchanged since it was trusted"
        if self.verdict != "changed":
            return f"{self.verdict}: no trusted version to compare with"
        if self.found is None:
            return ("changed after trust, and the trusted content was not found (not in this project's git "
                    "history, no snapshot in Rulewright's data folder): the whole current risk summary follows")
        return f"changed after trust; trusted content found in {self.found.origin}: {self.found.detail}"

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"file": self.file, "verdict": self.verdict, "stored": self.stored,
                               "computed": self.computed, "message": self.message,
                               "trustedContent": self.found.to_dict() if self.found else None}
        if self.comparison is not None:
            out.update(self.comparison.to_dict())
        if self.current_risk is not None:
            out["currentRisk"] = self.current_risk.to_dict()
        return out

    def format(self) -> list[str]:
        lines = [f"{self.file}: {self.message}"]
        if self.comparison is not None:
            lines += self.comparison.format()
        if self.current_risk is not None:
            lines += ["  " + line for line in self.current_risk.format().splitlines()]
        return lines


def diff_since_trust(snap: FileSnapshot, profile: str = "omniroute", *, environ: Mapping[str, str] | None = None
                     ) -> TrustDiff:
    """The verdict for these bytes and, when the stored hash does not match them, what changed."""
    decision = decide_trust(snap.path, data=snap.data, profile=profile, environ=environ if environ is not None
                            else {})
    out = TrustDiff(str(snap.path), decision.verdict, decision.stored, decision.computed)
    if decision.verdict == "changed" and decision.stored:
        out.found = find_trusted_content(snap.path, decision.stored)
    if out.found is not None:
        out.comparison = compare_contents(snap.path, out.found.data, snap.data, profile)
    elif decision.verdict != "trusted":
        filters, _errors = parse_content(snap.path, snap.data, profile)
        out.current_risk = risk_summary(snap.text, filters, is_toml=snap.format == "rtk-toml-v1")
    return out
