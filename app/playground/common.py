"""Small widgets the panels share: JSON panes, a tinted diff, a notes list, a JSON tree, badges.

Colours come from :func:`app.theme.tints` so they work on light and dark palettes, and are never
the only signal: diff lines keep their ``-``/``+`` marks, badges carry a symbol and a word.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSizePolicy,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.icons import SymbolIconDelegate, icon, split_symbol
from app.jsonview import JsonEditor, Mark
from app.theme import changed_stretch, mono_font, stripe_style, tints
from app.widgets.elided import ElidedLabel
from app.widgets.trees import child_items, top_items
from engine.diagnostics import Diagnostic
from engine.workspace.diffrows import DiffRow, changed_stretches, pair_similar
from engine.workspace.panel_models.json_panes import PaneError

LEVEL_ICONS = {"error": "✖", "warning": "⚠", "info": "ℹ"}
EXPAND_ROLE = Qt.ItemDataRole.UserRole + 40


def json_pane(placeholder: str = "") -> JsonEditor:
    """A JSON editor for a playground pane: highlighted, line numbers, its own undo history."""
    pane = JsonEditor(lexer="json")
    pane.setUndoRedoEnabled(True)
    pane.undoRequested.connect(pane.undo)
    pane.redoRequested.connect(pane.redo)
    pane.setPlaceholderText(placeholder)
    pane.setFont(mono_font())
    return pane


def set_pane_text(pane: JsonEditor, text: str) -> None:
    """Replace a pane's text as one undoable edit (picking a sample can be undone)."""
    cursor = QTextCursor(pane.document())
    cursor.select(QTextCursor.SelectionType.Document)
    cursor.insertText(text)
    pane.moveCursor(QTextCursor.MoveOperation.Start)


def show_pane_marks(pane: JsonEditor, marks: list[tuple[int, int, str, str]]) -> None:
    """Underline ``(line, column, level, message)`` spots of a pane (1-based; tooltip: the message)."""
    out = []
    for line, column, level, message in marks:
        block = pane.document().findBlockByNumber(max(0, line - 1))
        if not block.isValid():
            block = pane.document().lastBlock()
        start = block.position() + max(0, min(column - 1, block.length() - 1))
        end = block.position() + max(1, block.length() - 1) if level != "error" else start + 1
        out.append(Mark(start, max(end, start + 1), level, f"{level}: {message}"))
    pane.set_marks(out)


def show_pane_error(pane: JsonEditor, error: PaneError | None) -> None:
    """Underline the spot a pane failed to parse (tooltip: the message), or clear it."""
    show_pane_marks(pane, [] if error is None else [(error.line, error.column, "error", error.message)])


def titled(title: str, widget: QWidget, extra: QWidget | None = None) -> QWidget:
    """``widget`` under a small bold caption (and an optional widget at the caption's right)."""
    box = QWidget()
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.setSpacing(2)
    head = QHBoxLayout()
    label = ElidedLabel(title)  # elide with "…" (full caption in the tooltip), never widen
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    head.addWidget(label, 1)
    head.addStretch(1)
    if extra is not None:
        head.addWidget(extra)
    lay.addLayout(head)
    lay.addWidget(widget, 1)
    return box


def compact(widget: QWidget, combo_chars: int = 10, min_width: int = 360) -> None:
    """Let a panel shrink with the window: combos size to a few characters (their popups still
    show whole entries), badges and buttons may be clipped, and the panel's own minimum width is
    capped at ``min_width`` — a panel never widens the window past the size the user (or docs
    mode) asked for; below its natural minimum it clips instead."""
    for combo in widget.findChildren(QComboBox):
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(combo_chars)
    for badge in widget.findChildren(Badge):
        badge.setMinimumWidth(60)  # shrinks (clipping) only below its natural width
    for button in widget.findChildren(QAbstractButton):
        button.setMinimumWidth(min(button.sizeHint().width(), 48))
        button.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
    widget.setMinimumWidth(min(widget.minimumSizeHint().width(), min_width))


class Badge(ElidedLabel):
    """A coloured pill: icon + word (colour is never the only signal). ``text()`` keeps the symbol
    it was given (``"✓ valid"``); the pill draws that symbol's bundled icon (``app.icons``)."""

    LEVELS = ("ok", "warn", "bad", "info", "muted")

    def __init__(self, text: str = "", level: str = "muted") -> None:
        super().__init__(min_chars=4)
        self._badge = ""
        self.set(text, level)

    def text(self) -> str:
        return self._badge

    def _text_width(self) -> int:
        # (its bold glyphs' ink runs past their advance: without room for it the last letter of
        # "— no project filters" was cut in the Trust panel, under X11 at 1366×768)
        return super()._text_width() + self.fontMetrics().averageCharWidth() // 2

    def set(self, text: str, level: str = "muted") -> None:
        t = tints()
        fg = {"ok": t.string, "warn": t.warning, "bad": t.error, "info": t.info, "muted": t.punct}[level]
        bg = {"ok": t.inserted, "warn": "#5a4a1e" if t.dark else "#fff4d6", "bad": t.removed,
              "info": "#1e3a5a" if t.dark else "#e3f0ff", "muted": t.current_line}[level]
        self.level = level
        self._badge = text
        name, words = split_symbol(text)
        super().setText(words)
        self.setIcon(icon(name) if name else None)
        self.setStyleSheet(f"QLabel {{ color: {fg}; background: {bg}; border-radius: 8px; padding: 2px 8px;"
                           " font-weight: 600; }")


LAST_GOOD = "input invalid — showing the result for the last valid input"


class LastGoodNote(QLabel):
    """Says, over a playground's result, that the input changed and no longer parses: the result
    below is for the last valid input. The result widgets are disabled (greyed) meanwhile, so a
    result that no longer matches its input is never shown as current."""

    def __init__(self, *results: QWidget) -> None:
        super().__init__()
        self.results = results
        self.setWordWrap(True)
        self.setStyleSheet(stripe_style("warning"))
        self.hide()

    def mark(self, invalid: bool, why: str = "", has_result: bool = True) -> None:
        stale = invalid and has_result
        self.setText(f"⚠ {LAST_GOOD}" + (f" ({why})" if why else "") if stale else "")
        self.setToolTip(why)
        self.setVisible(stale)
        for widget in self.results:
            widget.setEnabled(not stale)


class DiffView(QPlainTextEdit):
    """Read-only line diff: removed lines red with ``-``, inserted green with ``+``; in a line
    replaced by another, the stretch that differs is deeper-tinted and underlined (one changed
    character of a long JSON line was otherwise found by comparing the two lines by eye)."""

    def __init__(self) -> None:
        super().__init__()
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setFont(mono_font())

    def show_rows(self, rows: list[DiffRow], empty: str = "no differences") -> None:
        """Unified rendering of side-by-side rows (old left, new right)."""
        lines: list[DiffLine] = []
        for row in rows:
            if row.tag == "equal":
                lines.append((" ", row.left, None))
                continue
            if row.left_no is not None:
                lines.append(("-", row.left, row.left_changed))
            if row.right_no is not None:
                lines.append(("+", row.right, row.right_changed))
        if not any(mark != " " for mark, _, _ in lines):
            lines = [(" ", line, None) for _, line, _ in lines] or [(" ", empty, None)]
        self._render(lines)

    def show_unified(self, diff: str, empty: str = "no differences") -> None:
        lines: list[DiffLine] = []
        for line in diff.splitlines():
            if line.startswith(("---", "+++")):
                lines.append(("#", line, None))
            elif line.startswith("@@"):
                lines.append(("@", line, None))
            elif line[:1] in "-+ ":
                lines.append((line[:1] or " ", line[1:], None))
            else:
                lines.append((" ", line, None))
        self._render(_paired(lines) or [(" ", empty, None)])

    def _render(self, lines: list[DiffLine]) -> None:
        t = tints()
        self.clear()
        cursor = self.textCursor()
        for n, (mark, text, changed) in enumerate(lines):
            fmt = QTextCharFormat()
            if mark == "-":
                fmt.setBackground(QColor(t.removed))
            elif mark == "+":
                fmt.setBackground(QColor(t.inserted))
            elif mark in "#@":
                fmt.setForeground(QColor(t.punct))
            end = "\n" if n < len(lines) - 1 else ""
            if mark in "#@":
                cursor.insertText(text + end, fmt)
                continue
            if changed is None or changed[0] >= changed[1]:
                cursor.insertText(f"{mark} {text}{end}", fmt)
                continue
            marked = changed_stretch(fmt, fmt.background().color())
            start, stop = changed
            cursor.insertText(f"{mark} {text[:start]}", fmt)
            cursor.insertText(text[start:stop], marked)
            cursor.insertText(text[stop:] + end, fmt)
        self.moveCursor(QTextCursor.MoveOperation.Start)

    def changed_stretches(self) -> list[str]:
        """The marked (changed) stretches as shown, in order: what a reader's eye is led to."""
        found: list[str] = []
        block = self.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                if fragment.charFormat().fontUnderline():
                    found.append(fragment.text())
                it += 1
            block = block.next()
        return found

    def plain_lines(self) -> list[str]:
        return self.toPlainText().split("\n")


# (mark, text, the stretch of text that changed or None): one line of a DiffView
DiffLine = tuple[str, str, tuple[int, int] | None]


def _paired(lines: list[DiffLine]) -> list[DiffLine]:
    """A unified diff's runs of removed lines followed by added ones: each added line and the
    removed line it replaces (``pair_similar``) marked with the stretch where the two differ
    (``changed_stretches``)."""
    out: list[DiffLine] = []
    k = 0
    while k < len(lines):
        removed = k
        while removed < len(lines) and lines[removed][0] == "-":
            removed += 1
        added = removed
        while added < len(lines) and lines[added][0] == "+":
            added += 1
        if removed == k:  # (no removed run here)
            out.append(lines[k])
            k += 1
            continue
        minus, plus = lines[k:removed], lines[removed:added]
        left: dict[int, tuple[int, int]] = {}
        right: dict[int, tuple[int, int]] = {}
        for i, j in pair_similar([text for _, text, _ in minus], [text for _, text, _ in plus]):
            left[i], right[j] = changed_stretches(minus[i][1], plus[j][1])
        out += [(m, text, left.get(i)) for i, (m, text, _) in enumerate(minus)]
        out += [(m, text, right.get(j)) for j, (m, text, _) in enumerate(plus)]
        k = added
    return out


class NotesList(QTreeWidget):
    """Diagnostics and notes: level icon, message, code (tooltip: the quirk text)."""

    def __init__(self) -> None:
        super().__init__()
        self.setHeaderLabels(["", "Message", "Code"])
        self.setRootIsDecorated(False)
        self.setColumnWidth(0, 28)
        self.setColumnWidth(1, 520)
        self.setItemDelegate(SymbolIconDelegate(self))  # the level symbol drawn as its icon
        self.setAlternatingRowColors(True)
        self.setWordWrap(True)

    def set_notes(self, notes: Sequence[Diagnostic | dict[str, Any]], empty: str = "") -> None:
        self.clear()
        t = tints()
        colours = {"error": t.error, "warning": t.warning, "info": t.info}
        for note in notes:
            d = note.to_dict() if isinstance(note, Diagnostic) else note
            level = d.get("level", "info")
            item = QTreeWidgetItem([LEVEL_ICONS.get(level, "•"), str(d.get("message", "")), str(d.get("code") or "")])
            item.setForeground(0, QColor(colours.get(level, t.info)))
            tip = d.get("data", {}).get("quirk") if isinstance(d.get("data"), dict) else None
            where = d.get("pointer") or ""
            item.setToolTip(1, "\n".join(x for x in (str(d.get("message", "")), where, tip or "") if x))
            self.addTopLevelItem(item)
        if not notes and empty:
            item = QTreeWidgetItem(["", empty, ""])
            item.setForeground(1, QColor(t.punct))
            self.addTopLevelItem(item)

    def messages(self) -> list[str]:
        return [item.text(1) for item in top_items(self)]


def short_json(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def add_json_children(parent: QTreeWidgetItem | QTreeWidget, key: str, value: Any, *, expand_depth: int = 1,
                      depth: int = 0) -> QTreeWidgetItem:
    """A tree item for ``key: value`` with children for objects and arrays (value column: a preview)."""
    if isinstance(value, dict):
        shown = "{…}" if value else "{}"
    elif isinstance(value, list):
        shown = f"[{len(value)}]"
    else:
        shown = short_json(value)
    item = QTreeWidgetItem([key, shown])
    item.setToolTip(1, json.dumps(value, ensure_ascii=False, indent=2)[:4000])
    if isinstance(parent, QTreeWidget):
        parent.addTopLevelItem(item)
    else:
        parent.addChild(item)
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in children:
        add_json_children(item, str(k), v, expand_depth=expand_depth, depth=depth + 1)
    # setExpanded is ignored while the item is not in a tree yet: mark it, expand_marked() applies it
    item.setData(0, EXPAND_ROLE, depth < expand_depth)
    item.setExpanded(depth < expand_depth)
    return item


def expand_marked(tree: QTreeWidget) -> None:
    """Expand the JSON items :func:`add_json_children` marked, once they are in ``tree``."""
    stack = top_items(tree)
    while stack:
        item = stack.pop()
        if item.data(0, EXPAND_ROLE):
            item.setExpanded(True)
        stack.extend(child_items(item))


def mono_label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setFont(mono_font())
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(True)
    return label


def read_only_text(placeholder: str = "") -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setReadOnly(True)
    box.setFont(mono_font())
    box.setPlaceholderText(placeholder)
    return box



def scanned_entries(window: Any) -> list | None:
    """(path, kind) of the window's last workspace scan, or None to let the worker walk the folder
    (no scan yet, or it was of another workspace)."""
    index = window.index
    if index is not None and index.root == window.workspace:
        return [(f.path, f.kind) for f in index.files]
    return None


def workspace_filter_files(window: Any) -> tuple[str, ...]:
    """The window's workspace's own filter files (outside ``.rtk/``) from its last scan, or none
    before it (``engine.workspace.filter_files.own_filter_files``)."""
    from engine.workspace.filter_files import own_filter_files

    entries = scanned_entries(window) if window is not None and window.workspace is not None else None
    return () if entries is None else own_filter_files(window.workspace, entries)


def docs_focus(window: Any, *, bottom_share: float) -> None:
    """Docs mode only: give a bottom panel being photographed room (a taller bottom dock; the
    preview dock steps aside for the playgrounds by itself, ``app.preview_placement``). The
    user's layout is never touched: outside docs mode this does nothing."""
    if window is None or not getattr(window, "docs_mode", False):
        return
    from PySide6.QtCore import QTimer

    # after the window has laid itself out for the panel switch, not in the middle of it
    QTimer.singleShot(0, lambda: _resize_bottom(window, bottom_share))


def _resize_bottom(window: Any, bottom_share: float) -> None:
    from PySide6.QtCore import Qt as _Qt

    if hasattr(window, "bottom_dock"):
        window.resizeDocks([window.bottom_dock], [int(window.height() * bottom_share)], _Qt.Orientation.Vertical)
