"""The workspace diagnostics panel: every problem of every file, sorted by file and line; click to jump."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.icons import icon
from app.layout_report import readable
from app.theme import tints
from app.widgets.elided import ElidedLabel
from app.widgets.elided_combo import ElidedComboBox
from app.widgets.empty_state import EmptyAction, EmptyState
from engine.diagnostics import Diagnostic, sort_key

ICONS = {"error": "error", "warning": "warning", "info": "info"}  # level -> app.icons name


class DiagnosticsModel(QAbstractTableModel):
    HEADERS = ("", "File", "Line", "Message", "Code")

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[Diagnostic] = []
        self.root: Path | None = None

    def set_diagnostics(self, by_file: dict[Path, list[Diagnostic]], root: Path | None) -> None:
        self.beginResetModel()
        self.root = root
        self.rows = sorted((d for ds in by_file.values() for d in ds), key=sort_key)
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def _file(self, d: Diagnostic) -> str:
        if not d.path:
            return ""
        p = Path(d.path)
        if self.root is not None:
            try:
                return str(p.relative_to(self.root))
            except ValueError:
                pass
        return p.name

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        d = self.rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return ""  # the level is the cell's icon (DecorationRole)
            if col == 1:
                return self._file(d)
            if col == 2:
                return f"{d.line}:{d.column}" if d.line else ""
            if col == 3:
                return d.message
            return d.code
        if role == Qt.ItemDataRole.DecorationRole and col == 0 and d.level in ICONS:
            return icon(ICONS[d.level])
        if role == Qt.ItemDataRole.ToolTipRole:
            where = f" at {d.pointer}" if d.pointer else ""
            return f"{d.level}{where}: {d.message}" + (f" [{d.code}]" if d.code else "")
        if role == Qt.ItemDataRole.ForegroundRole and col == 0:
            t = tints()
            return QColor({"error": t.error, "warning": t.warning}.get(d.level, t.info))
        if role == Qt.ItemDataRole.UserRole:
            return d
        if role == Qt.ItemDataRole.UserRole + 1:  # filter text
            return f"{d.level} {self._file(d)} {d.message} {d.code}"
        return None


class DiagnosticsPanel(QWidget):
    activated = Signal(object)  # Diagnostic

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = DiagnosticsModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(Qt.ItemDataRole.UserRole + 1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.view.verticalHeader().setVisible(False)
        self.view.setShowGrid(False)
        self.view.setWordWrap(False)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.ResizeToContents)
        header.resizeSection(1, 220)
        self.view.activated.connect(self._activated)
        self.view.clicked.connect(self._activated)
        self.level = ElidedComboBox()
        self.level.addItems(["all levels", "errors", "warnings", "info"])
        self.level.setAccessibleName("Diagnostic level")
        self.level.currentIndexChanged.connect(self._refilter)
        self.search = readable(QLineEdit(placeholderText="Filter diagnostics"))
        self.search.textChanged.connect(self._refilter)
        self.counts_shown = {level: ElidedLabel(min_chars=2) for level in ICONS}  # icon + count per level
        for level, label in self.counts_shown.items():
            label.setIcon(icon(ICONS[level]))
            label.setToolTip(f"{level}s")
        top = QHBoxLayout()
        top.setContentsMargins(4, 2, 4, 2)
        for label in self.counts_shown.values():
            top.addWidget(label)
        top.addStretch(1)
        top.addWidget(self.level)
        top.addWidget(self.search)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(top)
        lay.addWidget(self.view, 1)
        self.by_file: dict[Path, list[Diagnostic]] = {}
        self._root: Path | None = None
        self._checked = False  # the workspace scan has reported since the root was set
        self.empty = EmptyState.over(self.view)
        self._no_workspace_actions: list[EmptyAction] = []
        self._clean_actions: list[EmptyAction] = []
        self.proxy.modelReset.connect(self._update_empty)
        self.proxy.layoutChanged.connect(self._update_empty)
        self.proxy.rowsInserted.connect(self._update_empty)
        self.proxy.rowsRemoved.connect(self._update_empty)
        self._refresh()

    def set_empty_actions(self, no_workspace: list[EmptyAction], clean: list[EmptyAction]) -> None:
        """The window's actions the empty table offers: without a workspace, and when all is clean."""
        self._no_workspace_actions, self._clean_actions = list(no_workspace), list(clean)
        self._update_empty()

    def set_root(self, root: Path | None) -> None:
        """A workspace (or none) is open: its problems arrive with the scan (``set_all``)."""
        self._root = root
        self._checked = False
        self.by_file = {}
        self._refresh()

    def set_file(self, path: Path, diagnostics: list[Diagnostic]) -> None:
        self.by_file[path] = list(diagnostics)
        self._refresh()

    def set_all(self, by_file: dict[Path, list[Diagnostic]]) -> None:
        """Every file of the workspace (clean ones with an empty list): the files the panel speaks for."""
        self.by_file = {p: list(ds) for p, ds in by_file.items()}
        self._checked = True
        self._refresh()

    def counts(self) -> dict[str, int]:
        out = {"error": 0, "warning": 0, "info": 0}
        for ds in self.by_file.values():
            for d in ds:
                out[d.level] = out.get(d.level, 0) + 1
        return out

    def _refresh(self) -> None:
        self.model.set_diagnostics(self.by_file, self._root)
        c = self.counts()
        for level, label in self.counts_shown.items():
            label.setText(str(c[level]))
        self._update_empty()

    def _update_empty(self, *_args) -> None:
        if self.proxy.rowCount():
            self.empty.clear()
        elif self._root is None:
            self.empty.show_message("No workspace is open. Open a folder of packs and filters to see their "
                                    "problems here.", self._no_workspace_actions)
        elif self.model.rowCount():
            self.empty.show_message("No problems match the level and filter text above.",
                                    [("Show all", self.clear_filter)])
        elif not self._checked:
            self.empty.show_message(f"Checking {self._root.name}…")
        else:
            files = len(self.by_file)
            self.empty.show_message(f"No problems in {files} file{'' if files == 1 else 's'}.",
                                    self._clean_actions)

    def clear_filter(self) -> None:
        self.level.setCurrentIndex(0)
        self.search.clear()

    def _refilter(self, *_args) -> None:
        level = ("", "error", "warning", "info")[self.level.currentIndex()]
        text = self.search.text()
        pattern = re.escape(text)
        if level:
            pattern = f"^{level} .*{pattern}" if text else f"^{level} "
        self.proxy.setFilterRegularExpression(pattern)

    def row_diagnostic(self, row: int) -> Diagnostic | None:
        index = self.proxy.index(row, 0)
        return index.data(Qt.ItemDataRole.UserRole) if index.isValid() else None

    def _activated(self, index: QModelIndex) -> None:
        d = index.data(Qt.ItemDataRole.UserRole) if index.isValid() else None
        if d is None:
            d = self.proxy.index(index.row(), 0).data(Qt.ItemDataRole.UserRole)
        if d is not None:
            self.activated.emit(d)
