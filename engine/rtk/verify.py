"""The RTK verify gate — OmniRoute's ``runRtkFilterTests`` (verify-trust §1) — plus activation.

Each inline test runs the filter's line pipeline alone (no detection, no engine dedup or caps,
the filter's raw ``maxLines``), compares with trailing ``\\n`` removed, and feeds a per-category
savings benchmark. ``tests[].command`` is ignored by the reference (VT-Q5); we additionally run
detection + selection for it and report, separately, whether this filter would be the one
chosen (rtk added that check later). Under ``strict`` a failed activation fails the gate.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cmp_to_key
from typing import TYPE_CHECKING, TypedDict

from engine.diagnostics import Diagnostic
from engine.jsregex.budget import total_budget
from engine.jsvalues import JsonObject, locale_compare, math_round
from engine.rtk.inline_test import run_filter_stage as run_filter_stage  # re-exported for callers
from engine.rtk.inline_test import (
    strip_trailing_newlines as strip_trailing_newlines,  # re-exported for callers
)
from engine.rtk.model import FilterTest, RtkFilter
from engine.rtk.tokens import estimate_tokens

if TYPE_CHECKING:
    from engine.rtk.stages import FilterResult


def savings_percent(original: str, result: str) -> float:
    orig, comp = estimate_tokens(original), estimate_tokens(result)
    return 0 if orig == 0 else (orig - comp) / orig * 100


def unified_diff(expected: str, actual: str, labels: tuple[str, str] = ("expected", "actual")) -> str:
    """Expected vs actual, line by line, as a unified diff ('' when equal)."""
    if expected == actual:
        return ""
    lines = difflib.unified_diff(expected.split("\n"), actual.split("\n"),
                                 fromfile=labels[0], tofile=labels[1], lineterm="")
    return "\n".join(lines)


@dataclass
class ActivationCheck:
    """Whether detection + selection picks this filter for the test's ``command`` (VT-Q5)."""

    command: str
    passed: bool
    selected_id: str | None
    selected_source: str | None
    criterion: str | None
    detected_type: str
    selected_path: str | None = None

    def to_dict(self) -> JsonObject:
        return {"command": self.command, "passed": self.passed, "selectedFilterId": self.selected_id,
                "selectedSource": self.selected_source, "criterion": self.criterion,
                "detectedType": self.detected_type}


@dataclass
class EngineCheck:
    """What the whole engine does with the test input at run time (VT-Q6): detection, selection,
    the filter with the *effective* max lines, engine dedup and the final caps."""

    text: str  # trailing \n removed, as the gate compares
    filter_id: str | None
    filter_source: str | None
    differs: bool

    def to_dict(self) -> JsonObject:
        return {"text": self.text, "filterId": self.filter_id, "filterSource": self.filter_source,
                "differs": self.differs}


@dataclass
class QuirkEffect:
    """A reference quirk changed this test's result: the ids, and what ``strict`` answers instead."""

    ids: list[str]
    strict_actual: str
    strict_passed: bool

    def message(self) -> str:
        names = ", ".join(f"{q} ({describe_quirk(q)})" for q in self.ids)
        verdict = "passes" if self.strict_passed else "fails"
        return f"result changed by {names}; under --profile strict this test {verdict}"

    def to_dict(self) -> JsonObject:
        return {"ids": list(self.ids), "strictActual": self.strict_actual, "strictPassed": self.strict_passed,
                "message": self.message()}


def describe_quirk(quirk_id: str) -> str:
    from engine.rtk.quirks import QUIRKS, VT_QUIRKS

    return QUIRKS.get(quirk_id) or VT_QUIRKS.get(quirk_id) or "a reference quirk"


_QUIRK_ID = re.compile(r"^(?:RTK|VT)-Q\d+$")


def quirk_effect(flt: RtkFilter, text: str, result: FilterResult, expected: str) -> QuirkEffect | None:
    """Run the test again under ``strict``; when the answer differs, name the quirks responsible:
    those the run reported, and RTK-Q16 for a TOML filter (OmniRoute compiles its patterns
    case-insensitively, rtk does not)."""
    from engine.rtk.stages import apply_line_filter

    strict = strip_trailing_newlines(apply_line_filter(text, flt, profile="strict").text)
    if strict == strip_trailing_newlines(result.text):
        return None
    ids = list(dict.fromkeys(d.code for d in result.diagnostics if d.code and _QUIRK_ID.match(d.code)))
    if flt.is_toml and "RTK-Q16" not in ids:
        ids.insert(0, "RTK-Q16")
    return QuirkEffect(ids or ["RTK-quirk"], strict, strict == expected)


@dataclass
class TestOutcome:
    filter_id: str
    test_name: str
    passed: bool
    actual: str
    expected: str
    diff: str = ""
    source: str | None = None
    path: str | None = None
    pointer: str | None = None
    savings_percent: float = 0.0
    activation: ActivationCheck | None = None
    engine: EngineCheck | None = None
    quirk: QuirkEffect | None = None

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"filterId": self.filter_id, "testName": self.test_name, "passed": self.passed,
                               "actual": self.actual, "expected": self.expected}
        if self.diff:
            out["diff"] = self.diff
        out.update({"source": self.source, "path": self.path, "pointer": self.pointer,
                    "savingsPercent": self.savings_percent})
        if self.activation is not None:
            out["activation"] = self.activation.to_dict()
        if self.engine is not None:
            out["engine"] = self.engine.to_dict()
        if self.quirk is not None:
            out["quirk"] = self.quirk.to_dict()
        return out


@dataclass
class BenchmarkRow:
    category: str
    filters: int
    tests: int
    average_savings_percent: float

    def to_dict(self) -> JsonObject:
        return {"category": self.category, "filters": self.filters, "tests": self.tests,
                "averageSavingsPercent": self.average_savings_percent}


@dataclass
class VerifyResult:
    passed: bool
    outcomes: list[TestOutcome]
    filters_without_tests: list[str]
    benchmark: list[BenchmarkRow]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    require_all: bool = False

    @property
    def failed(self) -> list[TestOutcome]:
        return [o for o in self.outcomes if not o.passed]

    @property
    def engine_divergences(self) -> list[TestOutcome]:
        return [o for o in self.outcomes if o.engine is not None and o.engine.differs]

    @property
    def activation_failures(self) -> list[TestOutcome]:
        return [o for o in self.outcomes if o.activation is not None and not o.activation.passed]

    def to_dict(self) -> JsonObject:
        return {
            "passed": self.passed,
            "outcomes": [o.to_dict() for o in self.outcomes],
            "filtersWithoutTests": list(self.filters_without_tests),
            "benchmark": [b.to_dict() for b in self.benchmark],
            "activation": {"checked": sum(1 for o in self.outcomes if o.activation is not None),
                           "failed": len(self.activation_failures)},
            "engineDivergences": len(self.engine_divergences),
            "diagnostics": [_diagnostic_dict(d) for d in self.diagnostics],
        }


def _diagnostic_dict(d: Diagnostic) -> JsonObject:
    from engine.rtk.sources import is_loader_diagnostic, reference_dict

    return reference_dict(d) if is_loader_diagnostic(d) else d.to_dict()


def activation_check(flt: RtkFilter, command: str, text: str, candidates: list[RtkFilter],
                      profile: str) -> ActivationCheck:
    """Whether detection and selection over ``candidates`` (sorted) pick ``flt`` for ``command``."""
    from engine.rtk.select import select_filter

    selection = select_filter(text, command, candidates, profile=profile, presorted=True)
    chosen = selection.filter
    return ActivationCheck(command, chosen is flt or (chosen is not None and chosen == flt),
                           chosen.id if chosen else None, chosen.source if chosen else None,
                           selection.criterion, selection.detection.type, chosen.path if chosen else None)


def _check_engine(flt: RtkFilter, test: FilterTest, actual: str, pool: list[RtkFilter], profile: str) -> EngineCheck:
    from engine.rtk.engine import process_rtk_text

    result = process_rtk_text(test.input, test.command, {"enabled": True}, pool, profile=profile)
    text = strip_trailing_newlines(result.text)
    chosen = result.filter
    return EngineCheck(text, chosen.id if chosen else None, chosen.source if chosen else None, text != actual)


def verify_filters(filters: list[RtkFilter], *, require_all: bool = False, profile: str = "omniroute",
                   check_activation: bool = True, check_engine: bool = False,
                   selection_pool: list[RtkFilter] | None = None,
                   diagnostics: list[Diagnostic] | None = None,
                   should_stop: Callable[[], bool] | None = None) -> VerifyResult:
    """Run the gate over ``filters`` in the order given (the loader's sorted order).

    ``selection_pool`` is the filter set activation and engine checks select from (default:
    ``filters``). ``should_stop`` is asked before each test, so an IDE can cancel a long run
    (what was run so far is returned). ``check_engine`` also runs the whole engine on each test input (VT-Q6); under
    ``strict`` with ``require_all`` a divergence fails the gate.
    """
    from engine.rtk.select import sort_filters

    pool = sort_filters(selection_pool if selection_pool is not None else filters, profile=profile)
    outcomes: list[TestOutcome] = []
    without: list[str] = []
    buckets: dict[str, _Bucket] = {}
    notes: list[Diagnostic] = list(diagnostics or [])
    for flt in filters:
        bucket = buckets.setdefault(flt.category, {"ids": set(), "tests": 0, "total": 0.0})
        bucket["ids"].add(flt.id)
        if not flt.tests:
            without.append(flt.id)
            continue
        with total_budget(what=f"the tests[] of filter {flt.id!r}"):
            ran = _run_tests(flt, should_stop, profile)
        for test, run, stopped in ran:
            result = run.text
            if stopped:
                # the filter's regex work ran out of time: its output is the input kept whole,
                # which must not count as a pass (issue 23: a 35 s test "passed")
                notes.extend(stopped)
            actual, expected = strip_trailing_newlines(result), strip_trailing_newlines(test.expected)
            saving = savings_percent(test.input, result)
            bucket["tests"] += 1
            bucket["total"] += max(0, saving)
            outcome = TestOutcome(flt.id, test.name, actual == expected and not stopped, actual, expected,
                                  unified_diff(expected, actual), flt.source, flt.path, test.pointer, saving)
            if profile != "strict" and not stopped:
                outcome.quirk = quirk_effect(flt, test.input, run, expected)
                if outcome.quirk is not None:
                    notes.append(Diagnostic(
                        f"test '{test.name}' of '{flt.id}': {outcome.quirk.message()}", "info",
                        outcome.quirk.ids[0], path=flt.path, pointer=test.pointer, source="verify",
                        data={"filterId": flt.id, "quirks": outcome.quirk.ids}))
            if check_activation and test.command is not None:
                outcome.activation = activation_check(flt, test.command, test.input, pool, profile)
                if not outcome.activation.passed:
                    chosen = describe_selection(outcome.activation, flt)
                    notes.append(Diagnostic(
                        f"test '{test.name}' of '{flt.id}': for command {test.command!r} {chosen} is selected, "
                        "not this filter" + ("" if profile == "strict" else " (OmniRoute's gate ignores "
                                                                            "tests[].command)"),
                        "error" if profile == "strict" else "warning", "VT-Q5", path=flt.path,
                        pointer=test.pointer, source="verify"))
            if check_engine:
                outcome.engine = _check_engine(flt, test, actual, pool, profile)
                if outcome.engine.differs:
                    strict_fail = profile == "strict" and require_all
                    notes.append(Diagnostic(
                        f"test '{test.name}' of '{flt.id}': at run time the engine gives a different output "
                        f"({_engine_summary(outcome.engine, flt)}); the gate runs the filter alone",
                        "error" if strict_fail else "info", "VT-Q6", path=flt.path, pointer=test.pointer,
                        source="verify"))
            outcomes.append(outcome)
    passed = all(o.passed for o in outcomes) and (not require_all or not without)
    if profile == "strict" and any(o.activation and not o.activation.passed for o in outcomes):
        passed = False
    if profile == "strict" and require_all and any(o.engine and o.engine.differs for o in outcomes):
        passed = False
    return VerifyResult(passed, outcomes, without, _benchmark(buckets), notes, require_all)


def _run_tests(flt: RtkFilter, should_stop: Callable[[], bool] | None, profile: str
               ) -> list[tuple[FilterTest, FilterResult, list[Diagnostic]]]:
    """(test, output, timeout diagnostics) for each of ``flt``'s tests, until asked to stop."""
    from engine.rtk.stages import apply_line_filter

    out: list[tuple[FilterTest, FilterResult, list[Diagnostic]]] = []
    for test in flt.tests:
        if should_stop is not None and should_stop():
            break
        result = apply_line_filter(test.input, flt, profile=profile)
        stopped = [d for d in result.diagnostics if d.code == "RTK-TIMEOUT"] if result.timed_out else []
        out.append((test, result, stopped))
    return out


def _engine_summary(check: EngineCheck, flt: RtkFilter) -> str:
    if check.filter_id is None:
        return "no filter ran"
    if check.filter_id != flt.id:
        return f"filter '{check.filter_id}' ({check.filter_source}) ran instead"
    return "same filter, with engine dedup, effective max lines and final caps"


def describe_selection(activation: ActivationCheck, flt: RtkFilter, *, with_file: bool = False) -> str:
    """The filter an activation check selected, as a message names it: "'id' (source)", with its
    file where it has ``flt``'s id (or ``with_file``)."""
    if activation.selected_id is None:
        return "no filter"
    text = f"'{activation.selected_id}' ({activation.selected_source}"
    if (with_file or activation.selected_id == flt.id) and activation.selected_path:
        # another filter of the same id: its folder too (".rtk/filters.json", not "filters.json"
        # beside "filters/deploy-log.json")
        shown = short_path(activation.selected_path) if activation.selected_id == flt.id \
            else os.path.basename(activation.selected_path)
        text += f", {shown}"
    return text + ")"


def short_path(path: str) -> str:
    """A filter file as a message names it when its file name alone is ambiguous: its folder and
    its name."""
    folder, name = os.path.split(path)
    return f"{os.path.basename(folder)}/{name}" if os.path.basename(folder) else name


class _Bucket(TypedDict):
    """One category's running totals for the benchmark table."""

    ids: set[str]
    tests: int
    total: float


def _benchmark(buckets: dict[str, _Bucket]) -> list[BenchmarkRow]:
    rows: list[BenchmarkRow] = []
    for category, b in buckets.items():
        average = math_round(b["total"] / b["tests"] * 100) / 100 if b["tests"] else 0
        rows.append(BenchmarkRow(category, len(b["ids"]), b["tests"], average))

    def by_category(a: BenchmarkRow, b: BenchmarkRow) -> int:
        return locale_compare(a.category, b.category)

    return sorted(rows, key=cmp_to_key(by_category))


def run_rtk_filter_tests(*, builtin_dir: str | os.PathLike[str] | None = None,
                         project_dir: str | os.PathLike[str] | None = None,
                         data_dir: str | os.PathLike[str] | None = None,
                         require_all: bool = False, custom_filters_enabled: bool = True,
                         trust_project_filters: bool = False, environ: Mapping[str, str] | None = None,
                         profile: str = "omniroute") -> VerifyResult:
    """``runRtkFilterTests``: reload every scope, run the gate, attach loader diagnostics (VT-Q7)."""
    from engine.rtk.sources import collect_filters

    config = {"customFiltersEnabled": custom_filters_enabled, "trustProjectFilters": trust_project_filters}
    filters, diagnostics = collect_filters(builtin_dir, project_dir, data_dir, config, environ, profile,
                                           diagnostics_quirk="VT-Q7")
    if not custom_filters_enabled:
        diagnostics = [d for d in diagnostics if d.source not in ("project", "global", "builtin")]
    return verify_filters(filters, require_all=require_all, profile=profile, diagnostics=diagnostics)
