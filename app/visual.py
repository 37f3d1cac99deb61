"""The visual editor: the ordered list of rules (or filters) and a form for the selected one.

Order is semantics (rules apply top to bottom), so the list supports drag-to-reorder, Alt+↑/↓,
duplicate (Ctrl+D), add and delete. The view never edits data itself: every action is a signal
the document tab turns into a splice of the JSON text (one undo step each).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QByteArray,
    QEvent,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QStringListModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QHelpEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListView,
    QScrollArea,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from app.fields import REMOVE, FieldSpec, FieldWidget, FlagsField, Section, make_field
from app.icons import icon
from app.timers import single_shot
from app.undo import UndoKeys
from app.widgets.adaptive import AdaptiveSplitter
from app.widgets.buttons import text_button
from app.widgets.elided import ElidedLabel
from engine.jsontree import resolve_value
from engine.workspace.kinds import FileKind, item_label, item_title
from engine.workspace.templates import FILTER_CATEGORIES, INTENSITIES, RULE_CATEGORIES, RULE_CONTEXTS

CAVEMAN_RULE = [
    Section("Rule", [
        FieldSpec("/name", "Name", "text", optional=False, help="stable rule name (skipRules uses it)"),
        FieldSpec("/pattern", "Pattern", "pattern", optional=False, pattern_flags="@flags",
                  placeholder="a JavaScript regex, e.g. \\bbasically\\s+"),
        FieldSpec("/flags", "Flags", "flags", default="gi"),
        FieldSpec("/replacement", "Replacement", "text",
                  help="JS replacement template ($1, $<name>, $&); with replacementMap: inserted verbatim on a miss (CAV-Q5)"),
        FieldSpec("/replacementMap", "Replacement map", "map",
                  help="keys are matched after trim, whitespace collapsing and lower-casing"),
        FieldSpec("/context", "Context", "enum", default="all", options=RULE_CONTEXTS),
        FieldSpec("/category", "Category", "enum", default="filler", options=RULE_CATEGORIES),
        FieldSpec("/minIntensity", "Min. intensity", "enum", default="lite", options=INTENSITIES),
        FieldSpec("/description", "Description", "multiline",
                  placeholder="Describe what this rule removes and why it is safe."),
    ]),
]

_REPLACE_COLUMNS = (("pattern", "Pattern", False), ("replacement", "Replacement", False))
_MATCH_OUTPUT_COLUMNS = (("pattern", "Pattern", False), ("message", "Message", False), ("unless", "Unless", True))
_TEST_COLUMNS = (("name", "Name", False), ("command", "Command", True), ("input", "Input", False),
                 ("expected", "Expected", False))

RTK_FILTER = [
    Section("Filter", [
        FieldSpec("/id", "Id", "text", optional=False),
        FieldSpec("/label", "Label", "text", optional=False),
        FieldSpec("/description", "Description", "multiline", default=""),
        FieldSpec("/category", "Category", "enum", optional=False, options=FILTER_CATEGORIES),
        FieldSpec("/priority", "Priority", "int", default=50, maximum=100),
    ]),
    Section("Match", [
        FieldSpec("/match/commands", "Commands", "patterns", default=[]),
        FieldSpec("/match/patterns", "Output patterns", "patterns", default=[]),
        FieldSpec("/match/outputTypes", "Output types", "list", default=[]),
    ]),
    Section("Rules (applied in this order)", [
        FieldSpec("/rules/stripAnsi", "Strip ANSI", "bool", default=False, help="remove ANSI escapes first"),
        FieldSpec("/rules/filterStderr", "Filter stderr", "bool", default=False, help="normalise stderr prefixes"),
        FieldSpec("/rules/replace", "Replace", "table", default=[], columns=_REPLACE_COLUMNS),
        FieldSpec("/rules/matchOutput", "Match output", "table", default=[], columns=_MATCH_OUTPUT_COLUMNS),
        FieldSpec("/rules/dropPatterns", "Drop lines", "patterns", default=[]),
        FieldSpec("/rules/includePatterns", "Keep lines", "patterns", default=[]),
        FieldSpec("/rules/collapsePatterns", "Collapse", "patterns", default=[]),
        FieldSpec("/rules/deduplicate", "Deduplicate", "bool", default=False, help="collapse duplicate lines"),
        FieldSpec("/rules/truncateLineAt", "Truncate lines at", "int", default=0),
        FieldSpec("/rules/headLines", "Head lines", "int", default=20),
        FieldSpec("/rules/tailLines", "Tail lines", "int", default=20),
        FieldSpec("/rules/maxLines", "Max lines", "int", default=0),
        FieldSpec("/rules/onEmpty", "On empty", "text", default=""),
    ]),
    Section("Preserve", [
        FieldSpec("/preserve/errorPatterns", "Error lines", "patterns", default=[]),
        FieldSpec("/preserve/summaryPatterns", "Summary lines", "patterns", default=[]),
    ]),
    Section("Tests", [FieldSpec("/tests", "Tests", "table", default=[], columns=_TEST_COLUMNS)]),
]

RTK_LEGACY_FILTER = [
    Section("Filter (legacy shape)", [
        FieldSpec("/id", "Id", "text", optional=False),
        FieldSpec("/name", "Name", "text", optional=False),
        FieldSpec("/description", "Description", "multiline", default=""),
        FieldSpec("/commandTypes", "Command types", "list", optional=False),
        FieldSpec("/category", "Category", "enum", optional=False, options=FILTER_CATEGORIES),
        FieldSpec("/priority", "Priority", "int", default=50, maximum=100),
    ]),
    Section("Rules", [
        FieldSpec("/stripAnsi", "Strip ANSI", "bool", default=False),
        FieldSpec("/filterStderr", "Filter stderr", "bool", default=False),
        FieldSpec("/replace", "Replace", "table", default=[], columns=_REPLACE_COLUMNS),
        FieldSpec("/matchOutput", "Match output", "table", default=[], columns=_MATCH_OUTPUT_COLUMNS),
        FieldSpec("/stripPatterns", "Strip lines", "patterns", default=[]),
        FieldSpec("/keepPatterns", "Keep lines", "patterns", default=[]),
        FieldSpec("/priorityPatterns", "Priority lines", "patterns", default=[]),
        FieldSpec("/collapsePatterns", "Collapse", "patterns", default=[],
                  help="non-empty also turns on deduplication"),
        FieldSpec("/truncateLineAt", "Truncate lines at", "int", default=0),
        FieldSpec("/preserveHead", "Head lines", "int", default=20),
        FieldSpec("/preserveTail", "Tail lines", "int", default=20),
        FieldSpec("/maxLines", "Max lines", "int", default=0),
        FieldSpec("/onEmpty", "On empty", "text", default=""),
    ]),
    Section("Tests", [FieldSpec("/tests", "Tests", "table", default=[], columns=_TEST_COLUMNS)]),
]

PACK_HEADER = [FieldSpec("/language", "Language", "text", optional=False),
               FieldSpec("/category", "Category", "text", optional=False,
                         help="pack category (file name); rules carry their own category")]


def sections_for(kind: FileKind, item: Any) -> list[Section]:
    if kind == FileKind.CAVEMAN_PACK:
        return CAVEMAN_RULE
    if isinstance(item, dict) and "commandTypes" in item and "match" not in item:
        return RTK_LEGACY_FILTER
    return RTK_FILTER


LIST_CHARS = 30  # the rule list's share when beside the form, in average characters
LIST_BESIDE_FORM_CHARS = 90


def _responsive(form: QFormLayout) -> None:
    """Labels beside their fields while both fit, above them when the form is narrow."""
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)


class ItemListModel(QStringListModel):
    """Titles of the items; drag and drop asks for a move instead of moving rows itself.

    The display strings live in the C++ ``QStringListModel``: the view asks for ``rowCount`` and
    ``data`` thousands of times per layout or scroll, and answering those in Python (each call
    taking the GIL, which a worker thread may hold) stalled the GUI thread on a 2,200-item file.
    Tooltips are answered by :class:`_ItemTips` on hover instead of through ``data``.
    """

    moveRequested = Signal(int, int)
    MIME = "application/x-rulewright-item-row"

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.titles: list[str] = []
        self.tips: list[str] = []

    def set_titles(self, titles: list[str], tips: list[str] | None = None) -> None:
        self.titles = list(titles)
        self.tips = list(tips) if tips else [""] * len(titles)
        self.setStringList([f"{row + 1}. {title}" for row, title in enumerate(self.titles)])  # one reset

    def set_title(self, row: int, title: str, tip: str = "") -> None:
        if 0 <= row < len(self.titles) and (self.titles[row], self.tips[row]) != (title, tip):
            self.titles[row], self.tips[row] = title, tip
            self.setData(self.index(row), f"{row + 1}. {title}")  # dataChanged for this row only

    def tip(self, row: int) -> str | None:
        return (self.tips[row] or None) if 0 <= row < len(self.tips) else None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled  # drops between rows land on the root
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        return [self.MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        mime = QMimeData()
        if indexes:
            mime.setData(self.MIME, QByteArray(str(indexes[0].row()).encode()))
        return mime

    def dropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int,
                     parent: QModelIndex | QPersistentModelIndex) -> bool:
        if action != Qt.DropAction.MoveAction or not data.hasFormat(self.MIME):
            return False
        src = int(bytes(data.data(self.MIME).data()).decode())
        if row < 0:
            row = parent.row() if parent.isValid() else len(self.titles)
        dst = row - 1 if row > src else row
        dst = max(0, min(dst, len(self.titles) - 1))
        if dst != src:
            self.moveRequested.emit(src, dst)
        return False  # the document change refreshes the list; Qt must not remove the source row


class _ItemTips(QObject):
    """Shows an item's description as its tooltip (hover only; see :class:`ItemListModel`)."""

    def __init__(self, view: QListView, model: ItemListModel) -> None:
        super().__init__(view)
        self.view, self.model = view, model

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ToolTip or not isinstance(event, QHelpEvent):
            return False
        tip = self.model.tip(self.view.indexAt(event.pos()).row())
        if tip:
            QToolTip.showText(event.globalPos(), tip, self.view)
        else:
            QToolTip.hideText()
            event.ignore()
        return True


class ItemForm(QScrollArea):
    """Fields for one item, rebuilt only when the item's shape (rule/filter/legacy) changes."""

    edited = Signal(str, object, bool)  # relative pointer, value (or REMOVE), mergeable

    def __init__(self, parent: QWidget | None = None, undo_keys: UndoKeys | None = None) -> None:
        super().__init__(parent)
        self.undo_keys = undo_keys
        self.setWidgetResizable(True)
        self.fields: dict[str, FieldWidget] = {}
        self._sections: list[Section] | None = None
        self._empty = QLabel("Select a rule in the list, or add one with +.")
        self._empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._empty.setWordWrap(True)
        self.setWidget(self._empty)

    def show_empty(self, message: str) -> None:
        self._sections = None
        self.fields = {}
        self._empty = QLabel(message)
        self._empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._empty.setWordWrap(True)
        self.setWidget(self._empty)

    def show_item(self, sections: list[Section], item: Any) -> None:
        if sections is not self._sections:
            self._build(sections)
        self.update_item(item)

    def _build(self, sections: list[Section]) -> None:
        self._sections = sections
        self.fields = {}
        body = QWidget()
        outer = QVBoxLayout(body)
        for section in sections:
            box = QGroupBox(section.title)
            form = QFormLayout(box)
            _responsive(form)
            for spec in section.fields:
                widget = make_field(spec)
                label = QLabel(spec.label + ("" if spec.optional else " *"))
                tip = spec.help or ("required" if not spec.optional else "optional")
                label.setToolTip(f"{spec.pointer[1:]}: {tip}")
                widget.setToolTip(spec.help)
                row = QHBoxLayout()
                row.addWidget(widget, 1)
                if spec.optional and spec.kind not in ("flags", "enum"):
                    reset = QToolButton()
                    reset.setIcon(icon("clear"))
                    reset.setToolTip(f"Remove '{spec.pointer[1:]}' from the item (use the default)")
                    reset.setAutoRaise(True)
                    reset.clicked.connect(lambda _=False, p=spec.pointer, w=widget: self._remove(p, w))
                    row.addWidget(reset)
                form.addRow(label, row)
                if self.undo_keys is not None:
                    self.undo_keys.watch(widget)
                widget.edited.connect(lambda value, merge, p=spec.pointer: self._on_edit(p, value, merge))
                self.fields[spec.pointer] = widget
            outer.addWidget(box)
        outer.addStretch(1)
        self.setWidget(body)

    def _remove(self, pointer: str, widget: FieldWidget) -> None:
        if widget.present:
            self.edited.emit(pointer, REMOVE, False)

    def _on_edit(self, pointer: str, value: Any, merge: bool) -> None:
        self.edited.emit(pointer, value, merge)
        if pointer == "/flags":
            self._update_check_flags()

    def update_item(self, item: Any) -> None:
        for pointer, widget in self.fields.items():
            found, value = resolve_value(item, pointer)
            widget.set_value(value, found)
        self._update_check_flags()

    def _update_check_flags(self) -> None:
        flags_widget = self.fields.get("/flags")
        flags = flags_widget.effective() if isinstance(flags_widget, FlagsField) else ""
        for widget in self.fields.values():
            if widget.spec.pattern_flags == "@flags":
                widget.set_check_flags(flags)
            elif widget.spec.kind in ("pattern", "patterns", "table"):
                widget.set_check_flags("")


class VisualEditor(QWidget):
    addRequested = Signal(int)  # insert position
    duplicateRequested = Signal(int)
    deleteRequested = Signal(int)
    moveRequested = Signal(int, int)
    fieldEdited = Signal(int, str, object, bool)  # item, relative pointer, value, mergeable
    headerEdited = Signal(str, object)
    currentChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = FileKind.JSON
        self.values: list[Any] = []
        self._first_pick: int | None = None  # row to select once the first list has been drawn
        # (a timer event, so other timers get their turn first)
        self._first_pick_timer = single_shot(self, 0, self._pick_first)
        # id(value) -> (value, label, tip) of items that have their own label: a structural edit of
        # a 2,200-item file re-lists every item, but only the edited ones need their title rebuilt
        self._labels: dict[int, tuple[Any, str, str]] = {}
        self.single = False
        self.undo_keys = UndoKeys(self)  # Ctrl+Z in a field undoes the document (DocumentTab connects it)
        self.header = QGroupBox("Pack")
        header_form = QFormLayout(self.header)
        _responsive(header_form)
        self.header_fields: dict[str, FieldWidget] = {}
        for spec in PACK_HEADER:
            widget = make_field(spec)
            widget.setToolTip(spec.help)
            widget.edited.connect(lambda value, _m, p=spec.pointer: self.headerEdited.emit(p, value))
            header_form.addRow(spec.label, widget)
            self.undo_keys.watch(widget)
            self.header_fields[spec.pointer] = widget

        self.model = ItemListModel(self)
        self.model.moveRequested.connect(self.moveRequested)
        self.list = QListView()
        self.list.setModel(self.model)
        self.list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.list.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.list.setDragEnabled(True)
        self.list.setAcceptDrops(True)
        self.list.setDropIndicatorShown(True)
        self.list.setUniformItemSizes(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.selectionModel().currentChanged.connect(lambda cur, _prev: self._current_changed(cur.row()))
        self._tips = _ItemTips(self.list, self.model)
        self.list.viewport().installEventFilter(self._tips)

        self.buttons: dict[str, QToolButton] = {}
        bar = QHBoxLayout()
        for key, text, tip in (("add", "+", "Add a rule after the selected one"),
                               ("duplicate", "Dup", "Duplicate (Ctrl+D)"),
                               ("delete", "−", "Delete (Del)"),
                               ("up", "↑", "Move up (Alt+↑) — order is semantics"),
                               ("down", "↓", "Move down (Alt+↓)")):
            b = text_button(text)
            b.setToolTip(tip)
            bar.addWidget(b)
            self.buttons[key] = b
        bar.addStretch(1)
        self.count_label = ElidedLabel(min_chars=3)  # under the list: the buttons keep the bar's width
        self.buttons["add"].clicked.connect(lambda: self.addRequested.emit(self.current() + 1))
        self.buttons["duplicate"].clicked.connect(self._duplicate)
        self.buttons["delete"].clicked.connect(self._delete)
        self.buttons["up"].clicked.connect(lambda: self._move(-1))
        self.buttons["down"].clicked.connect(lambda: self._move(1))
        for keys, slot in (("Ctrl+D", self._duplicate), ("Alt+Up", lambda: self._move(-1)),
                           ("Alt+Down", lambda: self._move(1)), ("Delete", self._delete)):
            shortcut = QShortcut(QKeySequence(keys), self.list)
            shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(slot)

        left = QWidget()
        left_lay = QVBoxLayout(left)
        left_lay.setContentsMargins(0, 0, 0, 0)
        left_lay.addLayout(bar)
        left_lay.addWidget(self.list, 1)
        left_lay.addWidget(self.count_label)

        self.form = ItemForm(undo_keys=self.undo_keys)
        self.form.edited.connect(lambda p, v, m: self.fieldEdited.emit(self.current(), p, v, m))
        # list and form side by side from ~90 characters of width (a 30-character list beside a
        # form with room for its labels and fields), else the list above the form
        self.splitter = AdaptiveSplitter(LIST_BESIDE_FORM_CHARS)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.form)
        self.splitter.setStretchFactor(0, 0)  # the form gets what the window gains
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.list.setMinimumWidth(self.fontMetrics().averageCharWidth() * 12)
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.hide()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.notice)
        lay.addWidget(self.header)
        lay.addWidget(self.splitter, 1)
        self._apply_list_width()
        self.splitter.splitterMoved.connect(lambda _pos, _index: self._remember_list_width())

    # the rule list's width beside the form, as the user last dragged it (kept with the window's
    # layout, ``MainWindow.save_window_state``); one per user, shared by every open file
    remembered_list_width: int | None = None

    def reset_layout(self) -> None:
        """The list/form split as on opening (View ▸ Reset Layout forgets the dragged width)."""
        VisualEditor.remembered_list_width = None
        self._apply_list_width()

    def _apply_list_width(self) -> None:
        if self.splitter.orientation() != Qt.Orientation.Horizontal:
            return
        width = VisualEditor.remembered_list_width or self.fontMetrics().averageCharWidth() * LIST_CHARS
        self.splitter.setSizes([width, max(self.splitter.width() - width, 1)])

    def _remember_list_width(self) -> None:
        if self.splitter.orientation() == Qt.Orientation.Horizontal:
            VisualEditor.remembered_list_width = self.splitter.sizes()[0]

    # -- state from the document --------------------------------------------------------------------
    def set_notice(self, text: str) -> None:
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def set_header(self, value: Any) -> None:
        self.header.setVisible(self.kind == FileKind.CAVEMAN_PACK)
        if self.kind == FileKind.CAVEMAN_PACK and isinstance(value, dict):
            for pointer, widget in self.header_fields.items():
                found, v = resolve_value(value, pointer)
                widget.set_value(v, found)

    def set_items(self, kind: FileKind, values: list[Any], single: bool) -> None:
        """Whole list (after load, structural edits or a full re-parse)."""
        if kind != self.kind:
            self._labels.clear()
        self.kind, self.values, self.single = kind, list(values), single
        current = self.current()
        known, self._labels = self._labels, {}
        titles, tips = [], []
        for row, value in enumerate(values):
            entry = known.get(id(value))
            if entry is None or entry[0] is not value:
                label = item_label(kind, value)
                entry = (value, label, self._tip(value)) if label is not None else None
            if entry is not None:
                self._labels[id(value)] = entry
                titles.append(entry[1])
                tips.append(entry[2])
            else:
                titles.append(item_title(kind, value, row))
                tips.append(self._tip(value))
        self.model.set_titles(titles, tips)
        noun = "rule" if kind == FileKind.CAVEMAN_PACK else "filter"
        self.count_label.setText(f"{len(values)} {noun}{'s' if len(values) != 1 else ''}")
        for key in ("add", "duplicate", "delete", "up", "down"):
            self.buttons[key].setEnabled(not single)
        if single:
            self.buttons["add"].setToolTip("This file holds one filter object; edit the JSON to make it an array")
        self.buttons["add"].setToolTip("Add a rule after the selected one" if kind == FileKind.CAVEMAN_PACK
                                       else "Add a filter after the selected one")
        if not values:
            self.form.show_empty("No items yet. Press + to add one." if not single else "")
            return
        row = min(max(current, 0), len(values) - 1)
        if current < 0:
            # first fill (a file just read): the list of thousands of titles draws in this event,
            # the form in the next one; together they were the longest GUI step of opening a file
            self._first_pick = row
            self._first_pick_timer.start()
        elif row == self.current():
            self._show_form(row)  # same row: Qt emits no currentChanged, refresh the form here
        else:
            self.select(row)  # currentChanged shows the form

    @property
    def settling(self) -> bool:
        """The first item's form is still to be shown (the event after the first fill)."""
        return self._first_pick is not None

    def _pick_first(self) -> None:
        row, self._first_pick = self._first_pick, None
        if row is not None and self.current() < 0 and 0 <= row < len(self.values):
            self.select(row)

    def update_item(self, index: int, value: Any) -> None:
        """One item changed (typing in the form or in the JSON inside that item)."""
        if not 0 <= index < len(self.values):
            return
        self.values[index] = value
        self.model.set_title(index, item_title(self.kind, value, index), self._tip(value))
        if index == self.current():
            self.form.show_item(sections_for(self.kind, value), value)

    def _tip(self, value: Any) -> str:
        if isinstance(value, dict):
            desc = value.get("description")
            return desc if isinstance(desc, str) else ""
        return ""

    def current(self) -> int:
        index = self.list.currentIndex()
        return index.row() if index.isValid() else -1

    def select(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            self.list.setCurrentIndex(self.model.index(row))

    def _current_changed(self, row: int) -> None:
        self._show_form(row)
        self.currentChanged.emit(row)

    def _show_form(self, row: int) -> None:
        if 0 <= row < len(self.values):
            self.form.show_item(sections_for(self.kind, self.values[row]), self.values[row])

    # -- actions ----------------------------------------------------------------------------------------
    def _duplicate(self) -> None:
        if self.current() >= 0 and not self.single:
            self.duplicateRequested.emit(self.current())

    def _delete(self) -> None:
        if self.current() >= 0 and not self.single:
            self.deleteRequested.emit(self.current())

    def _move(self, step: int) -> None:
        row = self.current()
        if row >= 0 and 0 <= row + step < len(self.values) and not self.single:
            self.moveRequested.emit(row, row + step)
