"""The explorer's context menu: what a right-click on a file or a group offers.

A file: open it (or its JSON), copy its path, show its folder, rename it in place, move it to
the trash. A group: create a file of its kind; the ``.rtk`` group: the trust commands. Nothing is
lost: a rename keeps an open tab (and its unsaved edits) on the file, the trash question names
the rules or filters that go (``engine.workspace.file_contents``) and the file goes to the
system's trash, where it can be restored; an open tab with unsaved edits stays open.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QFile, QStandardPaths, Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QWidget,
)

from app.theme import tints
from engine.workspace.file_contents import contents_summary
from engine.workspace.file_ops import FileOpError, rename_file, renamed_path
from engine.workspace.kinds import FileKind

if TYPE_CHECKING:
    from PySide6.QtCore import QPoint

    from app.mainwindow import MainWindow


def explorer_menu(window: MainWindow, key: str) -> QMenu | None:
    """The menu for the explorer item ``key`` (a path, ``group:…`` or ``lang:…``), or None."""
    menu = QMenu(window)
    if key.startswith("group:") or key.startswith("lang:"):
        _group_entries(window, menu, key)
    elif key:
        _file_entries(window, menu, Path(key))
    return menu if menu.actions() else None


def show_explorer_menu(window: MainWindow, key: str, at: QPoint) -> None:
    menu = explorer_menu(window, key)
    if menu is not None:
        menu.exec(at)
        menu.deleteLater()


def install_explorer_keys(window: MainWindow) -> None:
    """F2 renames and Delete moves to the trash the explorer's current file (while the tree has
    the focus, as in a file manager); the menu shows both keys."""
    tree = window.explorer.tree
    for key, run in ((QKeySequence(Qt.Key.Key_F2), rename_dialog), (QKeySequence(QKeySequence.StandardKey.Delete),
                                                                     trash_dialog)):
        action = QAction(tree)
        action.setShortcut(key)
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        action.triggered.connect(lambda _checked=False, run=run: _on_current_file(window, run))
        tree.addAction(action)


def _on_current_file(window: MainWindow, run) -> None:
    item = window.explorer.tree.currentItem()
    key = window.explorer.key(item)
    if key and not key.startswith(("group:", "lang:")):
        run(window, Path(key))


def _add(menu: QMenu, text: str, slot, tip: str = "") -> QAction:
    action = menu.addAction(text)
    action.triggered.connect(lambda _checked=False: slot())
    if tip:
        action.setToolTip(tip)
        action.setStatusTip(tip)
    return action


def _group_entries(window: MainWindow, menu: QMenu, key: str) -> None:
    group = key.partition(":")[2]
    actions = window.actions_
    if key.startswith("lang:"):
        _add(menu, f"New Pack in {group}…", lambda: window.new_pack_dialog(language=group))
    elif group == "caveman":
        menu.addAction(actions["new_pack"])
    elif group == "rtk":
        menu.addAction(actions["new_filter"])
        menu.addAction(actions["new_filter_samples"])
    elif group == "project":
        for name in ("panel:trust", "trust_project"):
            if name in actions:
                menu.addAction(actions[name])


def _file_entries(window: MainWindow, menu: QMenu, path: Path) -> None:
    _add(menu, "Open", lambda: window.open_file(path))
    _add(menu, "Open as JSON", lambda: _open_json(window, path))
    menu.addSeparator()
    _add(menu, "Copy Path", lambda: _copy(window, str(path)))
    relative = _relative(window, path)
    if relative is not None:
        _add(menu, "Copy Relative Path", lambda: _copy(window, relative))
    _add(menu, "Show in File Manager", lambda: _reveal(window, path), "Open the file's folder in the system's file manager")
    menu.addSeparator()
    _add(menu, "Rename…", lambda: rename_dialog(window, path)).setShortcut(QKeySequence(Qt.Key.Key_F2))
    _add(menu, "Move to Trash…", lambda: trash_dialog(window, path),
         "Move the file to the system's trash (restorable from there), after showing what it holds"
         ).setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))


def _relative(window: MainWindow, path: Path) -> str | None:
    """``path`` inside the workspace, as a POSIX relative path, or None outside it."""
    root = window.workspace
    return path.relative_to(root).as_posix() if root is not None and path.is_relative_to(root) else None


def _open_json(window: MainWindow, path: Path) -> None:
    tab = window.open_file(path)
    if tab is not None:
        tab.show_json()


def _copy(window: MainWindow, text: str) -> None:
    clipboard = QGuiApplication.clipboard()
    if clipboard is not None:
        clipboard.setText(text)
    window.statusBar().showMessage(f"Copied {text}", 4000)


def _reveal(window: MainWindow, path: Path) -> None:
    if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path.parent))):
        window.statusBar().showMessage(f"No file manager answered; the folder is {path.parent}", 8000)


def _kind_of(window: MainWindow, path: Path) -> FileKind:
    tab = window.tab_for(path)
    if tab is not None:
        return tab.doc.kind
    entry = next((e for e in window.index.files if e.path == path), None) if window.index is not None else None
    return entry.kind if entry is not None else FileKind.OTHER


class RenameDialog(QDialog):
    """The new name of a file with its stem selected, as editors do: typing replaces the name
    and the suffix stays in view (``rename_file`` keeps it either way; with the whole name
    selected, the field read 'crew' while the file became crew.json). The name is checked as it
    is typed (``renamed_path``): why it cannot be shows under it and OK waits, where a taken
    name closed the dialog with a warning and lost what was typed."""

    def __init__(self, parent: QWidget | None, path: Path) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rename")
        self.path = path
        form = QFormLayout(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        self.edit = QLineEdit(path.name)
        self.why = QLabel()
        self.why.setWordWrap(True)
        self.why.setMinimumHeight(self.why.fontMetrics().lineSpacing() + 2)
        self.why.setStyleSheet(f"color: {tints().error};")
        form.addRow(f"New name for {path.name} (same folder):", self.edit)
        form.addRow(self.why)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self._stem = len(path.stem) if path.suffix else len(path.name)
        self.edit.textChanged.connect(lambda _t: self._check())
        self._check()
        wanted = self.fontMetrics().averageCharWidth() * 56
        self.resize(max(wanted, self.sizeHint().width()), self.sizeHint().height())

    def textValue(self) -> str:
        """The name typed (as ``QInputDialog``, which this dialog replaces, answers)."""
        return self.edit.text()

    def _check(self) -> None:
        unchanged = self.edit.text().strip() == self.path.name  # (nothing to say, nothing to do)
        try:
            renamed_path(self.path, self.edit.text())
            why = ""
        except FileOpError as exc:
            why = "" if unchanged else str(exc)
        self.why.setText(why)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not why and not unchanged)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.select_stem()

    def select_stem(self) -> None:
        self.edit.setSelection(0, self._stem)


def rename_dialog(window: MainWindow, path: Path, new_name: str | None = None) -> Path | None:
    """Ask for a new name (``new_name`` skips the question) and rename; returns the new path."""
    if new_name is None:
        dialog = RenameDialog(window, path)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        new_name = dialog.textValue()
    if path.parent.name == ".rtk" and path.name in ("filters.json", "trust.json"):
        answer = QMessageBox.question(
            window, "Rename", f"OmniRoute reads .rtk/{path.name} by this name: renamed, "
            + ("its filters are no longer the project's." if path.name == "filters.json"
               else "the project's filters count as untrusted.") + " Rename it anyway?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        if answer != QMessageBox.StandardButton.Yes:
            return None
    try:
        target = rename_file(path, new_name)
    except FileOpError as exc:
        QMessageBox.warning(window, "Rename", f"{path.name} was not renamed: {exc}")
        return None
    window.follow_rename(path, target)
    window.statusBar().showMessage(f"Renamed {path.name} to {target.name}", 6000)
    return target


def trash_dialog(window: MainWindow, path: Path, *, confirmed: bool = False) -> bool:
    """Show what ``path`` holds and move it to the trash once confirmed (``confirmed`` skips the
    question, for tests). An open tab with unsaved edits stays open with them; a clean one closes."""
    tab = window.tab_for(path)
    unsaved = tab is not None and tab.is_dirty()
    held = contents_summary(path, _kind_of(window, path), tab.text if unsaved and tab is not None else None)
    if not confirmed:
        text = (f"Move {_relative(window, path) or path} to the trash?\n\nIt holds {held}."
                + ("\n\nIts tab has unsaved edits: the tab stays open with them (Save writes the file again)."
                   if unsaved else "")
                + "\n\nYou can restore it from the system's trash.")
        answer = QMessageBox.question(window, "Move to Trash", text,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        if answer != QMessageBox.StandardButton.Yes:
            return False
    if tab is not None and not unsaved:
        window.close_tab(window.tabs.indexOf(tab))
    # Qt's freedesktop trash lives under the data folder and fails when that folder does not exist
    data = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    if data:
        Path(data).mkdir(parents=True, exist_ok=True)
    trashed = QFile.moveToTrash(str(path))  # a bool here; typed (and in some versions) (bool, path in trash)
    moved = bool(trashed[0] if isinstance(trashed, tuple) else trashed)
    if not moved:
        QMessageBox.warning(window, "Move to Trash", f"{path.name} could not be moved to the trash (no trash on "
                            "this file system, or no permission); nothing was deleted.")
        return False
    window.log(f"Moved {path} to the trash ({held})")
    window.statusBar().showMessage(f"Moved {path.name} to the trash", 6000)
    if unsaved and tab is not None:
        tab.on_disk_removed()
    window.rescan()
    return True
