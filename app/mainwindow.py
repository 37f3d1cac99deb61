"""The main window: explorer, editor tabs, bottom panels, status bar, menus and the palette.

It wires the pieces and owns the workspace-wide services: the file watcher, the workspace
scan and validation workers, the recovery journal and the settings. Per-file behaviour lives in
:class:`app.document_tab.DocumentTab`.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from PySide6.QtCore import QByteArray, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QIcon, QKeySequence, QUndoGroup
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QToolButton,
    QWidget,
)

from app import panels
from app.diagnostics_panel import DiagnosticsPanel
from app.document_tab import DocumentTab
from app.explorer import TRUST_BADGES, Explorer
from app.explorer_menu import install_explorer_keys, show_explorer_menu
from app.palette import CommandPalette, FilePicker
from app.preview_placement import PreviewPlacement
from app.scratch import ScratchKeeper, ScratchPanel
from app.settings_dialog import SettingsDialog
from app.theme import apply_theme, mono_font
from app.visual import VisualEditor
from app.watcher import WorkspaceWatcher
from app.widgets.elided import ElidedLabel
from app.widgets.page_tabs import PageSizedTabs
from app.widgets.start_page import StartPage
from app.workers import Dispatcher, tune_for_gui
from engine.diagnostics import Diagnostic
from engine.fsutil import same_file
from engine.paths import resources_dir
from engine.workspace import templates
from engine.workspace.document import Document
from engine.workspace.journal import JournalEntry, RecoveryJournal
from engine.workspace.scan import WorkspaceIndex
from engine.workspace.settings import Settings, recovery_dir
from engine.workspace.validation import scan_and_validate, validate_many
from engine.workspace.worker import ping

EXPLORER_SHARE, PREVIEW_SHARE, BOTTOM_SHARE = 16, 32, 25  # default dock sizes, % of the window
EXPLORER_MAX_CHARS, BOTTOM_MAX_LINES = 45, 18  # ... but no larger than this on a large screen
PANELS_MAXIMIZED_SHARE = 70  # View ▸ Maximize Panels: the bottom panels' share of the window's height


class MainWindow(QMainWindow):
    workspaceOpened = Signal(str)
    workspaceScanned = Signal()
    settingsApplied = Signal()  # Settings ▸ OK: views that ran under the old settings refresh or say so
    fileRenamed = Signal(str, str)  # (old path, new path): the explorer's Rename, before the rescan

    def __init__(self, settings: Settings | None = None, *, docs_mode: bool = False) -> None:
        super().__init__()
        tune_for_gui()
        self.settings = settings or Settings.load()
        self.docs_mode = docs_mode
        self.docs_presents_preview = False  # docs mode: the screenshot gives the preview panel the room
        self.workspace: Path | None = None
        self.index: WorkspaceIndex | None = None
        self.journal = RecoveryJournal(recovery_dir())
        self.setWindowTitle("Rulewright[*]")
        icon = resources_dir() / "icons" / "rulewright.svg"
        if icon.exists():
            self.setWindowIcon(QIcon(str(icon)))
        self.setAcceptDrops(True)
        self.undo_group = QUndoGroup(self)

        # editor area
        self.tabs = PageSizedTabs()
        self.tabs.setTabsClosable(True)
        self.tabs.setMovable(True)
        self.tabs.setDocumentMode(True)
        self.tabs.tabCloseRequested.connect(self.close_tab)
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.setCentralWidget(self.tabs)

        # explorer
        self.explorer = Explorer()
        self.explorer.openRequested.connect(lambda p: self.open_file(Path(p)))
        self.explorer.menuRequested.connect(lambda key, at: show_explorer_menu(self, key, at))
        install_explorer_keys(self)
        self.explorer_dock = QDockWidget("Explorer", self)
        self.explorer_dock.setObjectName("explorer")
        self.explorer_dock.setWidget(self.explorer)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.explorer_dock)

        # bottom panels
        self.diagnostics_panel = DiagnosticsPanel()
        self.diagnostics_panel.activated.connect(self.go_to_diagnostic)
        self.output = QPlainTextEdit()
        self.output.setReadOnly(True)
        self.output.setMaximumBlockCount(5000)
        self.bottom = PageSizedTabs()
        self.bottom.setDocumentMode(True)
        self.bottom_dock = QDockWidget("Panels", self)
        self.bottom_dock.setObjectName("bottom")
        self.bottom_dock.setTitleBarWidget(QWidget())
        self.bottom_dock.setWidget(self.bottom)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.bottom_dock)
        self._panels_height_before: int | None = None  # while maximized: the height to go back to
        self.maximize_button = QToolButton()
        self.maximize_button.setAutoRaise(True)
        self.bottom.setCornerWidget(self.maximize_button, Qt.Corner.TopRightCorner)
        self.bottom.tabBarDoubleClicked.connect(lambda _index: self.toggle_panels_maximized())
        self.right = PageSizedTabs()
        self.right.setDocumentMode(True)
        self.right_dock = QDockWidget("Preview", self)
        self.right_dock.setObjectName("preview")
        self.right_dock.setWidget(self.right)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.right_dock)
        self.panel_widgets: dict[str, QWidget] = {}

        # status bar: every part elides (paths in the middle), so no text can widen the window
        self.status_workspace = ElidedLabel(mode=Qt.TextElideMode.ElideMiddle)
        self.status_file = ElidedLabel()
        self.status_rules = ElidedLabel()
        self.status_trust = ElidedLabel()
        self.status_profile = ElidedLabel()
        for w in (self.status_file, self.status_rules, self.status_trust, self.status_profile):
            self.statusBar().addPermanentWidget(w)
        self.statusBar().addWidget(self.status_workspace, 1)
        self.tabs.setElideMode(Qt.TextElideMode.ElideMiddle)

        # services
        self.watcher = WorkspaceWatcher(self)
        self.watcher.fileChanged.connect(self._on_file_changed)
        self.watcher.fileRemoved.connect(self._on_file_removed)
        self.watcher.treeChanged.connect(lambda: self.rescan())
        self._settings_saver = Dispatcher(self)
        self._helper_warmup = Dispatcher(self, process=True)
        if not docs_mode:
            self._helper_warmup.request(ping)  # start the validation helper while the window opens
        self.scanner = Dispatcher(self, process=True)
        self.scanner.finished.connect(self._on_scanned)
        self.scanner.failed.connect(lambda _j, message: self.log(f"Workspace scan failed: {message}"))
        self.validator = Dispatcher(self, debounce_ms=600, process=True)
        self.validator.finished.connect(self._on_workspace_validated)
        self.validator.failed.connect(lambda _j, message: self.log(f"Workspace validation failed: {message}"))

        # the actions before the panels: their empty states offer the window's actions as buttons
        self.actions_: dict[str, QAction] = {}
        self._build_actions()
        self.maximize_button.clicked.connect(self.toggle_panels_maximized)
        self._sync_maximize_button()
        self._create_panels()  # after the services: panels may connect to the watcher and workers
        self._build_menus()
        self.start_page = StartPage(self)  # the editor area's page while no document is open
        self._sync_start_page()
        self.explorer.show_no_workspace([self.actions_["open_workspace"], self.actions_["open_example"]],
                                        create=[self.actions_["new_pack"], self.actions_["new_filter"]])
        self.diagnostics_panel.set_empty_actions(
            no_workspace=[self.actions_["open_workspace"], self.actions_["open_example"]],
            clean=[self.actions_["validate"]])
        self.apply_settings()
        self._update_status()
        self._fitted = False
        self._default_state = self.saveState()  # View ▸ Reset Layout returns to this
        self.resize(self.sizeHint())
        VisualEditor.remembered_list_width = None  # this window's settings say (restore_window_state)
        if docs_mode or not self.restore_window_state():
            QTimer.singleShot(0, self.apply_default_dock_sizes)  # once the window has its real size
        self.preview_placement = PreviewPlacement(self)  # the preview dock steps aside for playgrounds
        self.preview_placement.follow()
        self.scratch = ScratchKeeper(parent=self)  # the previews' and playgrounds' own inputs
        self.scratch.failed.connect(self._scratch_failed)
        if not docs_mode:
            for widget in self.panel_widgets.values():
                parts = getattr(widget, "scratch_parts", None)
                for part in parts() if callable(parts) else [widget]:
                    if hasattr(part, "scratch_key"):
                        self.scratch.add(cast("ScratchPanel", part))

    # -- panels ---------------------------------------------------------------------------------------
    def _create_panels(self) -> None:
        panels.load_panel_modules()
        for spec in panels.PANELS.values():
            if spec.area == "left":
                self.panel_widgets[spec.name] = self.explorer
                continue
            widget = spec.factory(self)
            self.panel_widgets[spec.name] = widget
            if spec.area == "bottom":
                self.bottom.addTab(widget, spec.title)
            elif spec.area == "right":
                self.right.addTab(widget, spec.title)
            else:
                self.tabs.addTab(widget, spec.title)
        self.right_dock.setVisible(self.right.count() > 0)

    def show_panel(self, name: str) -> QWidget:
        """Bring panel ``name`` to the front; raises ``UnknownPanelError`` listing the known ones."""
        spec = panels.panel(name)
        widget = self.panel_widgets[name]
        if spec.area == "bottom":
            self.bottom_dock.show()
            self.bottom.setCurrentWidget(widget)
        elif spec.area == "right":
            if hasattr(self, "preview_placement"):
                self.preview_placement.chosen(True)  # asked for here: kept shown on this kind of tab
            self.right_dock.show()
            self.right.setCurrentWidget(widget)
        elif spec.area == "left":
            self.explorer_dock.show()
            self.explorer_dock.raise_()
        else:
            self.tabs.setCurrentWidget(widget)
        return widget

    # -- actions ----------------------------------------------------------------------------------------
    def _action(self, key: str, text: str, slot, shortcut: str | QKeySequence.StandardKey | None = None,
                tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.setToolTip(tip or text.replace("&", "").replace("…", ""))
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        self.actions_[key] = action
        return action

    def _build_actions(self) -> None:
        SK = QKeySequence.StandardKey
        a = self._action
        a("new_pack", "New &Pack…", self.new_pack_dialog, "Ctrl+N", "Create a Caveman rule pack from a template")
        a("new_filter", "New &Filter…", self.new_filter_dialog, "Ctrl+Alt+N", "Create an RTK filter file from a template")
        a("new_filter_samples", "New Filter from &Samples…", self.new_filter_from_samples, None,
          "Learn an RTK filter from captured outputs of a command (app/learn_dialog.py)")
        a("open_workspace", "Open &Workspace…", self.open_workspace_dialog, "Ctrl+Shift+O")
        a("open_example", "Open E&xample Workspace", self.open_example_workspace, None,
          "Open (and on first use create) your copy of the bundled example workspace")
        a("open_file", "&Open File…", self.open_file_dialog, SK.Open)
        a("quick_open", "Go to File…", self.quick_open, "Ctrl+P")
        a("save", "&Save", self.save_current, SK.Save)
        a("save_as", "Save &As…", self.save_as_current, "Ctrl+Alt+S")
        a("save_all", "Save A&ll", self.save_all, "Ctrl+Shift+S")
        a("revert", "&Revert File", self.revert_current, None, "Reload the file from disk (undoable)")
        a("close_tab", "&Close Tab", lambda: self.close_tab(self.tabs.currentIndex()), SK.Close)
        a("quit", "&Quit", self.close, SK.Quit)
        undo = self.undo_group.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence(SK.Undo))
        redo = self.undo_group.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence(SK.Redo)])
        self.actions_["undo"], self.actions_["redo"] = undo, redo
        a("find", "&Find…", lambda: self._with_tab(lambda t: t.open_find(False)), SK.Find)
        a("replace", "&Replace…", lambda: self._with_tab(lambda t: t.open_find(True)), "Ctrl+H")
        a("goto_line", "&Go to Line…", self.go_to_line, "Ctrl+G")
        a("next_diag", "&Next Diagnostic", lambda: self.step_diagnostic(1), "F8")
        a("prev_diag", "&Previous Diagnostic", lambda: self.step_diagnostic(-1), "Shift+F8")
        a("show_visual", "Show &Visual Editor", lambda: self._with_tab(lambda t: t.show_visual()), "Ctrl+1")
        a("show_json", "Show &JSON", lambda: self._with_tab(lambda t: t.show_json()), "Ctrl+2")
        a("show_diagnostics", "Show &Diagnostics", lambda: self.show_panel("diagnostics"), "Ctrl+Shift+M")
        a("show_explorer", "Show &Explorer", lambda: self.show_panel("explorer"), "Ctrl+Shift+E")
        a("maximize_panels", "&Maximize Panels", self.toggle_panels_maximized, "Ctrl+Shift+J",
          "Give the bottom panels (Trust, Tests, Corpus…) most of the window's height, or back their own; "
          "double-clicking a panel's tab does the same")
        self.actions_["maximize_panels"].setCheckable(True)
        a("reset_layout", "&Reset Layout", self.reset_layout, None,
          "Show every panel again at its default size (the editor gets the most room)")
        a("validate", "&Validate Workspace", lambda: self.rescan(), "Ctrl+Shift+V")
        a("settings", "&Settings…", self.open_settings, SK.Preferences)
        if self.actions_["settings"].shortcut().isEmpty():  # (Linux desktops have no standard key for it)
            self.actions_["settings"].setShortcut(QKeySequence("Ctrl+,"))
        a("palette", "Command &Palette…", self.open_palette, "Ctrl+Shift+P")
        a("about", "&About Rulewright", self.about)
        a("reset_example", "Reset E&xample Workspace…", self.reset_example_workspace, None,
          "Replace your copy of the example workspace with a fresh one (your edits are kept aside)")

    def _build_menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        for key in ("new_pack", "new_filter", "new_filter_samples", None, "open_workspace", "open_example", "open_file", "quick_open"):
            m.addSeparator() if key is None else m.addAction(self.actions_[key])
        self.recent_menu = m.addMenu("Recent &Workspaces")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        for key in (None, "save", "save_as", "save_all", "revert", None, "close_tab", "quit"):
            m.addSeparator() if key is None else m.addAction(self.actions_[key])
        m = mb.addMenu("&Edit")
        for key in ("undo", "redo", None, "find", "replace", "goto_line", None, "next_diag", "prev_diag"):
            m.addSeparator() if key is None else m.addAction(self.actions_[key])
        m = mb.addMenu("&View")
        for key in ("show_visual", "show_json", None, "show_explorer", "show_diagnostics"):
            m.addSeparator() if key is None else m.addAction(self.actions_[key])
        for name, spec in panels.PANELS.items():
            if name not in ("diagnostics", "explorer"):
                self._action(f"panel:{name}", f"Show {spec.title}", lambda n=name: self.show_panel(n))
                m.addAction(self.actions_[f"panel:{name}"])
        m.addSeparator()
        for key, dock, shortcut, tip in (
                ("toggle_explorer", self.explorer_dock, "Ctrl+B", "Show or hide the explorer"),
                ("toggle_preview", self.right_dock, "Ctrl+Alt+B",
                 "Show or hide the preview (it steps aside while a playground is the active tab; "
                 "shown there, it stays shown on playgrounds)")):
            toggle = dock.toggleViewAction()  # collapse and restore a dock
            toggle.setShortcut(QKeySequence(shortcut))
            toggle.setToolTip(tip)
            self.actions_[key] = toggle
            m.addAction(toggle)
        m.addAction(self.actions_["maximize_panels"])
        m.addAction(self.actions_["reset_layout"])
        m = mb.addMenu("&Run")
        m.addAction(self.actions_["validate"])
        m = mb.addMenu("&Tools")
        m.addAction(self.actions_["palette"])
        m.addAction(self.actions_["settings"])
        m = mb.addMenu("&Help")
        m.addAction(self.actions_["reset_example"])
        m.addAction(self.actions_["about"])

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.settings.recent_workspaces:
            act = self.recent_menu.addAction(path)
            act.triggered.connect(lambda _c=False, p=path: self.open_workspace(Path(p)))
        if not self.settings.recent_workspaces:
            self.recent_menu.addAction("(none)").setEnabled(False)

    def _with_tab(self, fn) -> None:
        tab = self.current_tab()
        if tab is not None:
            fn(tab)

    # -- settings -----------------------------------------------------------------------------------------
    def apply_settings(self) -> None:
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, self.settings.theme)
        font = mono_font(self.settings.font_family, self.settings.font_size)
        for tab in self.document_tabs():
            tab.editor.setFont(font)
            tab.profile = self.settings.default_profile
        from engine.jsregex import set_default_timeout

        set_default_timeout(self.settings.regex_timeout_ms / 1000)
        self._update_status()

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            dialog.apply()
            if not self.docs_mode:
                self.settings.save()
            self.apply_settings()
            for tab in self.document_tabs():
                tab.editor.highlighter.reset(tab.text if len(tab.text) < 262144 else None)
                tab.request_validation()
            self.rescan()
            self.settingsApplied.emit()

    # -- workspace --------------------------------------------------------------------------------------------
    def open_workspace(self, root: Path, *, restore: bool = True) -> None:
        root = root.resolve()
        if self.workspace is not None and root != self.workspace and not self.close_all_tabs():
            return
        self.scratch.flush()  # (the inputs of the workspace open until now)
        self.workspace = root
        self.setWindowTitle(f"{root.name}[*] — Rulewright")
        self.diagnostics_panel.set_root(root)  # clears it until the scan reports
        if not self.docs_mode:
            self.settings.remember_workspace(root)
            self._settings_saver.request(self.settings.save)  # fsync off the GUI thread
            self.watcher.watch(root)
        self.log(f"Opened workspace {root}")
        self.explorer.set_loading(root)
        self.rescan(immediate=True)
        self._update_status()
        if self.start_page.isVisible():
            self.start_page.refresh()
        self.workspaceOpened.emit(str(root))
        if not self.docs_mode:
            self.scratch.open(root)  # (after the panels took the new workspace: their own inputs win)
        if restore and not self.docs_mode:
            QTimer.singleShot(0, self.offer_recovery)

    def rescan(self, immediate: bool = False) -> None:
        if self.workspace is None:
            return
        self.scanner.request(scan_and_validate, self.workspace, self.unsaved_buffers(), self.settings.default_profile,
                             immediate=immediate)

    def unsaved_buffers(self) -> dict[Path, str]:
        """The open files with unsaved edits, by path: what every check runs on instead of disk."""
        return {t.path: t.text for t in self.document_tabs() if t.path is not None and t.is_dirty()}

    @Slot(int, object)
    def _on_scanned(self, _job: int, result) -> None:
        index, diagnostics = result
        if self.workspace is None or index.root != self.workspace:
            return
        self.index = index
        self.explorer.set_index(index)
        for entry in index.files:
            if entry.trust and entry.trust != "n/a":
                self.explorer.set_badge(entry.path, "trust", TRUST_BADGES.get(entry.trust, ""), entry.trust_detail)
        self._apply_workspace_diagnostics(diagnostics)
        for tab in self.document_tabs():
            self._update_tab_badges(tab)
        self.workspaceScanned.emit()

    def validate_workspace(self) -> None:
        if self.index is None:
            return
        paths = [f.path for f in self.index.files]
        self.validator.request(validate_many, paths, self.unsaved_buffers(), self.settings.default_profile)

    @Slot(int, object)
    def _on_workspace_validated(self, _job: int, diagnostics: dict) -> None:
        self._apply_workspace_diagnostics(diagnostics)

    def _apply_workspace_diagnostics(self, by_file: dict[Path, list[Diagnostic]]) -> None:
        # open tabs validate their own (newer) buffers: keep theirs
        for tab in self.document_tabs():
            if tab.path is not None and tab.path in by_file and tab.is_dirty():
                by_file[tab.path] = tab.diagnostics
        self.diagnostics_panel.set_all(by_file)
        for path, diags in by_file.items():
            self._set_diag_badge(path, diags)
        self._update_bottom_title()

    def _set_diag_badge(self, path: Path, diags: list[Diagnostic]) -> None:
        errors = sum(1 for d in diags if d.level == "error")
        warnings = sum(1 for d in diags if d.level == "warning")
        if errors:
            self.explorer.set_badge(path, "diag", f"✖{errors}", f"{errors} error(s), {warnings} warning(s)")
        elif warnings:
            self.explorer.set_badge(path, "diag", f"⚠{warnings}", f"{warnings} warning(s)")
        else:
            self.explorer.set_badge(path, "diag", "")

    def _update_bottom_title(self) -> None:
        counts = self.diagnostics_panel.counts()
        index = self.bottom.indexOf(self.diagnostics_panel)
        total = counts["error"] + counts["warning"]
        self.bottom.setTabText(index, f"Diagnostics ({total})" if total else "Diagnostics")

    # -- files -----------------------------------------------------------------------------------------------
    def document_tabs(self) -> list[DocumentTab]:
        return [w for i in range(self.tabs.count()) if isinstance(w := self.tabs.widget(i), DocumentTab)]

    def current_tab(self) -> DocumentTab | None:
        w = self.tabs.currentWidget()
        return w if isinstance(w, DocumentTab) else None

    def tab_for(self, path: Path) -> DocumentTab | None:
        path = Path(path)
        return next((t for t in self.document_tabs() if t.path is not None and same_file(t.path, path)), None)

    def open_file(self, path: Path, *, missing_ok: bool = False) -> DocumentTab | None:
        """Open ``path`` in a tab. ``missing_ok``: a file that is gone opens as an empty unsaved
        tab under its name (recovering a journal entry whose file was deleted)."""
        path = Path(path).resolve()
        existing = self.tab_for(path)
        if existing is not None:
            self.tabs.setCurrentWidget(existing)
            return existing
        try:
            document = Document.load(path)
        except FileNotFoundError:
            if not missing_ok:
                self.log(f"Cannot open {path}: no such file")
                self.statusBar().showMessage(f"Cannot open {path.name}: no such file", 5000)
                return None
            document = Document(path, "")
        except OSError as exc:
            self.log(f"Cannot open {path}: {exc.strerror or exc}")
            self.statusBar().showMessage(f"Cannot open {path.name}: {exc.strerror or exc}", 5000)
            return None
        tab = DocumentTab(document, journal=None if self.docs_mode else self.journal, workspace=self.workspace,
                          profile=self.settings.default_profile)
        tab.editor.setFont(mono_font(self.settings.font_family, self.settings.font_size))
        if self.docs_mode:
            tab.editor.setCursorWidth(0)  # deterministic screenshots (IDE-Q10)
        tab.dirtyChanged.connect(lambda _d, t=tab: self._on_dirty(t))
        tab.diagnosticsChanged.connect(lambda t=tab: self._on_tab_diagnostics(t))
        tab.statusChanged.connect(lambda t=tab: self._on_tab_status(t))
        tab.edited.connect(self.validate_workspace)
        tab.journalProblem.connect(self._on_journal_problem)
        self.undo_group.addStack(tab.undo_stack)
        index = self.tabs.addTab(tab, tab.title())
        self.tabs.setTabToolTip(index, str(path))
        self.tabs.setCurrentIndex(index)
        self._sync_start_page()
        if document.lossy:
            self.log(f"{path.name} is not valid UTF-8; invalid bytes are shown as U+FFFD and saving would replace them")
        self.explorer.select_path(path)
        return tab

    def _sync_start_page(self) -> None:
        """The start page is a tab while no document is open (and current when the last one closed)."""
        index = self.tabs.indexOf(self.start_page)
        if self.document_tabs():
            if index >= 0:
                self.tabs.removeTab(index)
            return
        if index < 0:
            index = self.tabs.insertTab(0, self.start_page, "Start")
            self.tabs.setTabToolTip(index, "What to open or create first")
            bar = self.tabs.tabBar()
            for side in (bar.ButtonPosition.LeftSide, bar.ButtonPosition.RightSide):
                bar.setTabButton(index, side, None)  # not closable: it goes when a file opens
        self.tabs.setCurrentIndex(index)

    def _on_tab_changed(self, _index: int) -> None:
        tab = self.current_tab()
        # None (no document) deactivates the group, as Qt documents; PySide6's stub omits the None
        self.undo_group.setActiveStack(tab.undo_stack if tab is not None else None)  # type: ignore[arg-type]
        self._update_status()

    def _on_dirty(self, tab: DocumentTab) -> None:
        index = self.tabs.indexOf(tab)
        if index >= 0:
            self.tabs.setTabText(index, tab.title())
        if tab.path is not None:
            self.explorer.set_badge(tab.path, "dirty", "●" if tab.is_dirty() else "", "unsaved changes")
        self.setWindowModified(any(t.is_dirty() for t in self.document_tabs()))
        self._update_status()

    def _on_tab_diagnostics(self, tab: DocumentTab) -> None:
        if tab.path is not None:
            self.diagnostics_panel.set_file(tab.path, tab.diagnostics)
            self._set_diag_badge(tab.path, tab.diagnostics)
            self._update_bottom_title()

    def _on_tab_status(self, tab: DocumentTab) -> None:
        self._update_tab_badges(tab)
        if tab is self.current_tab():
            self._update_status()

    def _update_tab_badges(self, tab: DocumentTab) -> None:
        if tab.path is None:
            return
        if tab.trust is not None:
            self.explorer.set_badge(tab.path, "trust", TRUST_BADGES.get(tab.trust.verdict, ""), tab.trust.detail)

    def _update_status(self) -> None:
        self.status_workspace.setText(f"workspace: {self.workspace}" if self.workspace else "no workspace")
        tab = self.current_tab()
        if tab is None:
            self.status_file.setText("")
            self.status_rules.setText("")
            self.status_trust.setText("")
        else:
            self.status_file.setText(f"{tab.doc.display_name} · {tab.doc.kind.label}")
            count = tab.item_count()
            noun = "rules" if tab.doc.kind.value == "caveman-pack" else "filters"
            self.status_rules.setText(f"{noun} {count}" if count is not None else "")
            if tab.trust is not None:
                self.status_trust.setText(f"trust: {tab.trust.verdict}")
                self.status_trust.setToolTip(tab.trust.detail)
            else:
                self.status_trust.setText("")
        # (the default: a preview may run another profile, chosen in its own box)
        self.status_profile.setText(f"default profile {self.settings.default_profile} · timeout "
                                    f"{self.settings.regex_timeout_ms} ms")
        self.status_profile.setToolTip("Settings: the profile validation, tests, the corpus lab and trust run with, "
                                       "and new previews start from (each preview can choose its own)")

    def close_tab(self, index: int) -> bool:
        widget = self.tabs.widget(index)
        if not isinstance(widget, DocumentTab):
            return False
        if widget.is_dirty():
            answer = QMessageBox.question(
                self, "Unsaved changes", f"Save changes to {widget.doc.display_name}?",
                QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
            if answer == QMessageBox.StandardButton.Cancel:
                return False
            if answer == QMessageBox.StandardButton.Save and not widget.save():
                return False
        widget.close_cleanly()
        self.undo_group.removeStack(widget.undo_stack)
        self.tabs.removeTab(index)
        if widget.path is not None:
            self.explorer.set_badge(widget.path, "dirty", "")
        widget.deleteLater()
        self._sync_start_page()
        self._update_status()
        return True

    def close_all_tabs(self) -> bool:
        return all(self.close_tab(self.tabs.indexOf(tab)) for tab in list(self.document_tabs()))

    # -- saving ------------------------------------------------------------------------------------------------
    def save_current(self) -> bool:
        tab = self.current_tab()
        return tab.save() if tab is not None else False

    def save_as_current(self) -> bool:
        tab = self.current_tab()
        if tab is None:
            return False
        start = str(tab.path or self.workspace or Path.home())
        name, _ = QFileDialog.getSaveFileName(self, "Save As", start, "JSON (*.json);;TOML (*.toml);;All files (*)")
        if not name:
            return False
        old = tab.path
        ok = tab.save(Path(name))
        if ok:
            self.tabs.setTabText(self.tabs.indexOf(tab), tab.title())
            self.tabs.setTabToolTip(self.tabs.indexOf(tab), name)
            if old is not None:
                self.journal.discard(old)
            self.rescan()
        return ok

    def follow_rename(self, old: Path, new: Path) -> None:
        """``old`` was renamed to ``new`` (the explorer's Rename): an open tab follows it, with
        its unsaved edits and their journal entry; the workspace is scanned again."""
        tab = self.tab_for(old)
        if tab is not None:
            tab.follow_rename(new)
            self.tabs.setTabToolTip(self.tabs.indexOf(tab), str(new))
            self.explorer.set_badge(old, "dirty", "")
            self._on_dirty(tab)  # (the tab's title, its ● on the new name, the status bar)
        self.fileRenamed.emit(str(old), str(new))
        self.rescan()

    def save_all(self) -> bool:
        return all([t.save() for t in self.document_tabs() if t.is_dirty()])

    def revert_current(self) -> None:
        tab = self.current_tab()
        if tab is not None and tab.is_dirty():
            answer = QMessageBox.question(self, "Revert", f"Replace your edits of {tab.doc.display_name} with the "
                                          "file on disk? (You can undo this with Ctrl+Z.)")
            if answer == QMessageBox.StandardButton.Yes:
                tab.revert()

    # -- disk events ---------------------------------------------------------------------------------------------
    @Slot(str)
    def _on_file_changed(self, path: str) -> None:
        tab = self.tab_for(Path(path))
        if tab is not None:
            tab.on_disk_changed()
            tab.refresh_trust()
        if Path(path).name == "trust.json":
            for other in self.document_tabs():
                other.refresh_trust()
        self.rescan()

    @Slot(str)
    def _on_file_removed(self, path: str) -> None:
        tab = self.tab_for(Path(path))
        if tab is not None:
            tab.on_disk_removed()
        self.rescan()

    # -- recovery -------------------------------------------------------------------------------------------------
    def offer_recovery(self) -> list[JournalEntry]:
        """Ask to restore buffers journaled by a session that did not end cleanly."""
        entries = [e for e in self.journal.entries(self.workspace) if Path(e.path).exists() or e.text]
        if not entries:
            return []
        names = "\n".join(f"• {Path(e.path).name}" + _since(e) for e in entries[:12])
        answer = QMessageBox.question(
            self, "Restore unsaved edits?",
            f"Rulewright did not close cleanly. Unsaved edits of {len(entries)} file(s) were kept:\n\n{names}\n\n"
            "Restore them? (They open as unsaved changes; nothing is written to disk.)",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Discard, QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            for e in entries:
                self.journal.discard(e.path)
            return []
        restored = []
        for e in entries:
            gone = not Path(e.path).exists()
            # a file deleted since opens as an unsaved tab under its name: Save writes it again
            tab = self.open_file(Path(e.path), missing_ok=True)
            if tab is None:
                self.log(f"Could not restore the unsaved edits of {e.path}; they stay in the journal")
                continue
            tab.restore_text(e.text)
            if gone:
                tab.on_disk_removed()
            elif e.base_sha256 is not None and e.disk_changed():
                tab.edited_from(e.base_sha256)
            restored.append(e)
            self.log(f"Restored unsaved edits of {e.path}" + (" (the file is gone: save to write it again)"
                                                              if gone else ""))
        return restored

    @Slot(str)
    def _on_journal_problem(self, message: str) -> None:
        """A journal write failed (disk full, no permission): unsaved edits are not protected."""
        if message:
            self.log(message)
            self.statusBar().showMessage(message)  # stays until the next message: it matters
        else:
            self.statusBar().clearMessage()

    # -- new files -------------------------------------------------------------------------------------------------
    def new_pack_dialog(self, language: str = "") -> None:
        from app.new_files import NewPackDialog

        dialog = NewPackDialog(self, self.workspace)
        if language:
            dialog.language.setText(language)
            dialog.category.setFocus()
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.new_pack(dialog.language.text().strip(), dialog.category.text().strip())

    def new_pack(self, language: str, category: str) -> DocumentTab | None:
        if self.workspace is None:
            return None
        for value in (language, category):
            problem = templates.check_file_name(value)
            if problem:
                QMessageBox.warning(self, "New pack", f"'{value}': {problem}")
                return None
        from engine.caveman.scaffold import render_pack, scaffold_pack

        path = templates.pack_path(self.workspace, language, category)
        return self._create(path, render_pack(scaffold_pack(language, category)))

    def new_filter_dialog(self) -> None:
        from app.new_files import NewFilterDialog

        dialog = NewFilterDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.new_filter(*dialog.values())

    def new_filter_from_samples(self):
        from app.learn_dialog import open_learn_dialog

        self.learn_dialog = open_learn_dialog(self)
        return self.learn_dialog

    def new_filter(self, ident: str, command: str, sample: str | None = None) -> DocumentTab | None:
        """A filter file for ``command`` (engine.rtk.scaffold); a sample becomes its first test and
        the RTK preview's sample."""
        from engine.rtk.scaffold import ScaffoldError, render_filter, scaffold_filter

        if self.workspace is None:
            return None
        try:
            value = scaffold_filter(ident, command, sample)
        except ScaffoldError as exc:
            QMessageBox.warning(self, "New filter", str(exc))
            return None
        tab = self._create(templates.filter_path(self.workspace, ident), render_filter(value))
        preview = self.panel_widgets.get("rtk-preview")
        if tab is not None and preview is not None and hasattr(preview, "load_command_sample"):
            preview.load_command_sample(command, sample or "")
        return tab

    def reset_example_workspace(self) -> None:
        """Help ▸ Reset Example Workspace: says which of the user's edits it moves aside, asks, then
        puts a fresh copy in place (the old one is kept in a folder next to it, never deleted)."""
        from engine.workspace.example import example_changes, reset_example_workspace, user_example_workspace

        target = user_example_workspace()
        open_here = self.workspace is not None and target.exists() and same_file(self.workspace, target)
        if open_here and not self.close_all_tabs():
            return
        changes = example_changes()
        listed = "\n".join(f"• {rel} ({how})" for rel, how in changes[:15])
        more = f"\n… and {len(changes) - 15} more" if len(changes) > 15 else ""
        body = (f"Your edits of the example workspace:\n\n{listed}{more}\n\nThey are moved to a folder next to "
                "it (nothing is deleted), and a fresh copy of the example takes its place."
                if changes else "Your copy of the example workspace has no edits; it is replaced by a fresh copy."
                if target.is_dir() else "You have no copy of the example workspace yet; a fresh one is made.")
        answer = QMessageBox.question(self, "Reset Example Workspace", body,
                                      QMessageBox.StandardButton.Reset | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        if answer != QMessageBox.StandardButton.Reset:
            return
        backup = reset_example_workspace()
        if backup is not None:
            self.log(f"Reset the example workspace; your previous copy is in {backup}")
            self.statusBar().showMessage(f"Example workspace reset; your previous copy is in {backup.name}", 10000)
        if open_here or self.workspace is None:
            self.workspace = None
            self.open_workspace(target, restore=False)

    def _create(self, path: Path, text: str) -> DocumentTab | None:
        if path.exists():
            QMessageBox.information(self, "Already exists", f"{path} already exists; opening it.")
            return self.open_file(path)
        from engine.fsutil import atomic_write_text

        atomic_write_text(path, text)
        self.log(f"Created {path}")
        self.rescan()
        return self.open_file(path)

    # -- navigation ------------------------------------------------------------------------------------------------
    @Slot(object)
    def go_to_diagnostic(self, d: Diagnostic) -> None:
        if not d.path:
            return
        tab = self.open_file(Path(d.path))
        if tab is None:
            return
        end = (d.end_line, d.end_column) if d.end_line and d.end_column else None
        tab.go_to(d.line or 1, d.column or 1, end)
        self.statusBar().showMessage(f"{d.level}: {d.message}", 8000)

    def step_diagnostic(self, step: int) -> None:
        panel = self.diagnostics_panel
        rows = panel.proxy.rowCount()
        if not rows:  # (F8 / Shift+F8 said nothing: a key that does nothing looks broken)
            hidden = panel.model.rowCount()  # (all of them, when the panel's filter shows none)
            self.statusBar().showMessage("No diagnostic to go to" + (f" ({hidden} hidden by the panel's filter)"
                                                                     if hidden else ""), 4000)
            return
        current = panel.view.currentIndex().row()
        row = (current + step) % rows if current >= 0 else (0 if step > 0 else rows - 1)
        panel.view.selectRow(row)
        d = panel.row_diagnostic(row)
        if d is not None:
            self.go_to_diagnostic(d)

    def go_to_line(self) -> None:
        tab = self.current_tab()
        if tab is None:
            return
        line, ok = QInputDialog.getInt(self, "Go to line", "Line:", tab.editor.textCursor().blockNumber() + 1, 1,
                                       tab.editor.blockCount())
        if ok:
            tab.go_to(line, 1)

    def quick_open(self) -> None:
        if self.index is None or not self.index.files:
            where = f" in {self.workspace.name}" if self.workspace is not None else ""
            self.statusBar().showMessage(f"Go to File: no packs or filters{where} yet (File ▸ New Pack or New Filter)",
                                         5000)
            return
        names = [f.path.relative_to(self.index.root).as_posix() for f in self.index.files]
        picker = FilePicker(names, self)
        picker.move(self.geometry().center().x() - picker.width() // 2, self.geometry().top() + 80)
        if picker.exec() and isinstance(picker.chosen, str):
            tab = self.open_file(self.index.root / picker.chosen)
            if tab is not None:  # (from the keyboard: the keys go on into the file)
                tab.focus_view()

    def open_palette(self) -> CommandPalette:
        palette = CommandPalette(list(self.actions_.values()), self)
        palette.move(self.geometry().center().x() - palette.width() // 2, self.geometry().top() + 80)
        palette.exec()
        return palette

    # -- dialogs -----------------------------------------------------------------------------------------------------
    def open_workspace_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open workspace", str(self.workspace or Path.home()))
        if folder:
            self.open_workspace(Path(folder))

    def open_example_workspace(self) -> None:
        from engine.workspace.example import ensure_example_workspace

        self.open_workspace(ensure_example_workspace())

    def open_file_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open file", str(self.workspace or Path.home()),
                                              "Rules and filters (*.json *.toml);;All files (*)")
        if name:
            self.open_file(Path(name))

    def about(self) -> None:
        from engine import __version__

        QMessageBox.about(self, "About Rulewright",
                          f"Rulewright {__version__}\n\nAuthor, preview, test and trust the rules that shrink "
                          "what coding agents send to LLMs.")

    def log(self, message: str) -> None:
        self.output.appendPlainText(message)

    # -- drag and drop -------------------------------------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        self.open_dropped([Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()])
        event.acceptProposedAction()

    def open_dropped(self, paths: list[Path]) -> None:
        for path in paths:
            if path.is_dir():
                self.open_workspace(path)
            elif path.is_file():
                self.open_file(path)

    # -- closing -------------------------------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        dirty = [t for t in self.document_tabs() if t.is_dirty()]
        if dirty:
            answer = QMessageBox.question(
                self, "Unsaved changes", f"Save changes to {len(dirty)} file(s) before closing?",
                QMessageBox.StandardButton.SaveAll | QMessageBox.StandardButton.Discard
                | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.SaveAll)
            if answer == QMessageBox.StandardButton.Cancel:
                event.ignore()
                return
            if answer == QMessageBox.StandardButton.SaveAll and not self.save_all():
                event.ignore()
                return
        for tab in self.document_tabs():
            tab.close_cleanly()
        for widget in self.panel_widgets.values():  # stop background work before Qt waits for it
            shutdown = getattr(widget, "shutdown", None)
            if callable(shutdown):
                shutdown()
        if not self.docs_mode:
            self.scratch.flush()
            self.settings.open_files = [str(t.path) for t in self.document_tabs() if t.path is not None]
            self.save_window_state()
            self.settings.save()
        self.watcher.stop()
        event.accept()

    def _scratch_failed(self, message: str) -> None:
        self.log(f"Could not keep the previews' inputs: {message}")
        self.statusBar().showMessage(f"Could not keep the previews' inputs: {message}", 8000)

    def restore_window_state(self) -> bool:
        """Geometry and dock layout of the last session, clamped to the screen it opens on
        (docs mode always uses the defaults)."""
        geometry, _, rest = self.settings.window_state.partition(";")
        state, _, list_width = rest.partition(";")
        if not geometry:
            return False
        ok = self.restoreGeometry(QByteArray.fromBase64(geometry.encode()))
        if state:
            ok = self.restoreState(QByteArray.fromBase64(state.encode())) and ok
        if list_width.isdigit():
            VisualEditor.remembered_list_width = int(list_width)
        self.fit_to_screen()
        return ok

    def save_window_state(self) -> None:
        """Geometry, docks (``saveState``) and the rule list's width, in the user's settings (the
        panels at their own height: maximizing them is for now, not the next session)."""
        if self._panels_height_before is not None:
            self.toggle_panels_maximized()
        self.preview_placement.settle()  # the next session starts on whatever tab it restores
        geometry = bytes(self.saveGeometry().toBase64().data()).decode()
        state = bytes(self.saveState().toBase64().data()).decode()
        self.settings.window_state = f"{geometry};{state};{VisualEditor.remembered_list_width or ''}"

    def fit_to_screen(self) -> None:
        """Shrink and move the window (frame included) into its screen's available area."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None or self.isMaximized() or self.isFullScreen():
            return
        available = screen.availableGeometry()
        frame = self.frameGeometry()
        extra_w, extra_h = frame.width() - self.width(), frame.height() - self.height()
        width = min(self.width(), available.width() - extra_w)
        height = min(self.height(), available.height() - extra_h)
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)
        x = min(max(frame.x(), available.x()), available.right() + 1 - (width + extra_w))
        y = min(max(frame.y(), available.y()), available.bottom() + 1 - (height + extra_h))
        if (x, y) != (frame.x(), frame.y()):
            self.move(x, y)

    def apply_default_dock_sizes(self) -> None:
        """The editor gets about half the width; the explorer a sixth, the preview a third, the
        bottom panels a quarter of the height. Shares, not pixels: right at every screen size
        (the explorer and the bottom panels capped in characters and lines on large screens)."""
        width, height = self.width(), self.height()
        chars, line = self.fontMetrics().averageCharWidth(), self.fontMetrics().lineSpacing()
        docks, sizes = [], []
        if self.explorer_dock.isVisible():  # on a large screen a file tree needs no more than ~45 chars
            docks.append(self.explorer_dock)
            sizes.append(min(width * EXPLORER_SHARE // 100, chars * EXPLORER_MAX_CHARS))
        if self.right_dock.isVisible():
            docks.append(self.right_dock)
            sizes.append(width * PREVIEW_SHARE // 100)
        if docks:
            self.resizeDocks(docks, sizes, Qt.Orientation.Horizontal)
        if self.bottom_dock.isVisible():
            self.resizeDocks([self.bottom_dock], [min(height * BOTTOM_SHARE // 100, line * BOTTOM_MAX_LINES)],
                             Qt.Orientation.Vertical)

    def toggle_panels_maximized(self) -> None:
        """The bottom panels at most of the window's height, or back at the height they had: on
        an ordinary screen they get a quarter, where the Trust tab's risk review, the test diff
        or the corpus table show a few lines (1280×720: one line of the risk review)."""
        self.bottom_dock.show()
        if self._panels_height_before is None:
            self._panels_height_before = self.bottom_dock.height()
            height = self.height() * PANELS_MAXIMIZED_SHARE // 100
        else:
            height, self._panels_height_before = self._panels_height_before, None
        self.resizeDocks([self.bottom_dock], [height], Qt.Orientation.Vertical)
        self._sync_maximize_button()

    def _sync_maximize_button(self) -> None:
        maximized = self._panels_height_before is not None
        self.actions_["maximize_panels"].setChecked(maximized)
        self.maximize_button.setText("▾" if maximized else "▴")
        self.maximize_button.setToolTip(("Restore the panels' height" if maximized else "Maximize the panels")
                                        + f" ({self.actions_['maximize_panels'].shortcut().toString()}, "
                                        "or double-click a tab)")

    def reset_layout(self) -> None:
        """View ▸ Reset Layout: every dock back in its place and shown, at the default sizes."""
        self.restoreState(self._default_state)
        for dock in (self.explorer_dock, self.bottom_dock, self.right_dock):
            dock.setFloating(False)
            dock.show()
        self.right_dock.setVisible(self.right.count() > 0)
        self.preview_placement.reset()
        self.fit_to_screen()
        self.apply_default_dock_sizes()
        self._panels_height_before = None
        self._sync_maximize_button()
        for tab in self.document_tabs():
            if tab.visual is not None:
                tab.visual.reset_layout()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self.docs_mode and not self._fitted:  # the frame is known once shown
            self._fitted = True
            self.fit_to_screen()

    def sizeHint(self) -> QSize:
        """1400×900 where it fits; on a smaller screen its whole available area (frame included)."""
        screen = self.screen() or QApplication.primaryScreen()
        wanted = QSize(1400, 900)
        if screen is None:
            return wanted
        available = screen.availableGeometry().size()
        frame = self.frameGeometry().size() - self.size() if self.isVisible() else QSize(0, 0)
        return wanted.boundedTo(available - frame)


def _since(entry: JournalEntry) -> str:
    """What happened on disk to a journaled file since its buffer was read, as the recovery
    question says it ("deleted" opens the buffer as a file to write again)."""
    if not Path(entry.path).exists():
        return "  (deleted on disk since)" if entry.base_sha256 is not None else "  (never saved)"
    return "  (changed on disk since)" if entry.disk_changed() else ""
