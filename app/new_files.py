"""Dialogs that start new work from what the author has: a Caveman pack from its language and
category, a filter from its command (and a pasted sample output), and a fresh copy of the example
workspace (after showing what it replaces).

The engine builds the data (``engine.rtk.scaffold``, ``engine.workspace.example``); these only ask.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from app.theme import mono_font, tints
from engine.rtk.scaffold import ID_PATTERN, ScaffoldError, command_pattern, suggested_id
from engine.workspace import templates


class NewPackDialog(QDialog):
    """Language and category, checked as they are typed: the file they make (or why not) shows
    under them and OK waits for a good pair, where a bad name used to close the dialog with a
    warning and lose what was typed."""

    def __init__(self, parent: QWidget | None = None, workspace: Path | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New Caveman pack")
        self.workspace = workspace
        form = QFormLayout(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.language = QLineEdit("en")
        self.category = QLineEdit("filler")
        self.category.setToolTip("The file name: rules/<language>/<category>.json (loaded in file-name order)")
        self.where = QLabel()
        self.where.setWordWrap(True)
        # two lines held from the start: a longer message never clips, nor grows the dialog
        self.where.setMinimumHeight(self.where.fontMetrics().lineSpacing() * 2 + 2)
        form.addRow("Language", self.language)
        form.addRow("Category (file name)", self.category)
        form.addRow(self.where)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        for edit in (self.language, self.category):
            edit.textChanged.connect(lambda _t: self._check())
        self._check()
        wanted = self.fontMetrics().averageCharWidth() * 64  # the longest message on two lines
        screen = self.screen().availableGeometry().width() if self.screen() is not None else wanted
        self.resize(min(wanted, screen * 9 // 10), self.sizeHint().height())

    def problem(self) -> str | None:
        """Why OK cannot make the pack, or None."""
        for what, edit in (("Language", self.language), ("Category", self.category)):
            value = edit.text().strip()
            why = templates.check_file_name(value)
            if why:
                return f"{what} '{value}': {why}" if value else f"{what}: {why}"
        if self.workspace is not None and self._path().exists():
            return f"{self._relative()} exists already: choose another category (or open it from the explorer)"
        return None

    def _path(self) -> Path:
        return templates.pack_path(self.workspace or Path("."), self.language.text().strip(),
                                   self.category.text().strip())

    def _relative(self) -> str:
        return f"rules/{self.language.text().strip()}/{self.category.text().strip()}.json"

    def _check(self) -> None:
        why = self.problem()
        self.where.setText(why or f"Creates {self._relative()}")
        self.where.setStyleSheet(f"color: {tints().error};" if why else "")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(why is None)


class NewFilterDialog(QDialog):
    """Command first: the id and the command pattern follow it; a pasted output becomes the
    preview's sample and the filter's first test."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New RTK filter")
        form = QFormLayout(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.command = QLineEdit()
        self.command.setObjectName("newFilterCommand")
        self.command.setPlaceholderText("the command whose output it filters, e.g. terraform plan")
        self.ident = QLineEdit()
        self.ident.setObjectName("newFilterId")
        self.ident.setPlaceholderText("filter id (also the file name), from the command")
        self.pattern = QLabel()
        self.pattern.setWordWrap(True)
        self.sample = QPlainTextEdit()
        self.sample.setObjectName("newFilterSample")
        self.sample.setFont(mono_font())
        self.sample.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)  # command output: lines as they are
        self.sample.setPlaceholderText("Optional: paste a real output of the command. It becomes the preview's "
                                       "sample and the filter's first test.")
        form.addRow("Command", self.command)
        form.addRow("Matches", self.pattern)
        form.addRow("Filter id", self.ident)
        form.addRow("Sample output", self.sample)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        # room for a command line and an output line: ~60 characters, within the screen
        wanted = self.fontMetrics().averageCharWidth() * 80
        screen = self.screen().availableGeometry().width() if self.screen() is not None else wanted
        self.resize(min(wanted, screen * 9 // 10), self.sizeHint().height() + 120)
        self._id_edited = False
        self.ident.textEdited.connect(lambda _t: setattr(self, "_id_edited", True))
        self.command.textChanged.connect(self._command_changed)
        self.ident.textChanged.connect(lambda _t: self._update_ok())
        self._command_changed("")

    def _command_changed(self, command: str) -> None:
        if not self._id_edited:
            self.ident.setText(suggested_id(command))
        try:
            self.pattern.setText(f"<code>{command_pattern(command)}</code> (match.commands)")
        except ScaffoldError:
            self.pattern.setText("<i>type the command first</i>")
        self._update_ok()

    def _update_ok(self) -> None:
        ok = bool(suggested_id(self.command.text())) and bool(ID_PATTERN.match(self.ident.text()))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def values(self) -> tuple[str, str, str | None]:
        """(filter id, command, sample or None)."""
        sample = self.sample.toPlainText()
        return self.ident.text().strip(), self.command.text().strip(), sample if sample.strip() else None
