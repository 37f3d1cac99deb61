"""Templates never leak into data (issue 15): placeholders stay placeholder text, a new filter
starts from its command, an empty pattern row is ignored by previews and flagged, and the example
workspace is reset only after showing what it replaces."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QMessageBox, QToolButton

from engine.workspace.templates import new_rule

from .ide_helpers import open_pack, wait_settled

pytestmark = pytest.mark.gui


def test_new_rule_holds_no_placeholder_data():
    rule = new_rule({"new_rule"}, "terse")
    assert rule == {"name": "new_rule_2", "pattern": "", "replacement": "", "category": "terse"}
    assert new_rule(set()) == {"name": "new_rule", "pattern": "", "replacement": ""}  # defaults left out


def test_added_rule_shows_placeholders_and_saves_none_of_them(qtbot, window, workspace):
    panel = window.panel_widgets["caveman-preview"]
    tab = open_pack(qtbot, window, workspace)
    tab.visual.select(0)
    QTest.mouseClick(tab.visual.buttons["add"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.item_count() == 4, timeout=5000)
    added = json.loads(tab.text)["rules"][1]
    assert added == {"name": "new_rule", "pattern": "", "replacement": ""}
    pattern = tab.visual.form.fields["/pattern"]
    description = tab.visual.form.fields["/description"]
    assert pattern.edit.toPlainText() == "" and "basically" in pattern.edit.placeholderText()
    assert description.edit.toPlainText() == "" and "Describe" in description.edit.placeholderText()
    # the unfinished rule is left out of the preview (the rest of the pack still runs) …
    panel.set_text("Basically we should just go.")
    qtbot.waitUntil(lambda: panel.preview is not None and panel.preview.only_rule == "new_rule"
                    and panel.preview.input == "Basically we should just go.", timeout=10000)
    assert not panel.preview.error
    assert any("new_rule has no pattern yet" in n.text for n in panel.preview.notes)
    # … and flagged by validation where it is
    qtbot.waitUntil(lambda: any(d.pointer == "/rules/1/pattern" or "pattern" in d.message
                                for d in tab.diagnostics if d.level == "error"), timeout=10000)
    assert window.save_current()
    saved = (workspace / "rules" / "en" / "filler.json").read_text(encoding="utf-8")
    assert "Describe what" not in saved and '"flags": "gi"' not in saved.split('"new_rule"')[1].split("}")[0]


def test_empty_drop_pattern_row_is_ignored_by_the_preview_and_flagged(qtbot, window, workspace):
    rtk = window.panel_widgets["rtk-preview"]
    tab = window.open_file(workspace / "filters" / "mytool.json")
    wait_settled(qtbot, tab)
    qtbot.waitUntil(lambda: tab.visual.form.fields.get("/rules/dropPatterns") is not None, timeout=5000)
    rtk.command.setText("mytool")
    rtk.set_output("alpha\n\nbeta\ngamma")
    drop = tab.visual.form.fields["/rules/dropPatterns"]
    plus = next(b for b in drop.findChildren(QToolButton) if b.text() == "+")
    QTest.mouseClick(plus, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: json.loads(tab.text)["rules"]["dropPatterns"] == ["^\\s*$", ""], timeout=5000)
    qtbot.waitUntil(lambda: rtk.preview is not None and rtk.preview.text == "alpha\nbeta\ngamma"
                    and any("empty pattern" in n.text for n in rtk.preview.notes), timeout=10000)
    qtbot.waitUntil(lambda: any(d.code == "RTK-empty-pattern" and d.pointer == "/rules/dropPatterns/1"
                                for d in tab.diagnostics), timeout=10000)


def test_new_filter_starts_from_the_command_and_the_pasted_sample(qtbot, window, workspace, dialogs):
    sample = "Refreshing state...\n\nPlan: 1 to add, 0 to change, 0 to destroy.\n"

    def fill(dialog):
        QTest.keyClicks(dialog.command, "terraform plan -out tf.plan")
        assert dialog.ident.text() == "terraform-plan"
        dialog.sample.setPlainText(sample)
        return QDialog.DialogCode.Accepted

    dialogs.answers["NewFilterDialog"] = fill
    window.actions_["new_filter"].trigger()
    path = workspace / "filters" / "terraform-plan.json"
    assert path.exists()
    value = json.loads(path.read_text(encoding="utf-8"))
    assert value["match"]["commands"] == ["^terraform\\s+plan\\b"]  # from the command, not the id
    assert value["tests"][0]["input"] == sample and value["tests"][0]["command"] == "terraform plan -out tf.plan"
    assert value["rules"]["dropPatterns"] == []
    rtk = window.panel_widgets["rtk-preview"]
    assert rtk.input.toPlainText() == sample and rtk.command.text() == "terraform plan -out tf.plan"
    tab = window.current_tab()
    assert tab is not None and tab.path == path.resolve()


def test_reset_example_workspace_shows_the_edits_and_keeps_them(qtbot, window, dialogs, tmp_path):
    from engine.workspace.example import ensure_example_workspace, user_example_workspace

    copy = ensure_example_workspace()
    edited = next(p for p in sorted(copy.rglob("*.json")))
    original = edited.read_text(encoding="utf-8")
    edited.write_text(original + " ", encoding="utf-8")
    rel = edited.relative_to(copy).as_posix()
    window.actions_["reset_example"].trigger()  # default answer: Cancel
    assert any(rel in text and "changed" in text for kind, text in dialogs.calls if kind == "question")
    assert edited.read_text(encoding="utf-8") == original + " "
    dialogs.answers["Reset Example Workspace"] = QMessageBox.StandardButton.Reset
    window.actions_["reset_example"].trigger()
    assert (user_example_workspace() / rel).read_text(encoding="utf-8") == original
    kept = [p for p in user_example_workspace().parent.iterdir() if p.name.startswith("example-workspace.before-reset")]
    assert len(kept) == 1 and (kept[0] / rel).read_text(encoding="utf-8") == original + " "


def test_the_new_pack_dialog_checks_as_you_type_and_keeps_what_was_typed(qtbot, window, workspace, dialogs):
    from PySide6.QtWidgets import QDialogButtonBox

    seen = {}

    def fill(dialog):
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert dialog.where.text() == "rules/en/filler.json exists already: choose another category (or open it " \
            "from the explorer)" and not ok.isEnabled()  # (this workspace has that pack)
        dialog.category.setText("../x")
        seen["bad"] = (dialog.where.text(), ok.isEnabled())
        dialog.category.setText("terse")
        seen["good"] = (dialog.where.text(), ok.isEnabled())
        return QDialog.DialogCode.Accepted

    dialogs.answers["NewPackDialog"] = fill
    window.new_pack_dialog()
    assert seen["bad"] == ("Category '../x': use letters, digits, '-', '_' or '.', starting with a letter or digit",
                           False)
    assert seen["good"] == ("Creates rules/en/terse.json", True)
    assert (workspace / "rules" / "en" / "terse.json").exists()
    assert not [c for c in dialogs.calls if c[0] == "warning"]
