"""File ▸ New Filter from Samples… and "Drop/Keep lines like these" in the RTK preview."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QDialog

from app.learn_dialog import LearnDialog, lines_like_action, selected_lines

RUNS = [
    "   Compiling libc v0.2.161\n   Compiling serde v1.0.215\n   Compiling ledger v0.3.1 (/home/dev/ledger)\n"
    "    Finished `release` profile [optimized] target(s) in 18.42s\n",
    "   Compiling tokio v1.41.0\n   Compiling ledger v0.3.1 (/home/dev/ledger)\nerror[E0308]: mismatched types\n"
    "  --> src/invoice.rs:42:20\n\nerror: could not compile `ledger` (lib) due to 1 previous error\n",
]


def _learned(qtbot, dialog: LearnDialog) -> None:
    with qtbot.waitSignal(dialog.dispatcher.finished, timeout=30000):
        assert dialog.learn()


def _item(dialog: LearnDialog, pattern: str, kind: str = "drop"):
    for i in range(dialog.proposals.topLevelItemCount()):
        item = dialog.proposals.topLevelItem(i)
        if item.text(0) == pattern and item.text(1) == kind:
            return item
    raise AssertionError(f"no proposal {pattern!r}")


def test_learn_shows_each_pattern_with_its_lines_and_saves_an_ordinary_filter(qtbot, tmp_path):
    dialog = LearnDialog(None, command="cargo build --release", samples=RUNS)
    qtbot.addWidget(dialog)
    _learned(qtbot, dialog)
    assert dialog.learned.proof.passed and dialog.save_button.isEnabled()
    item = _item(dialog, r"^\s+Compiling \S")
    assert item.text(2) == "5"
    dialog.proposals.setCurrentItem(item)
    highlighted = [len(v.layer("match")) for v in dialog.sample_views()]
    assert highlighted == [3, 2]  # every matched line of both samples, and nothing else
    view = dialog.sample_views()[0]
    span = view.layer("match")[0]
    assert view.toPlainText()[span.start:span.end] == "   Compiling libc v0.2.161"
    assert '"^\\\\s+Compiling \\\\S"' in dialog.json.toPlainText()
    target = tmp_path / "filters" / "cargo-build.json"
    assert dialog.save(target)
    saved = json.loads(target.read_text(encoding="utf-8"))
    assert saved["$schema"].endswith("rtk-filter.schema.json")
    assert [t["input"] for t in saved["tests"]] == RUNS and all(t["command"] for t in saved["tests"])
    from engine.rtk.sources import read_filter_file
    from engine.rtk.verify import verify_filters

    assert verify_filters(read_filter_file(target).filters, require_all=True).passed


def test_rejecting_a_pattern_composes_the_filter_again_without_it(qtbot):
    dialog = LearnDialog(None, command="cargo build", samples=RUNS)
    qtbot.addWidget(dialog)
    _learned(qtbot, dialog)
    assert r"^\s*$" in dialog.learned.filter["rules"]["dropPatterns"]
    with qtbot.waitSignal(dialog.dispatcher.finished, timeout=30000):
        assert dialog.set_accepted(r"^\s*$", False)
    assert r"^\s*$" not in dialog.learned.filter["rules"]["dropPatterns"]
    assert _item(dialog, r"^\s*$").checkState(0) == Qt.CheckState.Unchecked
    assert dialog.learned.proof.passed


def test_nothing_to_learn_says_so(qtbot):
    dialog = LearnDialog(None)
    qtbot.addWidget(dialog)
    assert not dialog.learn()
    assert "at least one sample" in dialog.proof.text()
    assert not dialog.save_button.isEnabled()


def test_file_menu_opens_the_dialog_with_the_preview_sample(qtbot, window):
    preview = window.panel_widgets["rtk-preview"]
    preview.command.setText("cargo build")
    preview.input.setPlainText(RUNS[1])
    assert window.actions_["new_filter_samples"].text() == "New Filter from &Samples…"
    dialog = window.new_filter_from_samples()
    qtbot.addWidget(dialog)
    assert dialog.command.text() == "cargo build"
    assert dialog.sample_texts() == [RUNS[1]]
    dialog.close()


def _select_lines(view, first: int, last: int) -> None:
    doc = view.document()
    cursor = QTextCursor(doc.findBlockByNumber(first))
    end = doc.findBlockByNumber(last)
    cursor.setPosition(end.position() + end.length() - 1, QTextCursor.MoveMode.KeepAnchor)
    view.setTextCursor(cursor)


def test_drop_lines_like_these_adds_one_undoable_pattern_to_the_open_filter(qtbot, window, demo, dialogs):
    preview = window.panel_widgets["rtk-preview"]
    tab = window.open_file(demo / "filters" / "npm.json")
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    before = tab.text
    preview.command.setText("npm ci")
    preview.input.setPlainText("npm warn deprecated a@1.0.0\nfetch GET 200 https://r.test/zod 31ms\n"
                               "fetch GET 200 https://r.test/vue 12ms\nnpm ERR! code E404\nadded 9 packages\n")
    _select_lines(preview.input, 1, 1)
    assert selected_lines(preview.input) == ["fetch GET 200 https://r.test/zod 31ms"]
    seen = {}

    def accept(dialog):
        seen["lines"] = [dialog.matches.item(i).text() for i in range(dialog.matches.count())]
        seen["elsewhere"] = dialog.elsewhere.text()
        return QDialog.DialogCode.Accepted

    dialogs.answers["LinesLikeDialog"] = accept
    with qtbot.waitSignal(preview.lines_like_jobs.finished, timeout=30000):
        assert lines_like_action(preview, "drop")
    assert seen["lines"][:2] == ["this sample:2: fetch GET 200 https://r.test/zod 31ms",
                                 "this sample:3: fetch GET 200 https://r.test/vue 12ms"]
    assert seen["elsewhere"] == ""  # (the output went through this very filter)
    pattern = preview.last_lines_like.found.proposal.pattern
    assert pattern in json.loads(tab.text)["rules"]["dropPatterns"]
    tab.undo_stack.undo()
    assert tab.text == before


def test_lines_like_these_says_when_the_output_went_through_another_filter(qtbot, window, demo, dialogs):
    """The pattern goes to the open file's filter; when the engine chose another filter for the
    output, the dialog says so first: the pattern will not change this preview."""
    preview = window.panel_widgets["rtk-preview"]
    tab = window.open_file(demo / "filters" / "npm.json")
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    npm = json.loads(tab.text)["id"]
    preview.command.setText("git log")
    preview.input.setPlainText("commit 1a2b3c\nAuthor: someone\n\n    fix the loader\n")
    qtbot.waitUntil(lambda: preview.preview is not None and preview.preview.filter_id not in (None, npm),
                    timeout=20000)
    ran = preview.preview.filter_id
    _select_lines(preview.input, 1, 1)
    seen = {}

    def look(dialog):
        seen["elsewhere"] = (dialog.elsewhere.text(), dialog.elsewhere.isVisibleTo(dialog))
        return QDialog.DialogCode.Rejected

    dialogs.answers["LinesLikeDialog"] = look
    with qtbot.waitSignal(preview.lines_like_jobs.finished, timeout=30000):
        assert lines_like_action(preview, "drop")
    text, shown = seen["elsewhere"]
    assert shown and f"went through <b>{ran}</b>, not <b>{npm}</b>" in text and "This filter only" in text


def test_drop_lines_like_these_refuses_an_error_line(qtbot, window, demo, dialogs):
    preview = window.panel_widgets["rtk-preview"]
    tab = window.open_file(demo / "filters" / "npm.json")
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    before = tab.text
    preview.input.setPlainText("npm notice a\nnpm ERR! code E404\n")
    from app.learn_dialog import input_menu

    shown = [(a.text(), a.isEnabled()) for a in input_menu(preview).actions() if a.text()]
    assert shown[-2:] == [("Drop Lines Like These", True), ("Keep Lines Like These", True)]  # (no reason line)
    _select_lines(preview.input, 1, 1)
    with qtbot.waitSignal(preview.lines_like_jobs.finished, timeout=30000):
        assert lines_like_action(preview, "drop", confirm=False)
    assert preview.last_lines_like.found.proposal is None
    assert "must not be dropped" in preview.last_lines_like.found.why_not
    assert tab.text == before


def test_keep_lines_like_these_adds_a_priority_pattern(qtbot, window, demo, dialogs):
    preview = window.panel_widgets["rtk-preview"]
    tab = window.open_file(demo / "filters" / "npm.json")
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    preview.input.setPlainText("npm notice a\nadded 9 packages in 3s\n")
    _select_lines(preview.input, 1, 1)
    with qtbot.waitSignal(preview.lines_like_jobs.finished, timeout=30000):
        assert lines_like_action(preview, "keep", confirm=False)
    preserve = json.loads(tab.text)["preserve"]
    assert any(p.startswith("^added") for p in preserve.get("summaryPatterns", []))


def test_lines_like_needs_an_open_json_filter(qtbot, window):
    preview = window.panel_widgets["rtk-preview"]
    preview.input.setPlainText("fetch GET 200 https://r.test/zod 31ms\n")
    for tab in list(window.document_tabs()):
        window.close_tab(window.tabs.indexOf(tab))
    assert not lines_like_action(preview, "drop")
    drop, keep = preview.lines_like_actions
    assert drop.text() == "Drop Lines Like These" and keep.text() == "Keep Lines Like These"
    from app.learn_dialog import input_menu

    shown = [(a.text(), a.isEnabled()) for a in input_menu(preview).actions() if a.text()]
    assert shown[-3:] == [("Drop Lines Like These", False), ("Keep Lines Like These", False),
                          ("Open a JSON filter file to add patterns to it", False)]  # why, where it is seen


def test_learning_in_a_workspace_names_its_filter_that_the_command_selects_instead(qtbot, window, demo):
    """The demo workspace's filters/npm.json already handles ``npm install``: the learned filter
    is still proved (and can be saved), and the proof says which filter the preview would pick."""
    from app.playground.common import workspace_filter_files

    qtbot.waitUntil(lambda: bool(workspace_filter_files(window)), timeout=10000)
    runs = ["npm WARN deprecated glob@7\nnpm WARN deprecated rimraf@3\n\nadded 120 packages in 3s\n",
            "npm WARN deprecated inflight@1\n\nadded 3 packages, and audited 121 packages in 1s\n"]
    dialog = LearnDialog(window, command="npm install", samples=runs)
    qtbot.addWidget(dialog)
    _learned(qtbot, dialog)
    activation = next(c for c in dialog.learned.proof.checks if c.name == "activation")
    assert activation.passed and dialog.save_button.isEnabled()
    assert "npm-install (filters/npm.json) is chosen for it instead" in activation.detail
    assert "is chosen for it instead" in dialog.proof.text()
