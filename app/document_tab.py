"""One open file: the visual and JSON views over one document, one undo stack, safe saving.

Data flow: every change — a keystroke in the JSON view, a form field, a list action, undo/redo,
a reload from disk — is a splice applied through :meth:`DocumentTab.apply_splice`, which updates
the document, the item index, the *other* view, and schedules the workers (full parse,
validation) and the recovery journal. The GUI thread only ever handles the edited range.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QTextCursor, QUndoCommand, QUndoStack
from PySide6.QtWidgets import QLabel, QMessageBox, QTabWidget, QVBoxLayout, QWidget

from app.conflict import ConflictBar, DiffDialog
from app.fields import REMOVE
from app.jsonview import FindBar, JsonEditor, Mark
from app.timers import single_shot
from app.undo import MERGE_WINDOW_S, SpliceCommand, SplicesCommand
from app.visual import VisualEditor
from app.workers import Dispatcher
from engine import jsonedit, jsontree
from engine.diagnostics import Diagnostic
from engine.jsonedit import Splice, Style
from engine.workspace.document import DiskState, Document, merged_splices, minimal_splice
from engine.workspace.items import LIST_CHANGED, ItemIndex
from engine.workspace.journal import RecoveryJournal
from engine.workspace.kinds import FileKind
from engine.workspace.templates import new_filter, new_rule, unique_name
from engine.workspace.validation import TrustInfo, trust_of, validate_version

JOURNAL_MAX_WAIT_MS = 2000  # the most an unsaved edit waits for the journal while typing goes on


def _structure(version: int, kind: FileKind, text: str) -> tuple[int, jsontree.ParseResult, ItemIndex | None]:
    """Worker job: the list's spans and values, read with the C decoder (no span tree)."""
    index, parsed = ItemIndex.scan(kind, text)
    return version, parsed, index


def _combined(changes: list[int | None]) -> int | None:
    """What several splices changed together: one item, nothing, or the list (``LIST_CHANGED``)."""
    touched = {c for c in changes if c is not None}
    if not touched:
        return None
    return touched.pop() if len(touched) == 1 else LIST_CHANGED



def _texts(values: Iterable[object]) -> set[str]:
    """The strings among ``values`` (names or ids taken in a list; other values cannot clash)."""
    return {v for v in values if isinstance(v, str)}

class _SpliceCommand(SpliceCommand):
    """A :class:`SpliceCommand` whose merge rebuilds only the edited window, not the whole text."""

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SpliceCommand) or other._merge_key != self._merge_key or self._merge_key is None:
            return False
        if other._stamp - self._stamp > MERGE_WINDOW_S:
            return False
        self.forward, self.inverse = merged_splices(self.forward, self.inverse, other.forward, other.inverse,
                                                    self.target.text)
        self._stamp = other._stamp
        if not self.forward.insert and self.forward.start == self.forward.end:
            self.setObsolete(True)  # typed and deleted again: nothing left to undo
        return True


class DocumentTab(QWidget):
    dirtyChanged = Signal(bool)
    diagnosticsChanged = Signal()
    statusChanged = Signal()
    edited = Signal()
    journalProblem = Signal(str)  # a journal write failed ("" once one succeeds again)

    def __init__(self, document: Document, *, journal: RecoveryJournal | None = None,
                 workspace: Path | None = None, profile: str = "omniroute",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = document
        self.journal = journal
        self.workspace = workspace
        self.profile = profile
        self.style_ = Style.detect(document.text)
        self.index: ItemIndex | None = None
        self.structure_version = -1  # document version the last structure scan was for
        self.diagnostics: list[Diagnostic] = []
        self.diagnostics_version = -1  # document version the diagnostics were computed for
        self.trust: TrustInfo | None = None
        self._programmatic = False
        self._ignore_disk_until = 0.0

        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

        lexer = "toml" if document.kind == FileKind.RTK_TOML else "json"
        self.editor = JsonEditor(lexer=lexer)
        self.editor.undoRequested.connect(self.undo_stack.undo)
        self.editor.redoRequested.connect(self.undo_stack.redo)
        self.editor.document().contentsChange.connect(self._on_editor_change)
        self.editor.loaded.connect(self._on_loaded)
        self.find_bar = FindBar(self.editor)
        self.find_bar.hide()
        json_page = QWidget()
        json_lay = QVBoxLayout(json_page)
        json_lay.setContentsMargins(0, 0, 0, 0)
        json_lay.setSpacing(0)
        json_lay.addWidget(self.editor, 1)
        json_lay.addWidget(self.find_bar)

        self.visual: VisualEditor | None = None
        self.views = QTabWidget()
        self.views.setDocumentMode(True)
        self.views.setTabPosition(QTabWidget.TabPosition.South)
        self.json_page = json_page
        self._loading_label = QLabel("Loading…")
        if document.kind.has_items:
            self._make_visual()
        self.views.addTab(json_page, "TOML" if lexer == "toml" else "JSON")
        self.views.currentChanged.connect(self._on_view_switched)

        self.conflict_bar = ConflictBar()
        self.conflict_bar.reloadRequested.connect(self.reload_from_disk)
        self.conflict_bar.keepRequested.connect(self.keep_mine)
        self.conflict_bar.compareRequested.connect(self.compare_with_disk)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.conflict_bar)
        lay.addWidget(self.views, 1)

        self._parser = Dispatcher(self, debounce_ms=200)
        self._parser.finished.connect(self._on_parsed)
        self._validator = Dispatcher(self, debounce_ms=250, process=True)
        self._validator.finished.connect(self._on_validated)
        self._journal_timer = single_shot(self, 800, self.write_journal)
        # the debounce restarts on every edit; this one does not: while typing goes on, the
        # journal is still written at most JOURNAL_MAX_WAIT_MS after the first unjournaled edit
        self._journal_deadline = single_shot(self, JOURNAL_MAX_WAIT_MS, self.write_journal)
        # journal writes (fsync of a possibly big buffer) run off the GUI thread, in request order
        self._journaler = Dispatcher(self)
        self._journaler.failed.connect(self._on_journal_failed)
        self._journaler.finished.connect(self._on_journal_written)
        self.journal_error: str | None = None
        self._truster = Dispatcher(self)
        self._truster.finished.connect(self._on_trust)

        self.editor.load_text(document.text)

    def is_settled(self) -> bool:
        """Loaded, and the structure scan and validation are current (docs mode and tests wait on it)."""
        # running, not busy: a validation still in its debounce does not hold the tab unsettled
        return (not self.editor.loading and not self._parser.running and not self._validator.running
                and (self.visual is None or not self.visual.settling)
                and (self.structure_version == self.doc.version or self.doc.kind == FileKind.RTK_TOML))

    @Slot(bool)
    def _on_clean_changed(self, clean: bool) -> None:
        self.dirtyChanged.emit(not clean)
        self._schedule_journal()
        self.refresh_trust()

    # -- construction helpers -----------------------------------------------------------------------
    def _make_visual(self) -> None:
        visual = VisualEditor()
        visual.fieldEdited.connect(self.edit_field)
        visual.headerEdited.connect(self.edit_header)
        visual.addRequested.connect(self.add_item)
        visual.duplicateRequested.connect(self.duplicate_item)
        visual.deleteRequested.connect(self.delete_item)
        visual.moveRequested.connect(self.move_item)
        visual.undo_keys.undo.connect(self.undo_stack.undo)
        visual.undo_keys.redo.connect(self.undo_stack.redo)
        visual.set_notice("Reading the file…")
        self.visual = visual
        self.views.insertTab(0, visual, "Visual")

    def focus_view(self) -> None:
        """Keyboard focus in the view shown: the visual editor's rule list (Ctrl+D, Alt+↑/↓ and
        Delete act on it) or the text editor."""
        if self.visual is not None and self.views.currentWidget() is self.visual:
            self.visual.list.setFocus()
        else:
            self.editor.setFocus()

    @property
    def path(self) -> Path | None:
        return self.doc.path

    @property
    def text(self) -> str:
        return self.doc.text

    def is_dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def title(self) -> str:
        return self.doc.display_name + (" ●" if self.is_dirty() else "")

    @Slot()
    def _on_loaded(self) -> None:
        self.request_parse(immediate=True)
        self.request_validation(immediate=True)
        self.refresh_trust()

    # -- the one place where text changes ---------------------------------------------------------
    def apply_splice(self, splice: Splice, origin: str) -> Splice:
        """Apply ``splice`` to the document and every view except ``origin``; return the inverse."""
        inverse, changed = self._apply_to_text(splice, origin)
        self._after_change(changed)
        return inverse

    def apply_splices(self, splices: list[Splice], origin: str) -> list[Splice]:
        """Apply several splices as one edit (a move: delete + insert); return their inverses.

        The views and workers hear about the edit once: refreshing the item list after each
        splice rebuilt the titles of a 2,200-item file twice per move.
        """
        inverses, changes = [], []
        for splice in splices:
            inverse, changed = self._apply_to_text(splice, origin)
            inverses.append(inverse)
            changes.append(changed)
        if splices:
            self._after_change(_combined(changes))
        return inverses

    def _apply_to_text(self, splice: Splice, origin: str) -> tuple[Splice, int | None]:
        """The document, the JSON view (unless it made the edit) and the item index; no view refresh."""
        old = self.doc.text
        if origin != "editor":
            s16 = self.doc.cp_to_utf16(splice.start)
            e16 = s16 + jsontree.utf16_len(old[splice.start : splice.end])
        inverse = self.doc.apply(splice)
        if origin != "editor":
            self._programmatic = True
            try:
                self.editor.replace_range(s16, e16, splice.insert)
            finally:
                self._programmatic = False
        changed = None
        if self.index is not None:
            changed = self.index.apply(splice, self.doc.text, inverse.insert)
        return inverse, changed

    def _push(self, splice: Splice, label: str, merge_key: tuple | None = None, origin: str = "form") -> None:
        if splice.start == splice.end and not splice.insert:
            return
        inverse = self.apply_splice(splice, origin)
        self.undo_stack.push(_SpliceCommand(self, splice, inverse, label, merge_key, already_applied=True))

    @Slot(int, int, int)
    def _on_editor_change(self, pos: int, removed: int, added: int) -> None:
        if self._programmatic or self.editor.highlighter.applying or self.editor.loading:
            return
        old = self.doc.text
        start = self.doc.utf16_to_cp(pos)
        end = self.doc.utf16_to_cp(pos + removed)
        cursor = QTextCursor(self.editor.document())
        last = self.editor.document().characterCount() - 1
        cursor.setPosition(min(pos, last))
        cursor.setPosition(min(pos + added, last), QTextCursor.MoveMode.KeepAnchor)
        inserted = cursor.selectedText().replace("\u2029", "\n")
        if old[start:end] == inserted:
            return  # formatting only
        splice = Splice(start, end, inserted)
        old16 = self.doc.utf16_len()
        expected16 = old16 - removed + added
        if pos + removed > old16 or last != expected16:
            # Qt reported a range we cannot map exactly (rare): fall back to a full comparison
            splice = minimal_splice(old, self.editor.toPlainText())
        inverse = self.apply_splice(splice, "editor")
        self.undo_stack.push(_SpliceCommand(self, splice, inverse, "Typing", ("json", id(self)), already_applied=True))

    def _after_change(self, changed: int | None) -> None:
        """Refresh the visual editor (``changed``: the edited item, ``LIST_CHANGED`` or None) and
        schedule the workers, the journal and the listeners after an edit."""
        if self.visual is not None and self.index is not None and not self.index.stale:
            if changed == LIST_CHANGED:
                self.visual.set_items(self.index.kind, self.index.values, self.index.single)
            elif changed is not None:
                self.visual.update_item(changed, self.index.values[changed])
            if changed is None or changed == LIST_CHANGED:
                self._refresh_header()  # the edit may be outside the list: the pack's own fields
            self.visual.set_notice("")
        elif self.visual is not None and self.index is not None and self.index.stale:
            self.visual.set_notice("The JSON is being edited in a way the list cannot follow yet; "
                                   "it refreshes when the text is valid again.")
        if self.index is None or self.index.stale:
            self.request_parse()  # the incremental index could not follow: re-read the structure
        else:
            self.structure_version = self.doc.version
        self.request_validation()
        self._schedule_journal()
        self.edited.emit()
        self.statusChanged.emit()

    def _refresh_header(self) -> None:
        """Re-read the pack's top-level fields into the visual header (C-speed parse, no span tree)."""
        if self.visual is None or self.doc.kind != FileKind.CAVEMAN_PACK:
            return
        parsed = jsontree.shallow_parse(self.doc.text)
        if parsed.ok:
            self.visual.set_header(parsed.value)
        else:
            self.request_parse()

    # -- workers ------------------------------------------------------------------------------------------
    def request_parse(self, immediate: bool = False) -> None:
        if self.doc.kind == FileKind.RTK_TOML:
            return
        self._parser.request(_structure, self.doc.version, self.doc.kind, self.doc.text, immediate=immediate)

    def request_validation(self, immediate: bool = False) -> None:
        path = str(self.doc.path or Path("untitled.json"))
        self._validator.request(validate_version, self.doc.version, path, self.doc.text, self.profile,
                                immediate=immediate)

    @Slot(int, object)
    def _on_parsed(self, _job: int, result: tuple[int, jsontree.ParseResult, ItemIndex | None]) -> None:
        version, parsed, fresh = result
        if version != self.doc.version:
            return  # stale: a newer request is queued
        self.structure_version = version
        old_kind = self.doc.kind
        kind = self.doc.refresh_kind(parsed)
        if kind != old_kind and kind.has_items:
            fresh, parsed = ItemIndex.scan(kind, self.doc.text)
        if kind.has_items and self.visual is None:
            self._make_visual()
        if self.visual is None:
            return
        if not parsed.ok:
            if (self.index is None or self.index.stale) and parsed.error is not None:  # not ok: has an error
                line, col = jsontree.position_of(self.doc.text, parsed.error.offset)
                self.visual.set_notice(f"The JSON has a syntax error at {line}:{col} ({parsed.error.message}); "
                                       "fix it in the JSON view — the list shows the last valid state.")
            return
        if fresh is None:
            self.index = None
            self.visual.set_notice(f"This {kind.label} does not have the expected shape; edit it in the JSON view.")
            self.visual.set_items(kind, [], True)
            return
        rebuild = self.index is None or self.index.stale or kind != old_kind
        if rebuild or (self.index is not None
                       and (fresh.values != self.index.values or fresh.spans != self.index.spans)):
            self.index = fresh
            self.visual.set_items(kind, fresh.values, fresh.single)
        self.visual.set_header(parsed.value)
        self.visual.set_notice("")
        self.statusChanged.emit()

    @Slot(int, object)
    def _on_validated(self, _job: int, result: tuple[int, list[Diagnostic]]) -> None:
        version, diagnostics = result
        self.diagnostics = diagnostics
        self.diagnostics_version = version
        self._show_marks()
        self.diagnosticsChanged.emit()
        self.statusChanged.emit()

    def _show_marks(self) -> None:
        qdoc = self.editor.document()
        marks = []
        for d in self.diagnostics:
            if d.line is None:
                continue
            block = qdoc.findBlockByNumber(d.line - 1)
            if not block.isValid():
                continue
            start = block.position() + max(0, min((d.column or 1) - 1, block.length() - 1))
            end = start + 1
            if d.end_line is not None:
                end_block = qdoc.findBlockByNumber(d.end_line - 1)
                if end_block.isValid():
                    end = end_block.position() + max(0, min((d.end_column or 1) - 1, end_block.length() - 1))
            code = f" [{d.code}]" if d.code else ""
            marks.append(Mark(start, max(end, start + 1), d.level, f"{d.level}: {d.message}{code}"))
        self.editor.set_marks(marks)

    # -- visual editor actions ------------------------------------------------------------------------
    def _ensure_index(self) -> ItemIndex | None:
        """An index for the current text: reuse, or parse now (only after the text became invalid)."""
        if self.index is not None and not self.index.stale:
            return self.index
        self.index, _parsed = ItemIndex.scan(self.doc.kind, self.doc.text)
        return self.index

    def _form(self) -> VisualEditor:
        """The form view: the item edits below arrive from its signals, so it exists by then."""
        assert self.visual is not None
        return self.visual

    @Slot(int, str, object, bool)
    def edit_field(self, item: int, pointer: str, value: Any, mergeable: bool) -> None:
        index = self._ensure_index()
        if index is None or not 0 <= item < len(index):
            return
        try:
            if value is REMOVE:
                splice = index.remove_field(self.doc.text, item, pointer)
                if splice is None:
                    return
            else:
                splice = index.set_field(self.doc.text, item, pointer, value, self.style_)
        except jsonedit.EditError as exc:
            self._form().set_notice(str(exc))
            return
        key = ("field", id(self), item, pointer) if mergeable else None
        self._push(splice, f"Edit {pointer[1:]}", key)

    @Slot(str, object)
    def edit_header(self, pointer: str, value: Any) -> None:
        parsed = jsontree.shallow_parse(self.doc.text)  # header fields are top-level members
        if not parsed.ok:
            return
        try:
            splice = jsonedit.set_value(self.doc.text, parsed, pointer, value, self.style_)
        except jsonedit.EditError as exc:
            self._form().set_notice(str(exc))
            return
        self._push(splice, f"Edit {pointer[1:]}", ("header", id(self), pointer))

    def _new_item(self, index: ItemIndex) -> Any:
        if index.kind == FileKind.CAVEMAN_PACK:
            names = _texts(v.get("name") for v in index.values if isinstance(v, dict))
            current = self.visual.current() if self.visual else -1
            category = index.values[current].get("category", "filler") if 0 <= current < len(index.values) \
                and isinstance(index.values[current], dict) else "filler"
            return new_rule(names, category)
        return new_filter(_texts(v.get("id") for v in index.values if isinstance(v, dict)))

    @Slot(int)
    def add_item(self, position: int) -> None:
        index = self._ensure_index()
        if index is None or index.single:
            return
        position = max(0, min(position, len(index)))
        self._push(index.insert(self.doc.text, position, self._new_item(index), self.style_), "Add item")
        self._form().select(position)

    @Slot(int)
    def duplicate_item(self, row: int) -> None:
        index = self._ensure_index()
        if index is None or index.single or not 0 <= row < len(index):
            return
        value = copy.deepcopy(index.values[row])
        if isinstance(value, dict):
            key = "name" if index.kind == FileKind.CAVEMAN_PACK else "id"
            taken = _texts(v.get(key) for v in index.values if isinstance(v, dict))
            if isinstance(value.get(key), str):
                value[key] = unique_name(f"{value[key]}_copy" if key == "name" else f"{value[key]}-copy", taken)
        self._push(index.insert(self.doc.text, row + 1, value, self.style_), "Duplicate item")
        self._form().select(row + 1)

    @Slot(int)
    def delete_item(self, row: int) -> None:
        index = self._ensure_index()
        if index is None or index.single or not 0 <= row < len(index):
            return
        self._push(index.remove(self.doc.text, row), "Delete item")
        self._form().select(min(row, len(index) - 1))

    @Slot(int, int)
    def move_item(self, src: int, dst: int) -> None:
        index = self._ensure_index()
        if index is None or index.single or src == dst:
            return
        if abs(src - dst) <= 1:
            self._push(index.move(self.doc.text, src, dst), "Move item")
        else:
            # delete + insert: two small edits, whatever the distance (a single splice would
            # rewrite every item in between, megabytes in a big file)
            raw = index.item_text(self.doc.text, src)
            first = index.remove(self.doc.text, src)
            first_inverse, first_change = self._apply_to_text(first, "form")
            second = index.insert_raw(self.doc.text, dst, raw, self.style_)
            second_inverse, second_change = self._apply_to_text(second, "form")
            self._after_change(_combined([first_change, second_change]))
            self.undo_stack.push(SplicesCommand(self, [(first, first_inverse), (second, second_inverse)], "Move item"))
        self._form().select(dst)

    # -- views ------------------------------------------------------------------------------------------------
    @Slot(int)
    def _on_view_switched(self, tab: int) -> None:
        if self.visual is None or self.index is None or self.index.stale:
            return
        if self.views.widget(tab) is self.visual:
            caret = self.doc.utf16_to_cp(self.editor.textCursor().position())
            for i, (a, b) in enumerate(self.index.spans):
                if a <= caret <= b:
                    self.visual.select(i)
                    break
        else:
            row = self.visual.current()
            if 0 <= row < len(self.index) and not self.index.single:
                line, col = jsontree.position_of(self.doc.text, self.index.spans[row][0])
                if not self.editor.textCursor().hasSelection():
                    self.editor.go_to(line, col)

    def show_json(self) -> None:
        self.views.setCurrentWidget(self.json_page)

    def show_visual(self) -> None:
        if self.visual is not None:
            self.views.setCurrentWidget(self.visual)

    def go_to(self, line: int, column: int = 1, end: tuple[int, int] | None = None) -> None:
        self.show_json()
        self.editor.go_to(line, column, end)

    def open_find(self, replace: bool = False) -> None:
        self.show_json()
        self.find_bar.open(replace)

    def item_count(self) -> int | None:
        return len(self.index) if self.index is not None and not self.index.stale else None

    # -- saving --------------------------------------------------------------------------------------------
    def save(self, path: Path | None = None) -> bool:
        """Atomic save; asks before overwriting a file that changed on disk since it was read."""
        target = path or self.doc.path
        if target is None:
            return False
        if path is None and target.exists() and self.doc.changed_on_disk():  # a deleted file is not overwritten
            answer = QMessageBox.question(
                self, "File changed on disk",
                f"{target.name} changed on disk after you opened it.\n\nOverwrite it with your version?",
                QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Save:
                self.conflict_bar.show_conflict(f"{target.name} changed on disk. Your version was not saved.")
                return False
        if self.doc.lossy and not self._confirm_lossy_save(target):
            return False
        self._ignore_disk_until = time.monotonic() + 1.0
        try:
            self.doc.save(target)
        except OSError as exc:
            QMessageBox.warning(self, "Save failed", f"Could not save {target}:\n{exc.strerror or exc}")
            return False
        self.undo_stack.setClean()
        self.conflict_bar.hide()
        self._journal_timer.stop()
        self._journal_deadline.stop()
        if self.journal is not None:
            self._journaler.request(self.journal.discard, target)
        self.refresh_trust()
        self.request_validation(immediate=True)
        self.statusChanged.emit()
        return True

    def _confirm_lossy_save(self, target: Path) -> bool:
        """The file held bytes that are not UTF-8, shown as U+FFFD: saving would replace them."""
        answer = QMessageBox.question(
            self, "Replace invalid bytes?",
            f"{target.name} was not valid UTF-8 when it was opened; the invalid bytes are shown as U+FFFD.\n\n"
            "Saving writes U+FFFD in their place, and the original bytes are lost. Save anyway?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Save

    def restore_text(self, text: str) -> None:
        """Put a recovered buffer in place as one undoable step; the tab stays unsaved."""
        splice = minimal_splice(self.doc.text, text)
        if splice.start != splice.end or splice.insert:
            self._push(splice, "Restore unsaved edits", None, origin="journal")

    def edited_from(self, base_sha256: str) -> None:
        """The buffer holds edits made on another version of the file (restored edits whose
        file changed on disk since): the conflict bar offers Compare, Keep mine and Reload,
        and saving asks first, as for a change seen while editing."""
        self.doc.disk = DiskState(base_sha256, 0, 0)
        if self.is_dirty() and self.doc.changed_on_disk():
            self.conflict_bar.show_conflict(f"{self.doc.display_name} changed on disk after these unsaved edits "
                                            "were made (restored from the last session).")

    def revert(self) -> None:
        """Back to the file on disk, as one undoable step."""
        self.reload_from_disk()

    # -- disk changes ---------------------------------------------------------------------------------------
    def on_disk_changed(self) -> None:
        """The watcher saw our file change (modified, created, or an atomic save's move)."""
        if not self.doc.changed_on_disk():
            return  # our own save, or a touch that did not change the bytes
        if not self.is_dirty() and not self.conflict_bar.isVisible():
            self.reload_from_disk()
            return
        name = self.doc.display_name
        self.conflict_bar.show_conflict(f"{name} changed on disk, and you have unsaved edits.")

    def follow_rename(self, path: Path) -> None:
        """The file was renamed (by the explorer): the tab edits it under its new name; unsaved
        edits are journaled under it, the old name's entry is dropped."""
        old = self.doc.path
        self.doc.moved_to(path)
        if self.journal is not None and old is not None and old != path:
            self._journaler.request(self.journal.discard, old)
        if self.is_dirty():
            self.write_journal()
        self.refresh_trust()
        self.request_validation(immediate=True)
        self.statusChanged.emit()

    def on_disk_removed(self) -> None:
        self.conflict_bar.show_conflict(f"{self.doc.display_name} was deleted or renamed on disk. "
                                        "Save to write it again.", can_reload=False)
        self.undo_stack.resetClean()

    @Slot()
    def reload_from_disk(self) -> None:
        found = self.doc.read_disk()
        if found is None:
            return
        text, state = found
        splice = minimal_splice(self.doc.text, text)
        if splice.start != splice.end or splice.insert:
            inverse = self.apply_splice(splice, "disk")
            self.undo_stack.push(_SpliceCommand(self, splice, inverse, "Reload from disk", None, True))
        self.doc.disk = state
        self.undo_stack.setClean()
        self.conflict_bar.hide()
        self._journal_timer.stop()
        self._journal_deadline.stop()
        if self.journal is not None and self.doc.path is not None:
            self._journaler.request(self.journal.discard, self.doc.path)
        self.refresh_trust()

    @Slot()
    def keep_mine(self, seen: DiskState | None = None) -> None:
        """Saving may overwrite the disk's version now: the one the user has seen (``seen``, the
        one the Compare dialog showed; by default, the one on disk now)."""
        state = seen
        if state is None:
            found = self.doc.read_disk()
            state = found[1] if found is not None else None
        if state is not None:
            self.doc.disk = state
        self.conflict_bar.hide()
        self.undo_stack.resetClean()
        self.dirtyChanged.emit(True)

    @Slot()
    def compare_with_disk(self) -> DiffDialog | None:
        found = self.doc.read_disk()
        if found is None:
            return None
        dialog = DiffDialog(self.doc.text, found[0], self.doc.display_name, self)
        dialog.exec()
        if dialog.choice == "keep":
            self.keep_mine(found[1])
            if self.doc.changed_on_disk():  # (it changed again while the dialog was open)
                self.on_disk_changed()
        elif dialog.choice == "reload":
            self.reload_from_disk()
        return dialog

    # -- journal, trust ---------------------------------------------------------------------------------------
    def _schedule_journal(self) -> None:
        if self.journal is not None:
            self._journal_timer.start()
            if not self._journal_deadline.isActive():
                self._journal_deadline.start()

    @Slot()
    def write_journal(self) -> None:
        """Journal the buffer when it has unsaved edits, forget it otherwise (in a worker)."""
        self._journal_timer.stop()
        self._journal_deadline.stop()
        if self.journal is None or self.doc.path is None:
            return
        if self.is_dirty():
            base = self.doc.disk.sha256 if self.doc.disk else None
            self._journaler.request(self.journal.write, self.doc.path, self.doc.text, base, self.workspace)
        else:
            self._journaler.request(self.journal.discard, self.doc.path)

    @Slot(int, str)
    def _on_journal_failed(self, _job: int, message: str) -> None:
        first = message.strip().splitlines()[0] if message.strip() else "unknown error"
        self.journal_error = (f"Unsaved edits of {self.doc.display_name} could not be written to the recovery "
                              f"journal ({first}); save soon — a crash now would lose them")
        self.journalProblem.emit(self.journal_error)

    @Slot(int, object)
    def _on_journal_written(self, _job: int, _result: object) -> None:
        if self.journal_error is not None:
            self.journal_error = None
            self.journalProblem.emit("")

    def refresh_trust(self) -> None:
        """Re-check trust (hashing the file on disk) in a worker thread."""
        if self.doc.path is None or self.doc.path.parent.name != ".rtk":
            return
        self._truster.request(partial(trust_of, buffer_differs=self.is_dirty()), self.doc.path)

    @Slot(int, object)
    def _on_trust(self, _job: int, info: TrustInfo) -> None:
        self.trust = None if info.verdict == "n/a" else info
        self.statusChanged.emit()

    def close_cleanly(self) -> None:
        """Called when the tab closes without saving: nothing to recover any more."""
        self._journal_timer.stop()
        self._journal_deadline.stop()
        if self.journal is not None and self.doc.path is not None:
            self.journal.discard(self.doc.path)
