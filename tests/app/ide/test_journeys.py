"""Journeys of a rule author through the real window (issue 15), driven by its own widgets and
actions: QTest clicks and key presses on the real fields, buttons and lists, the window's QActions
for undo, redo, save and the menus. Nothing of the app is mocked; only modal dialogs answer from
``dialogs.answers`` (offscreen they would block, IDE-Q9), by filling the real dialog in.

After every step two things hold: the layout fits (``app.layout_report.layout_problems`` is empty:
the window inside the screen, every visible input at least its readable width) and every panel is
current — the visual form, the diagnostics, the previews, the Tests panel and the playgrounds show
results for what the document and the inputs are now, never for what they were.

The journeys run at this process's screen (1920×1080, ``tests/conftest.py``) and, in a fresh
process, at 1366×768 (a process has one screen).
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QLineEdit, QMessageBox, QToolButton

from app.layout_report import layout_problems, layout_report
from app.mainwindow import MainWindow
from engine.validate import validate_paths
from engine.workspace.example import ensure_example_workspace
from engine.workspace.settings import Settings

from .ide_helpers import run_at_screen, screen_size, wait_settled

pytestmark = pytest.mark.gui

TIMEOUT = 30000  # generous: the 2-core CI machine runs several suites at once


# ---------------------------------------------------------------- the checks after each step

def fits(window: MainWindow, step: str) -> None:
    problems = layout_problems(layout_report(window))
    assert not problems, f"after '{step}' at {screen_size()}: " + "; ".join(problems)


def tab_current(tab) -> bool:
    """The document's derived state is for its current text: structure, diagnostics, visual form."""
    if not tab.is_settled() or tab.diagnostics_version != tab.doc.version:
        return False
    if tab.visual is None or tab.index is None or tab.index.stale:
        return True
    row = tab.visual.current()
    if not 0 <= row < len(tab.index.values):
        return True
    value = tab.index.values[row]
    fields = tab.visual.form.fields
    for pointer, attr in (("/name", "text"), ("/id", "text"), ("/pattern", "toPlainText")):
        field = fields.get(pointer)
        if field is not None and isinstance(value, dict) and isinstance(value.get(pointer[1:]), str):
            if getattr(field.edit, attr)() != value[pointer[1:]]:
                return False
    return True


def caveman_current(window: MainWindow, tab) -> bool:
    panel = window.panel_widgets["caveman-preview"]
    preview = panel.preview
    if panel.dispatcher.busy or preview is None or panel.override is None or panel.override.text != tab.text:
        return False
    only = panel.rule_name if panel.rule_button.isChecked() else None
    return preview.input == panel.input.toPlainText() and preview.only_rule == only


def rtk_current(window: MainWindow, tab) -> bool:
    panel = window.panel_widgets["rtk-preview"]
    return (not panel.dispatcher.busy and panel.preview is not None and panel.active is not None
            and panel.active.text == tab.text and panel.preview.output == panel.input.toPlainText())


def panel_tests_current(window: MainWindow) -> bool:
    panel = window.panel_widgets["tests"]
    return (panel.result is not None and not panel.runner.busy and not panel._autorun.isActive()
            and not panel.outdated)


def settle(qtbot, window: MainWindow, step: str, *more) -> None:
    """Wait until the open document and every panel named in ``more`` are current; check the layout."""
    tab = window.current_tab()
    checks = [lambda: tab is None or tab_current(tab), *more]
    qtbot.waitUntil(lambda: all(check() for check in checks), timeout=TIMEOUT)
    fits(window, step)


# ---------------------------------------------------------------- driving the real widgets

def click(widget, pos=None) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos) if pos is not None \
        else QTest.mouseClick(widget, Qt.MouseButton.LeftButton)


def retype(widget, text: str) -> None:
    """Select all in a field and type ``text`` key by key."""
    widget.setFocus()
    QTest.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(widget, text)


def click_row(view, row: int) -> None:
    rect = view.visualRect(view.model().index(row, 0))
    click(view.viewport(), rect.center())


def click_tree_item(tree, item) -> None:
    click(tree.viewport(), tree.visualItemRect(item).center())


def trigger(window: MainWindow, key: str) -> None:
    action = window.actions_[key]
    assert action.isEnabled(), f"{key} is disabled"
    action.trigger()


def paste(widget, text: str) -> None:
    """Put ``text`` on the clipboard and paste it over the field's whole text (Ctrl+A, Ctrl+V)."""
    QApplication.clipboard().setText(text)
    widget.setFocus()
    QTest.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(widget, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


def type_in_json(tab, after: str, text: str) -> None:
    """Put the JSON view's caret right after the first ``after`` and type ``text``."""
    trigger(tab.window(), "show_json")
    start = tab.editor.toPlainText().index(after) + len(after)
    cursor = tab.editor.textCursor()
    cursor.setPosition(start)
    tab.editor.setTextCursor(cursor)
    QTest.keyClicks(tab.editor, text)


@pytest.fixture
def ide(qtbot, dialogs):
    window = MainWindow(Settings())
    qtbot.addWidget(window)
    window.open_workspace(ensure_example_workspace(), restore=False)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.index is not None, timeout=TIMEOUT)
    yield window
    for tab in window.document_tabs():
        tab.undo_stack.setClean()
    window.watcher.stop()


def open_in_editor(qtbot, window: MainWindow, relative: str):
    tab = window.open_file(window.workspace / relative)
    wait_settled(qtbot, tab, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: tab.index is not None and not tab.visual.settling, timeout=TIMEOUT)
    return tab


# ---------------------------------------------------------------- a. a Caveman rule, end to end

def test_journey_caveman_rule(qtbot, ide):
    window = ide
    preview = window.panel_widgets["caveman-preview"]
    path = window.workspace / "rules" / "en" / "team.json"
    original = path.read_text(encoding="utf-8")
    tab = open_in_editor(qtbot, window, "rules/en/team.json")
    settle(qtbot, window, "open a Caveman pack", lambda: caveman_current(window, tab))

    click_row(tab.visual.list, 0)
    QTest.mouseClick(tab.visual.buttons["add"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.visual.current() == 1 and tab.index.values[1].get("name") == "new_rule",
                    timeout=TIMEOUT)
    settle(qtbot, window, "add a rule", lambda: caveman_current(window, tab))
    assert preview.rule_button.isChecked() and preview.preview.only_rule == "new_rule"

    name = tab.visual.form.fields["/name"].edit
    retype(name, "team_thanks_in_advance")
    settle(qtbot, window, "rename it", lambda: caveman_current(window, tab))
    assert preview.preview.only_rule == "team_thanks_in_advance"  # followed through the rename
    assert preview.rule_button.toolTip().endswith("team_thanks_in_advance")

    pattern = tab.visual.form.fields["/pattern"].edit
    assert not pattern.toPlainText() and pattern.placeholderText()  # an example, not data
    QTest.keyClicks(pattern, r"\s*thanks in advance[.!]?")
    retype(preview.input, "Ship it today. Thanks in advance!")
    settle(qtbot, window, "type its pattern", lambda: caveman_current(window, tab))
    assert "thanks" not in preview.preview.output.lower()
    assert "1 of 1 rules changed the text" in preview.summary.text()

    trigger(window, "undo")  # the typed pattern: one step
    settle(qtbot, window, "undo the pattern", lambda: caveman_current(window, tab))
    assert tab.visual.form.fields["/pattern"].edit.toPlainText() == ""
    assert "Thanks in advance" in preview.preview.output  # the unfinished rule is left out
    trigger(window, "redo")
    settle(qtbot, window, "redo the pattern", lambda: caveman_current(window, tab))
    assert "thanks" not in preview.preview.output.lower()

    # the JSON view and the visual view edit the same document; undo/redo crosses them
    type_in_json(tab, '"name": "team_thanks_in_advance",\n      "pattern": "\\\\s*thanks in advance[.!]?",\n'
                 '      "replacement": "', "Cheers")
    settle(qtbot, window, "type the replacement in the JSON view", lambda: caveman_current(window, tab))
    trigger(window, "show_visual")
    assert tab.visual.form.fields["/replacement"].edit.text() == "Cheers"
    assert "Cheers" in preview.preview.output
    trigger(window, "undo")
    settle(qtbot, window, "undo the JSON edit", lambda: caveman_current(window, tab))
    assert tab.visual.form.fields["/replacement"].edit.text() == ""
    assert "Cheers" not in preview.preview.output
    trigger(window, "redo")
    settle(qtbot, window, "redo the JSON edit", lambda: caveman_current(window, tab))
    assert tab.visual.form.fields["/replacement"].edit.text() == "Cheers"

    trigger(window, "save")
    settle(qtbot, window, "save", lambda: caveman_current(window, tab))
    saved = path.read_text(encoding="utf-8")
    assert not tab.is_dirty() and [d for d in validate_paths([path]) if d.level == "error"] == []
    rules = json.loads(saved)["rules"]
    assert rules[1] == {"name": "team_thanks_in_advance", "pattern": "\\s*thanks in advance[.!]?",
                        "replacement": "Cheers"}
    # the formatting is kept: every original rule's text is in the file as it was
    head, _, tail = original.partition('"rules": [')
    assert saved.startswith(head)
    first_end = tail.index("\n    },\n") + len("\n    },\n")
    assert tail[:first_end] in saved and tail[first_end:] in saved


# ---------------------------------------------------------------- b. a filter for a new command

SAMPLE = ("Refreshing state... [id=vpc-1]\n"
          "Refreshing state... [id=subnet-2]\n"
          "\n"
          "  # aws_instance.web will be created\n"
          "  + resource \"aws_instance\" \"web\" {\n"
          "\n"
          "Plan: 1 to add, 0 to change, 0 to destroy.\n")


def _test_row(panel, name):
    return next((i for i in panel.test_items() if i.text(0) == name), None)


def _add_drop_pattern(qtbot, tab, text: str) -> None:
    drop = tab.visual.form.fields["/rules/dropPatterns"]
    plus = next(b for b in drop.findChildren(QToolButton) if b.text() == "+")
    click(plus)
    qtbot.waitUntil(lambda: drop.list.findChild(QLineEdit) is not None, timeout=TIMEOUT)  # the row's editor
    editor = drop.list.findChild(QLineEdit)
    QTest.keyClicks(editor, text)
    QTest.keyClick(editor, Qt.Key.Key_Return)


def test_journey_filter_for_a_new_command(qtbot, ide, dialogs, monkeypatch):
    window = ide
    tests = window.panel_widgets["tests"]
    rtk = window.panel_widgets["rtk-preview"]

    def fill_new_filter(dialog):
        QTest.keyClicks(dialog.command, "terraform plan")
        assert dialog.ident.text() == "terraform-plan"
        paste(dialog.sample, SAMPLE)
        return QDialog.DialogCode.Accepted

    dialogs.answers["NewFilterDialog"] = fill_new_filter
    trigger(window, "new_filter")
    path = window.workspace / "filters" / "terraform-plan.json"
    tab = window.current_tab()
    assert tab is not None and tab.path == path.resolve()
    wait_settled(qtbot, tab, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: tab.index is not None and not tab.visual.settling, timeout=TIMEOUT)
    settle(qtbot, window, "create the filter from a pasted sample", lambda: rtk_current(window, tab),
           lambda: panel_tests_current(window) and _test_row(tests, "sample") is not None)
    assert rtk.input.toPlainText() == SAMPLE and rtk.command.text() == "terraform plan"
    assert json.loads(tab.text)["match"]["commands"] == ["^terraform\\s+plan\\b"]
    assert _test_row(tests, "sample").text(1) == "✓ pass"

    _add_drop_pattern(qtbot, tab, "^Refreshing state")
    settle(qtbot, window, "add a drop pattern", lambda: rtk_current(window, tab), lambda: panel_tests_current(window))
    assert json.loads(tab.text)["rules"]["dropPatterns"] == ["^Refreshing state"]
    assert "Refreshing" not in rtk.preview.text
    assert _test_row(tests, "sample").text(1) == "✗ fail"  # the sample's expected predates the pattern

    def fill_add_test(dialog):
        retype(dialog.name, "plan without refresh noise")
        return QDialog.DialogCode.Accepted

    dialogs.answers["AddTestDialog"] = fill_add_test
    click(tests.add_button)
    settle(qtbot, window, "add a test from the preview", lambda: rtk_current(window, tab),
           lambda: panel_tests_current(window) and _test_row(tests, "plan without refresh noise") is not None)
    assert _test_row(tests, "plan without refresh noise").text(1) == "✓ pass"

    _add_drop_pattern(qtbot, tab, "^\\s*$")  # breaks it: blank lines go too now
    settle(qtbot, window, "break the test", lambda: rtk_current(window, tab), lambda: panel_tests_current(window))
    failing = _test_row(tests, "plan without refresh noise")
    assert failing.text(1) == "✗ fail"

    click_tree_item(tests.tree, failing)
    assert tests.accept_button.isEnabled()
    click(tests.accept_button)
    settle(qtbot, window, "accept actual", lambda: rtk_current(window, tab), lambda: panel_tests_current(window))
    assert _test_row(tests, "plan without refresh noise").text(1) == "✓ pass"

    trigger(window, "undo")
    assert tests.outdated or tests._autorun.isActive() or tests.runner.busy  # never "pass" while outdated
    settle(qtbot, window, "undo accept actual", lambda: rtk_current(window, tab), lambda: panel_tests_current(window))
    assert _test_row(tests, "plan without refresh noise").text(1) == "✗ fail"
    trigger(window, "redo")
    settle(qtbot, window, "redo accept actual", lambda: rtk_current(window, tab), lambda: panel_tests_current(window))
    assert _test_row(tests, "plan without refresh noise").text(1) == "✓ pass"

    click_tree_item(tests.tree, _test_row(tests, "sample"))  # the first test predates the patterns
    click(tests.accept_button)
    settle(qtbot, window, "accept the first test's actual", lambda: rtk_current(window, tab),
           lambda: panel_tests_current(window))
    assert all(row.passed for row in tests.result.rows if row.filter_id == "terraform-plan")

    # export (with trust) from the Trust panel
    trigger(window, "save")
    trust = window.show_panel("trust")
    target = window.workspace / ".rtk" / "filters.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    dialogs.answers["Export filters"] = QMessageBox.StandardButton.Yes
    qtbot.waitUntil(lambda: any(c.filter_id == "terraform-plan" for c in trust.candidates), timeout=TIMEOUT)
    trust.set_selected({(c.file, c.filter_id) for c in trust.candidates if c.filter_id == "terraform-plan"})
    trust.with_trust.setChecked(True)
    fits(window, "choose what to export")
    click(trust.export_button)
    assert not [text for kind, text in dialogs.calls if "tests fail" in text]  # every test passes
    exported = json.loads(target.read_text(encoding="utf-8"))
    assert "terraform-plan" in [f["id"] for f in (exported if isinstance(exported, list) else [exported])]
    qtbot.waitUntil(lambda: trust.overview is not None and any(
        f.path.endswith("filters.json") and f.verdict == "trusted" and "terraform-plan" in f.filter_ids
        for f in trust.overview.files), timeout=TIMEOUT)
    fits(window, "export and trust")


# ---------------------------------------------------------------- c. both playgrounds

OPENAI_REQUEST = json.dumps({
    "model": "gpt-4o", "messages": [{"role": "system", "content": "Answer in one line."},
                                    {"role": "user", "content": "What is RTK?"}],
    "temperature": 0.3, "max_completion_tokens": 300, "seed": 7, "tool_choice": "auto"}, indent=2)


def test_journey_playgrounds(qtbot, ide):
    window = ide
    repair_panel = window.show_panel("repair")
    repair = repair_panel.repair
    qtbot.waitUntil(lambda: repair.view is not None and repair.view.ok and not repair.worker.busy, timeout=TIMEOUT)
    fits(window, "open the repair playground")
    good_args = repair.args.toPlainText()
    paste(repair.args, '{"path": ')
    qtbot.waitUntil(lambda: not repair.worker.busy and repair.view is not None and not repair.view.ok,
                    timeout=TIMEOUT)
    assert repair.stale.isVisible() and "last valid input" in repair.stale.text()
    assert not repair.changes.isEnabled()  # the old result is greyed, never shown as current
    fits(window, "paste invalid arguments")
    paste(repair.args, good_args)
    qtbot.waitUntil(lambda: not repair.worker.busy and repair.view.ok, timeout=TIMEOUT)
    assert not repair.stale.isVisible() and repair.changes.isEnabled()
    fits(window, "paste valid arguments")
    grammar = repair_panel.grammar
    repair_panel.tabs.setCurrentWidget(grammar)
    qtbot.waitUntil(lambda: grammar.view is not None and not grammar.worker.busy, timeout=TIMEOUT)
    fits(window, "open the leaked-grammar playground")  # (every choice whole: "unknown-tool tex" was cut)
    repair_panel.tabs.setCurrentWidget(repair)

    params = window.show_panel("params")
    qtbot.waitUntil(lambda: params.view is not None and params.view.ok and not params.worker.busy, timeout=TIMEOUT)
    fits(window, "open the params playground")
    good_payload = params.payload.toPlainText()
    paste(params.payload, '{"provider": {"id": ')
    qtbot.waitUntil(lambda: not params.worker.busy and not params.view.ok, timeout=TIMEOUT)
    assert params.stale.isVisible() and not params.tree.isEnabled()
    fits(window, "paste an invalid payload")
    paste(params.payload, good_payload)
    qtbot.waitUntil(lambda: not params.worker.busy and params.view.ok and params.view.imported is None,
                    timeout=TIMEOUT)
    assert not params.stale.isVisible() and params.tree.isEnabled()
    fits(window, "paste a valid payload")

    paste(params.payload, OPENAI_REQUEST)
    qtbot.waitUntil(lambda: not params.worker.busy and params.view.ok and params.view.imported is not None,
                    timeout=TIMEOUT)
    section = params.section_item("imported")
    assert section is not None and "OpenAI Chat Completions" in section.text(0)
    groups = {section.child(i).text(0).split(" (")[0]: section.child(i) for i in range(section.childCount())}
    mapped = [groups["Mapped"].child(i).text(0) for i in range(groups["Mapped"].childCount())]
    unmapped = [groups["Not mapped"].child(i).text(0) for i in range(groups["Not mapped"].childCount())]
    assert {"temperature", "max_completion_tokens", "seed"} <= set(mapped) and "tool_choice" in unmapped
    assert "OpenAI Chat Completions request" in params.headline.text()
    fits(window, "paste an OpenAI request")
    click(params.convert)  # the mapped payload replaces the request, to edit further
    qtbot.waitUntil(lambda: not params.worker.busy and params.view.ok and params.view.imported is None,
                    timeout=TIMEOUT)
    assert json.loads(params.payload.toPlainText())["assistant"]["settings"]["temperature"] == 0.3
    fits(window, "convert the request to a payload")


# ---------------------------------------------------------------- d. a conflict with the disk

def test_journey_external_edit_while_dirty(qtbot, ide):
    window = ide
    preview = window.panel_widgets["caveman-preview"]
    path = window.workspace / "rules" / "en" / "team.json"
    tab = open_in_editor(qtbot, window, "rules/en/team.json")
    click_row(tab.visual.list, 0)
    settle(qtbot, window, "open a pack", lambda: caveman_current(window, tab))
    retype(tab.visual.form.fields["/name"].edit, "mine")
    settle(qtbot, window, "edit (unsaved)", lambda: caveman_current(window, tab))
    assert tab.is_dirty()

    theirs = path.read_text(encoding="utf-8").replace('"team_update_opener"', '"theirs"')
    path.write_text(theirs, encoding="utf-8")
    qtbot.waitUntil(lambda: tab.conflict_bar.isVisible(), timeout=TIMEOUT)
    fits(window, "conflict bar")
    click(tab.conflict_bar.keep_button)
    settle(qtbot, window, "keep mine", lambda: caveman_current(window, tab))
    assert not tab.conflict_bar.isVisible() and tab.is_dirty()
    assert tab.visual.form.fields["/name"].edit.text() == "mine" and json.loads(tab.text)["rules"][0]["name"] == "mine"

    path.write_text(theirs.replace('"theirs"', '"theirs_again"'), encoding="utf-8")
    qtbot.waitUntil(lambda: tab.conflict_bar.isVisible(), timeout=TIMEOUT)
    click(tab.conflict_bar.reload_button)
    settle(qtbot, window, "reload", lambda: caveman_current(window, tab))
    assert not tab.is_dirty() and tab.text == path.read_text(encoding="utf-8")
    assert tab.visual.form.fields["/name"].edit.text() == "theirs_again"
    assert preview.override.text == tab.text

    trigger(window, "undo")  # the reload is one undoable step
    settle(qtbot, window, "undo the reload", lambda: caveman_current(window, tab))
    assert tab.is_dirty() and tab.visual.form.fields["/name"].edit.text() == "mine"
    assert "theirs_again" not in tab.text


# ---------------------------------------------------------------- e. a filter previewed on its own output

def choose_sample(panel, name: str) -> None:
    """Pick ``name`` in the preview's sample box as a user does (the box's ``activated``)."""
    index = panel.sample_combo.findText(name)
    assert index > 0, f"no sample {name}"
    panel.sample_combo.setCurrentIndex(index)
    panel.sample_combo.activated.emit(index)


def test_journey_a_filter_opened_is_previewed_on_its_own_output(qtbot, ide):
    window = ide
    rtk = window.panel_widgets["rtk-preview"]
    choose_sample(rtk, "check-failure.txt")  # another filter's output (.rtk's ledger-check)
    assert rtk.command.text() == "./scripts/check.sh"
    tab = open_in_editor(qtbot, window, "filters/deploy-log.json")
    qtbot.waitUntil(lambda: rtk.sample_combo.currentText() == "deploy.log", timeout=TIMEOUT)  # (a helper picks it)
    settle(qtbot, window, "open a filter", lambda: rtk_current(window, tab))
    assert rtk.sample_combo.currentText() == "deploy.log" and rtk.command.text() == "./scripts/deploy.sh web1"
    assert rtk.preview.filter_id == "deploy-log" and rtk.not_chosen.isHidden()
    assert rtk.command.cursorPosition() == 0  # shown from its start

    paste(rtk.input, "deploy: target web2 (release 1.5.0)\n")  # the user's own output
    settle(qtbot, window, "paste an output", lambda: rtk_current(window, tab))
    assert rtk.sample_combo.currentIndex() == 0
    pack = open_in_editor(qtbot, window, "rules/en/team.json")
    bar = window.tabs.tabBar()
    click(bar, bar.tabRect(window.tabs.indexOf(tab)).center())  # its tab, clicked
    assert window.current_tab() is tab
    settle(qtbot, window, "back to the filter", lambda: rtk_current(window, tab))
    assert rtk.input.toPlainText() == "deploy: target web2 (release 1.5.0)\n"  # kept, never swapped
    assert pack is not tab


# ---------------------------------------------------------------- the same journeys at 1366×768

@pytest.mark.slow
@pytest.mark.parametrize("journey", ["test_journey_caveman_rule", "test_journey_filter_for_a_new_command",
                                     "test_journey_playgrounds", "test_journey_external_edit_while_dirty",
                                     "test_journey_a_filter_opened_is_previewed_on_its_own_output"])
def test_journeys_at_1366x768(journey):
    if screen_size()[:2] == (1366, 768):
        pytest.skip("this process already runs at 1366×768")
    run_at_screen(f"tests/app/ide/test_journeys.py::{journey}", "1366x768")
