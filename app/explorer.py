"""The workspace explorer: packs by language and category, filter files, ``.rtk``, with badges.

Badges: ● unsaved, ⚠/✖ diagnostics (count in the tooltip), ✓/✗ test status once the tests panel
has run the file's inline tests, and the trust verdict (🔒 trusted, ⚠ changed, 🔓 untrusted) for project filter files. The
symbols are the badges' data; the tree draws the worst one as a bundled icon and the words.
Folders and files can be dropped on it (or on the window) to open them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QIcon
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from app.icons import icon, split_symbol
from app.theme import tints
from app.widgets.empty_state import EmptyAction, EmptyState
from app.widgets.trees import top_items
from engine.workspace.scan import FileEntry, WorkspaceIndex

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
ICON_ORDER = ["error", "fail", "warning", "untrusted", "trusted", "ok", "info", "repaired"]  # worst first
TRUST_BADGES = {"trusted": "🔒 trusted", "changed": "⚠ changed", "untrusted": "🔓 untrusted"}


class Explorer(QWidget):
    openRequested = Signal(str)
    menuRequested = Signal(str, QPoint)  # the item's key (a path, group:… or lang:…), where (global)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.itemActivated.connect(self._activated)
        self.tree.itemDoubleClicked.connect(self._activated)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu_at)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.tree, 1)
        self.index: WorkspaceIndex | None = None
        self.items: dict[Path, QTreeWidgetItem] = {}
        self.badges: dict[Path, dict[str, str]] = {}
        # until a workspace is opened, and while it has no pack or filter: what to do, centred
        # over the tree (a workspace's own emptiness was a label under an empty tree)
        self.no_workspace = EmptyState.over(self.tree, vertical=True)
        self._create_actions: list[EmptyAction] = []

    def show_no_workspace(self, actions: list[EmptyAction], create: list[EmptyAction] | None = None) -> None:
        """No workspace yet: say how to get one (the window passes its open actions, and the
        ones that create a pack or filter, offered once a workspace turns out to have none)."""
        self._create_actions = list(create or [])
        if self.index is not None:
            return
        self.no_workspace.show_message("No workspace is open. Open a folder of Caveman packs and RTK filters, "
                                       "drop one here, or start with the example workspace.", actions)

    def set_loading(self, root: Path) -> None:
        """A workspace is being opened: the scan fills the tree shortly."""
        if self.index is None or self.index.root != root:
            self.no_workspace.show_message(f"Reading {root.name}…")

    def set_index(self, index: WorkspaceIndex) -> None:
        self.index = index
        expanded = {self.key(item) for item in top_items(self.tree) if item.isExpanded()}
        self.tree.clear()
        self.items = {}
        groups = [("caveman", "Caveman packs"), ("rtk", "RTK filters"), ("project", ".rtk (project filters, trust)"),
                  ("other", "Other JSON")]
        for key, title in groups:
            entries = index.by_group(key)
            if not entries:
                continue
            top = QTreeWidgetItem([f"{title}  ({len(entries)})"])
            top.setData(0, PATH_ROLE, f"group:{key}")
            self.tree.addTopLevelItem(top)
            if key == "caveman":
                for language, packs in index.languages().items():
                    lang_item = QTreeWidgetItem([language])
                    lang_item.setData(0, PATH_ROLE, f"lang:{language}")
                    top.addChild(lang_item)
                    # by file name, the order OmniRoute loads them in, and named as the file is
                    # (what Rename, Go to File and the Diagnostics show); a category other than
                    # the name follows it
                    for entry in sorted(packs, key=lambda e: e.path.name):
                        lang_item.addChild(self._file_item(entry, _pack_label(entry)))
                    lang_item.setExpanded(True)
            else:
                for entry in entries:
                    top.addChild(self._file_item(entry, self._label(entry)))
            top.setExpanded(not expanded or f"group:{key}" in expanded)
        if index.files:
            self.no_workspace.clear()
        else:
            self.no_workspace.show_message(f"No packs or filters in {index.root.name} yet. Create one, or drop "
                                           "a folder of them here.", self._create_actions)
        for path in list(self.badges):
            self._render(path)

    @staticmethod
    def key(item: QTreeWidgetItem | None) -> str:
        """An item's key: its file's path, or ``group:…`` / ``lang:…``; "" for none."""
        return item.data(0, PATH_ROLE) if item is not None else ""

    def _label(self, entry: FileEntry) -> str:
        if self.index is not None:
            try:
                return str(entry.path.relative_to(self.index.root))
            except ValueError:
                pass
        return entry.name

    def _file_item(self, entry: FileEntry, label: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem([label])
        item.setData(0, PATH_ROLE, str(entry.path))
        item.setData(0, Qt.ItemDataRole.UserRole + 2, label)
        tip = f"{entry.path}\n{entry.kind.label}"
        if entry.items:
            tip += f" · {entry.items} item{'s' if entry.items != 1 else ''}"
        if entry.parse_error:
            tip += f"\nnot valid JSON: {entry.parse_error}"
            self.badges.setdefault(entry.path, {}).setdefault("diag", "✖")
        item.setToolTip(0, tip)
        self.items[entry.path] = item
        return item

    def set_badge(self, path: Path, kind: str, text: str, tip: str = "") -> None:
        """``kind``: dirty | diag | tests | trust. Empty ``text`` removes the badge."""
        badges = self.badges.setdefault(path, {})
        if text:
            badges[kind] = text
            if tip:
                badges[kind + ":tip"] = tip
        else:
            badges.pop(kind, None)
            badges.pop(kind + ":tip", None)
        self._render(path)

    def _render(self, path: Path) -> None:
        item = self.items.get(path)
        if item is None:
            return
        badges = self.badges.get(path, {})
        label = item.data(0, Qt.ItemDataRole.UserRole + 2) or path.name
        # badges keep their symbol as data; the tree shows words and one icon (the worst state),
        # since a symbol font may be missing (app.icons)
        shown = [split_symbol(badges[k]) for k in ("dirty", "diag", "tests", "trust") if badges.get(k)]
        marks = [words or "" for _name, words in shown]
        item.setText(0, f"{label}  {' '.join(m for m in marks if m)}".rstrip())
        names = [name for name, _words in shown if name]
        worst = min(names, key=ICON_ORDER.index) if names else None
        item.setIcon(0, icon(worst) if worst else QIcon())
        t = tints()
        if badges.get("diag", "").startswith("✖"):
            item.setForeground(0, QBrush(QColor(t.error)))
        elif badges.get("diag", "").startswith("⚠"):
            item.setForeground(0, QBrush(QColor(t.warning)))
        else:
            item.setForeground(0, self.tree.palette().text())
        tips = [badges[k + ":tip"] for k in ("diag", "tests", "trust") if badges.get(k + ":tip")]
        base = item.toolTip(0).split("\n\n")[0]
        item.setToolTip(0, base + ("\n\n" + "\n".join(tips) if tips else ""))

    def select_path(self, path: Path) -> None:
        item = self.items.get(path)
        if item is not None:
            self.tree.setCurrentItem(item)

    def _menu_at(self, pos: QPoint) -> None:
        item = self.tree.itemAt(pos)
        if item is not None:
            self.tree.setCurrentItem(item)
            self.menuRequested.emit(self.key(item), self.tree.viewport().mapToGlobal(pos))

    def _activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        key = item.data(0, PATH_ROLE) or ""
        if key and not key.startswith(("group:", "lang:")):
            self.openRequested.emit(key)


def _pack_label(entry: FileEntry) -> str:
    """A pack's file stem, and its category when that differs ("bad — category t")."""
    stem = entry.path.stem
    return stem if entry.category in ("", stem) else f"{stem} — category {entry.category}"
