"""The Repair playground (arguments + leaked grammar) and the Params playground."""

from __future__ import annotations

import json

import pytest
from PySide6.QtTest import QTest

from app.panel_params import ParamsPanel
from app.panel_repair import RepairPanel
from engine.workspace.panel_models.repair_playground import PRESET_SCHEMAS

pytestmark = pytest.mark.gui


@pytest.fixture
def repair(qtbot):
    panel = RepairPanel()
    qtbot.addWidget(panel)
    qtbot.waitUntil(lambda: panel.repair.view is not None and panel.grammar.view is not None, timeout=10000)
    return panel


def _wait(qtbot, tab, action):
    with qtbot.waitSignal(tab.worker.finished, timeout=10000):
        action()


# -- arguments ------------------------------------------------------------------------------------------------

def test_each_sample_shows_outcome_changes_and_diff(qtbot, repair):
    tab = repair.repair
    for sample in tab.samples:
        _wait(qtbot, tab, lambda s=sample: tab.load_sample(s.name))
        assert tab.view.ok, sample.name
        assert tab.outcome.text() == "✎ repaired", sample.name
        shown = tab.changes.toPlainText()
        for n, change in enumerate(tab.view.changes, 1):
            assert f"{n}. {change['ruleId']} · {change['stage']}\n{change['note']}" in shown, sample.name
        assert any(line.startswith(("-", "+")) for line in tab.diff.plain_lines()), sample.name


def test_claude_code_names_sample_folds_the_edit(qtbot, repair):
    tab = repair.repair
    _wait(qtbot, tab, lambda: tab.load_sample("claude-code-field-names"))
    assert tab.preset.currentData() == "edit"
    assert tab.view.returned["path"] == "src/app.py"
    assert "edits" in tab.view.returned
    assert "the tool receives" in tab.outcome_detail.text()
    trace_stages = {tab.trace.topLevelItem(i).text(0) for i in range(tab.trace.topLevelItemCount())}
    assert "preprocess" in trace_stages


def test_the_diff_marks_where_a_replaced_line_differs(qtbot, repair):
    tab = repair.repair
    _wait(qtbot, tab, lambda: tab.load_sample("claude-code-field-names"))
    lines = tab.diff.plain_lines()
    assert '-   "file_path": "src/app.py",' in lines and '+   "path": "src/app.py",' in lines
    # (the renamed key, not the whole line: its value is the same on both sides)
    assert tab.diff.changed_stretches()[0] == "file_"


def test_a_unified_diff_marks_each_replaced_line_of_a_run(qtbot):
    from app.playground.common import DiffView

    view = DiffView()
    qtbot.addWidget(view)
    view.show_unified("--- expected\n+++ actual\n@@ -1,3 +1,3 @@\n-deploy: done in 41s\n-health ok\n"
                      "+deploy: done in 42s\n+health: ok\n kept\n-only removed\n")
    assert view.plain_lines() == ["--- expected", "+++ actual", "@@ -1,3 +1,3 @@", "- deploy: done in 41s",
                                  "- health ok", "+ deploy: done in 42s", "+ health: ok", "  kept", "- only removed"]
    assert view.changed_stretches() == ["1", "2", ":"]  # (an insertion marks nothing on the removed side)
    # a line dropped above the one that changed: the changed one is marked, not the dropped one
    view.show_unified("-deploy: health check 3/3 ok\n-deploy: done in 40s\n+deploy: done in 41s\n")
    assert view.changed_stretches() == ["0", "1"]
    view.show_unified("")
    assert view.plain_lines() == ["  no differences"] and view.changed_stretches() == []


def test_unrepairable_shows_the_retry_message(qtbot, repair):
    tab = repair.repair
    tab.preset.setCurrentIndex(tab.preset.findData("bash"))
    tab._on_preset(tab.preset.currentIndex())
    assert json.loads(tab.schema.toPlainText()) == PRESET_SCHEMAS["bash"]
    tab.raw.setChecked(False)
    _wait(qtbot, tab, lambda: tab.args.setPlainText('{"timeout": 3}'))
    assert tab.outcome.text() == "✖ unrepairable"
    assert tab.retry.toPlainText() == tab.view.result["retryMessage"] != ""
    assert tab.details.currentWidget() is tab.retry and tab.details.tabText(1) == "Retry message"
    assert "throws UnrepairableToolInputError" in tab.outcome_detail.text()


def test_broken_json_is_marked_in_the_pane_not_in_a_dialog(qtbot, repair, dialogs):
    tab = repair.repair
    _wait(qtbot, tab, lambda: tab.schema.setPlainText('{"type": "object",\n  broken'))
    assert tab.outcome.text() == "✖ input" and "schema:2:3" in tab.outcome_detail.text()
    assert tab.schema.marks() and tab.schema.marks()[0].level == "error"
    _wait(qtbot, tab, lambda: tab.schema.setPlainText(json.dumps(PRESET_SCHEMAS["read"])))
    assert tab.schema.marks() == []
    assert dialogs.calls == []


def test_typing_is_debounced_and_only_the_latest_result_is_shown(qtbot, repair):
    tab = repair.repair
    _wait(qtbot, tab, lambda: tab.load_sample("markdown-linked-paths"))
    tab.args.setFocus()
    with qtbot.waitSignal(tab.worker.finished, timeout=10000):
        tab.args.selectAll()
        QTest.keyClicks(tab.args, '{"path": "[a.md](http://a.md)"}')
    qtbot.wait(400)  # let any superseded job drain
    assert json.loads(tab.args.toPlainText()) == {"path": "[a.md](http://a.md)"}
    assert tab.view.returned == {"path": "a.md"}


def test_loading_a_sample_is_one_undo_step_per_pane(qtbot, repair):
    tab = repair.repair
    _wait(qtbot, tab, lambda: tab.load_sample("truncated-json"))
    truncated = tab.args.toPlainText()
    _wait(qtbot, tab, lambda: tab.load_sample("kimi-anchor-bleed"))
    assert tab.args.toPlainText() != truncated
    tab.args.undo()
    assert tab.args.toPlainText() == truncated


# -- leaked grammar ----------------------------------------------------------------------------------------------

def test_grammar_sample_highlights_the_leak_at_utf16_positions(qtbot, repair):
    tab = repair.grammar
    text = "🙂 " + "<tool_call>read<arg_key>path</arg_key><arg_value>a</arg_value></tool_call>"
    tab.model.setText("zai/glm-4.6")
    tab.policy.setCurrentIndex(tab.policy.findData("recover"))
    _wait(qtbot, tab, lambda: tab.text.setPlainText(text))
    (selection,) = tab.text.extraSelections()
    assert (selection.cursor.selectionStart(), selection.cursor.selectionEnd()) == (3, len(text) + 1)
    assert selection.cursor.selectedText() == text[2:]
    assert tab.verdict.text() == "promoted 1 call(s): read"
    assert tab.calls.topLevelItem(0).text(4) == "promoted"
    assert tab.final.toPlainText() == "🙂"
    promoted = tab.promoted.toPlainText()
    assert '"name": "read"' in promoted and "Recovered a leaked glm tool call" in promoted


def test_policy_allowed_tools_and_model_change_the_decision(qtbot, repair):
    tab = repair.grammar
    _wait(qtbot, tab, lambda: tab.load_sample(0))
    assert tab.verdict.text().startswith("promoted")
    _wait(qtbot, tab, lambda: tab.policy.setCurrentIndex(tab.policy.findData("adaptive")))
    assert "strip-mode" in tab.verdict.text() and tab.calls.topLevelItem(0).text(4) == "stripped"
    _wait(qtbot, tab, lambda: tab.policy.setCurrentIndex(tab.policy.findData("recover")))
    _wait(qtbot, tab, lambda: tab.allowed.setText("bash"))
    assert "unknown-tool" in tab.verdict.text()
    _wait(qtbot, tab, lambda: tab.model.setText("openai/gpt-4.1"))
    assert tab.verdict.text() == "untouched: model-not-on-leak-list"
    assert "does not match" in tab.detected.text()


def test_selecting_a_call_selects_its_text(qtbot, repair):
    tab = repair.grammar
    _wait(qtbot, tab, lambda: tab.load_sample(1))
    tab.calls.setCurrentItem(tab.calls.topLevelItem(0))
    assert tab.text.textCursor().selectedText().startswith("<|tool_calls_section_begin|>")


# -- params ----------------------------------------------------------------------------------------------------

@pytest.fixture
def params(qtbot):
    panel = ParamsPanel()
    qtbot.addWidget(panel)
    qtbot.waitUntil(lambda: panel.view is not None, timeout=10000)
    return panel


def test_report_tree_has_every_section(qtbot, params):
    assert params.view.ok
    for key in ("routing", "features", "plugins", "providerOptions", "system", "tools", "scope", "raw"):
        assert params.section_item(key) is not None, key
    features = params.section_item("features")
    assert features.childCount() == len(params.view.feature_rows)
    first = features.child(0)
    assert first.text(1) in ("✓ applied", "✗ not applied") and first.text(2)
    plugins = params.section_item("plugins")
    assert [plugins.child(i).text(0).split(". ", 1)[1] for i in range(plugins.childCount())] == \
        [p["name"] for p in params.view.plugin_rows]
    provider = params.section_item("providerOptions")
    keys = [provider.child(i).text(0) for i in range(provider.childCount())]
    assert list(params.view.report["options"]["providerOptions"]) == keys[:-1]


@pytest.mark.slow  # ~2 s: a worker round trip per template (the fast lane builds every template's report
# without Qt: tests/engine/workspace/test_panels_model.py)
def test_every_template_renders(qtbot, params):
    for template in params.templates:
        with qtbot.waitSignal(params.worker.finished, timeout=10000):
            params.load_template(template.name)
        assert params.view.ok, template.name
        assert params.status.text().startswith("✓"), template.name


def test_search_filters_the_tree(qtbot, params):
    params.search.setText("pdf-compatibility")
    features = params.section_item("features")
    visible = [features.child(i).text(0) for i in range(features.childCount()) if not features.child(i).isHidden()]
    assert visible == ["pdf-compatibility"]
    assert params.section_item("system").isHidden() or "pdf" in params.section_item("system").text(2).lower()
    params.search.clear()
    assert not params.section_item("system").isHidden()


def test_payload_errors_are_marked_and_profile_switch_reruns(qtbot, params, dialogs):
    with qtbot.waitSignal(params.worker.finished, timeout=10000):
        params.payload.setPlainText('{"model": {}}')
    assert params.status.text() == "✖ payload" and "provider" in params.headline.text()
    assert params.payload.marks()
    with qtbot.waitSignal(params.worker.finished, timeout=10000):
        params.load_template(params.templates[0].name)
    with qtbot.waitSignal(params.worker.finished, timeout=10000):
        params.profile.setCurrentIndex(params.profile.findData("strict"))
    assert params.view.report["profile"] == "strict"
    assert dialogs.calls == []


def test_the_template_combo_names_the_payload_it_shows(qtbot, params):
    """Edited: no template; undone back to a template's text: that template again."""
    name = params.templates[0].name
    with qtbot.waitSignal(params.worker.finished, timeout=10000):
        params.load_template(name)
    assert params.template.currentData() == name
    with qtbot.waitSignal(params.worker.finished, timeout=10000):
        params.payload.textCursor().insertText(" ")
    assert params.template.currentData() is None
    with qtbot.waitSignal(params.worker.finished, timeout=10000):
        params.payload.undo()
    assert params.template.currentData() == name


# -- in the window -------------------------------------------------------------------------------------------------

def test_panels_are_registered_where_the_spec_says(qtbot, window):
    from app import panels

    assert {n: panels.panel(n).area for n in ("tests", "trust", "repair", "params")} == \
        {"tests": "bottom", "trust": "bottom", "repair": "editor", "params": "editor"}
    for name in ("repair", "params"):
        widget = window.show_panel(name)
        assert window.tabs.currentWidget() is widget
    for name in ("tests", "trust"):
        widget = window.show_panel(name)
        assert window.bottom.currentWidget() is widget


def test_conservative_policy_only_observes_the_anchor_bleed(qtbot, repair):
    tab = repair.repair
    _wait(qtbot, tab, lambda: tab.load_sample("kimi-anchor-bleed"))
    assert tab.outcome.text() == "✎ repaired"
    _wait(qtbot, tab, lambda: tab.policy.setCurrentIndex(tab.policy.findData("conservative")))
    assert tab.outcome.text() == "✓ valid" and tab.view.returned["path"] == "^/srv/app$"
    assert tab.details.tabText(3).startswith("Observations (1)")
    assert any("observed stripAnchorBleed on grep" in m for m in tab.notes.messages())
    assert "no changes" in tab.changes.toPlainText()
