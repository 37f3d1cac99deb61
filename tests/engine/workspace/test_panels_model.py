"""The Qt-free view-models behind the tests, trust, repair, grammar and params panels."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from engine import jsonedit
from engine.paths import resources_dir
from engine.rtk.export import ExportError
from engine.rtk.trust import decide_trust, write_trust
from engine.workspace.filter_files import filter_files_of, filter_pointers, is_filter_file
from engine.workspace.panel_models.grammar_playground import GrammarRequest, run_grammar_view
from engine.workspace.panel_models.params_playground import load_params_templates, run_params_view
from engine.workspace.panel_models.repair_playground import (
    PRESET_SCHEMAS,
    RepairRequest,
    load_repair_samples,
    run_repair_view,
)
from engine.workspace.panel_models.tests_panel import (
    accept_actual_splice,
    activation_pool,
    new_test_splice,
    preview_activation,
    preview_test,
    run_workspace_tests,
    unique_test_name,
)
from engine.workspace.panel_models.trust_panel import (
    export_candidates,
    export_selection,
    since_trust_lines,
    trust_confirmation,
    trust_overview,
)
from tests.support.demo_workspace import write_demo_workspace


@pytest.fixture
def demo(tmp_path) -> Path:
    return write_demo_workspace(tmp_path / "demo")


# -- tests runner ---------------------------------------------------------------------------------------

def test_filter_files_include_json_arrays_single_filters_and_rtk_toml(demo):
    names = [str(p.relative_to(demo)) for p in filter_files_of(demo)]
    assert names == [".rtk/filters.json", "filters/make.toml", "filters/npm.json", "filters/pytest.json"]


def test_run_reports_each_test_with_pointer_diff_and_activation(demo):
    result = run_workspace_tests(filter_files_of(demo))
    assert (result.passed, result.failed) == (7, 1)
    failed = next(r for r in result.rows if not r.passed)
    assert (failed.filter_id, failed.test_name, failed.pointer) == ("pytest-quiet", "plugins line (outdated expectation)",
                                                                    "/tests/2")
    assert "-plugins: cov-5.0" in failed.diff.splitlines()
    assert failed.can_accept
    toml_row = next(r for r in result.rows if r.filter_id == "make-quiet")
    assert toml_row.pointer is None and not toml_row.can_accept  # TOML is not edited in place
    assert toml_row.activation is None  # the TOML test has no command
    audit = next(r for r in result.rows if r.test_name == "audit command")
    assert audit.passed and audit.activation_ok is False  # `npm audit` selects the project's audit filter
    assert audit.activation["selectedFilterId"] == "audit-quiet"
    assert "1 activation warning" in result.summary()


def test_preview_activation_says_before_a_test_is_added_which_filter_its_command_selects(demo):
    files = filter_files_of(demo)
    npm = demo / "filters" / "npm.json"
    pool = activation_pool(files, npm)
    ok = preview_activation(pool, "npm-install", "npm ci", "added 9 packages")
    assert ok.passes is True and "this filter is selected" in ok.message
    # the same run over the same pool says the same: `npm audit` selects the project's filter
    other = preview_activation(pool, "npm-install", "npm audit", "found 0 vulnerabilities")
    assert other.passes is False
    assert "'audit-quiet' (project, filters.json) is selected (criterion: commands), not 'npm-install'" in other.message
    none = preview_activation(pool, "npm-install", "  ", "x")
    assert none.passes is None and "no activation check" in none.message
    # the buffer the test goes into counts: a match edited there but not saved
    buffer = npm.read_text(encoding="utf-8").replace("^npm (install|i|ci)\\\\b", "^yarn\\\\b")
    assert buffer != npm.read_text(encoding="utf-8")
    edited = preview_activation(activation_pool(files, npm, buffers={npm: buffer}), "npm-install", "npm ci",
                                "added 9 packages")
    assert edited.passes is False
    gone = preview_activation(pool, "no-such-id", "npm ci", "x")
    assert gone.passes is None and "does not load" in gone.message


def test_preview_activation_tells_two_filters_of_one_id_apart(tmp_path):
    from tests.support.preview_samples import FILTER

    root = tmp_path / "ws"
    (root / "filters").mkdir(parents=True)
    (root / ".rtk").mkdir()
    mine = root / "filters" / "mytool.json"
    mine.write_text(json.dumps(FILTER), encoding="utf-8")
    (root / ".rtk" / "filters.json").write_text(json.dumps([FILTER]), encoding="utf-8")  # (exported before)
    pool = activation_pool(filter_files_of(root), mine)
    check = preview_activation(pool, "mytool", "mytool build", "mytool 1.0\n")
    assert check.passes is False
    assert "'mytool' (project, .rtk/filters.json) is selected" in check.message
    assert "not the 'mytool' of filters/mytool.json" in check.message  # (was: "'mytool' … not 'mytool'")


def test_unsaved_buffer_is_tested_instead_of_the_file(demo):
    path = demo / "filters" / "pytest.json"
    text = path.read_text(encoding="utf-8").replace('"plugins: cov-5.0\\ntests/test_c.py', '"tests/test_c.py')
    result = run_workspace_tests([path], buffers={path: text})
    assert result.failed == 0 and result.rows[0].file == str(path)


def test_cancel_stops_between_files_and_progress_reaches_the_end(demo):
    files = filter_files_of(demo)
    steps: list[tuple[int, int, str]] = []
    result = run_workspace_tests(files, progress=lambda d, t, label: steps.append((d, t, label)))
    assert steps[-1] == (len(files) * 2, len(files) * 2, "done") and not result.cancelled
    cancel = threading.Event()

    def stop_after_reading(done: int, total: int, label: str) -> None:
        if label.startswith("testing"):
            cancel.set()

    cancelled = run_workspace_tests(files, progress=stop_after_reading, cancel=cancel)
    assert cancelled.cancelled and len(cancelled.files) < len(files)
    assert cancelled.summary().startswith("cancelled")


def test_accept_actual_changes_only_the_expected_value(demo):
    path = demo / "filters" / "pytest.json"
    text = path.read_text(encoding="utf-8")
    row = next(r for r in run_workspace_tests([path]).rows if not r.passed)
    splice = accept_actual_splice(text, row)
    edited = splice.apply(text)
    assert json.loads(edited)["tests"][2]["expected"] == row.actual
    assert text[: splice.start] == edited[: splice.start]  # everything before the value untouched
    path.write_text(edited, encoding="utf-8")
    assert run_workspace_tests([path]).failed == 0


def test_accept_actual_refuses_a_moved_test(demo):
    path = demo / "filters" / "pytest.json"
    row = next(r for r in run_workspace_tests([path]).rows if not r.passed)
    value = json.loads(path.read_text(encoding="utf-8"))
    value["tests"].insert(0, value["tests"].pop())  # the failing test moved to index 0
    with pytest.raises(jsonedit.EditError, match="no longer"):
        accept_actual_splice(json.dumps(value, indent=2), row)


def test_new_test_from_a_preview_sample_passes_and_is_appended(demo):
    path = demo / "filters" / "npm.json"
    text = path.read_text(encoding="utf-8")
    value = json.loads(text)
    test = preview_test(value, unique_test_name(value), "npm ci", "npm WARN old\n\nadded 3 packages")
    assert test == {"name": "preview sample", "command": "npm ci", "input": "npm WARN old\n\nadded 3 packages",
                    "expected": "added 3 packages"}
    edited = new_test_splice(text, filter_pointers(value)["npm-install"], test).apply(text)
    assert json.loads(edited)["tests"][-1] == test
    path.write_text(edited, encoding="utf-8")
    result = run_workspace_tests([path])
    assert result.failed == 0 and result.rows[-1].activation_ok is True


def test_new_test_creates_the_tests_array_and_names_stay_unique(demo):
    value = json.loads((demo / "filters" / "npm.json").read_text(encoding="utf-8"))
    del value["tests"]
    text = json.dumps([value], indent=2)
    test = preview_test(value, "first", "", "x")
    edited = json.loads(new_test_splice(text, "/0", test).apply(text))
    assert edited[0]["tests"] == [{"name": "first", "input": "x", "expected": "x"}]
    assert unique_test_name({"tests": [{"name": "preview sample"}]}) == "preview sample 2"


# -- trust & export -------------------------------------------------------------------------------------------

def test_trust_overview_says_changed_and_the_confirmation_names_count_and_hash(demo):
    overview = trust_overview(demo, environ={})
    json_view = overview.files[0]
    assert (json_view.verdict, json_view.reason, json_view.filter_ids) == ("changed", "hash-mismatch",
                                                                                 ["git-log-short", "audit-quiet"])
    assert overview.files[1].verdict == "missing"
    text, snapshots = trust_confirmation(overview)
    assert [s.path for s in snapshots] == [demo / ".rtk" / "filters.json"]
    assert text.startswith(f"Trust 2 filters in filters.json (hash {json_view.computed[:4]}…")
    assert text.splitlines()[0].endswith("?") and "Compared with the last trust:" in text
    write_trust(demo, snapshots=snapshots)
    assert decide_trust(snapshots[0].path, environ={}).verdict == "trusted"
    assert trust_overview(demo, environ={}).files[0].verdict == "trusted"


def test_trust_confirmation_says_what_the_filters_own_tests_say(demo):
    """A reviewer sees, before trusting, that a filter no longer does what its tests say (a
    hidden drop pattern makes its test fail) — and that the others pass."""
    overview = trust_overview(demo, environ={})
    assert "filters.json: the tests of all 2 tested filter(s) pass" in trust_confirmation(overview)[0]
    path = demo / ".rtk" / "filters.json"
    filters = json.loads(path.read_text(encoding="utf-8"))
    tested = next(f for f in filters if f.get("tests"))
    tested["tests"][0]["expected"] += "\nthis line is not in the output"
    path.write_text(json.dumps(filters, indent=2), encoding="utf-8")
    view = trust_overview(demo, environ={}).files[0]
    assert list(view.test_problems or {}) == [tested["id"]]
    text = trust_confirmation(trust_overview(demo, environ={}))[0]
    lines = text.splitlines()
    at = lines.index("Their inline tests:")
    assert lines[at + 1] == "filters.json: 1 of 2 tested filter(s) have a test problem"
    assert lines[at + 2].startswith(f"  [!] {tested['id']}: test '{tested['tests'][0]['name']}' fails")


def test_export_candidates_reuse_the_overviews_test_run_of_the_project_filters(demo, monkeypatch):
    """The Trust panel's load ran the .rtk filters' tests twice (overview, then export list)."""
    from engine.workspace.panel_models import trust_panel

    overview = trust_overview(demo, environ={})
    files = filter_files_of(demo)
    runs: list[int] = []
    real = trust_panel.test_problems
    monkeypatch.setattr(trust_panel, "test_problems", lambda filters: runs.append(len(filters)) or real(filters))
    reused, _ = export_candidates(files, tested=overview.test_problems())
    assert len(runs) == len(files) - 1  # every file but .rtk/filters.json
    monkeypatch.setattr(trust_panel, "test_problems", real)
    assert reused == export_candidates(files)[0]


def test_a_broken_trust_json_is_not_called_never_trusted(demo):
    """With trust.json unreadable, whether the file was ever trusted is unknown: the review says
    why there is nothing to compare with, not "never trusted before"."""
    (demo / ".rtk" / "trust.json").write_text('{"filtersSha256": ', encoding="utf-8")
    view = trust_overview(demo, environ={}).files[0]
    assert (view.verdict, view.reason) == ("untrusted", "invalid-json")
    head = since_trust_lines(view)[0]
    assert head == ("filters.json: trust.json is not valid JSON, so there is no trusted version to compare with: "
                    "every filter is shown as new")


def test_trust_confirmation_refuses_a_file_changed_after_the_review(demo):
    from engine.rtk.trust import TrustWriteError

    overview = trust_overview(demo, environ={})
    _text, snapshots = trust_confirmation(overview)
    path = demo / ".rtk" / "filters.json"
    path.write_bytes(path.read_bytes().replace(b"audit-quiet", b"audit-loud"))
    with pytest.raises(TrustWriteError, match="changed after it was reviewed"):
        write_trust(demo, snapshots=snapshots)
    assert decide_trust(path, environ={}).verdict == "changed"


def test_trust_confirmation_without_project_filters_is_refused(tmp_path):
    with pytest.raises(ValueError):
        trust_confirmation(trust_overview(tmp_path, environ={}))


def test_export_partial_and_whole_files_then_trust(demo):
    files = [demo / "filters" / "pytest.json", demo / "filters" / "npm.json", demo / "filters" / "make.toml"]
    candidates, problems = export_candidates(files)
    assert problems == [] and [c.filter_id for c in candidates] == ["pytest-quiet", "npm-install", "make-quiet"]
    chosen = [c for c in candidates if c.filter_id in ("pytest-quiet", "make-quiet")]
    target = demo / ".rtk" / "filters.json"
    with pytest.raises(ExportError, match="pytest-quiet: test 'plugins line"):  # its test fails on purpose
        export_selection(chosen, candidates, target, fmt="json", with_trust=True)
    result = export_selection(chosen, candidates, target, fmt="json", with_trust=True, allow_failing=True)
    exported = json.loads(target.read_text(encoding="utf-8"))
    assert [f["id"] for f in exported] == ["git-log-short", "audit-quiet", "pytest-quiet", "make-quiet"]  # merged
    assert result.trust is not None and decide_trust(target, environ={}).verdict == "trusted"
    toml = export_selection(chosen[:1], candidates, demo / "out.toml", fmt="toml", allow_failing=True)
    assert toml.filter_ids == ["pytest-quiet"] and "[filters.pytest-quiet]" in (demo / "out.toml").read_text()


def test_export_of_a_file_with_two_filters_keeps_only_the_chosen_one(tmp_path):
    value = json.loads(json.dumps([_tiny("a"), _tiny("b")]))
    src = tmp_path / "two.json"
    src.write_text(json.dumps(value), encoding="utf-8")
    candidates, _ = export_candidates([src])
    export_selection([candidates[1]], candidates, tmp_path / "out.json", fmt="json")
    assert [f["id"] for f in json.loads((tmp_path / "out.json").read_text())] == ["b"]


def _tiny(ident: str) -> dict:
    return {"id": ident, "label": ident, "category": "generic", "match": {"commands": [f"^{ident}\\b"]},
            "rules": {"dropPatterns": ["^\\s*$"]}, "preserve": {}}


# -- repair ---------------------------------------------------------------------------------------------------

def test_every_repair_sample_loads_and_repairs():
    samples = load_repair_samples(resources_dir() / "samples" / "repair")
    assert samples, "the bundled samples are missing"
    for sample in samples:
        raw = isinstance(sample.args, str)
        view = run_repair_view(RepairRequest(json.dumps(sample.schema), sample.args if raw else
                                                   json.dumps(sample.args), json.dumps(sample.options), raw_args=raw))
        assert view.ok, (sample.name, view.errors)
        assert view.result["outcome"] in ("valid", "repaired"), sample.name


def test_repair_view_shows_changes_with_rule_summary_and_a_diff():
    req = RepairRequest(json.dumps(PRESET_SCHEMAS["read"]), json.dumps({"file_path": "src/a.ts"}),
                           preset="read")
    view = run_repair_view(req)
    assert view.result["outcome"] == "repaired" and view.returned == {"path": "src/a.ts"}
    change = view.changes[0]
    assert change["ruleId"] == "preprocess.exact-alias" and change["summary"]
    tags = {row.tag for row in view.diff}
    assert tags & {"replace", "insert", "delete"}


def test_unrepairable_arguments_give_the_retry_message():
    view = run_repair_view(RepairRequest(json.dumps(PRESET_SCHEMAS["bash"]), json.dumps({"timeout": 5})))
    assert view.result["outcome"] == "unrepairable" and view.threw
    assert view.error_message == view.result["retryMessage"] and view.error_message


def test_repair_pane_errors_are_positioned():
    view = run_repair_view(RepairRequest('{"type": "object",\n  oops}', "{}", "[1]"))
    errors = {e.pane: e for e in view.errors}
    assert errors["schema"].line == 2 and errors["schema"].column == 3
    assert errors["config"].message == "the config must be a JSON object"
    assert not view.ok


# -- leaked grammar ---------------------------------------------------------------------------------------------

GLM = "Reading it.\n<tool_call>read<arg_key>path</arg_key><arg_value>a.txt</arg_value></tool_call>"


def test_grammar_promotion_under_recover_with_utf16_span():
    text = "😀 " + GLM  # an astral character before the leak: spans are UTF-16 units
    view = run_grammar_view(GrammarRequest(text, model_id="zai/glm-4.6", policy="recover", now_ms=0))
    assert view.record["promoted"] and view.verdict.startswith("promoted 1 call(s): read")
    (h,) = view.highlights
    start = text.index("<tool_call>")
    assert h.kind == "promoted" and h.start == start + 1  # the emoji is two UTF-16 units
    assert view.final_text == "😀 Reading it."


def test_grammar_strip_mode_and_unknown_tool_and_model_gate():
    stripped = run_grammar_view(GrammarRequest(GLM, model_id="zai/glm-4.6", policy="adaptive", now_ms=0))
    assert stripped.highlights[0].kind == "stripped" and "strip-mode" in stripped.verdict
    unknown = run_grammar_view(GrammarRequest(GLM, model_id="zai/glm-4.6", policy="recover",
                                                    allowed_tools=("bash",), now_ms=0))
    assert "unknown-tool" in unknown.record["reasonsNotPromoted"]
    gated = run_grammar_view(GrammarRequest(GLM, model_id="openai/gpt-4.1", now_ms=0))
    assert gated.verdict == "untouched: model-not-on-leak-list" and gated.final_text == GLM


# -- params ----------------------------------------------------------------------------------------------------

def test_every_params_template_builds_a_report_with_features_and_plugins_in_order():
    templates = load_params_templates(resources_dir() / "samples" / "params")
    assert templates
    for template in templates:
        view = run_params_view(json.dumps(template.payload))
        assert view.ok, (template.name, view.errors)
        assert view.feature_rows and all("why" in f for f in view.feature_rows)
        names = [p["name"] for p in view.plugin_rows]
        order = view.report["plugins"]
        assert names == [n for n in order if n in names]


def test_params_errors_have_positions():
    assert run_params_view('{"provider": ').errors[0].line == 1
    missing = run_params_view('{\n  "model": {}\n}').errors[0]
    assert "provider" in missing.message
    assert run_params_view("").errors[0].message.startswith("empty")


def test_bundled_builtins_compete_in_the_activation_check(demo, tmp_path, monkeypatch):
    import engine.paths

    builtins = tmp_path / "builtins"
    builtins.mkdir()
    (builtins / "audit.json").write_text(json.dumps(_tiny("audit-builtin") | {
        "match": {"commands": ["^npm audit\\b"]}}), encoding="utf-8")
    monkeypatch.setattr(engine.paths, "builtin_filters_dir", lambda: builtins)
    npm = demo / "filters" / "npm.json"
    audit = next(r for r in run_workspace_tests([npm], with_builtins=True).rows if r.test_name == "audit command")
    assert audit.activation["selectedFilterId"] == "audit-builtin"
    alone = next(r for r in run_workspace_tests([npm]).rows if r.test_name == "audit command")
    assert alone.activation["selectedFilterId"] is None


def test_is_filter_file_recognises_json_filters_and_rtk_toml(demo):
    assert is_filter_file(demo / "filters" / "npm.json")
    assert is_filter_file(demo / "filters" / "make.toml")  # no "filter" in the name: found by its tables
    assert is_filter_file(demo / ".rtk" / "filters.json")
    assert not is_filter_file(demo / ".rtk" / "trust.json")


def test_params_schema_findings_are_located_in_the_payload():
    template = load_params_templates(resources_dir() / "samples" / "params")[0]
    payload = json.loads(json.dumps(template.payload))
    payload["assistant"]["settings"]["temperature"] = "hot"
    text = json.dumps(payload, indent=2)
    view = run_params_view(text)
    (finding,) = [f for f in view.schema_findings if f["pointer"] == "/assistant/settings/temperature"]
    assert finding["level"] == "warning" and "must be number" in finding["message"]
    assert text.splitlines()[finding["line"] - 1].strip().startswith('"temperature": "hot"')
    assert run_params_view(text, profile="strict").schema_findings == []
