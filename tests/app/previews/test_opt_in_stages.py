"""The RTK preview's opt-in stages (renderers, code strip, grouping) and the Caveman preview on
whole request bodies (Responses, Kiro)."""

from __future__ import annotations

import json

import pytest

from app.panel_caveman import CavemanPreviewPanel
from app.panel_rtk import RtkPreviewPanel
from tests.support.preview_samples import SAMPLE

LOG = "\n".join(f"2026-05-14T10:00:{i:02d}Z INFO served path=/a status=200" for i in range(30))


@pytest.fixture
def rtk(qtbot):
    panel = RtkPreviewPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 700)
    panel.show()
    return panel


def _result(qtbot, panel, action):
    with qtbot.waitSignal(panel.resultShown, timeout=15000) as blocker:
        action()
    return blocker.args[0]


def test_grouping_shows_as_a_funnel_step_with_its_note(qtbot, rtk):
    _result(qtbot, rtk, lambda: rtk.set_output(LOG))
    with qtbot.waitSignal(rtk.resultShown, timeout=15000) as blocker:
        rtk.stage_options["enableGrouping"].setChecked(True)
    preview = blocker.args[0]
    while "rtk:grouping" not in [s.name for s in preview.stages]:  # a run queued before the toggle may land first
        with qtbot.waitSignal(rtk.resultShown, timeout=15000) as blocker:
            pass
        preview = blocker.args[0]
    step = next(s for s in preview.stages if s.name == "rtk:grouping")
    assert "1 run(s) grouped" in step.note
    assert "rtk:grouping" in [name for name, _lines in preview.funnel()]
    assert preview.text.endswith("[rtk:grouped \u00d730]")


def test_stage_menu_sets_the_config_keys(rtk):
    assert rtk.stage_config() == {"enableRenderers": False, "applyToCodeBlocks": False, "stripCodeComments": False,
                                  "preserveDocstrings": True, "enableGrouping": False}
    assert rtk.stages_button.text() == "Stages" and "(none on)" in rtk.stages_button.toolTip()
    rtk.stage_options["enableRenderers"].setChecked(True)
    assert rtk.request().options["enableRenderers"] is True
    # the closed menu's state, on its button: a step left on changes every preview
    rtk.stage_options["enableGrouping"].setChecked(True)
    rtk.stage_options["preserveDocstrings"].setChecked(False)  # (a sub-option on by default: not counted)
    assert rtk.stages_button.text() == "Stages (2 on)"
    assert "on: Renderers" in rtk.stages_button.toolTip() and "on: Group similar lines" in rtk.stages_button.toolTip()
    rtk.stage_options["enableRenderers"].setChecked(False)
    rtk.stage_options["enableGrouping"].setChecked(False)
    assert rtk.stages_button.text() == "Stages"


def test_renderer_and_code_strip_steps_in_the_preview_model():
    from engine.workspace.previews.rtk_preview import RtkRequest, run_rtk_preview

    table = '[{"name":"a","id":1},{"name":"b","id":2}]'
    preview = run_rtk_preview(RtkRequest(table, options={"enableRenderers": True}))
    assert preview.text == "name\tid\na\t1\nb\t2"
    assert [s.name for s in preview.stages][-1] == "rtk:render:structured-table"
    code = "notes:\n```js\nlet a = 1; // one\n```\n"
    stripped = run_rtk_preview(RtkRequest(code, options={"applyToCodeBlocks": True, "stripCodeComments": True}))
    step = next(s for s in stripped.stages if s.name == "rtk:code-strip")
    assert "1 comment(s) removed" in step.note and "// one" not in stripped.text


@pytest.fixture
def caveman(qtbot, pack_root):
    panel = CavemanPreviewPanel()
    qtbot.addWidget(panel)
    panel.pack_root = str(pack_root)
    panel.resize(900, 700)
    panel.show()
    return panel


def test_caveman_preview_compresses_a_responses_body(qtbot, caveman):
    body = {"model": "gpt-5", "instructions": SAMPLE, "input": [{"role": "user", "content": SAMPLE}]}
    preview = _result(qtbot, caveman, lambda: caveman.set_text(json.dumps(body, indent=2)))
    out = json.loads(preview.output)
    assert out["instructions"] == SAMPLE  # the system prompt is never touched
    assert len(out["input"][0]["content"]) < len(SAMPLE)
    assert any("OpenAI Responses request body" in n.text for n in preview.notes)
    assert [r.name for r in preview.rules if r.changed]


def test_caveman_preview_kiro_body_reports_the_tool_results_only_quirk(qtbot, caveman):
    body = {"conversationState": {"currentMessage": {"userInputMessage": {
        "content": SAMPLE, "userInputMessageContext": {"toolResults": [
            {"status": "success", "content": [{"text": "tool says hi"}]}]}}}}}
    preview = _result(qtbot, caveman, lambda: caveman.set_text(json.dumps(body)))
    assert json.loads(preview.output) == body
    assert "CAV-Q22" in [n.code for n in preview.notes]
