"""Form fields for every field of the formats, built from declarative specs.

A field shows one JSON value of the selected item (by pointer relative to the item) and emits
``edited(value, mergeable)`` when the user changes it — ``REMOVE`` deletes an optional key.
``set_value`` updates it from the document without emitting, and leaves a field alone when it
already shows that value, so typing is never disturbed by the echo of its own edit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QSignalBlocker, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QIcon, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSpinBox,
    QStyledItemDelegate,
    QTableWidget,
    QTableWidgetItem,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.highlight import PatternHighlighter
from app.icons import icon
from app.layout_report import readable
from app.regexcheck import compile_problem
from app.theme import tints
from app.widgets.buttons import text_button
from app.widgets.elided import ElidedLabel
from app.widgets.elided_combo import ElidedComboBox
from app.widgets.flow import FlowBox

REMOVE = object()  # sentinel: delete the key
JS_FLAGS = "dgimsuvy"
FLAG_HELP = {
    "d": "d — indices: record match start/end for each group",
    "g": "g — global: replace every match (without it only the first)",
    "i": "i — ignore case",
    "m": "m — multiline: ^ and $ match at line breaks",
    "s": "s — dotAll: . matches line breaks too",
    "u": "u — unicode: code points, \\u{…}, \\p{…}",
    "v": "v — unicodeSets (not with u)",
    "y": "y — sticky: match only at lastIndex (stateful across calls, JSR-Q8)",
}


@dataclass(frozen=True)
class FieldSpec:
    pointer: str  # relative to the item, e.g. "/pattern", "/rules/dropPatterns"
    label: str
    kind: str  # text | multiline | pattern | flags | enum | bool | int | list | patterns | map | table
    optional: bool = True
    default: Any = None
    options: tuple = ()
    columns: tuple[tuple[str, str, bool], ...] = ()  # table: (key, header, optional)
    minimum: int = 0
    maximum: int = 1_000_000
    help: str = ""
    pattern_flags: str | None = None  # flags used to check patterns ("@flags": the item's flags)
    placeholder: str = ""  # shown while the field is empty: an example, never data


@dataclass
class Section:
    title: str
    fields: list[FieldSpec] = field(default_factory=list)


class FieldWidget(QWidget):
    edited = Signal(object, bool)  # value (or REMOVE), mergeable

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.present = False
        self._flags_for_check = ""

    def set_value(self, value: Any, present: bool) -> None:
        raise NotImplementedError

    def set_check_flags(self, flags: str) -> None:
        self._flags_for_check = flags

    def emit_value(self, value: Any, mergeable: bool = False) -> None:
        """Emit ``edited`` (named apart from ``QObject.emit``, which it must not shadow)."""
        self.present = value is not REMOVE
        self.edited.emit(value, mergeable)


def _placeholder(spec: FieldSpec) -> str:
    if spec.placeholder:
        return spec.placeholder
    if spec.default is None:
        return "not set" if spec.optional else "required"
    return f"not set — default {spec.default!r}" if not isinstance(spec.default, str) else \
        f"not set — default \"{spec.default}\""


class TextField(FieldWidget):
    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.edit = readable(QLineEdit())
        self.edit.setPlaceholderText(_placeholder(spec))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.edit)
        self.edit.textEdited.connect(lambda text: self.emit_value(text, True))

    def set_value(self, value: Any, present: bool) -> None:
        self.present = present
        text = value if isinstance(value, str) else ("" if value is None else str(value))
        if self.edit.text() != text:
            with QSignalBlocker(self.edit):
                self.edit.setText(text)
        self.edit.setPlaceholderText(_placeholder(self.spec) if not present else "(empty string)")


class MultiLineField(FieldWidget):
    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.edit = readable(QPlainTextEdit())
        self.edit.setPlaceholderText(_placeholder(spec))
        self.edit.setTabChangesFocus(True)
        self.edit.setFixedHeight(QFontMetrics(self.edit.font()).lineSpacing() * 3 + 12)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.edit)
        self.edit.textChanged.connect(self._changed)
        self._echo = False

    def _changed(self) -> None:
        if not self._echo:
            self.emit_value(self.edit.toPlainText(), True)

    def set_value(self, value: Any, present: bool) -> None:
        self.present = present
        text = value if isinstance(value, str) else ""
        if self.edit.toPlainText() != text:
            self._echo = True
            try:
                self.edit.setPlainText(text)
            finally:
                self._echo = False


class PatternLine(QPlainTextEdit):
    """A one-line editor with JS regex colouring (``QLineEdit`` cannot host a highlighter)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabChangesFocus(True)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFixedHeight(QFontMetrics(self.font()).lineSpacing() + 14)
        self.highlighter = PatternHighlighter(self.document())

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.ignore()  # one line: Enter never inserts a line break
            return
        super().keyPressEvent(event)

    def insertFromMimeData(self, source) -> None:
        if source.hasText():
            self.textCursor().insertText(source.text().replace("\r", "").replace("\n", ""))

    def mark_error(self, offset: int | None) -> None:
        """Tint the character at UTF-16 ``offset`` (a compile error's place; at the end, the
        last character), or clear the tint. Qt's positions are UTF-16 too."""
        selections = []
        length = self.document().characterCount() - 1  # (without the block's end)
        if offset is not None and length > 0:
            at = min(offset, length - 1)
            tint = QTextEdit.ExtraSelection()
            tint.format.setBackground(QColor(tints().removed))
            tint.format.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            tint.format.setUnderlineColor(QColor(tints().error))
            cursor = QTextCursor(self.document())
            cursor.setPosition(at)
            cursor.setPosition(at + 1, QTextCursor.MoveMode.KeepAnchor)
            tint.cursor = cursor
            selections.append(tint)
        self.setExtraSelections(selections)


class PatternField(FieldWidget):
    """A JS regex with colouring and the V8 compile error shown under it as you type."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.edit = readable(PatternLine())
        self.edit.setPlaceholderText(_placeholder(spec))
        self.error = ElidedLabel()
        policy = self.error.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # the rows below never jump while a pattern is typed
        self.error.setSizePolicy(policy)
        self.error.setStyleSheet(f"color: {tints().error};")
        self.error.hide()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.edit)
        lay.addWidget(self.error)
        self.edit.textChanged.connect(self._changed)
        self._echo = False

    def _changed(self) -> None:
        self.check()
        if not self._echo:
            self.emit_value(self.edit.toPlainText(), True)

    def set_check_flags(self, flags: str) -> None:
        super().set_check_flags(flags)
        self.check()

    def check(self) -> str | None:
        problem = compile_problem(self.edit.toPlainText(), self._flags_for_check)
        self.error.setText(problem.headline() if problem else "")
        self.error.setToolTip(problem.message if problem else "")
        self.error.setIcon(icon("error") if problem else None)
        self.error.setVisible(problem is not None)
        self.edit.mark_error(problem.offset if problem else None)
        return problem.message if problem else None

    def set_value(self, value: Any, present: bool) -> None:
        self.present = present
        text = value if isinstance(value, str) else ""
        if self.edit.toPlainText() != text:
            self._echo = True
            try:
                self.edit.setPlainText(text)
            finally:
                self._echo = False
        self.check()


class FlagsField(FieldWidget):
    """JS flags as toggles; "default" means the key is absent (the engine then uses ``gi``)."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        flow_box = FlowBox()  # the eight flag toggles wrap instead of widening the form
        lay = flow_box.flow
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(flow_box, 1)
        self.default_box = QCheckBox(f"default ({spec.default})")
        self.default_box.setToolTip("Leave 'flags' out of the rule; OmniRoute then compiles with "
                                    f"'{spec.default}'. Note that any explicit value replaces the default entirely.")
        lay.addWidget(self.default_box)
        self.boxes: dict[str, QToolButton] = {}
        for flag in JS_FLAGS:
            box = text_button(flag)
            box.setCheckable(True)
            box.setToolTip(FLAG_HELP[flag])
            lay.addWidget(box)
            self.boxes[flag] = box
            box.toggled.connect(self._changed)
        self.default_box.toggled.connect(self._default_toggled)
        self._echo = False

    def flags(self) -> str:
        return "".join(f for f in JS_FLAGS if self.boxes[f].isChecked())

    def effective(self) -> str:
        return self.spec.default if self.default_box.isChecked() else self.flags()

    def _default_toggled(self, on: bool) -> None:
        for box in self.boxes.values():
            box.setEnabled(not on)
        if self._echo:
            return
        if on:
            self.emit_value(REMOVE)
        else:
            self.emit_value(self.flags())

    def _changed(self) -> None:
        if not self._echo and not self.default_box.isChecked():
            self.emit_value(self.flags())

    def set_value(self, value: Any, present: bool) -> None:
        self.present = present
        self._echo = True
        try:
            self.default_box.setChecked(not present)
            text = value if isinstance(value, str) else (self.spec.default or "")
            for flag, box in self.boxes.items():
                box.setChecked(flag in text)
                box.setEnabled(present)
        finally:
            self._echo = False


class EnumField(FieldWidget):
    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.combo = ElidedComboBox()
        if spec.optional:
            self.combo.addItem(f"(default: {spec.default})" if spec.default else "(not set)", REMOVE)
        for option in spec.options:
            self.combo.addItem(str(option), option)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.combo)
        lay.addStretch(1)
        self.combo.activated.connect(lambda i: self.emit_value(self.combo.itemData(i)))

    def set_value(self, value: Any, present: bool) -> None:
        self.present = present
        with QSignalBlocker(self.combo):
            if not present and self.spec.optional:
                self.combo.setCurrentIndex(0)
                return
            index = self.combo.findData(value)
            if index < 0:  # a value outside the enum: show it so the user sees what is there
                self.combo.addItem(f"{value!r} (invalid)", value)
                index = self.combo.count() - 1
            self.combo.setCurrentIndex(index)


class BoolField(FieldWidget):
    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.box = QCheckBox(spec.help or "")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.box)
        self.box.clicked.connect(lambda on: self.emit_value(bool(on)))

    def set_value(self, value: Any, present: bool) -> None:
        self.present = present
        with QSignalBlocker(self.box):
            self.box.setChecked(bool(value) if present else bool(self.spec.default))


class IntField(FieldWidget):
    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.spin = QSpinBox()
        self.spin.setRange(spec.minimum, spec.maximum)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.spin)
        self.note = ElidedLabel()  # may quote an invalid value of any length
        lay.addWidget(self.note, 1)
        self.spin.valueChanged.connect(lambda v: self.emit_value(int(v), True))

    def set_value(self, value: Any, present: bool) -> None:
        self.present = present
        with QSignalBlocker(self.spin):
            if isinstance(value, int) and not isinstance(value, bool):
                self.spin.setValue(value)
                self.note.setText("")
            elif not present:
                self.spin.setValue(int(self.spec.default or 0))
                self.note.setText("default" if self.spec.default is not None else "not set")
            else:
                self.note.setText(f"{value!r} is not an integer")


class PatternProblems(ElidedLabel):
    """The line under a list or table of patterns that names its first bad row, so a
    problem shows in the form even while the row is selected (its red text is then under the
    selection colour); every bad row is in the tooltip."""

    def __init__(self) -> None:
        super().__init__()
        self.setStyleSheet(f"color: {tints().error};")
        self.hide()

    def show_rows(self, problems: list[tuple[int, str]]) -> None:
        """``problems``: (0-based row, what is wrong), in row order."""
        if not problems:
            self.setText("")
            self.setToolTip("")
            self.setIcon(None)
            self.hide()
            return
        row, first = problems[0]
        more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
        self.setText(f"Row {row + 1}: {first}{more}")
        self.setToolTip("\n".join(f"Row {r + 1}: {text}" for r, text in problems))
        self.setIcon(icon("error"))
        self.show()


def _rows_layout(owner: QWidget, view: QWidget, buttons: QVBoxLayout) -> PatternProblems:
    """A list or table with its buttons beside it and the line naming bad rows under it."""
    problems = PatternProblems()
    outer = QVBoxLayout(owner)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.setSpacing(2)
    row = QHBoxLayout()
    row.addWidget(view, 1)
    row.addLayout(buttons)
    outer.addLayout(row)
    outer.addWidget(problems)
    return problems


def _row_icon_size(view: QWidget) -> QSize:
    side = QFontMetrics(view.font()).height() - 2
    return QSize(side, side)


def _pattern_problem(text: str, flags: str) -> tuple[str, str] | None:
    """(headline, whole message) of a pattern entry that will not run, or None."""
    if not text:
        return "empty", "empty: type a pattern (previews leave this row out until then)"
    problem = compile_problem(text, flags)
    return None if problem is None else (problem.headline(), problem.message)


class ListField(FieldWidget):
    """An editable list of strings (double-click to edit); patterns are compile-checked."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.list = readable(QListWidget())
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed
                                  | QAbstractItemView.EditTrigger.SelectedClicked)
        self.list.setMaximumHeight(120)
        self.list.setIconSize(_row_icon_size(self.list))  # (a bad row's mark: no taller than its text)
        self.list.setAlternatingRowColors(True)
        buttons = QVBoxLayout()
        for text, tip, slot in (("+", "Add an entry", self._add), ("−", "Remove the selected entry", self._remove),
                                ("↑", "Move up", lambda: self._move(-1)), ("↓", "Move down", lambda: self._move(1))):
            b = text_button(text)
            b.setToolTip(tip)
            b.clicked.connect(slot)
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.problems = _rows_layout(self, self.list, buttons)
        self.list.itemChanged.connect(lambda _item: self._emit_all())
        self.list.model().rowsMoved.connect(lambda *_: self._emit_all())
        self._echo = False

    def values(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _emit_all(self) -> None:
        if not self._echo:
            self._mark_errors()
            self.emit_value(self.values())

    def _make_item(self, text: str) -> QListWidgetItem:
        item = QListWidgetItem(text)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsDragEnabled)
        return item

    def _add(self) -> None:
        self._echo = True
        item = self._make_item("")
        self.list.addItem(item)
        self._echo = False
        self.list.setCurrentItem(item)
        self._emit_all()
        self.list.editItem(item)

    def _remove(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self._echo = True
            self.list.takeItem(row)
            self._echo = False
            self._emit_all()

    def _move(self, step: int) -> None:
        row = self.list.currentRow()
        target = row + step
        if row < 0 or not 0 <= target < self.list.count():
            return
        self._echo = True
        item = self.list.takeItem(row)
        self.list.insertItem(target, item)
        self.list.setCurrentRow(target)
        self._echo = False
        self._emit_all()

    def _mark_errors(self) -> None:
        if self.spec.kind != "patterns":
            return
        normal = self.list.palette().text()
        error = QBrush(QColor(tints().error))
        bad = icon("error")
        problems: list[tuple[int, str]] = []
        self._echo, echo = True, self._echo  # colouring an item emits itemChanged
        try:
            for i in range(self.list.count()):
                item = self.list.item(i)
                problem = _pattern_problem(item.text(), self._flags_for_check)
                item.setToolTip(f"⚠ {problem[1]}" if problem else "")
                item.setForeground(error if problem else normal)
                item.setIcon(bad if problem else QIcon())
                if problem:
                    problems.append((i, problem[0]))
        finally:
            self._echo = echo
        self.problems.show_rows(problems)

    def set_value(self, value: Any, present: bool) -> None:
        self.present = present
        items = [v if isinstance(v, str) else repr(v) for v in value] if isinstance(value, list) else []
        if items == self.values():
            return
        self._echo = True
        try:
            row = self.list.currentRow()
            self.list.clear()
            for text in items:
                self.list.addItem(self._make_item(text))
            if 0 <= row < self.list.count():
                self.list.setCurrentRow(row)
        finally:
            self._echo = False
        self._mark_errors()


class _MultiLineDelegate(QStyledItemDelegate):
    """Table cells for test inputs/outputs: multi-line text, Ctrl+Enter or focus-out commits."""

    def __init__(self, multiline_columns: set[int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.columns = multiline_columns

    def createEditor(self, parent, option, index):
        if index.column() in self.columns:
            editor = QPlainTextEdit(parent)
            editor.setTabChangesFocus(True)
            return editor
        return super().createEditor(parent, option, index)

    def setEditorData(self, editor, index):
        if isinstance(editor, QPlainTextEdit):
            editor.setPlainText(index.data(Qt.ItemDataRole.EditRole) or "")
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor, model, index):
        if isinstance(editor, QPlainTextEdit):
            model.setData(index, editor.toPlainText(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)

    def updateEditorGeometry(self, editor, option, index):
        rect = option.rect
        if isinstance(editor, QPlainTextEdit):
            rect.setHeight(max(rect.height(), 90))
        editor.setGeometry(rect)


class TableField(FieldWidget):
    """A list of small objects (replace rules, matchOutput rules, tests, a key/value map)."""

    def __init__(self, spec: FieldSpec, parent: QWidget | None = None) -> None:
        super().__init__(spec, parent)
        self.is_map = spec.kind == "map"
        columns = spec.columns or (("key", "Key", False), ("value", "Value", False))
        self.columns = columns
        self.table = readable(QTableWidget(0, len(columns)))
        self.table.setHorizontalHeaderLabels([c[1] for c in columns])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setMaximumHeight(160)
        self.table.setIconSize(_row_icon_size(self.table))
        multiline = {i for i, c in enumerate(columns) if c[0] in ("input", "expected", "message")}
        self.table.setItemDelegate(_MultiLineDelegate(multiline, self.table))
        buttons = QVBoxLayout()
        for text, tip, slot in (("+", "Add a row", self._add), ("−", "Remove the selected row", self._remove),
                                ("↑", "Move up", lambda: self._move(-1)), ("↓", "Move down", lambda: self._move(1))):
            b = text_button(text)
            b.setToolTip(tip)
            b.clicked.connect(slot)
            buttons.addWidget(b)
            if self.is_map and text in "↑↓":
                b.setToolTip(tip + " (map order is kept in the file; lookups do not depend on it)")
        buttons.addStretch(1)
        self.problems = _rows_layout(self, self.table, buttons)
        self.table.itemChanged.connect(lambda _item: self._emit_all())
        self._echo = False

    def rows(self) -> list[dict[str, str]]:
        out = []
        for r in range(self.table.rowCount()):
            row = {}
            for c, (key, _header, optional) in enumerate(self.columns):
                item = self.table.item(r, c)
                text = item.text() if item is not None else ""
                if optional and text == "":
                    continue
                row[key] = text
            out.append(row)
        return out

    def value(self) -> Any:
        if self.is_map:
            return {row.get("key", ""): row.get("value", "") for row in self.rows()}
        return self.rows()

    def _emit_all(self) -> None:
        if not self._echo:
            self._mark_errors()
            self.emit_value(self.value())

    def _set_row(self, r: int, row: dict) -> None:
        for c, (key, _header, _optional) in enumerate(self.columns):
            raw = row.get(key, "")
            self.table.setItem(r, c, QTableWidgetItem(raw if isinstance(raw, str) else repr(raw)))

    def _add(self) -> None:
        self._echo = True
        r = self.table.rowCount()
        self.table.insertRow(r)
        blank = {c[0]: "" for c in self.columns}
        if self.is_map:
            keys = {row.get("key") for row in self.rows()}
            n, key = 1, "new key"
            while key in keys:
                n += 1
                key = f"new key {n}"
            blank["key"] = key
        self._set_row(r, blank)
        self._echo = False
        self.table.setCurrentCell(r, 0)
        self._emit_all()

    def _remove(self) -> None:
        r = self.table.currentRow()
        if r >= 0:
            self._echo = True
            self.table.removeRow(r)
            self._echo = False
            self._emit_all()

    def _move(self, step: int) -> None:
        r = self.table.currentRow()
        target = r + step
        if r < 0 or not 0 <= target < self.table.rowCount():
            return
        rows = self.rows()
        rows.insert(target, rows.pop(r))
        self._echo = True
        for i, row in enumerate(rows):
            self._set_row(i, row)
        self._echo = False
        self.table.setCurrentCell(target, 0)
        self._emit_all()

    def _mark_errors(self) -> None:
        pattern_cols = [i for i, c in enumerate(self.columns) if c[0] in ("pattern", "unless")]
        normal = self.table.palette().text()
        error = QBrush(QColor(tints().error))
        bad = icon("error")
        problems: list[tuple[int, str]] = []
        self._echo, echo = True, self._echo
        try:
            for r in range(self.table.rowCount()):
                for c in pattern_cols:
                    item = self.table.item(r, c)
                    if item is None:
                        continue
                    problem = _pattern_problem(item.text(), self._flags_for_check) if item.text() else None
                    item.setToolTip(f"⚠ {problem[1]}" if problem else "")
                    item.setForeground(error if problem else normal)
                    item.setIcon(bad if problem else QIcon())
                    if problem:
                        problems.append((r, f"{self.columns[c][1]}: {problem[0]}"))
        finally:
            self._echo = echo
        self.problems.show_rows(problems)

    def set_value(self, value: Any, present: bool) -> None:
        self.present = present
        if self.is_map:
            rows = [{"key": k, "value": v} for k, v in value.items()] if isinstance(value, dict) else []
        else:
            rows = [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []
        normalized = [{c[0]: (row[c[0]] if isinstance(row.get(c[0]), str) else repr(row[c[0]]))
                       for c in self.columns if c[0] in row and not (c[2] and row[c[0]] == "")} for row in rows]
        if normalized == self.rows():
            return
        self._echo = True
        try:
            self.table.setRowCount(len(rows))
            for r, row in enumerate(rows):
                self._set_row(r, row)
        finally:
            self._echo = False
        self._mark_errors()


WIDGETS = {"text": TextField, "multiline": MultiLineField, "pattern": PatternField, "flags": FlagsField,
           "enum": EnumField, "bool": BoolField, "int": IntField, "list": ListField, "patterns": ListField,
           "map": TableField, "table": TableField}


def make_field(spec: FieldSpec) -> FieldWidget:
    widget = WIDGETS[spec.kind](spec)
    widget.setObjectName(spec.pointer)  # names the field in layout reports and accessibility tools
    widget.setAccessibleName(spec.label)
    return widget
