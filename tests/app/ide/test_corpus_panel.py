"""The Corpus panel through the real main window: run, read the report, open a sample, A/B, stop."""

from __future__ import annotations

import json

import pytest

from app.palette import CommandPalette
from app.panels import window_menu
from engine.corpus.synth import write_corpus

pytestmark = [pytest.mark.gui, pytest.mark.slow]

PROSE = "Could you please basically look at `src/app.py` and basically fix the loader before Friday, please?\n"


@pytest.fixture
def corpus(tmp_path):
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "ask.txt").write_text(PROSE, encoding="utf-8")
    (root / "status.txt").write_text("$ git status\nOn branch main\nnothing to commit, working tree clean\n",
                                     encoding="utf-8")
    (root / "chat.jsonl").write_text(json.dumps({"messages": [{"role": "user", "content": PROSE}]}) + "\n",
                                     encoding="utf-8")
    return root


def _panel(window):
    return window.show_panel("corpus")


def test_run_shows_the_report_and_opens_samples_in_the_previews(qtbot, window, corpus):
    panel = _panel(window)
    assert not panel.run_button.isEnabled()  # nothing to run yet
    assert panel.progress.text() == "no run yet"  # (an empty bar read as a text box)
    panel.add_paths([str(corpus)])
    with qtbot.waitSignal(panel.finished, timeout=120000) as blocker:
        assert panel.run()
        assert panel.stop_button.isEnabled() and not panel.run_button.isEnabled()
    report = blocker.args[0]
    assert report["corpus"]["samples"] == 3 and report["partial"] is False
    assert "3 samples" in panel.summary.text()
    assert panel.progress.text() == "3 samples · 100%"
    assert len(panel.histogram.items()) == 21
    assert {b.label for b in panel.rules.items()} >= {"basically", "please"}
    top = panel.samples.topLevelItem(0)
    assert top.text(0).startswith("Worst samples (3)")
    ids = [top.child(i).text(0) for i in range(top.childCount())]
    chat_id = next(i for i in ids if i.endswith("chat.jsonl:1"))
    assert panel.open_in_preview(chat_id)
    assert window.panel_widgets["caveman-preview"].input.toPlainText() == PROSE
    status_id = next(i for i in ids if i.endswith("status.txt"))
    assert panel.open_in_preview(status_id)
    rtk = window.panel_widgets["rtk-preview"]
    assert rtk.command.text() == "git status"
    assert "nothing to commit" in rtk.input.toPlainText()

    # the report is of the files as they were: a saved change of a pack marks it outdated
    assert panel.outdated.isHidden()
    pack = window.workspace / "rules" / "en" / "filler.json"
    pack.write_text(pack.read_text(encoding="utf-8").replace('"basically"', '"basically2"', 1), encoding="utf-8")
    qtbot.waitUntil(lambda: not panel.outdated.isHidden(), timeout=10000)
    assert panel.outdated.text().startswith("Outdated: rules/en/filler.json changed on disk since this run")
    assert window.bottom.tabText(window.bottom.indexOf(panel)) == "Corpus (outdated)"
    with qtbot.waitSignal(panel.finished, timeout=120000):
        assert panel.run()
    assert panel.outdated.isHidden() and window.bottom.tabText(window.bottom.indexOf(panel)) == "Corpus"
    window.settings.default_profile = "strict"  # (as Settings ▸ OK applies it)
    window.settingsApplied.emit()
    assert "the default profile changed to strict since this run" in panel.outdated.text()


def test_ab_against_saved_runs_the_unsaved_pack_against_the_file(qtbot, window, corpus, workspace):
    from .ide_helpers import open_pack

    tab = open_pack(qtbot, window, workspace)
    pack = json.loads(tab.text)
    pack["rules"] = [r for r in pack["rules"] if r["name"] != "basically"]
    tab.editor.setPlainText(json.dumps(pack, indent=2))
    assert tab.is_dirty()
    panel = _panel(window)
    panel.add_paths([str(corpus)])
    with qtbot.waitSignal(panel.finished, timeout=120000) as blocker:
        assert panel.run_ab()
    report = blocker.args[0]
    assert report["ab"]["changedSamples"] == 2  # the prose and the chat body lose "basically"
    assert all(r["delta"] < 0 for r in report["ab"]["topRegressions"])
    assert "A/B:" in panel.summary.text() and panel.outdated.isHidden()
    tab.editor.setPlainText(json.dumps(pack, indent=1))  # edited after the A/B run
    qtbot.waitUntil(lambda: not panel.outdated.isHidden(), timeout=10000)
    assert "filler.json was edited after the A/B run" in panel.outdated.text()
    assert json.loads((workspace / "rules" / "en" / "filler.json").read_text(encoding="utf-8"))["rules"][0][
        "name"] == "basically"  # the file on disk is untouched
    tab.undo_stack.setClean()


def test_ab_is_offered_only_for_a_pack_or_filter_of_the_workspace(qtbot, window, corpus, workspace):
    from .ide_helpers import open_pack

    panel = _panel(window)
    panel.add_paths([str(corpus)])
    with qtbot.waitSignal(panel.finished, timeout=120000):
        assert panel.run()
    summary = panel.summary.text()
    assert not panel.ab_button.isEnabled()  # no file open: the tooltip says what it needs
    assert "A/B needs an open pack (under rules/) or filter (under filters/)" in panel.ab_button.toolTip()
    window.actions_["corpus_ab"].trigger()  # (from the menu or the palette: said, the last run's summary kept)
    assert "A/B needs an open pack" in window.statusBar().currentMessage()
    assert panel.summary.text() == summary
    open_pack(qtbot, window, workspace)
    assert panel.ab_button.isEnabled() and panel.ab_button.toolTip().startswith("Run the active pack")
    rtk_project = window.open_file(workspace / ".rtk" / "filters.json")  # (project filters: not a folder A/B compares)
    assert rtk_project is not None and not panel.ab_button.isEnabled()
    assert "neither a pack under rules/ nor a filter under filters/" in panel.ab_button.toolTip()


def test_stop_writes_a_partial_report(qtbot, window, tmp_path):
    write_corpus(tmp_path / "big", size=6_000_000, seed=3)
    panel = _panel(window)
    panel.add_paths([str(tmp_path / "big")])
    with qtbot.waitSignal(panel.finished, timeout=180000) as blocker:
        assert panel.run()
        qtbot.waitUntil(lambda: panel.progress.maximum() == 100 and panel.progress.value() > 0, timeout=120000)
        panel.stop()
    report = blocker.args[0]
    assert report["partial"] is True
    assert report["corpus"]["samples"] > 0
    assert "partial" in panel.summary.text()


def test_the_corpus_is_remembered_for_the_next_session(qtbot, window, corpus):
    from app.panel_corpus import CorpusPanel

    panel = _panel(window)
    panel.add_paths([str(corpus), str(corpus / "missing")])
    assert window.settings.corpus_paths == [str(corpus), str(corpus / "missing")]
    again = CorpusPanel(window)
    qtbot.addWidget(again)
    assert again.paths == [str(corpus)]  # a folder that is gone is not offered again
    assert again.run_button.isEnabled()


def test_the_corpus_and_the_rtk_preview_pick_the_same_filter(qtbot, dialogs):
    """On the example workspace, every output sample gets the same filter in a corpus run as in
    the RTK preview with no file open (the project's filters, the workspace's filters/ and the
    bundled ones compete in both); the preview's sample box names the sample until it is edited."""
    from app.mainwindow import MainWindow
    from engine.workspace.example import ensure_example_workspace
    from engine.workspace.settings import Settings

    window = MainWindow(Settings())
    qtbot.addWidget(window)
    window.open_workspace(ensure_example_workspace(), restore=False)
    window.show()
    qtbot.waitUntil(lambda: window.index is not None, timeout=20000)
    rtk = window.panel_widgets["rtk-preview"]
    qtbot.waitUntil(lambda: bool(rtk._filter_files), timeout=20000)  # (from the workspace's scan)
    panel = _panel(window)
    panel.add_paths([str(window.workspace / "samples")])
    with qtbot.waitSignal(panel.finished, timeout=120000) as blocker:
        assert panel.run()
    report = blocker.args[0]
    fired = {row["id"]: row["fired"] for row in report["current"]["worst"]}
    assert sorted(name for names in fired.values() for name in names) == [
        "deploy-log", "git-status", "ledger-check", "ledger-check", "ledger-import"]
    assert "beside the bundled filters" in panel.summary.text()
    for sample_id, names in fired.items():
        assert panel.open_in_preview(sample_id)
        text = rtk.input.plain_text()
        qtbot.waitUntil(lambda t=text: rtk.preview is not None and rtk.preview.output == t
                        and rtk.preview.detected_command == rtk.command.text(), timeout=20000)
        assert [rtk.preview.filter_id] == names, sample_id
        assert rtk.sample_combo.currentText() == sample_id.rsplit("/", 1)[-1]  # the sample box names it
        rtk.input.setPlainText(rtk.input.plain_text() + "one more line\n")
        assert rtk.sample_combo.currentText() == "(your output)"  # edited: no longer that sample
    window.watcher.stop()


def test_the_workspaces_samples_folder_is_one_click_away(qtbot, window, workspace):
    panel = _panel(window)
    assert panel.samples_button.isHidden()  # this workspace has no samples/ yet
    samples = workspace / "samples"
    samples.mkdir()
    (samples / "ask.txt").write_text(PROSE, encoding="utf-8")
    window.open_workspace(workspace)  # (opening a workspace looks for one)
    assert panel.samples_button.isVisibleTo(panel) and not panel.run_button.isEnabled()
    panel.samples_button.click()
    assert panel.paths == [str(samples.resolve())] and panel.run_button.isEnabled()
    assert panel.samples_button.isHidden()  # it is the corpus now
    panel.clear_paths()
    assert panel.samples_button.isVisibleTo(panel)
    # the prose beside the packs is the workspace's too: with it, the Caveman rules have text to
    # fire on (the example workspace keeps its only prose sample there)
    beside = workspace / "rules" / "en" / "samples"
    beside.mkdir()
    (beside / "standup.txt").write_text(PROSE, encoding="utf-8")
    panel.add_paths([str(samples.resolve())])
    assert panel.samples_button.isVisibleTo(panel) and str(beside.resolve()) in panel.samples_button.toolTip()
    with qtbot.waitSignal(panel.finished, timeout=120000) as blocker:
        panel.samples_button.click()
        assert panel.paths == [str(samples.resolve()), str(beside.resolve())]
        assert panel.run()
    assert blocker.args[0]["corpus"]["samples"] == 2
    assert {b.label for b in panel.rules.items()} >= {"basically", "please"}  # (the pack's rules fired)
    # inside the workspace, paths are listed from it (elided absolute paths hid the folder)
    assert panel.paths_label.text() == "Corpus: samples · rules/en/samples"
    worst = panel.samples.topLevelItem(0)
    listed = {worst.child(i).text(0): worst.child(i) for i in range(worst.childCount())}
    assert set(listed) == {"samples/ask.txt", "rules/en/samples/standup.txt"}
    item = listed["rules/en/samples/standup.txt"]
    assert item.toolTip(0) == str(beside.resolve() / "standup.txt")  # the whole path, and the key to open it
    panel.samples.itemDoubleClicked.emit(item, 0)
    assert window.panel_widgets["caveman-preview"].input.toPlainText() == PROSE


def test_the_corpus_commands_are_in_the_run_menu_and_the_palette(qtbot, window, workspace):
    """Run Corpus, A/B Against Saved and Use Samples from the keyboard (ux.md: every command is
    in the palette): without a corpus the run says what it lacks; with samples/ one command
    makes it the corpus, the next runs it."""
    qtbot.wait(10)  # (the panels offer their commands once the window has built its menus)
    run_menu = window_menu(window, "Run")
    assert run_menu is not None
    texts = [a.text() for a in run_menu.actions()]
    assert {"Run &Corpus", "Corpus: &A/B Against Saved", "Corpus: Use the Workspace's &Samples"} <= set(texts)
    assert {"run_corpus", "corpus_ab", "corpus_samples"} <= set(window.actions_)
    panel = window.panel_widgets.get("corpus") or window.show_panel("corpus")
    window.show_panel("tests")
    window.actions_["run_corpus"].trigger()
    assert window.bottom.currentWidget() is panel and panel.process is None
    assert "No corpus yet" in panel.summary.text()
    assert not window.actions_["corpus_samples"].isEnabled()  # no samples in this workspace
    samples = workspace / "samples"
    samples.mkdir()
    (samples / "ask.txt").write_text(PROSE, encoding="utf-8")
    window.open_workspace(workspace)
    assert window.actions_["corpus_samples"].isEnabled()
    listed = CommandPalette(list(window.actions_.values()), window)  # (it lists the enabled commands)
    assert any(a is window.actions_["corpus_samples"] for a in listed.actions_)
    listed.deleteLater()
    window.actions_["corpus_samples"].trigger()
    assert panel.paths == [str(samples.resolve())] and not window.actions_["corpus_samples"].isEnabled()
    with qtbot.waitSignal(panel.finished, timeout=120000) as blocker:
        window.actions_["run_corpus"].trigger()
        assert not window.actions_["run_corpus"].isEnabled()  # (one run at a time)
    assert blocker.args[0]["corpus"]["samples"] == 1
    assert window.actions_["run_corpus"].isEnabled()
