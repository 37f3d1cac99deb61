"""A monospace text view that shades spans (diff, protected regions, rule matches, error lines)
and says on hover what each span is.

Spans come from ``engine.workspace.previews`` in UTF-16 offsets, which is what Qt's text
positions count (IDE-Q2), so they are used as they are. Tints work on light and dark palettes
and are never the only signal: removed text is also struck out, inserted text underlined,
protected regions get a dotted underline and matches a wave.
"""

from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QPoint, QRect, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QHelpEvent,
    QPainter,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextDocumentLayout, QPlainTextEdit, QTextEdit, QToolTip, QWidget

from app.theme import mono_font, tints
from engine.workspace.previews.marks import Span

SPAN_WINDOW = 8000  # characters before and after the visible text whose spans are drawn
# a line longer than this gets no shading: Qt lays out every wrapped row of a line for each
# selection in it (1 MB of ``$`` on one line, a math block every 4 characters: 37 s with the GUI
# thread blocked), and the view says so instead
LONG_LINE = 20_000
LONG_LINE_NOTICE = f"shading is off in lines over {LONG_LINE:,} characters"
ANNOUNCE_PASTE_MIN = 1000  # a paste at least this long is announced before the document takes it
LAYERS = {"protected": 0, "dropped": 0, "summary": 1, "error": 1, "removed": 2, "inserted": 2, "changed": 2,
          "match": 3}


# Protected regions are shaded by kind, in five families (light, dark); the tooltip names the kind.
PROTECTED_FAMILIES = {
    "code": (("fenced_code", "inline_code"), "#e3e9f3", "#2f3b4c"),
    "link": (("url", "markdown_link"), "#d9ecfb", "#1f3a55"),
    "name": (("file_path", "dotted_identifier", "function_call", "const_case", "env_var", "version"),
             "#ece4f7", "#3b2f4c"),
    "error": (("error_message",), "#fbe6d4", "#4c3a2a"),
    "markup": (("markdown_heading", "markdown_table", "math_block", "math_inline", "latex_block",
                "typst_directive", "frontmatter"), "#e2efe2", "#2c4632"),
}


_FAMILY_OF = {kind: name for name, (kinds, _l, _d) in PROTECTED_FAMILIES.items() for kind in kinds}


def protected_family(kind: str) -> str:
    return _FAMILY_OF.get(kind, "code")


def protected_colour(family: str) -> str:
    _kinds, light, dark = PROTECTED_FAMILIES.get(family, PROTECTED_FAMILIES["code"])
    return dark if tints().dark else light


def qt_plain_text(text: str) -> str:
    """``text`` as a ``QPlainTextEdit`` gives it back after taking it (``setPlainText``, a paste):
    the string's conversion drops a leading byte-order mark and lone surrogates;
    ``QTextCursor.insertText`` ends a block at CR LF, CR, LF and U+2029; ``toPlainText`` reads
    block ends, U+2028 and the frame marks as LF and a no-break space as a space. Used to start
    work on a large text before the document has it (the document's own text is checked against
    it once it is in)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.isascii():
        return text
    if _has_lone_surrogate(text):  # (a str holds a pair as one character)
        text = _LONE_SURROGATE.sub("", text)
    for char, read_as in _QT_PLAIN:  # (replace, not translate: a translation of 1 MB takes ~50 ms)
        if char in text:
            text = text.replace(char, read_as)
    return text


_QT_PLAIN = (("\u2029", "\n"), ("\u2028", "\n"), ("\ufdd0", "\n"), ("\ufdd1", "\n"), ("\u00a0", " "))
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


SAME_CHECK_MAX = 5000  # layers up to this many spans are compared with the ones drawn (kept when equal)
_START = operator.attrgetter("start")
_END = operator.attrgetter("end")
PATCH_MIN = 100_000  # texts from this long are patched where they changed, not replaced (set_text)


def changed_range(old: str, new: str) -> tuple[int, int, int]:
    """``(start, old_end, new_end)``: ``old[start:old_end]`` became ``new[start:new_end]``, the
    rest is common prefix and suffix. Halving slice comparisons (C ``memcmp``), so two 1 MB texts
    cost a few milliseconds, not a character-by-character loop."""
    limit = min(len(old), len(new))
    lo, hi = 0, limit  # old[:lo] == new[:lo]; the common prefix is at most hi long
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[lo:mid] == new[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    prefix = lo
    lo, hi = 0, limit - prefix  # the common suffix, not overlapping the prefix
    n, m = len(old), len(new)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[n - mid:n - lo] == new[m - mid:m - lo]:
            lo = mid
        else:
            hi = mid - 1
    return prefix, n - lo, m - lo


def utf16_index(text: str, index: int) -> int:
    """The UTF-16 position of ``text[index]`` (Qt positions count UTF-16 units)."""
    return index if text.isascii() else len(text[:index].encode("utf-16-le", "surrogatepass")) // 2


def _has_lone_surrogate(text: str) -> bool:
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _code_point_index(text: str, units: int) -> int:
    """The ``str`` index of UTF-16 position ``units`` in ``text`` (Qt positions count UTF-16)."""
    if units <= 0:
        return 0
    encoded = text.encode("utf-16-le", "surrogatepass")
    return len(encoded[:2 * units].decode("utf-16-le", "surrogatepass"))


def span_format(kind: str, label: str = "") -> QTextCharFormat:
    t = tints()
    fmt = QTextCharFormat()
    if kind == "removed":
        fmt.setBackground(QColor(t.removed))
        fmt.setFontStrikeOut(True)
    elif kind in ("inserted", "changed"):
        fmt.setBackground(QColor(t.inserted))
        fmt.setFontUnderline(True)
    elif kind == "protected":
        fmt.setBackground(QColor(protected_colour(protected_family(label))))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
        fmt.setUnderlineColor(QColor("#7f93b0"))
    elif kind == "match":
        fmt.setBackground(QColor("#6b5d12" if t.dark else "#fff1a8"))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        fmt.setUnderlineColor(QColor("#c9a400"))
    elif kind == "error":
        fmt.setBackground(QColor(t.removed))
        fmt.setForeground(QColor(t.error))
        fmt.setProperty(QTextFormat.Property.FullWidthSelection, True)
    elif kind == "summary":
        fmt.setBackground(QColor("#263d52" if t.dark else "#e1efff"))
        fmt.setProperty(QTextFormat.Property.FullWidthSelection, True)
    elif kind == "dropped":
        fmt.setForeground(QColor(t.punct))
        fmt.setFontStrikeOut(True)
    return fmt


class SpanTextView(QPlainTextEdit):
    """Plain text plus shaded spans; ``spanHovered`` reports the spans under the mouse."""

    spanClicked = Signal(object)  # the topmost Span under a click
    filesDropped = Signal(list)  # local files dropped on the view (paths as str)
    # the whole text a large paste is about to give (``qt_plain_text`` of it), emitted before the
    # document takes it: work on that text can start while the document builds its blocks
    aboutToPaste = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, read_only: bool = True, placeholder: str = "") -> None:
        super().__init__(parent)
        # the text as ``toPlainText`` gives it, read once per change (20 ms for 1 MB, and a preview
        # asks for it several times a run); connected first, so it is forgotten before any other
        # receiver of ``textChanged`` asks
        self._plain: str | None = None
        # the document holds lone surrogates (which toPlainText drops): positions in the text
        # read back are not the document's, so set_text replaces instead of patching
        self._lone_surrogates = False
        self.textChanged.connect(self._forget_text)
        self.document().contentsChange.connect(lambda *_a: self._forget_text())
        self._prepared: tuple[str, QTextDocument] | None = None  # see prepare_text
        self._adopted: QTextDocument | None = None  # the prepared document shown now
        self.setReadOnly(read_only)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setFont(mono_font())
        if placeholder:
            self.setPlaceholderText(placeholder)
        self._layers: dict[str, list[Span]] = {}
        # per layer: (spans sorted by start, their starts, the longest span's length)
        self._sorted: dict[str, tuple[list[Span], list[int], int]] = {}
        # per layer: (window it was built for, its selections there, the spans left out there)
        self._selections: dict[str, tuple[tuple[int, int], list[QTextEdit.ExtraSelection], int]] = {}
        self._window = (0, -1)  # the text range whose spans are drawn now
        self._undrawn = 0  # spans near the visible text not drawn (they lie in a too long line)
        self.verticalScrollBar().valueChanged.connect(lambda _v: self._draw())
        self.setMouseTracking(True)

    # -- content ---------------------------------------------------------------------------------
    def _forget_text(self) -> None:
        self._plain = None

    def plain_text(self) -> str:
        """``toPlainText()``, read once per change of the document."""
        if self._plain is None:
            self._plain = self.toPlainText()
        return self._plain

    def set_text(self, text: str) -> None:
        """Replace the text (read-only views), keeping the scroll position; the spans of the old
        text are dropped (the caller sets the new ones)."""
        if text == self.plain_text():
            return
        bar = self.verticalScrollBar()
        value = bar.value()
        self._layers.clear()
        self._sorted.clear()
        self._selections.clear()
        # (the old selections' cursors would follow the replacement: with tens of thousands of
        # them, replacing a 1 MB text took minutes)
        self.setExtraSelections([])
        lone = _has_lone_surrogate(text)
        prepared, self._prepared = self._prepared, None
        if prepared is not None and prepared[0] == text and self.isReadOnly():
            self._adopt(prepared[1])
        elif lone or self._lone_surrogates or not self._patch(text):
            self.setPlainText(text)
        if prepared is not None and self.document() is not prepared[1]:
            prepared[1].deleteLater()
        self._lone_surrogates = lone
        if self.isReadOnly():  # only set_text changes it: what it holds now is known
            self._plain = qt_plain_text(text)
        self._apply()
        bar.setValue(min(value, bar.maximum()))

    def prepare_text(self, text: str) -> None:
        """Build, now, a document holding ``text``, for a ``set_text(text)`` that may follow (read-
        only views): the Caveman preview prepares its output view with a large pasted text while
        the helper runs, and a text sent uncompressed (output = input) is then shown without
        building a megabyte's blocks (35-70 ms) on the way to its first result. Any other
        ``set_text`` drops it."""
        if not self.isReadOnly():
            return
        document = QTextDocument(self)
        document.setDocumentLayout(QPlainTextDocumentLayout(document))
        document.setDefaultFont(self.document().defaultFont())
        document.setDefaultTextOption(self.document().defaultTextOption())
        document.setUndoRedoEnabled(False)
        document.setPlainText(text)
        old, self._prepared = self._prepared, (text, document)
        if old is not None:
            old[1].deleteLater()

    def prepared_text(self) -> str | None:
        return self._prepared[0] if self._prepared is not None else None

    def _adopt(self, document: QTextDocument) -> None:
        """Show ``document`` in place of the current one. The view deletes a document it made
        itself when it is replaced, not one given to it: an adopted one is deleted here."""
        old, self._adopted = self._adopted, document
        self.setDocument(document)
        document.contentsChange.connect(lambda *_a: self._forget_text())
        if old is not None:
            old.deleteLater()

    def _patch(self, text: str) -> bool:
        """Replace only what changed when a large text changes a little (a keystroke in a 1 MB
        input changes its output in one place): ``setPlainText`` rebuilds every block, 50-100 ms
        for 1 MB of short lines, on every result. The texts compared are as the document reads
        them (``qt_plain_text``), so the document ends up holding exactly what ``setPlainText``
        would have given it. Read-only views only (an editable one keeps the user's undo history
        out of it); False when a whole replacement is as cheap."""
        if not self.isReadOnly():
            return False
        old = self.plain_text()
        if len(old) < PATCH_MIN or len(text) < PATCH_MIN:
            return False
        new = qt_plain_text(text)
        start, old_end, new_end = changed_range(old, new)
        if (new_end - start) + (old_end - start) > len(new) // 4 or new.startswith("\ufeff", start):
            return False  # (a string handed to Qt loses a leading byte-order mark)
        first, last = start, old_end
        if not old.isascii():
            first, last = utf16_index(old, start), utf16_index(old, old_end)
        document = self.document()
        undo = document.isUndoRedoEnabled()
        document.setUndoRedoEnabled(False)
        cursor = QTextCursor(document)
        cursor.setPosition(first)
        cursor.setPosition(last, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(new[start:new_end])
        document.setUndoRedoEnabled(undo)
        return True

    def set_layer(self, name: str, spans: Sequence[Span]) -> None:
        """Spans of one layer (``diff``, ``protected``, ``match``…); layers stack in LAYERS order.
        Only this layer's selections are rebuilt (a preview redraw touches one or two layers)."""
        spans = list(spans)
        old = self._layers.get(name, [])
        if len(spans) == len(old) and len(spans) <= SAME_CHECK_MAX and spans == old:
            return  # unchanged (protected regions of the same text, say): keep its selections
        # (the word diff of 1 MB has tens of thousands of spans: everything per span here runs
        # in C — attrgetter, map, a sort of what is almost always sorted already)
        self._layers[name] = spans
        starts = list(map(_START, spans))
        ordered = spans
        if starts != sorted(starts):
            ordered = sorted(spans, key=_START)
            starts = list(map(_START, ordered))
        longest = max(map(operator.sub, map(_END, ordered), starts), default=0)
        self._sorted[name] = (ordered, starts, longest)
        self._selections.pop(name, None)
        self._apply()

    def clear_spans(self) -> None:
        if not self._layers:
            return
        self._layers.clear()
        self._sorted.clear()
        self._selections.clear()
        self._apply()

    def layer(self, name: str) -> list[Span]:
        return list(self._layers.get(name, []))

    def spans(self) -> list[Span]:
        """Every layer's spans, by start."""
        return sorted((s for layer in self._layers.values() for s in layer), key=_START)

    def _build(self, spans: list[Span]) -> tuple[list[QTextEdit.ExtraSelection], int]:
        """The selections of ``spans``, and how many were left out for lying in a line over
        ``LONG_LINE``."""
        document = self.document()
        length = document.characterCount() - 1
        out = []
        left_out = 0
        formats: dict[tuple[str, str], QTextCharFormat] = {}
        cursor = QTextCursor(document)
        for s in spans:
            if s.end <= s.start or s.start >= length:
                continue
            # (asked of the blocks: a cursor placed in a long line costs what the line does)
            block = document.findBlock(s.start)
            if block.length() > LONG_LINE or (s.end > block.position() + block.length()
                                              and document.findBlock(min(s.end, length)).length() > LONG_LINE):
                left_out += 1
                continue
            cursor.setPosition(s.start)
            cursor.setPosition(min(s.end, length), QTextCursor.MoveMode.KeepAnchor)
            sel = QTextEdit.ExtraSelection()
            sel.cursor = QTextCursor(cursor)
            key = (s.kind, protected_family(s.label) if s.kind == "protected" else "")
            fmt = formats.get(key)
            if fmt is None:
                fmt = formats[key] = span_format(s.kind, s.label)
            sel.format = fmt
            out.append(sel)
        return out, left_out

    def _apply(self) -> None:
        self._draw(force=True)

    def _visible(self) -> tuple[int, int]:
        """The text range on screen (positions of the first and last visible characters)."""
        first = self.firstVisibleBlock().position() if self.firstVisibleBlock().isValid() else 0
        viewport = self.viewport()
        last = self.cursorForPosition(QPoint(viewport.width() - 1, viewport.height() - 1)).position()
        return first, max(first, last)

    def _draw(self, *, force: bool = False) -> None:
        """Draw the spans near the visible text only: a selection's cursor follows every edit
        and every selection is walked at each paint, so tens of thousands of them (the word
        diff of a 1 MB paste) made typing and replacing the text take seconds to minutes.
        Scrolling out of the drawn range draws the spans of the new one."""
        lo, hi = self._visible()
        if not force and self._window[0] <= lo and hi <= self._window[1]:
            return
        window = (max(0, lo - SPAN_WINDOW), hi + SPAN_WINDOW)
        self._window = window

        def rank(name: str) -> int:
            spans = self._layers.get(name) or []
            return LAYERS.get(spans[0].kind, 1) if spans else 0

        selections = []
        undrawn = 0
        for name in sorted(self._layers, key=rank):
            built = self._selections.get(name)
            if built is None or built[0] != window:
                ordered, starts, longest = self._sorted.get(name, ([], [], 0))
                first = bisect.bisect_left(starts, window[0] - longest)
                near = [s for s in ordered[first:bisect.bisect_left(starts, window[1])] if s.end > window[0]]
                built = self._selections[name] = (window, *self._build(near))
            selections.extend(built[1])
            undrawn += built[2]
        self.setExtraSelections(selections)
        if undrawn != self._undrawn:
            self._undrawn = undrawn
            self.viewport().update()

    @property
    def undrawn(self) -> int:
        """Spans near the visible text left unshaded because their line is over ``LONG_LINE``."""
        return self._undrawn

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if not self._undrawn:
            return
        # the notice, in the top right corner: the shading is missing, not the spans
        painter = QPainter(self.viewport())
        metrics = painter.fontMetrics()
        width = metrics.horizontalAdvance(LONG_LINE_NOTICE) + 12
        box = QRect(max(0, self.viewport().width() - width - 4), 4, min(width, self.viewport().width()),
                    metrics.height() + 6)
        painter.fillRect(box, self.palette().toolTipBase())
        painter.setPen(self.palette().toolTipText().color())
        painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), metrics.elidedText(
            LONG_LINE_NOTICE, Qt.TextElideMode.ElideRight, box.width() - 8))
        painter.end()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._draw()

    def spans_at(self, pos: int) -> list[Span]:
        found: list[Span] = []
        for ordered, starts, _longest in self._sorted.values():
            hi = bisect.bisect_right(starts, pos)
            found.extend(s for s in ordered[max(0, hi - 200):hi] if s.start <= pos < s.end)
        return sorted(found, key=lambda s: -LAYERS.get(s.kind, 1))

    def tooltip_at(self, pos: int) -> str:
        lines = list(dict.fromkeys(s.tip for s in self.spans_at(pos) if s.tip))
        return "\n".join(lines)

    def scroll_to(self, pos: int) -> None:
        cursor = self.textCursor()
        cursor.setPosition(max(0, min(pos, self.document().characterCount() - 1)))
        self.setTextCursor(cursor)
        self.centerCursor()

    # -- events ----------------------------------------------------------------------------------
    def canInsertFromMimeData(self, source) -> bool:
        return source.hasUrls() or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source) -> None:
        files = [u.toLocalFile() for u in source.urls() if u.isLocalFile()] if source.hasUrls() else []
        if files:
            self.filesDropped.emit(files)
            return
        if not self.isReadOnly() and source.hasText():
            pasted = source.text()
            if len(pasted) >= ANNOUNCE_PASTE_MIN:
                self.aboutToPaste.emit(self.text_after_insert(pasted))
        super().insertFromMimeData(source)

    def text_after_insert(self, inserted: str) -> str:
        """The whole text once ``inserted`` replaces the selection (or goes in at the cursor)."""
        cursor = self.textCursor()
        text = self.plain_text()
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        if not text.isascii():
            start, end = _code_point_index(text, start), _code_point_index(text, end)
        return text[:start] + qt_plain_text(inserted) + text[end:]

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            pos = self.cursorForPosition(self.viewport().mapFrom(self, event.pos())).position()
            tip = self.tooltip_at(pos)
            if tip:
                QToolTip.showText(event.globalPos(), tip, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton and not self.textCursor().hasSelection():
            found = self.spans_at(self.cursorForPosition(event.position().toPoint()).position())
            if found:
                self.spanClicked.emit(found[0])
