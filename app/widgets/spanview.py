"""A monospace text view that shades spans (diff, protected regions, rule matches, error lines)
and says on hover what each span is.

Spans come from ``engine.workspace.previews`` in UTF-16 offsets, which is what Qt's text
positions count (IDE-Q2), so they are used as they are. Tints work on light and dark palettes
and are never the only signal: removed text is also struck out, inserted text underlined,
protected regions get a dotted underline and matches a wave.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QPoint, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QToolTip, QWidget

from app.theme import mono_font, tints
from engine.workspace.previews.marks import Span

SPAN_WINDOW = 8000  # characters before and after the visible text whose spans are drawn
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

    def __init__(self, parent: QWidget | None = None, *, read_only: bool = True, placeholder: str = "") -> None:
        super().__init__(parent)
        self.setReadOnly(read_only)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setFont(mono_font())
        if placeholder:
            self.setPlaceholderText(placeholder)
        self._spans: list[Span] = []
        self._starts: list[int] = []
        self._layers: dict[str, list[Span]] = {}
        # per layer: (spans sorted by start, their starts, the longest span's length)
        self._sorted: dict[str, tuple[list[Span], list[int], int]] = {}
        # per layer: (window it was built for, its selections there)
        self._selections: dict[str, tuple[tuple[int, int], list[QTextEdit.ExtraSelection]]] = {}
        self._window = (0, -1)  # the text range whose spans are drawn now
        self.verticalScrollBar().valueChanged.connect(lambda _v: self._draw())
        self.setMouseTracking(True)

    # -- content ---------------------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Replace the text (read-only views), keeping the scroll position; the spans of the old
        text are dropped (the caller sets the new ones)."""
        if text == self.toPlainText():
            return
        bar = self.verticalScrollBar()
        value = bar.value()
        self._layers.clear()
        self._sorted.clear()
        self._selections.clear()
        # (the old selections' cursors would follow the replacement: with tens of thousands of
        # them, replacing a 1 MB text took minutes)
        self.setExtraSelections([])
        self.setPlainText(text)
        self._apply()
        bar.setValue(min(value, bar.maximum()))

    def set_layer(self, name: str, spans: Sequence[Span]) -> None:
        """Spans of one layer (``diff``, ``protected``, ``match``…); layers stack in LAYERS order.
        Only this layer's selections are rebuilt (a preview redraw touches one or two layers)."""
        spans = list(spans)
        if spans == self._layers.get(name, []):
            return  # unchanged (protected regions of the same text, say): keep its selections
        self._layers[name] = spans
        ordered = sorted(spans, key=lambda s: s.start)
        self._sorted[name] = (ordered, [s.start for s in ordered], max((s.end - s.start for s in spans), default=0))
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
        return list(self._spans)

    def _build(self, spans: list[Span]) -> list[QTextEdit.ExtraSelection]:
        length = self.document().characterCount() - 1
        out = []
        formats: dict[tuple[str, str], QTextCharFormat] = {}
        cursor = QTextCursor(self.document())
        for s in spans:
            if s.end <= s.start or s.start >= length:
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
        return out

    def _apply(self) -> None:
        self._spans = sorted((s for layer in self._layers.values() for s in layer), key=lambda s: s.start)
        self._starts = [s.start for s in self._spans]
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
        for name in sorted(self._layers, key=rank):
            built = self._selections.get(name)
            if built is None or built[0] != window:
                ordered, starts, longest = self._sorted.get(name, ([], [], 0))
                first = bisect.bisect_left(starts, window[0] - longest)
                near = [s for s in ordered[first:bisect.bisect_left(starts, window[1])] if s.end > window[0]]
                built = self._selections[name] = (window, self._build(near))
            selections.extend(built[1])
        self.setExtraSelections(selections)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._draw()

    def spans_at(self, pos: int) -> list[Span]:
        hi = bisect.bisect_right(self._starts, pos)
        found = [s for s in self._spans[max(0, hi - 200):hi] if s.start <= pos < s.end]
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
        super().insertFromMimeData(source)

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
