"""A large paste into the Caveman preview of the real window (issue 18): its output first (from
the helper process), then the explanation streamed in with a progress bar and Cancel; typing
meanwhile cancels it and the newest text wins; a view derived from an older text is marked stale
until it is replaced. Performance is the bench's job (``bench/bench_caveman_paste.py``): nothing
here is timed, runs that must be caught in flight are held by events."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtWidgets import QApplication

import app.panel_caveman as panel_module
from engine.workspace.previews.caveman_preview import STAGED_MIN, run_caveman_preview

from .ide_helpers import open_pack

pytestmark = pytest.mark.gui

LINE = ("Could you please basically look at the configuration in `src/app.py` and, in order to be sure, "
        "just run the tests. Item {i}.")
BIG = "\n\n".join(LINE.format(i=i) for i in range(STAGED_MIN // len(LINE) + 40))


@pytest.fixture
def panel(qtbot, window, workspace):
    open_pack(qtbot, window, workspace)
    widget = window.panel_widgets["caveman-preview"]
    qtbot.waitUntil(lambda: widget.preview is not None and not widget.dispatcher.busy, timeout=20000)
    return widget


class Held:
    """A stand-in for a stage that reports progress and waits until released (or cancelled), then
    runs the real thing: the real runs are too quick on a three-rule pack to catch in flight."""

    def __init__(self, real, hold_first: int = 1) -> None:
        self.real, self.hold_first = real, hold_first
        self.release, self.started = threading.Event(), threading.Event()
        self.texts: list[str] = []

    def __call__(self, req, progress=None, **kwargs):
        self.texts.append(req.text)
        if len(self.texts) <= self.hold_first:
            self.started.set()
            for i in range(4000):
                if progress is not None:
                    progress(i / 4000, "rules")  # raises PreviewCancelled once cancelled
                if self.release.wait(0.005):
                    break
        return self.real(req, progress, **kwargs) if progress is not None else self.real(req)


def paste(view, text: str) -> None:
    """Ctrl+V as a user does it: the clipboard's text replaces the selection."""
    QApplication.clipboard().setText(text)
    view.setFocus()
    view.selectAll()
    view.paste()


def test_a_large_paste_shows_its_output_first_then_streams_the_explanation(qtbot, panel, monkeypatch):
    firsts: list[str] = []
    real_first = panel_module.first_result_in_helper

    def first(req):
        firsts.append(req.text)
        return real_first(req)

    monkeypatch.setattr(panel_module, "first_result_in_helper", first)
    held = Held(run_caveman_preview)
    monkeypatch.setattr(panel_module, "run_caveman_preview", held)
    percents: list[int] = []
    panel._relay.changed.connect(lambda _n, percent, _stage: percents.append(percent))

    with qtbot.waitSignal(panel.firstShown, timeout=60000) as shown:
        paste(panel.input, BIG)
    partial = shown.args[0]
    assert partial.partial and partial.input == BIG == panel.input.plain_text()
    # the run started on the announced text; the view's own text matched it: one run, not two
    assert firsts == [BIG]
    assert panel.output.toPlainText() == partial.output != BIG  # the pack compressed it
    assert f"tokens {partial.tokens_before} → {partial.tokens_after}" in panel.summary.text()
    assert "explaining" in panel.summary.text()
    qtbot.waitUntil(held.started.is_set, timeout=20000)
    qtbot.waitUntil(lambda: panel.explain_progress.value() > 0, timeout=20000)
    assert panel.explain_progress.isVisible() and panel.cancel_button.isVisible()
    assert panel.rules.topLevelItemCount() == 0  # no rule list of another text meanwhile

    chunks: list[tuple] = []  # what the panel showed when the explanation's rules came in
    panel.rulesShown.connect(lambda p: chunks.append((p, panel.rules.topLevelItemCount(), panel.input.layer("diff"),
                                                      panel.explain_progress.isVisible())))
    with qtbot.waitSignal(panel.resultShown, timeout=60000) as done:
        held.release.set()
    full = done.args[0]
    assert not full.partial and full.input == BIG and full.output == partial.output
    # the explanation streamed in: its rules (listed, progress still running) before its word diff
    [(chunk, listed, diff_drawn, running)] = chunks
    assert chunk.partial and [h.name for h in chunk.rules] == [h.name for h in full.rules] and not chunk.diff
    assert listed > 0 and diff_drawn == [] and running
    assert panel.rules.topLevelItemCount() > 0 and panel.input.layer("diff")
    assert percents == sorted(percents) and percents[-1] >= 90
    assert panel.explain_progress.isHidden() and panel.cancel_button.isHidden()
    assert panel.output.isEnabled() and "out of date" not in panel.summary.text()


def test_cancel_keeps_the_output_and_explain_runs_it_again(qtbot, panel, monkeypatch):
    held = Held(run_caveman_preview)
    monkeypatch.setattr(panel_module, "run_caveman_preview", held)
    shown: list[object] = []
    panel.resultShown.connect(shown.append)
    with qtbot.waitSignal(panel.firstShown, timeout=60000):
        paste(panel.input, BIG)
    qtbot.waitUntil(held.started.is_set, timeout=20000)
    output = panel.output.toPlainText()
    qtbot.waitUntil(panel.cancel_button.isVisible, timeout=20000)
    panel.cancel_button.click()
    qtbot.waitUntil(lambda: not panel.explainer.busy, timeout=20000)
    assert panel.explain_progress.isHidden() and panel.cancel_button.isHidden()
    assert "explanation cancelled" in panel.summary.text()
    assert panel.output.toPlainText() == output and panel.preview.partial and shown == []
    assert "failed" not in panel.banner.text()
    assert panel.explain_button.isVisible()  # the way back, where Cancel was
    # asked again, the explanation runs to the end, and the output is not computed again
    firsts: list[str] = []
    monkeypatch.setattr(panel_module, "first_result_in_helper", lambda req: firsts.append(req.text))
    with qtbot.waitSignal(panel.resultShown, timeout=60000) as done:
        panel.explain_button.click()
        assert panel.explain_progress.isVisible() and panel.cancel_button.isVisible()
    assert done.args[0].input == BIG and not done.args[0].partial and firsts == []
    assert panel.explain_button.isHidden() and "cancelled" not in panel.summary.text()


def paste_and_hold_the_explanation(qtbot, panel, monkeypatch):
    """Paste BIG, wait for its first result, and hold its explanation in flight: (held, running)."""
    held = Held(run_caveman_preview)
    monkeypatch.setattr(panel_module, "run_caveman_preview", held)
    with qtbot.waitSignal(panel.firstShown, timeout=60000):
        paste(panel.input, BIG)
    qtbot.waitUntil(held.started.is_set, timeout=20000)
    return held, panel._explanation


def test_typing_during_the_explanation_cancels_it_and_the_newest_text_wins(qtbot, panel, monkeypatch):
    held, running = paste_and_hold_the_explanation(qtbot, panel, monkeypatch)
    panel.input.moveCursor(panel.input.textCursor().MoveOperation.End)
    qtbot.keyClicks(panel.input, " Please just check the database.")
    newest = panel.input.plain_text()
    assert running is not None and running.cancelled.is_set()  # the first keystroke stopped it
    qtbot.waitUntil(lambda: panel.preview is not None and not panel.preview.partial
                    and panel.preview.input == newest, timeout=60000)
    assert held.texts == [BIG, newest]  # only the newest text was explained after the old one
    assert panel.output.toPlainText() == panel.preview.output
    assert "just check" not in panel.output.toPlainText()[-300:]  # the typed words went through the pack
    assert panel.output.isEnabled() and "out of date" not in panel.summary.text()


def test_an_edit_marks_the_shown_result_stale_until_its_own_arrives(qtbot, panel, monkeypatch):
    """Small text (the one-stage run) held in flight: the output, rules, savings and notes of
    the text before are greyed and labelled out of date, then replaced."""
    held = Held(run_caveman_preview)
    panel.set_text("Could you please just look at the configuration.")
    qtbot.waitUntil(lambda: panel.preview is not None and panel.preview.input.endswith("configuration."),
                    timeout=20000)
    assert panel.output.isEnabled() and panel.details.isEnabled()
    monkeypatch.setattr(panel_module, "run_caveman_preview", held)
    qtbot.keyClicks(panel.input, " Basically")
    qtbot.waitUntil(held.started.is_set, timeout=20000)
    qtbot.waitUntil(lambda: not panel.output.isEnabled(), timeout=20000)
    assert not panel.details.isEnabled() and not panel.banner.isEnabled() and not panel.input_label.isEnabled()
    assert "out of date" in panel.output_label.text() and "out of date" in panel.summary.text()
    with qtbot.waitSignal(panel.resultShown, timeout=60000) as done:
        held.release.set()
    assert done.args[0].input == panel.input.plain_text()
    assert panel.output.isEnabled() and panel.details.isEnabled()
    assert "out of date" not in panel.output_label.text() + panel.summary.text()


def test_a_pack_edit_during_the_explanation_reruns_it_with_the_new_pack(qtbot, panel, window, monkeypatch):
    _held, running = paste_and_hold_the_explanation(qtbot, panel, monkeypatch)
    tab = window.document_tabs()[0]
    tab.edit_field(0, "/name", "basically_renamed", True)  # the open pack changes under the explanation
    qtbot.waitUntil(lambda: running.cancelled.is_set(), timeout=20000)
    qtbot.waitUntil(lambda: panel.preview is not None and not panel.preview.partial
                    and any(h.name == "basically_renamed" for h in panel.preview.rules), timeout=60000)
    assert not any(h.name == "basically" for h in panel.preview.rules)


def test_while_typing_goes_on_the_result_before_it_is_marked_stale(qtbot, panel):
    """Typing slower than the debounce but without a pause long enough for a run: the result
    shown belongs to the text before the first keystroke and says so while the typing goes on."""
    panel.set_text("Could you please just look at the configuration.")
    qtbot.waitUntil(lambda: panel.preview is not None and panel.preview.input.endswith("configuration."),
                    timeout=20000)
    panel.input.moveCursor(panel.input.textCursor().MoveOperation.End)
    panel.set_debounce(10_000)  # no run starts while this test types
    for char in " basically":
        qtbot.keyClicks(panel.input, char)
        qtbot.wait(60)
        if not panel.output.isEnabled():
            break
    assert not panel.output.isEnabled() and "out of date" in panel.output_label.text()
    panel.set_debounce(0)
    panel.schedule(immediate=True)
    qtbot.waitUntil(lambda: panel.output.isEnabled(), timeout=20000)
    assert panel.preview.input == panel.input.plain_text()


def test_a_failed_run_leaves_the_older_result_marked_stale(qtbot, panel, monkeypatch):
    panel.set_text("Could you please just look at the configuration.")
    qtbot.waitUntil(lambda: panel.preview is not None and panel.preview.input.endswith("configuration."),
                    timeout=20000)

    def broken(req, progress=None):
        raise RuntimeError("the engine broke")

    monkeypatch.setattr(panel_module, "run_caveman_preview", broken)
    qtbot.keyClicks(panel.input, " Basically")
    qtbot.waitUntil(lambda: "failed" in panel.banner.text(), timeout=20000)
    assert not panel.output.isEnabled() and "out of date" in panel.output_label.text()
    assert "the engine broke" in panel.banner.text()
