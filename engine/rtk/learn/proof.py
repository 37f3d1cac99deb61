"""The safety proof of a learned filter, checked against every sample it was learned from.

A draft is shown (and saved) only with this proof. It checks:

* **schema** — the filter object is valid against ``resources/schemas/rtk-filter.schema.json``
  and loads through the engine's own parser with no diagnostic;
* **patterns** — every pattern compiles as a JavaScript regex, is *proved linear* by
  ``engine.jsregex.backtracking.linear_attempts`` (no nested or overlapping repeats), and is not
  one OmniRoute's ReDoS heuristic would silently remove (RTK-Q2);
* **no catch-all** — no pattern matches every probe line (``engine.rtk.risk``), and no drop
  pattern removes every non-blank line of a sample;
* **nothing lost** — through the filter alone (the verify gate's stage) *and* through the whole
  engine with the sample's command, every protected line of every sample survives: the generic
  error/failure/location/summary lines (``engine.rtk.signal``, the same check our own filters
  pass) plus the warnings and outcome lines the learner protected;
* **activation** — the command selects this filter, alone and, when a pool of other filters is
  given, as a project filter among them. Where the workspace it is saved into already has a
  filter the command selects instead (``neighbours``: its filter files and project filters), the
  detail names it: that is the author's call (raise the priority, or narrow the other), not a
  fault of the filter.

``lost`` names, for each lost line, the patterns that removed it, so the learner can refuse
exactly those and try again (``engine.rtk.learn.draft``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.jsregex.backtracking import linear_attempts
from engine.jsvalues import JsonObject
from engine.rtk.learn.regexes import is_valid, search
from engine.rtk.signal import missing_lines, must_survive

if TYPE_CHECKING:
    from engine.rtk.model import FilterObject, RtkFilter


@dataclass
class Check:
    name: str
    passed: bool
    detail: str = ""

    def to_dict(self) -> JsonObject:
        return {"name": self.name, "passed": self.passed, "detail": self.detail}


@dataclass
class Lost:
    sample: int
    line: str
    stage: str  # "filter" | "engine"
    culprits: list[tuple[str, str]] = field(default_factory=list)  # (field, pattern)


@dataclass
class Proof:
    checks: list[Check]
    lost: list[Lost]
    bad_patterns: list[tuple[str, str, str]]  # (field, pattern, why)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    def to_dict(self) -> JsonObject:
        return {"passed": self.passed, "checks": [c.to_dict() for c in self.checks],
                "lost": [{"sample": x.sample + 1, "line": x.line, "stage": x.stage,
                          "culprits": [{"field": f, "pattern": p} for f, p in x.culprits]} for x in self.lost],
                "badPatterns": [{"field": f, "pattern": p, "why": w} for f, p, w in self.bad_patterns]}


FLAGS = {"match.commands": "im", "match.patterns": "im", "rules.dropPatterns": "i", "rules.collapsePatterns": "i",
         "preserve.errorPatterns": "i", "preserve.summaryPatterns": "i"}


def patterns_of(obj: FilterObject) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for dotted in FLAGS:
        outer, inner = dotted.split(".")
        out += [(dotted, p) for p in obj.get(outer, {}).get(inner, [])]
    return out


def prove(obj: dict[str, Any], samples: list[str], command: str, protected: list[list[str]],
          pool: list[RtkFilter] | None = None, neighbours: list[RtkFilter] | None = None) -> Proof:
    """Check the filter object ``obj`` against ``samples`` (raw texts) run by ``command``;
    ``protected[i]`` are the normalised lines of sample ``i`` the learner protected."""
    from engine.rtk.engine import process_rtk_text
    from engine.rtk.model import is_redos_prone, parse_filter
    from engine.rtk.risk import matches_every_line
    from engine.rtk.select import select_filter
    from engine.rtk.stages import apply_line_filter
    from engine.schemas import validate_against

    checks: list[Check] = []
    schema = [d for d in validate_against("rtk-filter", obj) if d.level == "error"]
    flt, diagnostics = parse_filter(obj, profile="strict", source="project", check_regex=True)
    problems = [d.message for d in schema] + [d.message for d in diagnostics if d.level in ("error", "warning")]
    checks.append(Check("schema", not problems and flt is not None,
                        "; ".join(problems) if problems else "valid against rtk-filter.schema.json, loads cleanly"))
    bad: list[tuple[str, str, str]] = []
    for dotted, pattern in patterns_of(obj):
        flags = FLAGS[dotted]
        if not is_valid(pattern, flags):
            bad.append((dotted, pattern, "not a valid JavaScript regex"))
        elif not linear_attempts(pattern, flags):
            bad.append((dotted, pattern, "not proved linear by the backtracking analysis"))
        elif is_redos_prone(pattern):
            bad.append((dotted, pattern, "OmniRoute's ReDoS heuristic would remove it (RTK-Q2)"))
        elif dotted != "preserve.errorPatterns" and dotted != "preserve.summaryPatterns" \
                and matches_every_line(pattern, flags):
            bad.append((dotted, pattern, "matches every line"))
    drops = obj.get("rules", {}).get("dropPatterns", [])
    for i, text in enumerate(samples):
        content = [ln for ln in text.splitlines() if ln.strip()]
        for pattern in drops:
            if len(content) >= 3 and all(search(pattern, "i", ln) for ln in content):
                bad.append(("rules.dropPatterns", pattern, f"drops every line of sample {i + 1}"))
    checks.append(Check("patterns", not bad, "; ".join(f"{p!r}: {w}" for _, p, w in bad) if bad else
                        f"{len(patterns_of(obj))} patterns valid, proved linear, none a catch-all"))
    if flt is None:
        return Proof(checks, [], bad)
    lost: list[Lost] = []
    for i, text in enumerate(samples):
        wanted = list(dict.fromkeys(must_survive(text) + protected[i]))
        out = apply_line_filter(text, flt).text
        for line in missing_lines(text, out, protected=wanted):
            lost.append(Lost(i, line, "filter", _culprits(obj, line, text)))
        result = process_rtk_text(text, command, {"enabled": True}, [flt])
        for line in missing_lines(text, result.text, protected=wanted):
            if not any(x.sample == i and x.line == line for x in lost):
                lost.append(Lost(i, line, "engine", _culprits(obj, line, text)))
    checks.append(Check("nothing lost", not lost,
                        f"{len(lost)} protected line(s) lost" if lost else
                        f"every protected line of {len(samples)} sample(s) survives the filter and the engine"))
    wrong = []
    for i, text in enumerate(samples):
        alone = select_filter(text, command, [flt]).filter
        if alone is not flt:
            wrong.append(f"sample {i + 1}: not selected for {command!r}")
        elif pool is not None:
            chosen = select_filter(text, command, [*pool, flt]).filter
            if chosen is not flt:
                wrong.append(f"sample {i + 1}: {chosen.id if chosen else 'no filter'} is selected among the others")
    detail = "; ".join(wrong) if wrong else \
        f"{command!r} selects this filter" + (" (also as a project filter among the built-ins)" if pool is not None
                                              else "")
    if not wrong and neighbours:
        detail += _taken_by(samples, command, flt, [*neighbours, *(pool or [])])
    checks.append(Check("activation", not wrong, detail))
    return Proof(checks, lost, bad)


def _taken_by(samples: list[str], command: str, flt: RtkFilter, others: list[RtkFilter]) -> str:
    """What the detail adds when, beside the workspace's own filters, another one is chosen for
    the command: which, where it is written, and what would change that."""
    from pathlib import Path

    from engine.rtk.select import select_filter

    for text in samples:
        chosen = select_filter(text, command, [*others, flt]).filter
        if chosen is not None and chosen is not flt:
            where = "/".join(Path(chosen.path).parts[-2:]) if chosen.path else chosen.source
            hint = (f"a priority above its {chosen.priority} would take over" if chosen.source == flt.source
                    else f"it ranks first as a {chosen.source} filter")
            return f"; in this workspace {chosen.id} ({where}) is chosen for it instead: {hint}"
    return ""


def _culprits(obj: FilterObject, line: str, text: str) -> list[tuple[str, str]]:
    """The drop and collapse patterns that match a lost line as it stood in the sample (none: a
    line limit cut it)."""
    from engine.rtk.signal import ANSI, normal

    originals = [ANSI.sub("", raw) for raw in text.splitlines() if normal(raw) == line] or [line]
    rules = obj.get("rules", {})
    return [(f"rules.{name}", p) for name in ("dropPatterns", "collapsePatterns")
            for p in rules.get(name, []) if any(search(p, "i", o) for o in originals)]
