"""The span view's text shortcuts agree with Qt: ``qt_plain_text`` (the text a paste will give,
announced before the document has it), ``text_after_insert`` (what a paste over a selection
gives), and ``set_text`` patching a large read-only text where it changed instead of replacing
it (the document ends up exactly as ``setPlainText`` leaves it)."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QMimeData
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from app.widgets import spanview
from app.widgets.spanview import SpanTextView, changed_range, qt_plain_text
from engine.workspace.previews.marks import Span

# characters Qt reads differently from how they were given, and ordinary ones around them
ALPHABET = ["a", "b", " ", "\n", "\r", "\r\n", "\u2028", "\u2029", "\xa0", "\ufdd0", "\ufdd1", "\x00",
            "😀", "é", "\t", "\x0c", "\ufeff", "\u200b", "\x85", "\ufffc", "\ud800"]


def _texts(seed: int, count: int, longest: int, alphabet=ALPHABET):
    rnd = random.Random(seed)
    for _ in range(count):
        yield "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, longest)))


def test_qt_plain_text_is_what_the_document_gives_back(qtbot):
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    for text in _texts(1, 600, 12):
        edit.setPlainText(text)
        assert edit.toPlainText() == qt_plain_text(text), repr(text)


def test_text_after_insert_is_what_a_paste_gives(qtbot):
    view = SpanTextView(read_only=False)
    qtbot.addWidget(view)
    rnd = random.Random(2)
    pastes = [t for t in _texts(3, 400, 8, ALPHABET[:-1]) if t.lstrip("\ufeff")]
    for base, pasted in zip(_texts(4, 400, 8, ALPHABET[:-1]), pastes, strict=False):
        view.setPlainText(base)
        held = view.toPlainText()
        # cursor positions a user can reach (never inside a surrogate pair)
        stops = [0] + [len(held[:k].encode("utf-16-le")) // 2 for k in range(1, len(held) + 1)]
        start = rnd.choice(stops)
        end = rnd.choice([s for s in stops if s >= start])
        cursor = view.textCursor()
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        view.setTextCursor(cursor)
        expected = view.text_after_insert(pasted)
        mime = QMimeData()
        mime.setText(pasted)
        view.insertFromMimeData(mime)
        assert view.toPlainText() == expected == view.plain_text(), (base, start, end, pasted)


def test_a_large_paste_is_announced_with_the_text_it_gives(qtbot):
    view = SpanTextView(read_only=False)
    qtbot.addWidget(view)
    view.setPlainText("before after")
    cursor = view.textCursor()
    cursor.setPosition(len("before "))
    view.setTextCursor(cursor)
    announced: list[str] = []
    view.aboutToPaste.connect(announced.append)
    pasted = "line\r\n" * 400
    mime = QMimeData()
    mime.setText(pasted)
    view.insertFromMimeData(mime)
    assert announced == [view.toPlainText()]
    assert announced[0] == "before " + "line\n" * 400 + "after"


@pytest.mark.parametrize(("old", "new"), [("abc", "abc"), ("abc", "abxc"), ("", "x"), ("aaa", "aa"),
                                          ("abab", "ab"), ("xabc", "abc"), ("abc", "")])
def test_changed_range(old, new):
    start, old_end, new_end = changed_range(old, new)
    assert old[:start] == new[:start] and old[old_end:] == new[new_end:]
    assert start <= old_end and start <= new_end
    assert old[:start] + new[start:new_end] + old[old_end:] == new


def test_set_text_patches_a_large_text_to_what_set_plain_text_gives(qtbot, monkeypatch):
    monkeypatch.setattr(spanview, "PATCH_MIN", 4)  # every text is "large"
    view, reference = SpanTextView(), QPlainTextEdit()
    qtbot.addWidget(view)
    qtbot.addWidget(reference)
    patched = 0
    real_patch = view._patch

    def counting(text):
        nonlocal patched
        done = real_patch(text)
        patched += done
        return done

    monkeypatch.setattr(view, "_patch", counting)
    previous = ""
    rnd = random.Random(5)
    for text in _texts(6, 800, 40):
        if rnd.random() < 0.7 and len(previous) > 8:  # mostly a small change of the text before
            at = rnd.randrange(len(previous))
            text = previous[:at] + rnd.choice(ALPHABET) + previous[at + rnd.randint(0, 2):]
        view.set_text(text)
        reference.setPlainText(text)
        assert view.toPlainText() == reference.toPlainText() == view.plain_text(), repr(text)
        previous = text
    assert patched > 100  # (the small changes went through the patch)
    assert not view.document().isUndoAvailable()


def test_layers_arrive_in_any_order_and_hover_finds_them(qtbot):
    view = SpanTextView()
    qtbot.addWidget(view)
    view.set_text("0123456789" * 10)
    view.set_layer("diff", [Span(50, 60, "removed", "b"), Span(10, 20, "removed", "a")])
    view.set_layer("protected", [Span(15, 30, "protected", "p", label="url")])
    assert [s.tip for s in view.spans_at(17)] == ["a", "p"]  # topmost layer first
    assert [s.start for s in view.spans()] == [10, 15, 50]
    assert view.layer("diff")[0].tip == "b"  # the layer as it was given


def test_a_prepared_text_is_shown_as_set_text_would_show_it(qtbot):
    view = SpanTextView()
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    view.set_text("before")
    font, option = view.document().defaultFont(), view.document().defaultTextOption().wrapMode()
    text = "line one\r\nline two\u2029three\n" * 50
    view.prepare_text(text)
    assert view.toPlainText() == "before"  # nothing shows until set_text asks for that text
    view.set_text(text)
    assert view.toPlainText() == qt_plain_text(text) == view.plain_text()
    assert view.document().defaultFont() == font and view.document().defaultTextOption().wrapMode() == option
    assert view.prepared_text() is None
    view.set_layer("diff", [Span(0, 4, "removed", "r")])
    assert view.extraSelections() and view.spans_at(1)[0].tip == "r"
    view.set_text(text + "more")  # the adopted document goes on as any other
    assert view.toPlainText() == qt_plain_text(text + "more") == view.plain_text()
    view.prepare_text("never shown")
    view.set_text("another text")  # a different text drops what was prepared
    assert view.toPlainText() == "another text" and view.prepared_text() is None
    for round_ in range(3):  # adopted documents replace each other (and are let go of)
        again = f"round {round_}\n" * 200
        view.prepare_text(again)
        view.set_text(again)
        assert view.toPlainText() == again and view.plain_text() == again
    view.set_text("plain again")
    assert view.toPlainText() == "plain again"


def test_a_line_too_long_to_shade_is_left_plain_and_the_view_says_so(qtbot):
    """Qt places a cursor, and draws a selection, in a line at the cost of laying out the line:
    1 MB of ``$`` on one line with a math block every four characters blocked the GUI thread
    for 37 s on its first result. Spans in a line over ``LONG_LINE`` are not drawn; the view
    counts them and paints its notice; the spans of ordinary lines still are drawn."""
    view = SpanTextView()
    qtbot.addWidget(view)
    view.resize(420, 200)
    view.show()
    long_line = "$" * (spanview.LONG_LINE + 4)
    view.set_text("short line\n" + long_line + "\nend")
    start = len("short line\n")
    spans = [Span(0, 5, "protected", "p", label="url")]
    spans += [Span(start + i, start + i + 4, "protected", "m", label="math") for i in range(0, 4000, 4)]
    view.set_layer("protected", spans)
    drawn = view.extraSelections()
    assert len(drawn) == 1 and drawn[0].cursor.selectionStart() == 0
    assert view.undrawn == 1000
    assert view.grab().width() == 420  # (the notice paints without error)
    view.set_text("short line\nanother\n")
    view.set_layer("protected", [Span(0, 5, "protected", "p", label="url")])
    assert view.undrawn == 0 and len(view.extraSelections()) == 1
