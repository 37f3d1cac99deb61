"""A large Caveman paste: its output first, then its explanation streamed in with progress and
Cancel (pytest-qt, offscreen), and the two stages agree with each other."""

from __future__ import annotations

import threading

import pytest

import app.panel_caveman as panel_module
from app.panel_caveman import CavemanPreviewPanel
from engine.workspace.previews.caveman_preview import (
    STAGED_MIN,
    CavemanRequest,
    PreviewCancelled,
    run_caveman_output,
    run_caveman_preview,
)
from tests.support.preview_samples import SAMPLE

BIG = "\n\n".join(f"{SAMPLE} Item {i} uses `call_{i}()`." for i in range(STAGED_MIN // len(SAMPLE) + 20))


# ---------------------------------------------------------------- engine side


@pytest.mark.parametrize("profile", ["omniroute", "strict"])
def test_first_result_is_the_explanations_output(pack_root, profile):
    req = CavemanRequest(BIG, pack_root=str(pack_root), profile=profile)
    first = run_caveman_output(req)
    full = run_caveman_preview(req)
    assert first.partial and not full.partial
    assert (first.output, first.tokens_before, first.tokens_after) == (full.output, full.tokens_before,
                                                                      full.tokens_after)
    assert first.protected == full.protected
    assert first.sent_uncompressed == full.sent_uncompressed
    assert first.output != BIG  # the pack did compress it
    assert full.rules and full.diff and not first.rules and not first.diff


@pytest.mark.parametrize("text", [BIG, "\n\n".join(f"Item {i}: see `call_{i}()`." for i in range(3000))])
def test_the_lean_first_result_restores_to_the_plain_one(pack_root, text):
    """What the helper sends back lacks the text, and the output when it is the same text."""
    from dataclasses import replace

    from engine.workspace.previews.caveman_preview import restore_lean, run_caveman_output_lean

    req = CavemanRequest(text, pack_root=str(pack_root))
    lean = run_caveman_output_lean(req)
    assert lean[0].input == "" and lean[1] == (run_caveman_output(req).output == text)
    restored = restore_lean(req, lean)
    assert replace(restored, seconds=0) == replace(run_caveman_output(req), seconds=0)


def test_the_rules_are_handed_over_before_the_word_diff(pack_root):
    seen: list[tuple[str, object]] = []
    full = run_caveman_preview(CavemanRequest(BIG, pack_root=str(pack_root)),
                               lambda _f, stage: seen.append(("progress", stage)),
                               rules_ready=lambda preview: seen.append(("rules", preview)))
    [chunk] = [value for kind, value in seen if kind == "rules"]
    assert chunk.partial and not chunk.diff and not chunk.input_spans
    assert ([(h.name, h.matches, h.spans) for h in chunk.rules] == [(h.name, h.matches, h.spans) for h in full.rules])
    assert (chunk.output, chunk.notes, chunk.categories, chunk.protected) == (full.output, full.notes, full.categories,
                                                                              full.protected)
    stages = [value if kind == "progress" else "RULES" for kind, value in seen]
    assert stages.index("RULES") < stages.index("word diff")


def test_progress_rises_to_the_end_and_can_stop_the_run(pack_root):
    seen: list[tuple[float, str]] = []
    run_caveman_preview(CavemanRequest(BIG, pack_root=str(pack_root)), lambda f, stage: seen.append((f, stage)))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] >= 0.95
    assert {"word diff"} <= {stage for _, stage in seen}

    calls = []

    def stop_at_third(fraction: float, stage: str) -> None:
        calls.append(stage)
        if len(calls) == 3:
            raise PreviewCancelled("stop")

    with pytest.raises(PreviewCancelled):
        run_caveman_preview(CavemanRequest(BIG, pack_root=str(pack_root)), stop_at_third)
    assert len(calls) == 3


# ---------------------------------------------------------------- panel


@pytest.fixture
def panel(qtbot, pack_root):
    widget = CavemanPreviewPanel()
    qtbot.addWidget(widget)
    widget.pack_root = str(pack_root)
    widget.set_debounce(0)
    widget.resize(900, 700)
    widget.show()
    return widget


def test_large_paste_shows_output_first_then_the_explanation(qtbot, panel):
    percents: list[int] = []
    panel._relay.changed.connect(lambda _n, percent, _stage: percents.append(percent))
    with qtbot.waitSignal(panel.firstShown, timeout=30000) as first:
        panel.set_text(BIG)
    partial = first.args[0]
    assert partial.partial
    assert panel.output.toPlainText() == partial.output
    assert "explaining" in panel.summary.text()
    with qtbot.waitSignal(panel.resultShown, timeout=60000) as full:
        pass
    assert not full.args[0].partial
    assert full.args[0].output == partial.output
    assert panel.rules.topLevelItemCount() > 0  # the rules that fired are listed now
    assert percents and percents == sorted(percents)
    assert panel.explain_progress.isHidden() and panel.cancel_button.isHidden()


def _slow_explanation(release: threading.Event, started: threading.Event):
    """An explanation that reports progress until released or cancelled (the real one is too
    quick on a small pack to catch it running)."""

    def run(req, progress, **kwargs):
        started.set()
        for i in range(2000):
            progress(i / 2000, "rules")
            if release.wait(0.005):
                break
        return run_caveman_preview(req, progress, **kwargs)
    return run


def test_cancel_stops_the_explanation_and_keeps_the_output(qtbot, panel, monkeypatch):
    release, started = threading.Event(), threading.Event()
    monkeypatch.setattr(panel_module, "run_caveman_preview", _slow_explanation(release, started))
    shown: list[object] = []
    panel.resultShown.connect(shown.append)
    with qtbot.waitSignal(panel.firstShown, timeout=30000):
        panel.set_text(BIG)
    qtbot.waitUntil(started.is_set, timeout=10000)
    qtbot.waitUntil(lambda: panel.explain_progress.value() > 0, timeout=10000)
    assert panel.explain_progress.isVisible() and panel.cancel_button.isVisible()
    output = panel.output.toPlainText()
    panel.cancel_button.click()
    qtbot.waitUntil(lambda: not panel.explainer.busy, timeout=10000)
    assert panel.explain_progress.isHidden() and panel.cancel_button.isHidden()
    assert "explanation cancelled" in panel.summary.text()
    assert panel.output.toPlainText() == output and panel.preview.partial
    assert shown == []  # no explanation was drawn
    assert "failed" not in panel.banner.text()


def test_typing_during_the_explanation_cancels_it_and_the_newest_text_wins(qtbot, panel, monkeypatch):
    release, started = threading.Event(), threading.Event()
    real = run_caveman_preview
    calls: list[str] = []

    def explanation(req, progress=None, **kwargs):
        calls.append(req.text)
        if len(calls) == 1:  # the first text's explanation runs until cancelled
            return _slow_explanation(release, started)(req, progress, **kwargs)
        return real(req, progress, **kwargs)

    monkeypatch.setattr(panel_module, "run_caveman_preview", explanation)
    with qtbot.waitSignal(panel.firstShown, timeout=30000):
        panel.set_text(BIG)
    qtbot.waitUntil(started.is_set, timeout=10000)
    first_run = panel._explanation
    newer = BIG + "\n\nPlease really check the database."
    with qtbot.waitSignal(panel.resultShown, timeout=60000) as done:
        panel.set_text(newer)  # typing: a new text
    assert first_run.cancelled.is_set()
    assert done.args[0].input == newer and not done.args[0].partial
    assert panel.output.toPlainText() == done.args[0].output
    assert calls == [BIG, newer]


def test_small_text_runs_the_full_preview_at_once(qtbot, panel):
    with qtbot.waitSignal(panel.resultShown, timeout=30000) as done:
        panel.set_text(SAMPLE)
    assert not done.args[0].partial
    assert panel.explain_progress.isHidden()


def test_span_view_draws_only_the_spans_near_what_is_on_screen(qtbot):
    """The word diff of a 1 MB paste has tens of thousands of spans; as selections they made every
    edit and text replacement walk them all (replacing the text took minutes). Only the spans
    near the visible text are drawn, and scrolling draws those of the new place."""
    from app.widgets.spanview import SPAN_WINDOW, SpanTextView
    from engine.workspace.previews.marks import Span

    view = SpanTextView()
    qtbot.addWidget(view)
    view.resize(500, 400)
    view.show()
    text = ("word " * 15 + "\n") * 13_000  # 1 MB in lines
    view.set_text(text)
    spans = [Span(i, i + 4, "removed", "x") for i in range(0, len(text), 10)]
    view.set_layer("diff", spans)
    drawn = view.extraSelections()
    assert 0 < len(drawn) < len(spans) // 10
    assert max(sel.cursor.selectionEnd() for sel in drawn) <= 3 * SPAN_WINDOW
    assert len(view.spans()) == len(spans)  # (hover and clicks still know every span)
    view.scroll_to(len(text) - 10)
    qtbot.waitUntil(lambda: max(sel.cursor.selectionEnd() for sel in view.extraSelections()) > len(text) - 100)
    view.set_text(text + "more")  # replacing the text with spans drawn stays quick
    assert view.extraSelections() == [] and view.toPlainText().endswith("more")


def test_typing_in_a_large_text_reads_it_once_the_typing_pauses(qtbot, panel, monkeypatch):
    """A keystroke in a megabyte-sized input must not copy the whole text out of the document
    (~20 ms each): the run it asks for reads it once, when it starts."""
    with qtbot.waitSignal(panel.firstShown, timeout=60000):
        panel.set_text(BIG)
    qtbot.waitUntil(lambda: not panel.explainer.busy and not panel.dispatcher.busy, timeout=60000)
    reads: list[int] = []
    real = panel.input.toPlainText
    monkeypatch.setattr(panel.input, "toPlainText", lambda: reads.append(1) or real())
    panel.set_debounce(10_000)
    panel.input.moveCursor(panel.input.textCursor().MoveOperation.End)
    qtbot.keyClicks(panel.input, " and more words")
    assert reads == []
    with qtbot.waitSignal(panel.firstShown, timeout=60000) as first:
        panel.set_debounce(0)
        panel.schedule(immediate=True)
    assert first.args[0].input == BIG + " and more words" and len(reads) == 1
