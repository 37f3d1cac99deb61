"""The Tests panel: every RTK ``tests[]`` of the workspace, pass/fail, diffs, accept-actual.

Runs happen in a worker (one in flight, latest wins) with progress and cancel; unsaved buffers
are tested as they are in the editor. A run starts when the workspace is first scanned, on F5,
and after a save (the watcher reports every write of a filter file, ours included, and external
edits too).
"Accept actual" and "Add test" edit the file through its tab's undo stack, so Ctrl+Z reverts them.
"""

from __future__ import annotations

import functools
import html
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QColor, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.icons import SymbolIconDelegate
from app.panels import offer_command, register_panel
from app.playground.common import Badge, DiffView, compact, docs_focus, mono_label, scanned_entries
from app.playground.jobs import panel_jobs
from app.theme import mono_font, tints
from app.timers import single_shot
from app.undo import SpliceCommand
from app.widgets.elided import ElidedLabel
from app.widgets.elided_combo import ElidedComboBox
from app.widgets.empty_state import EmptyState
from app.widgets.previewkit import ActiveTabHook
from app.widgets.scrollbody import scroll_body
from app.widgets.trees import child_items, top_items
from app.workers import Dispatcher
from engine import jsonedit, jsontree
from engine.workspace.filter_files import (
    FILTER_KINDS,
    filter_files_of,
    filter_pointers,
    is_filter_file,
)
from engine.workspace.kinds import FileKind
from engine.workspace.panel_models.tests_panel import (
    ActivationPreview,
    TestRow,
    TestRunResult,
    accept_actual_splice,
    activation_pool,
    new_test_splice,
    preview_activation,
    preview_test,
    run_workspace_tests,
    unique_test_name,
)

if TYPE_CHECKING:
    from app.document_tab import DocumentTab
    from app.mainwindow import MainWindow

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
AUTO_RUN_BYTES = 1024 * 1024  # bigger filter sets run on F5 / when the panel is shown, not on every save
SELECT_HINT = "Select a test to see expected vs actual."
ADD_TEST_HINT = ("No tests yet. Open a filter file and use “Add test from preview…” (it records what the filter "
                 "produces for the preview's sample), or add a \"tests\" array of {name, input, expected} to a "
                 "filter in its JSON.")


class _Progress(QObject):
    """Lives in the GUI thread; the worker's progress callback emits through it (queued)."""

    step = Signal(int, int, str)


class AddTestDialog(QDialog):
    """Name, command and input of a new test; the expected output is computed by the engine.

    ``check(filter_id, command, sample)`` (an engine call, run off the GUI thread as the fields
    change) says whether the command will select the chosen filter, so a test that would fail
    its activation check is seen before it is written."""

    def __init__(self, filter_ids: list[str], name: str, command: str, sample: str,
                 parent: QWidget | None = None,
                 check: Callable[[str, str, str], ActivationPreview] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add test")
        form = QFormLayout(self)
        self.filter = ElidedComboBox()
        self.filter.addItems(filter_ids)
        self.name = QLineEdit(name)
        self.command = QLineEdit(command)
        self.command.setPlaceholderText("the command the output came from (checks activation)")
        self.activation = QLabel()
        self.activation.setWordWrap(True)
        self.activation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.input = QPlainTextEdit(sample)
        self.input.setFont(mono_font())
        self.input.setPlaceholderText("Paste command output here")
        form.addRow("Filter", self.filter)
        form.addRow("Name", self.name)
        form.addRow("Command", self.command)
        form.addRow("", self.activation)
        form.addRow("Input", self.input)
        note = QLabel("The expected output is what the filter produces now; review it in the JSON view.")
        note.setWordWrap(True)
        form.addRow(note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.verdict: ActivationPreview | None = None
        self._check = check
        self._checker = Dispatcher(self, debounce_ms=150)
        self._checker.finished.connect(self._on_checked)
        self._checker.failed.connect(lambda _job, message: self._show(None, "The activation check failed: "
                                                                          + message.splitlines()[0]))
        self.filter.currentTextChanged.connect(self._recheck)
        self.command.textChanged.connect(self._recheck)
        self.input.textChanged.connect(self._recheck)
        self.activation.setVisible(check is not None)
        self.resize(600, self.sizeHint().height())  # (a wrapped verdict reads in a few lines, not eight)
        if check is not None:
            self._show(None, "Checking which filter this command selects…")
            self._recheck(immediate=True)

    def _recheck(self, *_args: object, immediate: bool = False) -> None:
        if self._check is None:
            return
        self.verdict = None  # (what was shown is for the fields as they were)
        self.activation.setEnabled(False)
        self._checker.request(self._check, self.filter.currentText(), self.command.text(),
                              self.input.toPlainText(), immediate=immediate)

    def _on_checked(self, _job: int, verdict: ActivationPreview) -> None:
        self.verdict = verdict
        self._show(verdict.passes, verdict.message)

    def _show(self, passes: bool | None, message: str) -> None:
        t = tints()
        colour = {True: t.string, False: t.error}.get(passes) if passes is not None else None
        self.activation.setEnabled(True)
        self.activation.setStyleSheet(f"color: {colour};" if colour else "")
        self.activation.setText(message)


def _run(root: Path | None, entries: list | None, buffers: dict[Path, str], profile: str, progress: _Progress,
         cancel: threading.Event, with_builtins: bool) -> TestRunResult:
    """Worker job: list the filter files (from the scan's entries, or by walking ``root``), run them."""
    files = [] if root is None else filter_files_of(root, entries)

    def report(done: int, total: int, label: str) -> None:
        try:
            progress.step.emit(done, total, label)
        except RuntimeError:  # the panel was deleted while the run went on
            cancel.set()

    return run_workspace_tests(files, buffers=buffers, profile=profile, progress=report, cancel=cancel,
                               with_builtins=with_builtins)


class TestsPanel(QWidget):
    """Bottom panel: run, tree of results, detail (diff + activation), accept / add test."""

    ranChanged = Signal()

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window_ = window
        self.result: TestRunResult | None = None
        self._cancel = threading.Event()
        self._progress = _Progress(self)
        self._progress.step.connect(self._on_progress)
        self.runner = panel_jobs(self, window)
        self.runner.finished.connect(self._on_finished)
        self.runner.failed.connect(self._on_failed)
        self.runner.activity.connect(self._on_activity)
        self._autorun = single_shot(self, 400, self.run_tests)
        self._scanned_root: Path | None = None
        self._pending_autorun = False
        self._run_failed = False  # the last run raised (its message is in Output)
        self.outdated = False  # a filter buffer changed after the shown run
        self._ran_with: tuple[str, int] | None = None  # the profile and regex timeout of the last run
        self._badged: set[Path] = set()  # files whose ✓/✗ the explorer shows (see _badge_files)

        self.run_button = QPushButton("▶ Run all")
        self.run_button.setToolTip("Run every tests[] of the workspace (F5)")
        self.run_button.clicked.connect(self.run_tests)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.summary = Badge("not run yet", "muted")
        self.auto = QCheckBox("Auto")
        self.auto.setToolTip("Run the tests again after every edit (undo and redo too) and save of a filter file; "
                             "off: an edit marks the results as outdated until F5")
        self.auto.setChecked(True)
        self.builtins = QCheckBox("vs built-ins")
        self.builtins.setToolTip("Activation check: let Rulewright's bundled filters compete for each test's command "
                                 "(as they would next to your filters at run time)")
        self.builtins.toggled.connect(lambda _on: self.run_tests())
        self.failed_only = QCheckBox("Failures only")
        self.failed_only.toggled.connect(lambda _on: self._fill_tree())
        self.accept_button = QPushButton("Accept actual")
        self.accept_button.setToolTip("Write the actual output into this test's expected (undoable with Ctrl+Z)")
        self.accept_button.clicked.connect(self.accept_selected)
        self.add_button = QPushButton("Add test from preview…")
        self.add_button.setToolTip("Add a test to the current filter file from the preview sample "
                                   "(expected = what the filter produces now)")
        self.add_button.clicked.connect(self.add_test_from_preview)
        bar = QHBoxLayout()
        for w in (self.run_button, self.cancel_button, self.progress, self.summary):
            bar.addWidget(w)
        bar.addStretch(1)
        for option in (self.failed_only, self.builtins, self.auto, self.accept_button, self.add_button):
            bar.addWidget(option)

        self.tree = QTreeWidget()
        self.tree.setItemDelegate(SymbolIconDelegate(self.tree))  # ✓/✗/⚠ drawn as icons
        self.tree.setHeaderLabels(["Test", "Result", "Activation", "Savings"])
        self.tree.setColumnWidth(0, 300)
        self.tree.setColumnWidth(1, 70)
        self.tree.setColumnWidth(2, 190)
        self.tree.setAlternatingRowColors(True)
        header = self.tree.headerItem()
        header.setToolTip(1, "Does the filter alone turn input into expected? (OmniRoute's verify gate)")
        header.setToolTip(2, "Does the test's command select this filter? (VT-Q5: the gate itself ignores it)")
        header.setToolTip(3, "Estimated token savings on this test's input (the gate's per-category benchmark)")
        self.tree.currentItemChanged.connect(self._on_current)
        self.tree.itemActivated.connect(lambda item, _c: self.go_to_item(item))  # Enter or double-click
        self.detail_title = ElidedLabel(SELECT_HINT)  # names, paths and errors: one line, full text in the tooltip
        self.activation = mono_label("")
        self.diff = DiffView()
        detail = QWidget()
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(self.detail_title)
        dl.addWidget(self.activation)
        dl.addWidget(self.diff, 1)
        split = QSplitter()
        split.addWidget(self.tree)
        split.addWidget(detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 4)
        lay = QVBoxLayout(scroll_body(self))  # scrolls rather than force a minimum on its dock
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(bar)
        lay.addWidget(split, 1)
        compact(self)

        # "Run Tests" (F5): a window action; the palette's action table and the Run menu get it once
        # the window has built them (panels are created before the window's actions and menus).
        self.run_action = QAction("Run &Tests", window)
        self.run_action.setShortcut(QKeySequence("F5"))
        self.run_action.setToolTip("Run every tests[] of the workspace")
        self.run_action.triggered.connect(lambda _checked=False: self._run_from_shortcut())
        window.addAction(self.run_action)
        QTimer.singleShot(0, self._register_action)
        window.workspaceScanned.connect(self._on_scanned)
        window.workspaceOpened.connect(lambda _root: self._update_empty())
        window.watcher.fileChanged.connect(self._on_disk_change)
        window.watcher.fileRemoved.connect(self._on_disk_change)  # a deleted file's rows go with the next run
        window.settingsApplied.connect(self._on_settings_applied)
        self._edits = ActiveTabHook(window, lambda _tab: None, self._on_tab_edited, lambda *_a: None)
        self.empty = EmptyState.over(self.tree)
        self._update_buttons()
        self._update_empty()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        docs_focus(self.window_, bottom_share=0.5)
        if self._pending_autorun:
            self.run_tests()

    # -- running ------------------------------------------------------------------------------------
    @Slot()
    def run_tests(self) -> int:
        """Start a run (replacing any queued one); returns its job id."""
        self._autorun.stop()
        self._pending_autorun = False
        self._run_failed = False
        self._cancel.set()  # a run in flight stops at its next file; its result is dropped anyway
        self._cancel = threading.Event()
        self.progress.setValue(0)
        self.progress.show()
        self._ran_with = self._run_settings()
        return self.runner.request(_run, self.window_.workspace, scanned_entries(self.window_), self.window_.unsaved_buffers(),
                                   self.window_.settings.default_profile,
                                   self._progress, self._cancel, self.builtins.isChecked(), immediate=True)

    def _register_action(self) -> None:
        offer_command(self.window_, "run_tests", self.run_action, "Run")

    def _run_from_shortcut(self) -> None:
        self.window_.show_panel("tests")
        self.run_tests()

    @Slot()
    def cancel(self) -> None:
        self._cancel.set()
        self.runner.cancel_pending()

    def shutdown(self) -> None:
        """The window is closing: a run in flight stops at its next test."""
        self.cancel()

    @Slot(int, int, str)
    def _on_progress(self, done: int, total: int, label: str) -> None:
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"{label} (%p%)")

    @Slot(int)
    def _on_activity(self, running: int) -> None:
        self.cancel_button.setEnabled(bool(running))
        if not running:
            self.progress.hide()
        self._update_empty()

    @Slot(int, object)
    def _on_finished(self, _job: int, result: TestRunResult) -> None:
        previous = self._selected_key()
        self.result = result
        self.outdated = self._autorun.isActive()  # an edit arrived while this run was in flight
        self.progress.setVisible(self.runner.busy)
        self._fill_tree(previous)
        level = "muted" if result.cancelled or not result.rows else "bad" if result.failed else "ok"
        self.summary.set(result.summary(), level)
        self.summary.setToolTip(f"{len(result.rows)} test(s) in {result.seconds:.2f} s")
        self._update_title()
        self._badge_files(result)
        self.ranChanged.emit()

    def _badge_files(self, result: TestRunResult) -> None:
        """Each filter file's ✓/✗ in the explorer, from this run (a file it did not reach, or
        without tests, has none)."""
        explorer = getattr(self.window_, "explorer", None)
        if explorer is None:
            return
        badged: set[Path] = set()
        for f in result.files:
            if not f.rows:
                continue
            path = Path(f.path)
            # (the icon alone: words would push the file's name and its trust out of a narrow
            # explorer; the counts are in the tooltip)
            if f.failed:
                explorer.set_badge(path, "tests", "✗", f"{f.failed} of {len(f.rows)} inline test(s) fail")
            else:
                explorer.set_badge(path, "tests", "✓", f"all {len(f.rows)} inline test(s) pass")
            badged.add(path)
        for path in self._badged - badged:
            explorer.set_badge(path, "tests", "")
        self._badged = badged

    @Slot(int, str)
    def _on_failed(self, _job: int, message: str) -> None:
        self.summary.set("run failed", "bad")
        self._run_failed = True
        self.detail_title.setText(message.splitlines()[0] if message else "run failed")
        self.window_.log(f"Tests run failed: {message}")

    def _update_title(self) -> None:
        bottom = self.window_.bottom
        index = bottom.indexOf(self)
        if index < 0 or self.result is None:
            return
        if self.result.rows:
            bottom.setTabText(index, f"Tests (✓ {self.result.passed} ✗ {self.result.failed})")
        else:
            bottom.setTabText(index, "Tests")

    # -- automatic runs -----------------------------------------------------------------------------
    def _filter_bytes(self) -> int:
        index = self.window_.index
        if index is None:
            return 0
        return sum(f.size for f in index.files if f.kind in FILTER_KINDS or f.path.suffix == ".toml")

    def _may_autorun(self) -> bool:
        """Automatic runs are for filter sets that test quickly, or when the panel is in view."""
        return self.isVisible() or self._filter_bytes() <= AUTO_RUN_BYTES

    @Slot()
    def _on_scanned(self) -> None:
        w = self.window_
        if w.workspace is not None and w.workspace != self._scanned_root:
            self._scanned_root = w.workspace
            if self._may_autorun():
                self.run_tests()
            else:
                self._pending_autorun = True
                self.summary.set("large filter set: F5 runs the tests", "muted")
        self._update_empty()

    @Slot(str)
    def _on_disk_change(self, path: str) -> None:
        if not self.auto.isChecked():
            return
        known = self.result is not None and any(f.path == path for f in self.result.files)
        if (known or is_filter_file(Path(path))) and self._may_autorun():
            self._autorun.start()

    def _on_tab_edited(self, tab: DocumentTab) -> None:
        """A filter buffer changed (typing, a form, accept actual, undo, redo, reload): the results
        no longer match it, so they are marked outdated at once and re-run after a short pause."""
        if self.result is None or not (tab.doc.kind in FILTER_KINDS or tab.doc.kind == FileKind.RTK_TOML):
            return
        if tab.path is not None and tab.path in self._badged:  # (its ✓/✗ no longer holds: none until the next run)
            self.window_.explorer.set_badge(tab.path, "tests", "")
            self._badged.discard(tab.path)
        self._mark_outdated("A filter file changed since this run")

    def _on_settings_applied(self) -> None:
        """Settings ▸ OK: a run under another default profile or regex timeout no longer holds."""
        if self.result is not None and self._run_settings() != self._ran_with:
            self._mark_outdated(f"The profile or the regex timeout changed since this run "
                                f"(now {self.window_.settings.default_profile})")

    def _run_settings(self) -> tuple[str, int]:
        settings = self.window_.settings
        return settings.default_profile, settings.regex_timeout_ms

    def _mark_outdated(self, why: str) -> None:
        """The shown run no longer holds: marked at once, and run again after a short pause."""
        if self.result is None:
            return
        self.outdated = True
        self._update_buttons()  # accepting an outdated row could write an old actual output
        self.summary.set(f"outdated · {self.result.summary()}", "muted")
        index = self.window_.bottom.indexOf(self)
        if index >= 0:
            self.window_.bottom.setTabText(index, "Tests (outdated)")  # not the old counts
        self.summary.setToolTip(f"{why}; " + ("re-running…" if self.auto.isChecked() else "F5 runs the tests again"))
        if self.auto.isChecked() and self._may_autorun():
            self._autorun.start()

    # -- tree ---------------------------------------------------------------------------------------
    def _relative(self, path: str) -> str:
        root = self.window_.workspace
        try:
            return str(Path(path).relative_to(root)) if root else path
        except ValueError:
            return path

    def _fill_tree(self, keep: tuple | None = None) -> None:
        self.tree.clear()
        if self.result is None:
            self._update_empty()
            return
        t = tints()
        failed_only = self.failed_only.isChecked()
        select = None
        for file_tests in self.result.files:
            rows = [r for r in file_tests.rows if not (failed_only and r.passed)]
            errors = [d for d in file_tests.diagnostics if d.level == "error"]
            if failed_only and not rows and not errors:
                continue
            status = f"✗ {file_tests.failed}" if file_tests.failed else ("✖ error" if errors else "✓")
            file_item = QTreeWidgetItem([self._relative(file_tests.path), status, "", ""])
            file_item.setData(0, ROW_ROLE, ("file", file_tests.path))
            file_item.setToolTip(0, file_tests.path)
            self.tree.addTopLevelItem(file_item)
            for d in errors:
                err = QTreeWidgetItem([f"✖ {d.message}", "error", "", ""])
                err.setForeground(0, QColor(t.error))
                err.setData(0, ROW_ROLE, ("diag", d))
                err.setToolTip(0, d.format() if hasattr(d, "format") else d.message)
                file_item.addChild(err)
            by_filter: dict[str, QTreeWidgetItem] = {}
            for row in rows:
                parent = by_filter.get(row.filter_id)
                if parent is None:
                    parent = QTreeWidgetItem([row.filter_id, "", "", ""])
                    parent.setData(0, ROW_ROLE, ("filter", row))
                    file_item.addChild(parent)
                    by_filter[row.filter_id] = parent
                status = "✓ pass" if row.passed else "✗ fail"
                if row.quirk:  # a reference quirk changed this result: say which, with strict's answer
                    status += " · " + ", ".join(row.quirk["ids"])
                item = QTreeWidgetItem([row.test_name, status,
                                        self._activation_text(row), f"{row.savings_percent:.0f}%"])
                item.setForeground(1, QColor(t.string if row.passed else t.error))
                if row.quirk:
                    item.setToolTip(1, row.quirk["message"])
                if row.activation_ok is False:
                    item.setForeground(2, QColor(t.warning))
                    item.setToolTip(2, self._activation_detail(row))
                item.setData(0, ROW_ROLE, ("test", row))
                parent.addChild(item)
                if keep is not None and row.key == keep:
                    select = item
            for fid in file_tests.without_tests:
                if fid not in by_filter and not failed_only:
                    item = QTreeWidgetItem([fid, "no tests", "", ""])
                    item.setForeground(1, QColor(t.punct))
                    file_item.addChild(item)
            for parent in by_filter.values():
                fails = sum(1 for child in child_items(parent) if not child.data(0, ROW_ROLE)[1].passed)
                parent.setText(1, f"✗ {fails}" if fails else "✓")
                parent.setForeground(1, QColor(t.error if fails else t.string))
                parent.setExpanded(True)
            file_item.setExpanded(True)
        # the row chosen before stays, unless the file in the active tab now fails and it lies elsewhere
        active = self._active_path()
        preferred = self._first_failure(active)
        if select is None or (preferred is not None and active is not None and self._file_of(preferred) == active
                              and self._file_of(select) != active):
            select = preferred
        if select is not None:
            self.tree.setCurrentItem(select)
        else:
            self._on_current(None, None)
        self._update_empty()

    def _update_empty(self) -> None:
        """An empty tree says why and offers the next step (ux.md: empty states say what to do)."""
        if self.tree.topLevelItemCount():
            self.empty.clear()
            return
        window_action = getattr(self.window_, "actions_", {}).get
        result = self.result
        if self.window_.workspace is None:
            self.empty.show_message("No workspace is open. Open a folder with RTK filter files to run their "
                                    "tests[] here.", [window_action("open_workspace"), window_action("open_example")])
        elif self.runner.busy:
            self.empty.show_message("Running the tests…")
        elif result is None or result.cancelled or self._run_failed:
            why = ("The last run failed (the Output panel has the error)." if self._run_failed
                   else "The last run was cancelled." if result is not None else "The tests have not run yet.")
            self.empty.show_message(f"{why} Run every tests[] of the workspace with Run all or F5.",
                                    [self.run_action])
        elif not result.files:
            self.empty.show_message(
                "No RTK filter files in this workspace. A new filter (File ▸ New Filter…) starts with one test; "
                "each test is {name, input, expected} plus, optionally, the command it came from.",
                [window_action("new_filter"), self.run_action])
        else:  # "Failures only" hides every row
            self.empty.show_message(f"No failing tests: all {result.passed} pass.",
                                    [("Show all tests", lambda: self.failed_only.setChecked(False))])

    def _first_failure(self, active: str | None) -> QTreeWidgetItem | None:
        """The first failing test of the file ``active`` (the active tab's), else the first of all:
        the author editing a filter looks for what that edit broke, not at another file's old failure."""
        first = None
        for item in self.test_items():
            if item.data(0, ROW_ROLE)[1].passed:
                continue
            if active is None or self._file_of(item) == active:
                return item
            first = first or item
        return first

    def _active_path(self) -> str | None:
        tab = self.window_.current_tab()
        return str(tab.path) if tab is not None and tab.path is not None else None

    @staticmethod
    def _file_of(item: QTreeWidgetItem) -> str | None:
        """The path of the file a test row lies under (its top-level item)."""
        parent = item.parent()
        while parent is not None:
            item, parent = parent, parent.parent()
        data = item.data(0, ROW_ROLE)
        return data[1] if data and data[0] == "file" else None

    def test_items(self) -> list[QTreeWidgetItem]:
        out = []

        def walk(item: QTreeWidgetItem) -> None:
            data = item.data(0, ROW_ROLE)
            if data and data[0] == "test":
                out.append(item)
            for child in child_items(item):
                walk(child)

        for top in top_items(self.tree):
            walk(top)
        return out

    @staticmethod
    def _activation_text(row: TestRow) -> str:
        if row.activation is None:
            return "— (no command)"
        if row.activation_ok:
            return f"✓ {row.activation.get('criterion') or 'selected'}"
        chosen = row.activation.get("selectedFilterId")
        return f"⚠ picks {chosen}" if chosen else "⚠ no filter"

    @staticmethod
    def _activation_detail(row: TestRow) -> str:
        a = row.activation or {}
        chosen = a.get("selectedFilterId")
        who = f"'{chosen}' ({a.get('selectedSource')})" if chosen else "no filter"
        return (f"For command {a.get('command')!r} (detected type {a.get('detectedType')}), {who} is selected, "
                f"not this filter. OmniRoute's gate ignores tests[].command (VT-Q5); strict fails the test.")

    def _selected_row(self) -> TestRow | None:
        item = self.tree.currentItem()
        data = item.data(0, ROW_ROLE) if item is not None else None
        return data[1] if data and data[0] == "test" else None

    def _selected_key(self) -> tuple | None:
        row = self._selected_row()
        return row.key if row else None

    @Slot(object, object)
    def _on_current(self, item: QTreeWidgetItem | None, _previous) -> None:
        data = item.data(0, ROW_ROLE) if item is not None else None
        if not data or data[0] != "test":
            if data and data[0] == "diag":
                self.detail_title.setText(data[1].message)
            elif self.result is not None and self.result.files and not self.result.rows:
                self.detail_title.setText(ADD_TEST_HINT)
            else:
                self.detail_title.setText(SELECT_HINT)
            self.activation.setText("")
            self.diff.clear()
            self._update_buttons()
            return
        row: TestRow = data[1]
        state = "passes" if row.passed else "fails"
        self.detail_title.setText(f"<b>{row.filter_id}</b> › <b>{row.test_name}</b> {state} — "
                                  f"{self._relative(row.file)}" + (f" {row.pointer}" if row.pointer else "")
                                  + (f"<br>⚑ {html.escape(row.quirk['message'])}" if row.quirk else ""))
        if row.activation is None:
            self.activation.setText("activation: no command in this test (add one to check which filter runs)")
        elif row.activation_ok:
            self.activation.setText(f"activation: ✓ command {row.activation['command']!r} selects this filter "
                                    f"(criterion: {row.activation.get('criterion')}, "
                                    f"type {row.activation.get('detectedType')})")
        else:
            self.activation.setText("activation: ⚠ " + self._activation_detail(row))
        strict_diff = ""
        if row.quirk:  # the strict profile's answer beside OmniRoute's
            from engine.rtk.verify import unified_diff

            strict_diff = unified_diff(row.actual, row.quirk["strictActual"], ("omniroute (actual)", "strict"))
        if row.passed and not strict_diff:
            self.diff.setPlainText("expected == actual:\n\n" + row.actual)
        else:
            self.diff.show_unified("\n".join(p for p in (row.diff, strict_diff) if p),
                                   empty="(the outputs differ only in trailing newlines)")
        self._update_buttons()

    def _update_buttons(self) -> None:
        row = self._selected_row()
        self.accept_button.setEnabled(row is not None and row.can_accept and not self.outdated)
        if row is not None and not row.passed and row.pointer is None:
            self.accept_button.setToolTip("TOML tests are edited by hand (no in-place edit for TOML yet)")
        tab = self._target_tab()
        self.add_button.setEnabled(tab is not None or row is not None)

    # -- navigation ---------------------------------------------------------------------------------
    def go_to_item(self, item: QTreeWidgetItem) -> DocumentTab | None:
        data = item.data(0, ROW_ROLE)
        if not data:
            return None
        kind, payload = data
        if kind == "diag":
            self.window_.go_to_diagnostic(payload)
            return None
        path = payload if kind == "file" else payload.file
        tab = self.window_.open_file(Path(path))
        if tab is None or kind == "file" or payload.pointer is None:
            return tab
        parsed = jsontree.parse(tab.text)
        node = jsontree.resolve(parsed.root, payload.pointer) if parsed.ok else None
        if node is not None:
            line, col = jsontree.LineIndex(tab.text).position(node.start)
            tab.go_to(line, col)
        return tab

    # -- edits (undoable through the document's stack) ----------------------------------------------
    def _open_tab(self, path: str) -> DocumentTab | None:
        tab = self.window_.open_file(Path(path))
        if tab is None:
            self.detail_title.setText(f"Cannot open {path}")
        elif tab.editor.loading:
            self.detail_title.setText(f"{Path(path).name} is still loading; try again in a moment")
            return None
        return tab

    def _apply(self, tab: DocumentTab, splice: jsonedit.Splice, label: str) -> None:
        inverse = tab.apply_splice(splice, "tests")
        tab.undo_stack.push(SpliceCommand(tab, splice, inverse, label, None, already_applied=True))

    @Slot()
    def accept_selected(self) -> bool:
        row = self._selected_row()
        if row is None or not row.can_accept or self.outdated:
            return False
        tab = self._open_tab(row.file)
        if tab is None:
            return False
        try:
            splice = accept_actual_splice(tab.text, row)
        except jsonedit.EditError as exc:
            self.detail_title.setText(f"Cannot accept: {exc}")
            return False
        self._apply(tab, splice, f"Accept actual output of '{row.test_name}'")
        self.window_.statusBar().showMessage(f"Accepted the actual output of '{row.test_name}' (Ctrl+Z undoes it)",
                                             6000)
        self.run_tests()
        return True

    def _target_tab(self) -> DocumentTab | None:
        tab = self.window_.current_tab()
        if tab is not None and tab.doc.kind in (FileKind.RTK_FILTER, FileKind.RTK_FILTERS):
            return tab
        return None

    def _preview_sample(self) -> tuple[str, str]:
        """(command, sample) from the RTK preview panel when it offers them."""
        preview = self.window_.panel_widgets.get("rtk-preview")
        command_edit = getattr(preview, "command", None)
        input_edit = getattr(preview, "input", None)
        command = command_edit.text() if isinstance(command_edit, QLineEdit) else ""
        sample = input_edit.toPlainText() if isinstance(input_edit, QPlainTextEdit) else ""
        return command.strip(), sample

    @Slot()
    def add_test_from_preview(self) -> bool:
        tab = self._target_tab()
        row = self._selected_row()
        if tab is None and row is not None:
            tab = self._open_tab(row.file)
        if tab is None:
            self.detail_title.setText("Open an RTK filter file (JSON) to add a test to it.")
            return False
        parsed = jsontree.shallow_parse(tab.text)
        pointers = filter_pointers(parsed.value if parsed.ok else None)
        if not pointers:
            self.detail_title.setText(f"{tab.doc.display_name} has no filter objects (or is not valid JSON).")
            return False
        ids = list(pointers)
        if row is not None and row.filter_id in pointers:
            ids.remove(row.filter_id)
            ids.insert(0, row.filter_id)
        command, sample = self._preview_sample()
        first = jsontree.resolve_value(parsed.value, pointers[ids[0]])[1]
        dialog = AddTestDialog(ids, unique_test_name(first), command, sample, self,
                               check=self._activation_check(tab))
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        return self.add_test(tab, dialog.filter.currentText(), dialog.name.text().strip() or "sample",
                             dialog.command.text(), dialog.input.toPlainText())

    def _activation_check(self, tab: DocumentTab) -> Callable[[str, str, str], ActivationPreview] | None:
        """The Add test dialog's check, over the pool the next run will use (the workspace's
        filter files with the open buffers, and the bundled filters when Built-ins is on)."""
        if tab.path is None:
            return None
        root, entries = self.window_.workspace, scanned_entries(self.window_)
        files = filter_files_of(root, entries) if root is not None else []
        buffers, profile, builtins = self.window_.unsaved_buffers(), self.window_.settings.default_profile, \
            self.builtins.isChecked()
        buffers[tab.path] = tab.text  # the file the test goes into, as it is in its tab now
        path = tab.path
        # read once, in the dialog's worker, on its first check (the files do not change while it is open)
        pool = functools.cache(lambda: activation_pool(files, path, buffers=buffers, profile=profile,
                                                       with_builtins=builtins))
        return lambda filter_id, command, sample: preview_activation(pool(), filter_id, command, sample)

    def add_test(self, tab: DocumentTab, filter_id: str, name: str, command: str, sample: str) -> bool:
        """Append a test to ``filter_id`` in ``tab`` whose expected output is the filter's output now."""
        parsed = jsontree.shallow_parse(tab.text)
        pointers = filter_pointers(parsed.value if parsed.ok else None)
        if filter_id not in pointers:
            self.detail_title.setText(f"No filter '{filter_id}' in {tab.doc.display_name}")
            return False
        filter_obj = jsontree.resolve_value(parsed.value, pointers[filter_id])[1]
        try:
            test = preview_test(filter_obj, name, command, sample, self.window_.settings.default_profile)
            splice = new_test_splice(tab.text, pointers[filter_id], test)
        except (ValueError, jsonedit.EditError) as exc:
            self.detail_title.setText(f"Cannot add the test: {exc}")
            return False
        self._apply(tab, splice, f"Add test '{name}'")
        self.window_.statusBar().showMessage(f"Added test '{name}' to {filter_id} (Ctrl+Z undoes it)", 6000)
        self.run_tests()
        return True


register_panel("tests", "Tests", "bottom", TestsPanel)
