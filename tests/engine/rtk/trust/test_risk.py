"""Risk review before trusting (§7.3): rtk's text summary and our structural findings."""

from __future__ import annotations

from engine.rtk.model import parse_filter_file
from engine.rtk.risk import assess_filter, risk_summary, rtk_text_summary
from engine.rtk.toml_io import parse_rtk_toml

from .conftest import canonical


def codes(obj) -> set[str]:
    (flt,), _ = parse_filter_file(obj)
    return {f.code for f in assess_filter(flt)}


def test_rtk_text_summary_is_substring_based():
    assert rtk_text_summary("[filters.a]\n[filters.b]\n") == [
        "Risk summary:", "  Filters: 2", "  No high-risk patterns detected."]
    lines = rtk_text_summary("[filters.a]\nreplace = []\nmatch_output = []\npattern = '.'\n")
    assert lines[2:] == ["  [!] Contains 'replace' rules (can rewrite output)",
                         "  [!] Contains 'match_output' rules (can replace entire output)",
                         "  [!] Contains catch-all pattern '.' (matches everything)"]


def test_quiet_filter_has_no_findings():
    assert codes(canonical("fine", drop=["^\\s*$", "^Compiling "])) == set()


def test_structural_findings():
    assert "catch-all" in codes(canonical("x", drop=[".*"]))
    assert "drops-errors" in codes(canonical("x", drop=["error"]))
    assert "keeps-no-errors" in codes(canonical("x", include=["^ok"]))
    assert {"match-output", "match-output-no-unless"} <= codes(
        canonical("x", matchOutput=[{"pattern": "done", "message": "ok"}]))
    assert "on-empty-success" in codes(canonical("x", on_empty="All tests passed"))
    (flt,), _ = parse_filter_file(canonical("x", drop=["^error"], on_empty="ok"))
    assert [f.level for f in assess_filter(flt) if f.code == "on-empty-success"] == ["high"]
    assert "small-max-lines" in codes(canonical("x", maxLines=2))
    assert "security-tool" in codes(canonical("x", commands=["audit|trivy"]))
    assert "catch-all-command" in codes(canonical("x", commands=["(?:)"]))
    assert "replace" in codes(canonical("x", replace=[{"pattern": "\\d+", "replacement": "N"}]))


def test_risk_summary_for_toml_uses_rtk_text_and_review():
    text = "schema_version = 1\n[filters.t]\nmatch_command = '^mytool'\non_empty = 'ok'\n"
    result = parse_rtk_toml(text)
    summary = risk_summary(text, result.filters, is_toml=True)
    assert summary.rtk_lines[1] == "  Filters: 1"
    assert [f.code for f in summary.high] == []
    assert [f.code for f in summary.findings] == ["on-empty-success"]
    assert "Rulewright review:" in summary.format()
