"""Renderers (rtk.md §7.3): what each keeps, the whitelist, and the quirks each profile shows."""

from __future__ import annotations

import pytest

from engine.rtk.engine import process_rtk_text
from engine.rtk.renderers import ESLINT_CLEAN, UNSET, js_truthy, render

DIFF = "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n ctx\n-old\n+new\n-- item\n"


def codes(diags) -> list[str]:
    return [d.code for d in diags]


@pytest.mark.parametrize("value,truthy", [(False, False), (0, False), ("", False), (None, False), (UNSET, False),
                                          ("false", True), ("0", True), ([], True), ({}, True), (0.5, True)])
def test_js_truthiness(value, truthy):
    assert js_truthy(value) is truthy


def test_git_diff_keeps_headers_hunks_and_single_sign_lines():
    out = render(DIFF, "git-diff", True)
    assert out.renderer == "git-diff"
    assert out.text == "diff --git a/x b/x\n@@ -1,3 +1,3 @@\n-old\n+new"
    assert "RTK-Q21" in codes(out.diagnostics)  # `-- item` was a removed bullet


def test_git_diff_strict_keeps_double_sign_change_lines_and_markers():
    text = DIFF + "[rtk:truncated 3 lines]"
    out = render(text, "git-diff", True, profile="strict")
    assert out.text.splitlines()[-2:] == ["-- item", "[rtk:truncated 3 lines]"]
    assert "--- a/x" not in out.text


def test_git_diff_without_hunk_marker_is_left_alone():
    assert render("diff --git a b\n+x", "git-diff", True).renderer is None


def test_test_green_collapses_a_green_pytest_run():
    text = "collected 3 items\n\ntests/test_a.py ...\n\n===== 3 passed in 0.12s =====\n"
    out = render(text, "test-pytest", True)
    assert (out.renderer, out.text) == ("test-green", "===== 3 passed in 0.12s =====")


def test_test_green_first_failed_count_only_and_strict_fix():
    text = "0 failed so far\n...\n2 failed, 3 passed\n===== 3 passed =====\n"
    assert render(text, "test-pytest", True).renderer == "test-green"
    assert "RTK-Q22" in codes(render(text, "test-pytest", True).diagnostics)
    assert render(text, "test-pytest", True, profile="strict").renderer is None


def test_test_green_empty_output_becomes_the_eslint_message_only_in_omniroute():
    out = render("  \n", "test-jest", True)
    assert out.text == ESLINT_CLEAN and "RTK-Q23" in codes(out.diagnostics)
    assert render("  \n", "test-jest", True, profile="strict").renderer is None
    assert render("", "build-eslint", True, profile="strict").text == ESLINT_CLEAN


def test_test_green_error_substring_blocks_only_in_omniroute():
    text = "test_ErrorHandler PASSED\n===== 1 passed =====\n"
    out = render(text, "test-pytest", True)
    assert out.renderer is None and "RTK-Q24" in codes(out.diagnostics)
    assert render(text, "test-pytest", True, profile="strict").text == "===== 1 passed ====="


PLAN = ("  # aws_s3_bucket.b will be created\n  # aws_instance.w must be replaced\n"
        "Plan: 1 to add, 0 to change, 1 to destroy.\n")


def test_terraform_plan_summary_and_listed_actions():
    out = render(PLAN, "terraform-plan", True)
    assert out.text == "Plan: +1 ~0 -1\n  # aws_s3_bucket.b will be created"
    assert "RTK-Q25" in codes(out.diagnostics)
    strict = render(PLAN, "tofu-plan", True, profile="strict")
    assert strict.text.splitlines()[-1] == "  # aws_instance.w must be replaced"


def test_terraform_no_changes_is_left_alone():
    assert render("No changes. Your infrastructure matches.\nPlan: 0 to add, 0 to change, 0 to destroy",
                  "terraform-plan", True).renderer is None


def test_structured_table_columns_rows_and_js_number_text():
    text = '[{"id":1,"name":"a","size":1e21,"tags":[1,null]},{"id":2,"name":"b","size":0.0000001,"tags":"x"}]'
    out = render(text, "json-output", True)  # `tags` is scalar once: 1 ≥ floor(2/2), so a column
    assert out.text.splitlines() == ["name\tid\tsize\ttags", "a\t1\t1e+21\t1,", "b\t2\t1e-7\tx"]


def test_structured_table_inherited_names_never_become_columns_unless_strict():
    text = '[{"constructor":"x","b":1},{"constructor":"y","b":2}]'
    out = render(text, "aws", True)
    assert out.text.splitlines()[0] == "b" and "RTK-Q27" in codes(out.diagnostics)
    assert render(text, "aws", True, profile="strict").text.splitlines()[0] == "constructor\tb"


def test_structured_table_slices_brackets_and_caps_rows():
    rows = ",".join(f'{{"id":{i}}}' for i in range(203))
    out = render(f"prefix [{rows}] suffix", "json-output", True)
    assert out.text.splitlines()[-1] == "\u2026 (+3 more)"
    assert len(out.text.splitlines()) == 202


@pytest.mark.parametrize("whitelist,rendered", [
    (["git-diff"], True), (["test-green"], False), ("git-diff,aws", True), ("diff", False),
    ({"length": 1}, False), ({}, True), ([], True), (None, True), (True, True)])
def test_whitelist_is_matched_against_detection_types(whitelist, rendered):
    assert (render(DIFF, "git-diff", True, whitelist).renderer is not None) is rendered


def test_strict_whitelist_accepts_renderer_names_and_reports_other_shapes():
    assert render("===== 1 passed =====", "test-pytest", True, ["test-green"], profile="strict").renderer
    out = render(DIFF, "git-diff", True, "git-diff", profile="strict")
    assert out.renderer == "git-diff" and "RTK-Q26" in codes(out.diagnostics)


def test_engine_records_render_technique_and_trace_step():
    from engine.rtk.trace import Trace

    trace = Trace()
    result = process_rtk_text('[{"id":1},{"id":2}]', None, {"enabled": True, "enableRenderers": 1}, trace=trace)
    assert result.techniques_used == ["rtk-render:structured-table"]
    assert result.rules_applied == ["rtk:render:structured-table"]
    assert [s.stage for s in trace.steps] == ["rtk:render:structured-table"]
