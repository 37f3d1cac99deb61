"""Undo for documents: every change is a splice; typing in one place merges into one step.

``QUndoStack`` lives in ``QtGui`` in Qt 6 (IDE-Q1). A command stores the forward splice and its
inverse (just the edited range, never the whole text). Consecutive small edits with the same
merge key (keystrokes in the JSON view, or in one form field) merge through ``id()`` and
``mergeWith()``, so one Ctrl+Z undoes a typed word, not a letter.
"""

from __future__ import annotations

import time
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QUndoCommand
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLineEdit, QPlainTextEdit, QWidget

from engine.jsonedit import Splice
from engine.workspace.document import minimal_splice

MERGE_WINDOW_S = 2.0
_merge_ids: dict[tuple, int] = {}


class SpliceTarget(Protocol):
    @property
    def text(self) -> str: ...

    def apply_splice(self, splice: Splice, origin: str) -> object: ...  # the inverse; unused here

    def apply_splices(self, splices: list[Splice], origin: str) -> list[Splice]: ...


def _small(splice: Splice) -> bool:
    return len(splice.insert) <= 64 and splice.end - splice.start <= 64 and "\n" not in splice.insert


class SpliceCommand(QUndoCommand):
    """One edit. ``already_applied``: the view made the change itself (typing), skip first redo."""

    def __init__(self, target: SpliceTarget, splice: Splice, inverse: Splice, label: str,
                 merge_key: tuple | None = None, already_applied: bool = True) -> None:
        super().__init__(label)
        self.target = target
        self.forward = splice
        self.inverse = inverse
        self._skip_redo = already_applied
        self._merge_key = merge_key if merge_key is not None and _small(splice) else None
        self._stamp = time.monotonic()

    def id(self) -> int:
        if self._merge_key is None:
            return -1
        return _merge_ids.setdefault(self._merge_key, len(_merge_ids) + 1)

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        self.target.apply_splice(self.forward, "undo")

    def undo(self) -> None:
        self.target.apply_splice(self.inverse, "undo")

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, SpliceCommand) or other._merge_key != self._merge_key or self._merge_key is None:
            return False
        if other._stamp - self._stamp > MERGE_WINDOW_S:
            return False
        current = self.target.text  # C: after both edits
        before_other = other.inverse.apply(current)  # B
        original = self.inverse.apply(before_other)  # A
        self.forward = minimal_splice(original, current)
        self.inverse = minimal_splice(current, original)
        self._stamp = other._stamp
        if not self.forward.insert and self.forward.start == self.forward.end:
            self.setObsolete(True)  # typed and deleted again: nothing left to undo
        return True


class SplicesCommand(QUndoCommand):
    """Several splices as one step (moving an item = delete here + insert there, two small edits
    instead of one splice rewriting everything in between). Undo applies the inverses backwards;
    both go through ``apply_splices`` so the views refresh once per step, not once per splice."""

    def __init__(self, target: SpliceTarget, steps: list[tuple[Splice, Splice]], label: str) -> None:
        super().__init__(label)
        self.target = target
        self.steps = steps  # (forward, inverse), already applied in this order
        self._skip_redo = True

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        self.target.apply_splices([forward for forward, _inverse in self.steps], "undo")

    def undo(self) -> None:
        self.target.apply_splices([inverse for _forward, inverse in reversed(self.steps)], "undo")


def _is_redo(event: QKeyEvent) -> bool:
    return event.matches(QKeySequence.StandardKey.Redo) or (
        event.key() == Qt.Key.Key_Z
        and event.modifiers() == (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier))


class UndoKeys(QObject):
    """Sends Undo/Redo key presses in form fields to the document's stack.

    A line edit or text edit keeps its own undo history: Ctrl+Z there would change the field
    without the document (the field then shows a value the document does not have) or push the
    change back as a new edit. Installed on a form's inputs, this filter takes the shortcut from
    them and emits ``undo``/``redo`` instead, so one history holds every edit in every view.
    """

    undo = Signal()
    redo = Signal()

    def watch(self, widget: QWidget) -> None:
        for child in [widget, *widget.findChildren(QWidget)]:
            if isinstance(child, (QLineEdit, QPlainTextEdit, QAbstractSpinBox, QComboBox)):
                child.installEventFilter(self)
                if isinstance(child, QPlainTextEdit):
                    child.setUndoRedoEnabled(False)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) or not isinstance(event, QKeyEvent):
            return False
        undo = event.matches(QKeySequence.StandardKey.Undo)
        if not undo and not _is_redo(event):
            return False
        event.accept()  # ShortcutOverride: the key comes to this widget (and so to us), not to a window action
        if kind == QEvent.Type.KeyPress:
            (self.undo if undo else self.redo).emit()
        return True
