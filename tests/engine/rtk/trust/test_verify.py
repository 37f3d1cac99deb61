"""The verify gate: filter stage only, trailing-\\n comparison, diff, benchmark, activation (§1)."""

from __future__ import annotations

from engine.rtk.model import parse_filter_file
from engine.rtk.verify import run_rtk_filter_tests, unified_diff, verify_filters

from .conftest import canonical, write_json


def load(*objects, source="builtin"):
    filters, diagnostics = parse_filter_file(list(objects), source=source)
    assert filters, diagnostics
    return filters


def test_passing_and_failing_tests_with_diff():
    flt = canonical("keep-branch", include=["^On branch"], tests=[
        {"name": "ok", "input": "On branch a\nnoise", "expected": "On branch a\n\n"},
        {"name": "bad", "input": "On branch a\nnoise", "expected": "On branch b"},
    ])
    result = verify_filters(load(flt))
    assert [o.passed for o in result.outcomes] == [True, False]
    bad = result.outcomes[1]
    assert (bad.actual, bad.expected) == ("On branch a", "On branch b")
    assert bad.diff.splitlines() == ["--- expected", "+++ actual", "@@ -1 +1 @@", "-On branch b", "+On branch a"]
    assert not result.passed and result.failed == [bad]


def test_only_newlines_are_trimmed():
    flt = canonical("cr", tests=[{"name": "cr counts", "input": "x\r", "expected": "x"}])
    (outcome,) = verify_filters(load(flt)).outcomes
    assert not outcome.passed and outcome.actual == "x\r"


def test_raw_max_lines_zero_means_no_limit_in_the_gate():
    lines = "\n".join(f"line {i}" for i in range(300))
    flt = canonical("big", tests=[{"name": "all kept", "input": lines, "expected": lines}])
    assert verify_filters(load(flt)).passed


def test_require_all_and_filters_without_tests():
    filters = load(canonical("tested", tests=[{"name": "t", "input": "a", "expected": "a"}]),
                   canonical("untested"))
    assert verify_filters(filters).passed
    result = verify_filters(filters, require_all=True)
    assert not result.passed and result.filters_without_tests == ["untested"]


def test_benchmark_buckets_by_category():
    filters = load(
        canonical("g1", include=["^keep"], tests=[{"name": "t", "input": "keep\n" + "drop me\n" * 10,
                                                   "expected": "keep"}]),
        canonical("g2", tests=[{"name": "grows", "input": "a", "expected": "a"}]),
        canonical("b1", category="build"),
    )
    rows = {r.category: r for r in verify_filters(filters).benchmark}
    assert [r.category for r in verify_filters(filters).benchmark] == ["build", "git"]
    assert (rows["build"].filters, rows["build"].tests, rows["build"].average_savings_percent) == (1, 0, 0)
    # g1: 85 chars -> 22 tokens, "keep\n…" result 'keep' -> 1 token: 95.45%; g2: 0% (never negative)
    assert rows["git"].filters == 2 and rows["git"].tests == 2
    assert rows["git"].average_savings_percent == round((22 - 1) / 22 * 100 / 2, 2)


def test_activation_is_reported_separately_VT_Q5():
    tests = [{"name": "t", "command": "git status", "input": "On branch a", "expected": "On branch a"},
             {"name": "u", "command": "make all", "input": "On branch a", "expected": "On branch a"}]
    filters = load(canonical("status-filter", tests=tests))
    result = verify_filters(filters)
    assert result.passed  # OmniRoute's gate ignores tests[].command
    a, b = (o.activation for o in result.outcomes)
    assert a.passed and a.selected_id == "status-filter" and a.criterion == "commands"
    assert not b.passed and b.selected_id is None
    assert [d.code for d in result.diagnostics] == ["VT-Q5"]
    strict = verify_filters(filters, profile="strict")
    assert not strict.passed


def test_unified_diff_is_empty_when_equal():
    assert unified_diff("a\nb", "a\nb") == ""


def test_gate_over_sources_reports_default_load_diagnostics_VT_Q7(builtin_dir, layout):
    project, data = layout
    write_json(project / ".rtk" / "filters.json", canonical("mine", include=["^x"], tests=[
        {"name": "t", "input": "x\ny", "expected": "x"}]))
    result = run_rtk_filter_tests(builtin_dir=builtin_dir, project_dir=project, data_dir=data,
                                  trust_project_filters=True, environ={})
    assert [o.filter_id for o in result.outcomes] == ["mine", "status"]
    assert result.passed
    loader = [d.message for d in result.diagnostics if d.source == "project"]
    assert loader == ["Project RTK filters are untrusted and were skipped"]
    assert "VT-Q7" in [d.code for d in result.diagnostics]
    off = run_rtk_filter_tests(builtin_dir=builtin_dir, project_dir=project, data_dir=data,
                               custom_filters_enabled=False, environ={})
    assert [o.filter_id for o in off.outcomes] == ["status"]
    assert not [d for d in off.diagnostics if d.source in ("project", "global", "builtin")]


def test_to_dict_shape():
    result = verify_filters(load(canonical("x", tests=[{"name": "t", "input": "a", "expected": "b"}])))
    out = result.to_dict()
    assert set(out) >= {"passed", "outcomes", "filtersWithoutTests", "benchmark", "diagnostics", "activation"}
    assert out["outcomes"][0]["diff"].startswith("--- expected")
    assert out["benchmark"][0] == {"category": "git", "filters": 1, "tests": 1, "averageSavingsPercent": 0}


def test_engine_check_flags_runtime_divergence_VT_Q6():
    many = "\n".join(["a rather long line of repeated build output"] * 10)
    flt = canonical("quiet", tests=[{"name": "dedup at run time", "command": "git status",
                                     "input": many, "expected": many}])
    filters = load(flt)
    result = verify_filters(filters, check_engine=True)
    (outcome,) = result.outcomes
    assert outcome.passed and outcome.engine.differs  # engine dedup collapses the run
    assert "[line repeated 9x]" in outcome.engine.text and outcome.engine.filter_id == "quiet"
    assert result.passed and [d.code for d in result.diagnostics] == ["VT-Q6"]
    assert not verify_filters(filters, check_engine=True, require_all=True, profile="strict").passed
