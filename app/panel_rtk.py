"""The live RTK preview (``--panel rtk-preview``): command output through the RTK engine.

Paste output and the command (or load / drop a file, or pick a sample from the workspace's
``samples/``); see the detected type and confidence, the chosen filter and why (scope,
criterion, pattern), a stage-by-stage view (lines dropped / kept / collapsed per stage, markers)
with a funnel chart, the final text with surviving error and summary lines highlighted, and the
savings. When the active editor is a filter file, its current (possibly unsaved) filters take
part — or run alone with "This filter only". Runs go through a debounced
:class:`app.workers.Dispatcher` into the previews helper process; ``engine.workspace.previews``
computes everything.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSplitter,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.layout_report import readable
from app.panels import register_panel
from app.playground.common import workspace_filter_files
from app.theme import tints
from app.timers import single_shot
from app.widgets.buttons import text_button
from app.widgets.charts import Bar, FunnelChart
from app.widgets.elided import ElidedLabel
from app.widgets.elided_combo import ElidedComboBox
from app.widgets.flow import FlowBox, labelled
from app.widgets.page_tabs import PageSizedTabs
from app.widgets.previewkit import (
    ActiveTabHook,
    Banner,
    NotesList,
    follow_default,
    item_value,
    option_combo,
    present_for_docs,
)
from app.widgets.scrollbody import scroll_body
from app.widgets.spanview import SpanTextView, qt_plain_text
from app.widgets.trees import top_items
from app.workers import PREVIEWS_LANE, Dispatcher
from engine.paths import builtin_filters_dir
from engine.workspace.filter_files import FILTER_KINDS
from engine.workspace.previews.rtk_preview import (
    RTK_INTENSITIES,
    FilterBuffer,
    OwnTest,
    RtkPreview,
    RtkRequest,
    run_rtk_preview,
    sample_to_follow,
)
from engine.workspace.previews.samples import Sample, command_hint, output_samples
from engine.workspace.settings import PROFILES

if TYPE_CHECKING:
    from app.document_tab import DocumentTab
    from app.learn_dialog import LinesLikeDialog
    from app.mainwindow import MainWindow

DEBOUNCE_MS = 150
STAGE_COLUMNS = ("Stage", "In", "Out", "Dropped", "Kept", "Collapsed", "Markers")
# the panel's height, in lines of its font, from which the funnel stands between the input and
# the output (a 1440×900 screen's dock and taller); below it, in the Stages tab
FUNNEL_BESIDE_TEXT_LINES = 38
FUNNEL_HYSTERESIS_LINES = 2
EVENTS_SHOWN = 200  # per stage in the tree; the engine caps its own list too
OPT_IN_STAGES = (  # (RtkConfig key, menu text, on by default) — rtk.md §7.3–7.5
    ("enableRenderers", "Renderers (diff, green tests, plan, JSON table)", False),
    ("applyToCodeBlocks", "Strip fenced code blocks", False),
    ("stripCodeComments", "… and their JS/TS comments", False),
    ("preserveDocstrings", "… but keep /** doc comments", True),
    ("enableGrouping", "Group similar lines", False),
)
DEFAULT_ON = frozenset(key for key, _text, on in OPT_IN_STAGES if on)  # (a sub-option, on until turned off)


class RtkPreviewPanel(QWidget):
    """See the module docstring. ``resultShown(preview)`` fires after a result is drawn."""

    resultShown = Signal(object)
    scratchChanged = Signal()  # the user's own output or command changed (app.scratch keeps them)
    scratch_key = "rtk-preview"
    # "Drop/Keep lines like these": set by app.learn_dialog.install_preview_actions
    lines_like_actions: tuple[QAction, QAction]
    lines_like_pending: tuple[DocumentTab, str, str, bool] | None  # (tab, filter id, kind, confirm)
    lines_like_jobs: Dispatcher
    last_lines_like: LinesLikeDialog  # the last proposal shown (tests read it)

    def __init__(self, window: MainWindow | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.preview: RtkPreview | None = None
        self.active: FilterBuffer | None = None
        self._sample_text: str | None = None  # text of the sample chosen in the combo
        self._filter_files: tuple[str, ...] = ()  # the workspace's own filter files, from its scan
        self._builtin: str | None = None  # the bundled filters folder ("" when missing), see _builtin_dir
        self._samples: list[Sample] = []
        self._own_test: OwnTest | None = None  # the open filter's own test, listed as a sample (sample_to_follow)
        settings = window.settings if window is not None else None

        # -- controls
        self.command = QLineEdit()
        self.command.setPlaceholderText("the command, e.g. cargo test (helps detection and filter choice)")
        self.command.setClearButtonEnabled(True)
        self.command.textChanged.connect(lambda _t: self.schedule())
        self.command.textChanged.connect(self.scratchChanged)
        self.sample_combo = ElidedComboBox()
        self.sample_combo.setToolTip("Command outputs kept in the workspace's samples/ folder")
        self.sample_combo.setMinimumContentsLength(12)
        self.sample_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.sample_combo.activated.connect(self._sample_chosen)
        self.load_button = text_button("Load…")
        self.load_button.setToolTip("Load command output from a file (or drop a .log file on the input)")
        self.load_button.clicked.connect(self.load_dialog)
        self.intensity = option_combo(RTK_INTENSITIES, "minimal", "RTK intensity: scales the line limits "
                                      "(aggressive ×0.5, standard ×1, minimal ×1.5)")
        self.profile = option_combo(PROFILES, settings.default_profile if settings else "omniroute",
                                    "omniroute reproduces the reference with its quirks; strict fixes them")
        for combo in (self.intensity, self.profile):
            combo.currentTextChanged.connect(lambda _t: self.schedule())
        follow_default(window, self.profile, "default_profile")
        self.engine_button = text_button("All filters")
        self.filter_button = text_button("This filter only")
        self.scope = QButtonGroup(self)
        for i, button in enumerate((self.engine_button, self.filter_button)):
            button.setCheckable(True)
            self.scope.addButton(button, i)
        self.engine_button.setChecked(True)
        self.engine_button.setToolTip("The whole engine: detection, filter choice among every filter (the "
                                      "workspace's filter files, open or not, its .rtk project filters and the "
                                      "bundled ones), engine dedup and the final cap")
        self.filter_button.setToolTip("Run the open filter file's selected filter alone (its stages only)")
        self.filter_button.setEnabled(False)
        self.scope.idClicked.connect(lambda _i: self._scope_clicked())
        self._alone_for_test = False  # "This filter only" pressed for an own test without a command
        self.stages_button, self.stage_options = self._opt_in_stages()
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.setToolTip("Run the preview again now (Ctrl+Enter)")
        self.refresh_button.setShortcut("Ctrl+Return")
        self.refresh_button.clicked.connect(lambda: self.schedule(immediate=True))

        # -- views
        self.input = SpanTextView(read_only=False, placeholder="Paste command output here, or drop a .log file.")
        self.input.setLineWrapMode(SpanTextView.LineWrapMode.NoWrap)
        self.input.setAccessibleName("Command output")
        self.input.textChanged.connect(self._input_edited)
        self.input.filesDropped.connect(lambda files: self.load_file(Path(files[0])))
        self.output = SpanTextView(placeholder="The filtered output appears here.")
        self.output.setLineWrapMode(SpanTextView.LineWrapMode.NoWrap)
        self.detected = ElidedLabel()
        self.detected.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.chosen = ElidedLabel()
        self.chosen.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # the open file's filter was not chosen for this output: a line of its own, its start in
        # view (as the end of ``chosen`` it was cut off at every ordinary dock width)
        self.not_chosen = Banner()
        self.summary = ElidedLabel("Paste command output to see what RTK keeps.")
        self.banner = Banner()
        self.stages = QTreeWidget()
        self.stages.setHeaderLabels(list(STAGE_COLUMNS))
        self.stages.setAlternatingRowColors(True)
        self.stages.setUniformRowHeights(True)
        header = self.stages.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, len(STAGE_COLUMNS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.funnel = FunnelChart("Lines through the stages")
        self.funnel.empty_text = "No stages ran"
        self.funnel.itemClicked.connect(self.select_stage)
        self.notes = NotesList()

        self.details = PageSizedTabs()  # (the Stages tab, with the funnel, holds up no other)
        self.details.setDocumentMode(True)
        self.details.addTab(self._titled("Output", self.output), "Output")
        self.stages_split = QSplitter(Qt.Orientation.Vertical)  # (the funnel joins it on a short dock)
        self.stages_split.addWidget(self.stages)
        self.details.addTab(self.stages_split, "Stages")
        self.details.addTab(self.notes, "Notes")

        # the controls flow into as many rows as the dock's width needs (no minimum width of their sum)
        top = FlowBox()
        top.addWidget(labelled("Command", readable(self.command), stretch=1))
        top.addWidget(labelled("Sample", self.sample_combo, stretch=1))
        top.addWidget(self.load_button)
        for label, combo in (("Intensity", self.intensity), ("Profile", self.profile)):
            top.addWidget(labelled(label, combo))
        top.addWidget(self.engine_button)
        top.addWidget(self.filter_button)
        top.addWidget(self.stages_button)
        top.addWidget(self.refresh_button)
        split = self.split = QSplitter(Qt.Orientation.Vertical)
        self.input_box = self._titled("Input", self.input)
        split.addWidget(self.input_box)
        split.addWidget(self.details)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        self._place_funnel(beside_text=True)  # in view: where the lines went, at a glance

        lay = QVBoxLayout(scroll_body(self))  # scrolls rather than force a minimum on its dock
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(top)
        lay.addWidget(self.banner)
        lay.addWidget(self.detected)
        lay.addWidget(self.chosen)
        lay.addWidget(self.not_chosen)
        lay.addWidget(self.summary)
        lay.addWidget(split, 1)

        # The run parses the open filter file (2 MB: thousands of filters) each time: in a thread
        # of this process its garbage collections and C-level parsing held the GIL for up to
        # ~100 ms, freezing the GUI; the previews helper process keeps that off the GUI entirely.
        self.dispatcher = Dispatcher(self, debounce_ms=DEBOUNCE_MS, process=True, lane=PREVIEWS_LANE)
        # the sample an open filter file is previewed on (see _follow_open_filter)
        self._follower = Dispatcher(self, process=True, lane=PREVIEWS_LANE)
        self._follower.finished.connect(self._followed)
        self._following: tuple[str, object] | None = None
        self.dispatcher.finished.connect(lambda _job, result: self.show_result(result))
        self.dispatcher.failed.connect(lambda _job, message: self.banner.show_message(
            f"The preview failed: {message.splitlines()[0]}", "error"))
        self.dispatcher.busyChanged.connect(lambda busy: self.refresh_button.setText("Running…" if busy else "Refresh"))
        self._docs_timer = single_shot(self, 0, lambda: self.show_result(run_rtk_preview(self.request())))

        self.hook: ActiveTabHook | None = None
        if window is not None:
            self.hook = ActiveTabHook(window, self._on_active_tab, self._on_tab_edited, self._on_item_selected)
            window.workspaceScanned.connect(self.refresh_context)
        from app.learn_dialog import install_preview_actions

        install_preview_actions(self)  # "Drop/Keep lines like these" on the input
        self.refresh_context()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        line = self.fontMetrics().lineSpacing()
        limit = line * (FUNNEL_BESIDE_TEXT_LINES - (FUNNEL_HYSTERESIS_LINES if self.funnel_beside_text() else 0))
        self._place_funnel(beside_text=self.height() >= limit)

    def _place_funnel(self, *, beside_text: bool) -> None:
        """The funnel between the input and the output, or, on a dock too short for the three
        (1280×720: the output fell below the fold, behind a scroll bar), above the Stages tab's
        tree: the input and the output keep the room, and the funnel stays a tab away."""
        if beside_text and self.funnel.parent() is not self.split:
            self.split.insertWidget(1, self.funnel)
            self.split.setStretchFactor(1, 0)
            self.split.setStretchFactor(2, 3)
        elif not beside_text and self.funnel.parent() is not self.stages_split:
            self.stages_split.insertWidget(0, self.funnel)
            self.stages_split.setStretchFactor(0, 0)
            self.stages_split.setStretchFactor(1, 1)

    def funnel_beside_text(self) -> bool:
        """Whether the funnel stands between the input and the output (else in the Stages tab)."""
        return self.funnel.parent() is self.split

    def _opt_in_stages(self) -> tuple[QToolButton, dict[str, QAction]]:
        """A menu of OmniRoute's opt-in engine steps; each one shows up in the funnel when on."""
        button = text_button("Stages")
        button.setToolTip("OmniRoute's opt-in engine steps: renderers, code-block stripping, grouping")
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        actions: dict[str, QAction] = {}
        for key, text, checked in OPT_IN_STAGES:
            action = menu.addAction(text)
            action.setCheckable(True)
            action.setChecked(checked)
            action.toggled.connect(lambda _on: self.schedule(immediate=True))
            action.toggled.connect(lambda _on: self._show_stages_on(button, actions))
            actions[key] = action
        button.setMenu(menu)
        self._show_stages_on(button, actions)
        return button, actions

    @staticmethod
    def _show_stages_on(button: QToolButton, actions: dict[str, QAction]) -> None:
        """The button says how many opt-in steps are on, and its tooltip which: a step left on
        changes every preview, and the menu that says so is closed."""
        on = [action.text() for key, action in actions.items() if action.isChecked() and key not in DEFAULT_ON]
        button.setText(f"Stages ({len(on)} on)" if on else "Stages")
        button.setToolTip("OmniRoute's opt-in engine steps: renderers, code-block stripping, grouping"
                          + ("".join(f"\n  on: {text}" for text in on) if on else " (none on)"))

    def stage_config(self) -> dict[str, bool]:
        """The opt-in RtkConfig keys the menu sets (``preserveDocstrings`` defaults to on)."""
        return {key: action.isChecked() for key, action in self.stage_options.items()}

    @staticmethod
    def _titled(title: str, view: QWidget) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(ElidedLabel(f"<b>{title}</b>"))
        lay.addWidget(view, 1)
        return box

    def _title_label(self, box: QWidget | None) -> QLabel:
        lay = box.layout() if box is not None else None
        first = lay.itemAt(0) if lay is not None else None
        label = first.widget() if first is not None else None
        assert isinstance(label, QLabel)  # _titled puts the title first
        return label

    # -- context ----------------------------------------------------------------------------------------------
    def _workspace(self) -> Path | None:
        return self.window_.workspace if self.window_ is not None else None

    def refresh_context(self) -> None:
        tab = self.hook.current() if self.hook is not None else None
        self._take_tab(tab)
        self._samples = output_samples(self._workspace())
        self._filter_files = workspace_filter_files(self.window_)  # (none before the first scan: its signal brings them)
        self.sample_combo.blockSignals(True)
        current = self.sample_combo.currentText()
        self.sample_combo.clear()
        self.sample_combo.addItem("(your output)")
        for s in self._samples:
            self.sample_combo.addItem(s.name, s.path)
            self.sample_combo.setItemData(self.sample_combo.count() - 1, s.path, Qt.ItemDataRole.ToolTipRole)
        if self._own_test is not None:
            self._add_own_test_item(self._own_test)
        self.sample_combo.setCurrentIndex(max(0, self.sample_combo.findText(current)))
        self.sample_combo.blockSignals(False)
        if self.input.document().isEmpty():  # (O(1): the text of a pasted MB costs ~20 ms)
            self._follow_open_filter()  # (only then: a rescan never swaps the sample the user chose)
        if self.input.document().isEmpty() and self._samples:
            self.sample_combo.setCurrentIndex(1)
            self._sample_chosen(1)
        self.schedule()

    def _take_tab(self, tab: DocumentTab | None) -> bool:
        if tab is None or tab.doc.kind not in FILTER_KINDS or tab.path is None:
            self.active = None
            self.filter_button.setEnabled(False)
            self.engine_button.setChecked(True)
            return False
        selected = None
        if tab.visual is not None:
            value = item_value(tab, tab.visual.current())
            if isinstance(value, dict) and isinstance(value.get("id"), str):
                selected = value["id"]
        self.active = FilterBuffer(str(tab.path), tab.text, selected)
        self.filter_button.setEnabled(True)
        # the button keeps its text (a name in it widened the dock under the mouse); the id is in its tooltip
        self.filter_button.setToolTip(f"Run filter {selected} alone (its stages only)" if selected else
                                      "Run the open filter file's selected filter alone (its stages only)")
        return True

    def _on_active_tab(self, tab: DocumentTab | None) -> None:
        if self._take_tab(tab):
            self._follow_open_filter()
            if self.window_ is not None and self.window_.right.indexOf(self) >= 0:
                self.window_.right.setCurrentWidget(self)  # the dock follows the active editor
        self.schedule()

    def _showing_own_output(self) -> bool:
        return self.sample_combo.currentIndex() <= 0 and not self.input.document().isEmpty()

    def _follow_open_filter(self) -> None:
        """A filter file brought to the front is previewed on a workspace sample it is chosen
        for, when the preview shows none of the user's own output and the sample shown is one
        it is not chosen for (deploy-log.json over check.sh's output said only "not chosen").
        Which sample that is, a helper process works out (``sample_to_follow``)."""
        if self.active is None or self._showing_own_output():
            return
        shown = self.sample_combo.itemData(self.sample_combo.currentIndex())
        self._follower.request(sample_to_follow, self.active, list(self._samples), shown, self.profile.currentText())
        self._following = (self.active.path, shown)

    def _followed(self, _job: int, choice: object) -> None:
        """The sample to turn to (a path, or the file's own test), if the same file is still in
        front and the preview still shows the same sample (or nothing) and none of the user's
        own output."""
        asked, self._following = self._following, None
        if not isinstance(choice, (str, OwnTest)) or asked is None or self.active is None \
                or self._showing_own_output():
            return
        shown = self.sample_combo.itemData(self.sample_combo.currentIndex())
        if asked != (self.active.path, shown):
            return
        if isinstance(choice, OwnTest):
            self._add_own_test_item(choice)
        index = self.sample_combo.findData(choice.key if isinstance(choice, OwnTest) else choice)
        if index > 0:
            self.sample_combo.setCurrentIndex(index)
            self._sample_chosen(index)

    def _add_own_test_item(self, test: OwnTest) -> None:
        """The open filter's own test in the sample box, after the workspace's samples, in place
        of the one listed before (one at a time)."""
        if self._own_test is not None and (listed := self.sample_combo.findData(self._own_test.key)) > 0:
            self.sample_combo.removeItem(listed)
        self._own_test = test
        self.sample_combo.addItem(test.label, test.key)
        self.sample_combo.setItemData(self.sample_combo.count() - 1,
                                      f"The open filter's own inline test ({test.name}): no sample in the "
                                      "workspace's samples/ folder is an output it is chosen for",
                                      Qt.ItemDataRole.ToolTipRole)

    def _on_tab_edited(self, tab: DocumentTab) -> None:
        if tab.doc.kind in FILTER_KINDS:
            self._take_tab(tab)
            self.schedule()

    def _on_item_selected(self, tab: DocumentTab, _row: int, _previous: int) -> None:
        if tab.doc.kind in FILTER_KINDS:
            self._take_tab(tab)
            self.schedule(immediate=True)

    # -- input --------------------------------------------------------------------------------------------------
    def _scope_clicked(self) -> None:
        self._alone_for_test = False  # (the user's own choice from now on)
        self.schedule(immediate=True)

    def _sample_chosen(self, index: int) -> None:
        path = self.sample_combo.itemData(index)
        test = self._own_test if self._own_test is not None and path == self._own_test.key else None
        # an own test without a command (an rtk TOML test) runs the filter alone, as the test does;
        # the next sample gets the whole engine back, unless the user chose the scope meanwhile
        alone = test is not None and not test.command and self.filter_button.isEnabled()
        if alone and not self.filter_button.isChecked():
            self.filter_button.setChecked(True)
            self._alone_for_test = True
        elif not alone and self._alone_for_test:
            self.engine_button.setChecked(True)
            self._alone_for_test = False
        if test is not None:
            self._set_command(test.command)
            self._sample_text = qt_plain_text(test.input)
            self.set_output(test.input)
        elif path:
            self.load_file(Path(path), keep_combo=True)

    def load_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Load command output", str(self._workspace() or Path.home()),
                                              "Logs and text (*.log *.txt *.out);;All files (*)")
        if name:
            self.load_file(Path(name))

    def load_file(self, path: Path, *, keep_combo: bool = False) -> bool:
        from engine.fsutil import InputRefused, read_input_bytes

        try:
            # the one bounded reader: the input limit for every command and the IDE; a FIFO or
            # device is refused unopened instead of blocking the GUI thread
            text = read_input_bytes(path).decode("utf-8", errors="replace")
        except InputRefused as exc:
            self.banner.show_message(f"{path.name}: {exc.strerror}", "warning")
            return False
        except OSError as exc:
            self.banner.show_message(f"Cannot read {path}: {exc.strerror or exc}", "error")
            return False
        hint = command_hint(path)
        if hint:
            self._set_command(hint)
        self._sample_text = qt_plain_text(text) if keep_combo else None  # (as the view gives it back)
        self.set_output(text)
        if not keep_combo:
            self.sample_combo.setCurrentIndex(0)
        return True

    def show_output(self, text: str, command: str, path: str | None = None) -> None:
        """A command output from elsewhere (the Corpus panel's sample ``path``): the sample box
        names it when it is one of the workspace's samples, else says "(your output)"."""
        self._set_command(command, quiet=False)
        index = self.sample_combo.findData(path) if path else -1
        self._sample_text = qt_plain_text(text) if index > 0 else None
        self.set_output(text)
        self.sample_combo.setCurrentIndex(max(0, index))

    def _set_command(self, command: str, *, quiet: bool = True) -> None:
        """The command a sample or a new filter brings, shown from its start (the field is
        narrow: with the caret at the end, "./scripts/deploy.sh web1" lost its "./"). ``quiet``:
        no run is asked for (the output that comes with it asks)."""
        with QSignalBlocker(self.command) if quiet else nullcontext():
            self.command.setText(command)
            self.command.setCursorPosition(0)

    def set_output(self, text: str) -> None:
        self.input.set_text(text)  # the same text again keeps its shading (see SpanTextView.set_text)

    def load_command_sample(self, command: str, sample: str) -> None:
        """A new filter's command and pasted output become the preview's input (File ▸ New Filter)."""
        self._set_command(command)
        if sample:
            self.set_output(sample)
            self.sample_combo.setCurrentIndex(0)
        self.schedule(immediate=True)

    def _input_edited(self) -> None:
        if self.sample_combo.currentIndex() > 0 and self._sample_text != self.input.plain_text():
            self.sample_combo.setCurrentIndex(0)  # edited, or another text shown: the user's own output now
        self.schedule()
        self.scratchChanged.emit()

    def scratch_state(self) -> dict[str, str]:
        """The user's own output and its command (a workspace sample shown is not theirs to keep)."""
        output = self.input.plain_text() if self.sample_combo.currentIndex() <= 0 else ""
        return {"command": self.command.text(), "output": output} if output else {}

    def restore_scratch(self, state: dict[str, str]) -> None:
        if state.get("output"):
            self._set_command(state.get("command", ""))
            self._sample_text = None
            self.set_output(state["output"])
            self.sample_combo.setCurrentIndex(0)
            self.schedule(immediate=True)
        elif self.scratch_state():  # (another workspace's own output: the next scan picks a sample)
            self._set_command("")
            self.set_output("")

    # -- running --------------------------------------------------------------------------------------------------
    def request(self) -> RtkRequest:
        ws = self._workspace()
        return RtkRequest(self.input.toPlainText(), self.command.text().strip(), self.profile.currentText(),
                          self.intensity.currentText(), self._builtin_dir(),
                          str(ws) if ws is not None else None, self.active,
                          "filter" if self.filter_button.isChecked() and self.active is not None else "engine",
                          self.stage_config(), self._filter_files, self._unsaved_filter_files())

    def _unsaved_filter_files(self) -> tuple[FilterBuffer, ...]:
        """The workspace's filter files that have unsaved edits, by their buffers (the open one's
        comes first in the preview anyway)."""
        if self.window_ is None or not self._filter_files:
            return ()
        files = set(self._filter_files)
        return tuple(FilterBuffer(str(path), text) for path, text in self.window_.unsaved_buffers().items()
                     if str(path) in files)

    def _builtin_dir(self) -> str | None:
        """The bundled filters folder, looked up once: resolving it (realpath, a syscall per path
        component) on every keystroke cost the GUI thread several ms on a busy machine."""
        if self._builtin is None:
            folder = builtin_filters_dir()
            self._builtin = str(folder) if folder.is_dir() else ""
        return self._builtin or None

    def schedule(self, immediate: bool = False) -> int:
        """Queue a run (debounced, newest wins); docs mode runs it in the GUI thread next turn."""
        if self.window_ is not None and self.window_.docs_mode:
            self._docs_timer.start()
            return 0
        return self.dispatcher.request(run_rtk_preview, self.request(), immediate=immediate)

    def set_debounce(self, ms: int) -> None:
        """How long typing must pause before a run starts (benchmarks measure with 0)."""
        self.dispatcher.set_debounce(ms)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.window_ is not None and self.window_.docs_mode:
            present_for_docs(self.window_)

    # -- drawing ---------------------------------------------------------------------------------------------------
    def show_result(self, preview: RtkPreview) -> None:
        self.preview = preview
        self._title_label(self.input_box).setText(
            f"<b>Input</b> · {preview.lines_before} lines · {preview.tokens_before} tokens")
        if not preview.output:
            self.banner.show_message(preview.error, "error")
            self.detected.setText("")
            self.chosen.setText("")
            self.not_chosen.show_message("")
            self.summary.setText("Paste command output to see what RTK keeps.")
            self.output.set_text("")
            self.output.clear_spans()
            self._title_label(self.details.widget(0)).setText("<b>Output</b>")  # (not the last run's counts)
            self.stages.clear()
            self.funnel.set_items([])
            self.notes.set_notes([])
            self.details.setTabText(2, "Notes")
            self.resultShown.emit(preview)
            return
        errors = [n for n in preview.notes if n.level == "error"]
        self.banner.show_message(preview.error or (errors[0].text if errors else ""), "error")
        if preview.detected_type:
            matched = f" · matched {', '.join(preview.matched_patterns[:3])}" if preview.matched_patterns else ""
            command = f" · command <code>{preview.detected_command}</code>" if preview.detected_command else ""
            self.detected.setText(f"Detected <b>{preview.detected_type}</b> (confidence "
                                  f"{preview.confidence:.2f}){command}{matched}")
        else:
            self.detected.setText("Detection skipped: the filter runs alone")
        self.chosen.setText(f"Filter: {preview.why}" if preview.why else "No filter ran")
        if self.active is not None and preview.filter_ids and preview.filter_id not in preview.filter_ids:
            name = Path(self.active.path).name
            self.not_chosen.show_message(f"The open file's filter ({', '.join(preview.filter_ids[:3])}) was not "
                                         f"chosen for this output; “This filter only” runs {name} alone.", "warning")
        else:
            self.not_chosen.show_message("")
        self.summary.setText(f"<b>{preview.summary()}</b> · {len(preview.highlights)} error/summary line(s) kept · "
                             f"{preview.seconds * 1000:.0f} ms")
        self.summary.setToolTip("Tokens are OmniRoute's estimate: ceil(UTF-16 length / 4)")
        self.output.set_text(preview.text)
        self.output.set_layer("highlights", preview.highlights)
        self._title_label(self.details.widget(0)).setText(
            f"<b>Output</b> · {preview.lines_after} lines · {preview.tokens_after} tokens")
        self._fill_stages(preview)
        funnel = preview.funnel()
        self.funnel.set_items([Bar(name, lines, self._stage_tip(preview, i, name, lines), name, f"{lines}")
                               for i, (name, lines) in enumerate(funnel)])
        self.notes.set_notes(preview.notes, "No quirks or problems for this output.")
        self.details.setTabText(2, f"Notes ({len(preview.notes)})" if preview.notes else "Notes")
        self.resultShown.emit(preview)

    @staticmethod
    def _stage_tip(preview: RtkPreview, index: int, name: str, lines: int) -> str:
        if index == 0:
            return f"{lines} lines entered the engine"
        row = next((s for s in preview.stages if s.name == name), None)
        if row is None:
            return f"{lines} lines left"
        parts = [f"{k} {v}" for k, v in sorted(row.counts.items())]
        return f"{name}: {row.lines_in} → {row.lines_out} lines" + (f" ({', '.join(parts)})" if parts else "") + \
            (f"\n{row.note}" if row.note else "")

    def _fill_stages(self, preview: RtkPreview) -> None:
        self.stages.clear()
        t = tints()
        for row in preview.stages:
            c = row.counts
            item = QTreeWidgetItem([row.name, str(row.lines_in), str(row.lines_out),
                                    str(c.get("dropped", 0) + c.get("truncated", 0)),
                                    str(c.get("kept", 0) + c.get("priority", 0)), str(c.get("collapsed", 0)),
                                    "; ".join(dict.fromkeys(row.markers))[:200]])
            item.setData(0, Qt.ItemDataRole.UserRole, row.name)
            if row.note:
                item.setToolTip(0, row.note)
            for col in range(1, 6):
                item.setTextAlignment(col, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            for ev in row.events[:EVENTS_SHOWN]:
                child = QTreeWidgetItem([f"{ev.action}: line {ev.line + 1}: {ev.text[:160]}", "", "", "", "", "",
                                         f"/{ev.pattern}/" if ev.pattern else ""])
                child.setToolTip(0, ev.text + (f"\n→ {ev.after}" if ev.after is not None else ""))
                if ev.action in ("dropped", "truncated", "collapsed"):
                    child.setForeground(0, QBrush(QColor(t.punct)))
                elif ev.action == "priority":
                    child.setForeground(0, QBrush(QColor(t.error)))
                item.addChild(child)
            hidden = len(row.events) - EVENTS_SHOWN
            if hidden > 0 or row.events_truncated:
                more = QTreeWidgetItem([f"… {max(hidden, 0)} more line event(s)"
                                        + (" (the engine kept only the first ones)" if row.events_truncated else "")])
                more.setFlags(Qt.ItemFlag.NoItemFlags)
                item.addChild(more)
            self.stages.addTopLevelItem(item)

    def select_stage(self, name: str) -> None:
        for item in top_items(self.stages):
            if item.data(0, Qt.ItemDataRole.UserRole) == name:
                self.details.setCurrentIndex(1)
                self.stages.setCurrentItem(item)
                item.setExpanded(True)
                self.funnel.set_selected(name)
                return


register_panel("rtk-preview", "RTK preview", "right", lambda window: RtkPreviewPanel(window))
