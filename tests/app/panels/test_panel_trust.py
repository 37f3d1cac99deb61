"""The Trust panel: verdict, hashes, risk review, confirmed trust, export of chosen filters."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from engine.rtk.hashing import raw_sha256
from engine.rtk.trust import decide_trust

pytestmark = pytest.mark.gui
YES = QMessageBox.StandardButton.Yes


def _panel(qtbot, window):
    panel = window.show_panel("trust")  # a hidden Trust panel does not load (it catches up when shown)
    qtbot.waitUntil(lambda: panel.overview is not None and panel.candidates and not panel.loader.busy, timeout=30000)
    return panel


def _reload(qtbot, panel):
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        panel.refresh()


def test_changed_verdict_with_hashes_and_risk_review(qtbot, window, demo):
    panel = _panel(qtbot, window)
    assert panel.verdict.text() == "⚠ changed after trust" and panel.verdict.level == "bad"
    row = panel.files.topLevelItem(0)
    computed = raw_sha256((demo / ".rtk" / "filters.json").read_bytes())
    assert row.text(0) == "filters.json" and row.text(2) == "the file changed since it was trusted"
    assert row.toolTip(5) == computed and row.text(5).startswith(computed[:16])
    assert panel.files.topLevelItem(1).text(1) == "— no file"  # no filters.toml
    assert "Risk summary:" in panel.risk.toPlainText() and "Filters: 2" in panel.risk.toPlainText()
    assert "2 project filter(s)" in panel.headline.text() and "3 high risk(s)" in panel.headline.text()
    assert "[high] [audit-quiet]" in panel.risk.toPlainText()


def test_trust_asks_with_the_exact_effect_and_writes_trust_json(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    trust_file = demo / ".rtk" / "trust.json"
    before = trust_file.read_text(encoding="utf-8")
    assert not panel.trust_clicked()  # the default answer is Cancel
    assert trust_file.read_text(encoding="utf-8") == before
    computed = raw_sha256((demo / ".rtk" / "filters.json").read_bytes())
    kind, text = dialogs.calls[-1]
    assert kind == "question"
    assert f"Trust 2 filters in filters.json (hash {computed[:4]}…" in text and computed in text
    assert "?" in text.splitlines()[0] and "Compared with the last trust:" in text
    dialogs.answers["Trust project filters"] = YES
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        assert panel.trust_clicked()
    assert json.loads(trust_file.read_text(encoding="utf-8")) == {"filtersSha256": computed}
    assert decide_trust(demo / ".rtk" / "filters.json", environ={}).verdict == "trusted"
    assert panel.verdict.text() == "🔒 trusted"
    assert any("wrote" in m for m in panel.notes.messages())


def test_trust_writes_the_hash_shown_or_refuses_when_the_file_changed_meanwhile(qtbot, window, demo, monkeypatch):
    panel = _panel(qtbot, window)
    path = demo / ".rtk" / "filters.json"
    trust_file = demo / ".rtk" / "trust.json"
    before = trust_file.read_text(encoding="utf-8")
    asked = []

    def answer_after_an_edit(_parent, title, text, *args, **kwargs):
        asked.append(text)
        path.write_bytes(path.read_bytes().replace(b"audit-quiet", b"audit-loud"))  # a racing writer
        return YES

    monkeypatch.setattr(QMessageBox, "question", staticmethod(answer_after_an_edit))
    assert not panel.trust_clicked()
    assert trust_file.read_text(encoding="utf-8") == before  # nothing written
    assert "changed after it was reviewed" in panel.notes.messages()[0]
    assert "What changed since trust" in panel.risk.toPlainText()


def test_trust_warns_that_unsaved_edits_are_not_trusted(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    tab = window.open_file(demo / ".rtk" / "filters.json")
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    tab.editor.textCursor().insertText(" ")
    assert tab.is_dirty()
    panel.trust_clicked()
    assert "are NOT trusted" in dialogs.calls[-1][1]


def test_a_verdict_row_says_when_the_open_file_has_unsaved_edits(qtbot, window, demo):
    panel = _panel(qtbot, window)
    row = panel.files.topLevelItem(0)
    reason = row.text(2)
    tab = window.open_file(demo / ".rtk" / "filters.json")
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    tab.editor.textCursor().insertText(" ")
    qtbot.waitUntil(lambda: panel.files.topLevelItem(0).text(2).startswith("unsaved edits"), timeout=5000)
    assert panel.files.topLevelItem(0).text(2).endswith(reason)
    _reload(qtbot, panel)  # (a reload keeps the mark while the edits stay unsaved)
    assert panel.files.topLevelItem(0).text(2).startswith("unsaved edits, not in this verdict")
    tab.undo_stack.undo()
    qtbot.waitUntil(lambda: not tab.is_dirty(), timeout=5000)
    qtbot.waitUntil(lambda: panel.files.topLevelItem(0).text(2) == reason, timeout=5000)


def test_export_chosen_filters_to_rtk_filters_json_and_trust_it(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    by_id = {c.filter_id: c for c in panel.candidates}
    assert set(by_id) == {"audit-quiet", "git-log-short", "make-quiet", "npm-install", "pytest-quiet"}
    # project filters start unchecked (they are the export target), and so do filters whose tests fail
    # (pytest-quiet) or whose test command selects no filter (npm-install)
    assert {c.filter_id for c in panel.selected()} == {"make-quiet"}
    assert "fails" in by_id["pytest-quiet"].problem and "selects no filter" in by_id["npm-install"].problem
    panel.set_selected({(by_id[i].file, i) for i in ("git-log-short", "make-quiet")})
    assert panel.selection_label.text() == "2 filter(s) selected"
    panel.with_trust.setChecked(True)
    target = demo / ".rtk" / "filters.json"
    before = target.read_bytes()
    assert not panel.export_to(target)  # the one question, answered Cancel
    assert target.read_bytes() == before
    kind, text = dialogs.calls[-1]
    assert kind == "question" and "merge into the existing file" in text
    assert "add: make-quiet" in text and "keep (not exported): audit-quiet" in text
    assert "unchanged: git-log-short" in text
    assert text.rstrip().endswith("Export 2 filter(s) and trust the result?")
    dialogs.answers["Export filters"] = YES
    calls = len(dialogs.calls)
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        assert panel.export_to(target)
    assert len(dialogs.calls) == calls + 1  # one confirmation, not two
    assert [f["id"] for f in json.loads(target.read_text(encoding="utf-8"))] == [
        "git-log-short", "audit-quiet", "make-quiet"]
    assert target.read_bytes().startswith(before[:before.rindex(b"}")])  # the kept filters, byte for byte
    assert decide_trust(target, environ={}).verdict == "trusted"
    assert panel.notes.messages()[0].startswith("exported 2 filter(s)")
    assert panel.verdict.text() == "🔒 trusted"


def test_replacing_the_file_says_which_filters_are_removed(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    by_id = {c.filter_id: c for c in panel.candidates}
    panel.set_selected({(by_id["make-quiet"].file, "make-quiet")})
    panel.replace_file.setChecked(True)
    dialogs.answers["Export filters"] = YES
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        assert panel.export_to(demo / ".rtk" / "filters.json")
    assert "REMOVE: git-log-short, audit-quiet" in dialogs.calls[-1][1]
    assert [f["id"] for f in json.loads((demo / ".rtk" / "filters.json").read_text())] == ["make-quiet"]


def test_a_filter_whose_test_fails_is_not_preselected_and_needs_a_second_yes(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    by_id = {c.filter_id: c for c in panel.candidates}
    assert "pytest-quiet" not in {c.filter_id for c in panel.selected()}
    panel.set_selected({(by_id["pytest-quiet"].file, "pytest-quiet")})
    target = demo / "out.json"  # a new file: only the question about the failing test
    assert not panel.export_to(target)  # which defaults to Cancel
    assert dialogs.calls[-1][1].startswith("Export filters whose tests fail?: pytest-quiet: test")
    assert not target.exists()
    dialogs.answers["Export filters whose tests fail?"] = YES
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        assert panel.export_to(target)
    assert [f["id"] for f in json.loads(target.read_text())] == ["pytest-quiet"]


def test_export_as_toml_through_the_button(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    panel.format.setCurrentIndex(panel.format.findData("toml"))
    assert panel.default_export_path() == demo / ".rtk" / "filters.toml"
    by_id = {c.filter_id: c for c in panel.candidates}
    panel.set_selected({(by_id["npm-install"].file, "npm-install")})
    dialogs.answers["save-as"] = demo / "out.toml"
    assert panel.export_clicked()
    text = (demo / "out.toml").read_text(encoding="utf-8")
    assert "[filters.npm-install]" in text and "make-quiet" not in text
    assert any("not part of RTK TOML" in m or "dropped" in m for m in panel.notes.messages())


def test_export_refuses_to_overwrite_unsaved_edits(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    target = demo / ".rtk" / "filters.json"
    tab = window.open_file(target)
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    tab.editor.textCursor().insertText(" ")
    before = target.read_text(encoding="utf-8")
    dialogs.answers["Export filters"] = YES
    assert not panel.export_to(target)
    assert target.read_text(encoding="utf-8") == before
    assert "unsaved edits" in panel.notes.messages()[0]


def test_checking_a_file_checks_its_filters(qtbot, window):
    panel = _panel(qtbot, window)
    panel.set_selected(set())
    assert panel.selected() == [] and not panel.export_button.isEnabled()
    file_item = panel.export_tree.topLevelItem(0)
    file_item.setCheckState(0, Qt.CheckState.Checked)
    assert len(panel.selected()) == file_item.childCount() >= 1
    assert panel.export_button.isEnabled()


def test_a_hidden_trust_panel_loads_when_shown(qtbot, window):
    panel = window.panel_widgets["trust"]
    window.show_panel("diagnostics")
    qtbot.wait(600)  # scans done: a hidden panel did not read the filters
    assert panel.overview is None
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        window.show_panel("trust")
    assert panel.overview is not None and panel.candidates


def test_the_export_dialog_leaves_the_replace_question_to_the_export(qtbot, window, demo, dialogs, monkeypatch):
    """Qt's "already exists, replace it?" would misstate a merge (the default): the export's own
    question says whether it merges or replaces, and what it keeps."""
    from PySide6.QtWidgets import QFileDialog

    asked: list[object] = []

    def save_as(*args, **kwargs):
        asked.append(kwargs.get("options"))
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_as))
    panel = _panel(qtbot, window)
    by_id = {c.filter_id: c for c in panel.candidates}
    panel.set_selected({(by_id["npm-install"].file, "npm-install")})
    assert not panel.export_clicked()  # (cancelled in the dialog)
    assert asked and asked[0] & QFileDialog.Option.DontConfirmOverwrite


def test_trust_project_filters_is_a_command_that_asks_on_a_fresh_review(qtbot, window, demo, dialogs):
    """Run ▸ Trust Project Filters… (and the palette): the panel shown and read again, then the
    same question as its Trust… button, with the hash of the file as it is now."""
    from app.panels import window_menu

    action = window.actions_["trust_project"]
    assert action in window_menu(window, "Run").actions()
    panel = _panel(qtbot, window)
    window.show_panel("tests")  # (hidden: the panel's review is of the file as it was)
    older = panel.overview
    path = demo / ".rtk" / "filters.json"
    text = path.read_text(encoding="utf-8")
    assert '"priority": 60' in text
    path.write_text(text.replace('"priority": 60', '"priority": 61'), encoding="utf-8")
    computed = raw_sha256((demo / ".rtk" / "filters.json").read_bytes())
    asked = len(dialogs.calls)
    action.trigger()
    qtbot.waitUntil(lambda: len(dialogs.calls) > asked, timeout=30000)
    kind, text = dialogs.calls[-1]
    assert kind == "question" and computed in text  # (the file as changed just now, not an older read)
    assert window.panel_widgets["trust"].isVisible() and panel.overview is not older


def test_compare_sets_the_trusted_version_beside_the_file_now(qtbot, window, demo, dialogs):
    from app.conflict import DiffDialog

    panel = _panel(qtbot, window)
    # changed after trust, but the trusted bytes were never kept here: nothing to compare, and why
    assert not panel.compare_button.isEnabled() and "was not found" in panel.compare_button.toolTip()
    assert panel.compare_with_trusted() is None
    assert "Nothing to compare" in window.statusBar().currentMessage()
    toml_row = panel.files.topLevelItem(1)  # (double-clicked: the row of a file that is not there)
    panel.files.itemDoubleClicked.emit(toml_row, 0)
    assert window.statusBar().currentMessage() == "Nothing to compare: .rtk/filters.toml does not exist"
    dialogs.answers["Trust project filters"] = YES
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        assert panel.trust_clicked()
    assert not panel.compare_button.isEnabled() and "unchanged since" in panel.compare_button.toolTip()

    path = demo / ".rtk" / "filters.json"
    changed = json.loads(path.read_text(encoding="utf-8"))
    next(f for f in changed if f["id"] == "audit-quiet")["id"] = "audit-loud"
    path.write_text(json.dumps(changed), encoding="utf-8")  # the change, and the file minified
    _reload(qtbot, panel)
    assert panel.compare_button.isEnabled() and "filters.json" in panel.compare_button.toolTip()
    seen = {}

    def look(dialog: DiffDialog):
        model = dialog.table.model()
        seen["labels"] = [model.headerData(c, Qt.Orientation.Horizontal) for c in (1, 3)]
        seen["tip"] = model.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        seen["raw"] = dialog.summary.text()
        assert not dialog.alternate_box.isHidden() and dialog.keep_button.isHidden()  # nothing to settle
        dialog.alternate_box.setChecked(True)  # both laid out alike: only the change differs
        changed_rows = [r for r in dialog.rows if r.tag != "equal"]
        seen["laid out"] = [(r.left.strip(), r.right.strip()) for r in changed_rows]
        seen["summary"] = dialog.summary.text()
        return 0

    dialogs.answers["DiffDialog"] = look
    qtbot.mouseClick(panel.compare_button, Qt.MouseButton.LeftButton)
    assert ("exec", "DiffDialog") in dialogs.calls
    assert seen["labels"] == ["Trusted (snapshot)", "Now (under review)"]
    assert seen["tip"].startswith("The version trusted last, from snapshot: ") and "trusted-filters" in seen["tip"]
    assert len((demo / ".rtk" / "filters.json").read_text(encoding="utf-8").splitlines()) == 1  # minified
    trusted_lines = len(panel.overview.present[0].since_trust.found.data.splitlines())
    assert trusted_lines > 20 and seen["raw"].startswith(f"{trusted_lines} lines differ")  # as they are: all
    assert seen["summary"].startswith("1 line differs")  # the id line, side by side
    left, right = seen["laid out"][0]
    assert len(seen["laid out"]) == 1 and "audit-quiet" in left and "audit-loud" in right


def test_compare_from_the_palette_reads_the_files_afresh_first(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    dialogs.answers["Trust project filters"] = YES
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        assert panel.trust_clicked()
    path = demo / ".rtk" / "filters.json"
    path.write_bytes(path.read_bytes().replace(b"audit-quiet", b"audit-loud"))
    shown = []
    dialogs.answers["DiffDialog"] = lambda dialog: shown.append([(r.left, r.right) for r in dialog.rows
                                                                 if r.tag != "equal"]) or 0
    window.actions_["compare_trusted"].trigger()  # no refresh by hand: the action reads the files again
    qtbot.waitUntil(lambda: bool(shown), timeout=30000)
    assert any("audit-loud" in right for _left, right in shown[0])


def test_a_review_line_that_heads_a_filter_opens_the_file_at_it(qtbot, window, demo):
    from PySide6.QtCore import QUrl

    panel = _panel(qtbot, window)
    # never trusted content here: every filter of the file is listed as new, and links to itself
    targets = {filter_id: href for href, (_path, filter_id) in panel._review_links.items()}
    assert set(targets) == {"git-log-short", "audit-quiet"}
    assert f"href=\"{targets['audit-quiet']}\"" in panel.risk.toHtml()
    tab = panel._on_review_link(QUrl(targets["audit-quiet"]))
    assert tab is not None and tab.path == demo / ".rtk" / "filters.json"
    cursor = tab.editor.textCursor()
    line = tab.text.splitlines()[cursor.blockNumber()]
    below = "\n".join(tab.text.splitlines()[cursor.blockNumber():cursor.blockNumber() + 3])
    assert line.strip().startswith("{") and '"id": "audit-quiet"' in below
    # the filter gone from the editor's text meanwhile: said, not a jump to nowhere
    tab.editor.setPlainText(tab.text.replace('"audit-quiet"', '"audit-loud"'))
    panel._on_review_link(QUrl(targets["audit-quiet"]))
    assert window.statusBar().currentMessage() == "audit-quiet is not in filters.json as the editor has it"


def test_export_filters_is_a_file_menu_command_that_exports_what_is_ticked(qtbot, window, demo, dialogs):
    """The product's last step was only a button at the bottom of the Trust panel: it is in the
    File menu (above Close Tab), in the palette, on Ctrl+E; it reads the files afresh first."""
    from app.palette import CommandPalette
    from app.panels import window_menu

    action = window.actions_["export_filters"]
    file_menu = window_menu(window, "File")
    assert file_menu is not None
    labels = [a.text().replace("&", "") for a in file_menu.actions()]
    assert labels.index("Export Filters…") < labels.index("Close Tab")
    assert action.shortcut().toString() == "Ctrl+E"
    palette = CommandPalette(list(window.actions_.values()), window)
    palette.query.setText("export")
    assert palette.list.item(0).text() == "Export Filters…" and palette.empty.isHidden()
    panel = _panel(qtbot, window)
    assert {c.filter_id for c in panel.selected()} == {"make-quiet"}  # pre-selected (see above)
    dialogs.answers["save-as"] = demo / "out.json"
    dialogs.answers["Export filters"] = YES
    action.trigger()
    qtbot.waitUntil(lambda: (demo / "out.json").exists(), timeout=30000)
    assert [f["id"] for f in json.loads((demo / "out.json").read_text(encoding="utf-8"))] == ["make-quiet"]


def test_export_filters_with_nothing_ticked_points_at_the_list(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    panel.set_selected(set())
    calls = len(dialogs.calls)
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        window.actions_["export_filters"].trigger()
    qtbot.waitUntil(lambda: "Tick the filters" in window.statusBar().currentMessage(), timeout=10000)
    assert len(dialogs.calls) == calls  # no file dialog, no question
    assert window.focusWidget() is panel.export_tree


def test_a_palette_query_that_matches_nothing_says_so(qtbot, window):
    from app.palette import CommandPalette

    palette = CommandPalette(list(window.actions_.values()), window)
    qtbot.addWidget(palette)
    palette.show()
    palette.query.setText("zzz-no-such-command")
    assert palette.list.count() == 0 and palette.empty.isVisible()
    assert "No command matches “zzz-no-such-command”" in palette.empty.text()
    palette.query.setText("trust")
    assert palette.list.count() and not palette.empty.isVisible()


def test_exporting_into_a_trusted_file_warns_that_trust_is_undone(qtbot, window, demo, dialogs):
    panel = _panel(qtbot, window)
    dialogs.answers["Trust project filters"] = YES
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        assert panel.trust_clicked()
    by_id = {c.filter_id: c for c in panel.candidates}
    panel.set_selected({(by_id["make-quiet"].file, "make-quiet")})
    target = demo / ".rtk" / "filters.json"
    assert not panel.export_to(target)  # (Cancel)
    question = dialogs.calls[-1][1]
    assert "⚠ filters.json was trusted: with this export, .rtk/trust.json no longer holds its hash" in question
    panel.with_trust.setChecked(True)
    assert not panel.export_to(target)
    assert "was trusted" not in dialogs.calls[-1][1]  # trusting the result keeps it trusted
    panel.with_trust.setChecked(False)
    dialogs.answers["Export filters"] = YES
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        assert panel.export_to(target)
    assert any("OmniRoute does not apply" in m for m in panel.notes.messages())
    assert panel.verdict.text() != "🔒 trusted"


def test_a_ticked_filter_stays_ticked_when_its_file_is_renamed(qtbot, window, demo):
    from app.explorer_menu import rename_dialog

    panel = _panel(qtbot, window)
    by_id = {c.filter_id: c for c in panel.candidates}
    panel.set_selected({(by_id["npm-install"].file, "npm-install"), (by_id["make-quiet"].file, "make-quiet")})
    with qtbot.waitSignal(panel.loader.finished, timeout=30000):
        assert rename_dialog(window, demo / "filters" / "npm.json", "npm-renamed.json") is not None
    qtbot.waitUntil(lambda: any(c.file.endswith("npm-renamed.json") for c in panel.candidates), timeout=30000)
    chosen = {(Path(c.file).name, c.filter_id) for c in panel.selected()}
    assert chosen == {("npm-renamed.json", "npm-install"), ("make.toml", "make-quiet")}


def test_ticks_in_a_renamed_file_wait_for_a_list_that_holds_it(qtbot, window, demo):
    """A scan that began before the rename fills the list without the new name first (seen on a
    busy machine): the ticks in the renamed file are kept for the list that holds it."""
    panel = _panel(qtbot, window)
    by_id = {c.filter_id: c for c in panel.candidates}
    npm, make = by_id["npm-install"], by_id["make-quiet"]
    panel.set_selected({(npm.file, "npm-install"), (make.file, "make-quiet")})
    new = str(Path(npm.file).with_name("npm-renamed.json"))
    window.fileRenamed.emit(npm.file, new)
    stale = [c for c in panel.candidates if c.file != npm.file]  # (the old file gone, the new one not seen)
    panel._fill_candidates(stale)
    assert {(Path(c.file).name, c.filter_id) for c in panel.selected()} == {("make.toml", "make-quiet")}
    fresh = stale + [replace(c, file=new) for c in by_id.values() if c.file == npm.file]
    panel._fill_candidates(fresh)
    chosen = {(Path(c.file).name, c.filter_id) for c in panel.selected()}
    assert chosen == {("npm-renamed.json", "npm-install"), ("make.toml", "make-quiet")}
