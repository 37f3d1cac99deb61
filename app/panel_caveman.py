"""The live Caveman preview (``--panel caveman-preview``): a sample text through the open pack.

Input and output side by side with a word-level diff; protected regions shaded by kind; the
rules that fired with match counts (select one → its spans light up; hover a change → which rule
made it); tokens before/after; quirks in plain words. "Whole pack" / "This rule only" scopes the
run; selecting a rule in the pack's visual editor switches to that rule. Runs go through a
:class:`app.workers.Dispatcher` (debounced, one in flight, latest wins): the engine computes
everything (``engine.workspace.previews``), this module only draws it.
"""

from __future__ import annotations

import gc
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.panels import register_panel
from app.theme import tints
from app.timers import single_shot
from app.widgets.adaptive import AdaptiveSplitter
from app.widgets.buttons import text_button
from app.widgets.charts import Bar, BarChart
from app.widgets.elided import ElidedLabel
from app.widgets.elided_combo import ElidedComboBox
from app.widgets.empty_state import EmptyState
from app.widgets.flow import FlowBox, labelled
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
from app.widgets.spanview import PROTECTED_FAMILIES, SpanTextView, protected_colour, qt_plain_text
from app.workers import CAVEMAN_LANE, Dispatcher, Later, run_in_process
from engine.gcpause import gc_paused
from engine.paths import builtin_rules_dir
from engine.workspace.corpus_model import shown_path
from engine.workspace.kinds import FileKind
from engine.workspace.previews.caveman_packs import PackOverride
from engine.workspace.previews.caveman_preview import (
    INTENSITIES,
    ROLES,
    STAGED_MIN,
    CavemanPreview,
    CavemanRequest,
    PreviewCancelled,
    restore_lean,
    run_caveman_output_lean,
    run_caveman_preview,
    warm_up,
)
from engine.workspace.previews.marks import Note, Span
from engine.workspace.previews.samples import Sample, caveman_samples, sample_file_name, workspace_samples_dir
from engine.workspace.settings import PROFILES

if TYPE_CHECKING:
    from app.document_tab import DocumentTab
    from app.mainwindow import MainWindow

DEBOUNCE_MS = 150
STALE_AFTER_MS = DEBOUNCE_MS + 100
WARM_AFTER_MS = 2000  # the first-result helper is started and warmed this long after the panel opens
STALE_TEXT = "out of date — updating…"
PASTE_MIN = 1000  # characters added or removed at once that count as a paste, not typing
INPUT_BESIDE_OUTPUT_CHARS = 70  # input and output side by side from this dock width (average characters)


def protected_legend() -> str:
    """One line of colour chips: the protected-region families as the input view shades them."""
    chips = " ".join(f'<span style="background:{protected_colour(name)}">&nbsp;{name}&nbsp;</span>'
                     for name in PROTECTED_FAMILIES)
    return f"<small>protected: {chips} · <s>removed</s> · <u>inserted</u></small>"
COLUMNS = ("Rule", "Category", "Matches", "Saved", "Status")


def _rule_name(value: object) -> str | None:
    return value["name"] if isinstance(value, dict) and isinstance(value.get("name"), str) else None


_helper_warmed = False  # the first-result helper has been given its warm-up (once per IDE process)


def first_result_in_helper(req: CavemanRequest) -> CavemanPreview:
    """``run_caveman_output`` in the Caveman helper process (a pool thread waits for it with the
    GIL released, so the GUI thread keeps all of it); the text is not sent back, nor an output
    that is the same text."""
    return restore_lean(req, run_in_process(run_caveman_output_lean, req, lane=CAVEMAN_LANE))


def run_request(req: CavemanRequest) -> CavemanPreview:
    """One preview run (a pool thread): a large text's first result, in the helper (its
    explanation follows, see ``CavemanPreviewPanel._explain``), else the whole preview."""
    if len(req.text) >= STAGED_MIN:
        return first_result_in_helper(req)
    return run_caveman_preview(req)


def warm_helper(req: CavemanRequest) -> float:
    return float(run_in_process(warm_up, req, lane=CAVEMAN_LANE))


def warm_up_text() -> str:
    """A few kilobytes of what agents send: prose, a fenced block, inline code, a path, a URL,
    an error line and some non-ASCII letters (its case tables are built on first use)."""
    return ("Basically, I think we should probably just go ahead and update the `load_config()` call in "
            "/srv/app/settings.py, as described in https://example.org/docs/config — naïve café “quotes”.\n\n"
            "```python\ndef load_config(path):\n    return json.loads(Path(path).read_text())\n```\n\n"
            "Error: ValueError: invalid literal for int() with base 10: 'x'\n\n") * 40


def explain_paused(req: CavemanRequest, progress: _Explanation) -> CavemanPreview:
    """The explanation of a large text, with the cyclic collector paused (it builds hundreds of
    thousands of small objects and no cycles: each full collection on its way stopped the GUI
    thread, which shares the process, for 30-60 ms). What it leaves (the preview: word diff,
    spans, matches) lives until the next result replaces it, and is freed then by reference
    counts; it is frozen as ``app.main.launch`` freezes the window it builds, so the collector
    does not walk it either (the first collection after the pause walked all of it: 40-65 ms
    for 1 MB of prose, once per generation)."""
    with gc_paused():
        preview = run_caveman_preview(req, progress, rules_ready=progress.rules_ready)
        gc.freeze()
        return preview


class _ProgressRelay(QObject):
    """Carries an explanation's progress from its worker thread to the GUI (queued signal)."""

    changed = Signal(int, int, str)  # explanation number, percent done, stage
    rules = Signal(int, object)  # explanation number, the preview with its rules (before the word diff)


class _Explanation:
    """One explanation run's progress callback: reports each new percent through the relay and
    stops the run (``PreviewCancelled``) once its event is set — a newer text, or Cancel."""

    def __init__(self, number: int, relay: _ProgressRelay) -> None:
        self.number, self.relay = number, relay
        self.cancelled = threading.Event()
        self._percent = -1

    def __call__(self, fraction: float, stage: str) -> None:  # worker thread
        if self.cancelled.is_set():
            raise PreviewCancelled("the explanation was cancelled")
        percent = int(fraction * 100)
        if percent != self._percent:
            self._percent = percent
            self.relay.changed.emit(self.number, percent, stage)

    def rules_ready(self, preview: CavemanPreview) -> None:  # worker thread
        if self.cancelled.is_set():
            raise PreviewCancelled("the explanation was cancelled")
        self.relay.rules.emit(self.number, preview)


class CavemanPreviewPanel(QWidget):
    """See the module docstring. ``resultShown(preview)`` fires after a (full) result is drawn;
    ``firstShown(preview)`` after the first, partial result of a large text, whose explanation
    (rules, word diff, quirks) then streams in with a progress bar and a Cancel button."""

    resultShown = Signal(object)
    firstShown = Signal(object)
    rulesShown = Signal(object)  # the explanation's rules, savings and notes drawn; its word diff follows
    helperWarmed = Signal()  # the first-result helper has paid its one-time costs (see _warm_helper)
    scratchChanged = Signal()  # the user's own text changed (app.scratch keeps it)
    scratch_key = "caveman-preview"

    def __init__(self, window: MainWindow | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.preview: CavemanPreview | None = None
        self.pack_root: str | None = None
        self.override: PackOverride | None = None
        self.rule_name: str | None = None  # derived from ``rule_row`` whenever the open pack changes
        self.rule_row: int | None = None  # the scoped rule's place in the open pack (its identity)
        self.timeout_ms = window.settings.regex_timeout_ms if window is not None else 250
        self._samples: list[Sample] = []
        self._auto_text: str | None = None  # the sample picked for the user, while they keep it
        self._sample_text: str | None = None  # text of the sample chosen in the combo
        self._scrolled_to: str | None = None
        settings = window.settings if window is not None else None

        # -- controls
        self.sample_combo = ElidedComboBox()
        self.sample_combo.setToolTip("Named samples: the workspace's samples/caveman/*.txt, samples beside its packs, "
                                     "and the built-in rules/<language>/samples/*.txt")
        self.sample_combo.setMinimumContentsLength(14)
        self.sample_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.sample_combo.activated.connect(self._sample_chosen)
        self.save_button = text_button("Save…")
        self.save_button.setToolTip("Keep this text as a named sample in the workspace (samples/caveman/)")
        self.save_button.clicked.connect(self.save_sample_dialog)
        self.open_button = text_button("Open…")
        self.open_button.setToolTip("Load a text file as the sample")
        self.open_button.clicked.connect(self.open_sample_dialog)
        self.language = option_combo([settings.language if settings else "en"], settings.language if settings else "en",
                                     "Language pack to run (OmniRoute's config.language)")
        self.intensity = option_combo(INTENSITIES, settings.intensity if settings else "full",
                                      "Intensity: rules with a higher minIntensity are skipped")
        self.role = option_combo(ROLES, "user", "Message role: rules whose context is another role are skipped")
        self.profile = option_combo(PROFILES, settings.default_profile if settings else "omniroute",
                                    "omniroute reproduces the reference with its quirks; strict fixes them")
        for combo in (self.language, self.intensity, self.role, self.profile):
            combo.currentTextChanged.connect(lambda _t: self.schedule())
        follow_default(window, self.intensity, "intensity")
        follow_default(window, self.language, "language", open_ended=True)
        follow_default(window, self.profile, "default_profile")

        self.whole_button = text_button("Whole pack")
        self.rule_button = text_button("This rule only")
        self.scope = QButtonGroup(self)
        for i, button in enumerate((self.whole_button, self.rule_button)):
            button.setCheckable(True)
            self.scope.addButton(button, i)
        self.whole_button.setChecked(True)
        self.whole_button.setToolTip("Run every rule of the language in order (what OmniRoute does)")
        self.rule_button.setToolTip("Run only the rule selected in the pack's visual editor or in the list below")
        self.rule_button.setEnabled(False)
        self.scope.idClicked.connect(lambda _i: self.schedule(immediate=True))

        # -- text views
        self.input = SpanTextView(read_only=False,
                                  placeholder="Paste or type a message here, or pick a sample above.")
        self.input.setAccessibleName("Caveman sample text")
        self.input.textChanged.connect(self._input_edited)
        self.input.filesDropped.connect(lambda files: self.load_sample_file(Path(files[0])))
        self.output = SpanTextView(placeholder="The compressed text appears here.")
        self.output.spanClicked.connect(self._span_clicked)
        self.input.spanClicked.connect(self._span_clicked)
        texts = AdaptiveSplitter(INPUT_BESIDE_OUTPUT_CHARS)  # input above output when the dock is narrow
        titled: list[tuple[ElidedLabel, QVBoxLayout]] = []
        for title, view in (("Input", self.input), ("Output", self.output)):
            box = QWidget()
            lay = QVBoxLayout(box)
            lay.setContentsMargins(0, 0, 0, 0)
            lay.setSpacing(2)
            label = ElidedLabel(f"<b>{title}</b>")
            lay.addWidget(label)
            lay.addWidget(view, 1)
            texts.addWidget(box)
            titled.append((label, lay))
        (self.input_label, input_layout), (self.output_label, _) = titled
        self.legend = ElidedLabel(protected_legend())
        self.legend.setToolTip("Protected regions are left as written; hover one to see its kind")
        input_layout.addWidget(self.legend)

        # -- results
        self.summary = ElidedLabel("Pick a sample or type some text to see what the pack does to it.")
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner = Banner()
        self.rules = QTreeWidget()
        self.rules.setHeaderLabels(list(COLUMNS))
        self.rules.setRootIsDecorated(False)
        self.rules.setAlternatingRowColors(True)
        self.rules.setUniformRowHeights(True)
        header = self.rules.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, len(COLUMNS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.rules.currentItemChanged.connect(lambda cur, _prev: self._rule_row_selected(cur))
        self.rules_empty = EmptyState.over(self.rules, inline=True)  # (a blank list read as "nothing ran")
        self.fired_only = QCheckBox("Only rules that fired")
        self.fired_only.setChecked(True)
        self.fired_only.setToolTip("Hide rules that matched nothing (timed-out rules are always shown)")
        self.fired_only.toggled.connect(lambda _c: self._fill_rules())
        rules_page = QWidget()
        rl = QVBoxLayout(rules_page)
        rl.setContentsMargins(0, 2, 0, 0)
        rl.addWidget(self.fired_only)
        rl.addWidget(self.rules, 1)
        self.rule_chart = BarChart("Tokens saved per rule")
        self.rule_chart.empty_text = "No rule saved tokens on this text"
        self.rule_chart.itemClicked.connect(self.select_rule)
        self.category_chart = BarChart("Tokens saved per category")
        self.category_chart.empty_text = "No category saved tokens on this text"
        charts = QWidget()
        cl = QHBoxLayout(charts)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.rule_chart, 3)
        cl.addWidget(self.category_chart, 2)
        self.notes = NotesList()
        self.notes.noteActivated.connect(self._note_activated)
        self.details = QTabWidget()
        self.details.setDocumentMode(True)
        self.details.addTab(rules_page, "Rules")
        self.details.addTab(charts, "Savings")
        self.details.addTab(self.notes, "Notes")

        # the controls flow into as many rows as the dock's width needs (no minimum width of their sum)
        top = FlowBox()
        top.addWidget(labelled("Sample", self.sample_combo, stretch=1))
        top.addWidget(self.open_button)
        top.addWidget(self.save_button)
        for caption, combo in (("Lang", self.language), ("Intensity", self.intensity), ("Role", self.role),
                               ("Profile", self.profile)):
            top.addWidget(labelled(caption, combo))
        top.addWidget(self.whole_button)
        top.addWidget(self.rule_button)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.setToolTip("Run the preview again now (Ctrl+Enter)")
        self.refresh_button.setShortcut("Ctrl+Return")
        self.refresh_button.clicked.connect(lambda: self.schedule(immediate=True))
        self.explain_progress = QProgressBar()
        self.explain_progress.setRange(0, 100)
        self.explain_progress.setMaximumWidth(160)
        self.explain_progress.setFormat("explaining %p%")
        self.explain_progress.setToolTip("The rules' matches, the word diff and the quirks of this large text are "
                                         "being worked out; the output shown is already final")
        self.cancel_button = text_button("Cancel")
        self.cancel_button.setToolTip("Stop explaining this text (the output shown stays)")
        self.cancel_button.clicked.connect(lambda: self.cancel_explanation(by_user=True))
        self.explain_button = text_button("Explain")
        self.explain_button.setToolTip("Work out the rules' matches, the word diff and the quirks of this text after "
                                       "all (its output stays; nothing is run again)")
        self.explain_button.clicked.connect(self._explain_again)
        top.addWidget(self.refresh_button)
        # the explanation's progress sits at the end of the summary line, which is always there:
        # showing it moves nothing (in the controls' flow it added a row and pushed the texts down)
        summary_row = QWidget()
        srow = QHBoxLayout(summary_row)
        srow.setContentsMargins(0, 0, 0, 0)
        srow.addWidget(self.summary, 1)
        for widget in (self.explain_progress, self.cancel_button, self.explain_button):
            widget.hide()
            srow.addWidget(widget)
        summary_row.setMinimumHeight(max(w.sizeHint().height() for w in (self.explain_progress, self.cancel_button)))
        self.scope_label = ElidedLabel(mode=Qt.TextElideMode.ElideMiddle)  # names a rule and a folder
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(texts)
        split.addWidget(self.details)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        lay = QVBoxLayout(scroll_body(self))  # scrolls rather than force a minimum on its dock
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(top)
        lay.addWidget(self.scope_label)
        lay.addWidget(self.banner)
        lay.addWidget(summary_row)
        lay.addWidget(split, 1)

        self.dispatcher = Dispatcher(self, debounce_ms=DEBOUNCE_MS)
        self.dispatcher.finished.connect(lambda _job, result: self._first_done(result))
        self.dispatcher.failed.connect(lambda _job, message: self._run_failed(message))
        self.dispatcher.busyChanged.connect(self._busy)
        # the explanation of a large text, after its first result (see run_caveman_output)
        self.explainer = Dispatcher(self)
        self.explainer.finished.connect(lambda _job, result: self._explained(result))
        self.explainer.failed.connect(lambda _job, message: self._explain_failed(message))
        self._relay = _ProgressRelay(self)
        self._relay.changed.connect(self._explain_progress)
        self._relay.rules.connect(self._rules_known)
        self._explanation: _Explanation | None = None
        self._explanations = 0
        self._input_length = 0
        self._scheduled: CavemanRequest | None = None  # the newest request taken by a run
        self._announced: CavemanRequest | None = None  # a run started on the text a paste announced
        self.input.aboutToPaste.connect(self._text_coming)
        self._warmer = Dispatcher(self)
        self._warmer.finished.connect(lambda _job, _seconds: self.helperWarmed.emit())
        self._warmer.failed.connect(lambda _job, _message: self.helperWarmed.emit())
        # a view derived from an older text (or options, or pack) is marked stale when its
        # replacement is not in after this long (not at once: typing would make it flicker)
        self._stale = False
        self._stale_timer = single_shot(self, STALE_AFTER_MS, self._mark_stale)

        self._docs_timer = single_shot(self, 0, lambda: self.show_result(run_caveman_preview(self.request())))

        self.hook: ActiveTabHook | None = None
        if window is not None:
            self.hook = ActiveTabHook(window, self._on_active_tab, self._on_tab_edited, self._on_rule_selected)
            window.workspaceScanned.connect(self.refresh_context)
            window.workspaceOpened.connect(lambda _p: self.refresh_context())
        self.refresh_context()
        QTimer.singleShot(WARM_AFTER_MS, self, self._warm_helper)

    # -- context (which packs, which samples) ------------------------------------------------------------
    def _workspace(self) -> Path | None:
        return self.window_.workspace if self.window_ is not None else None

    def _pack_roots(self) -> list[str]:
        """Folders holding ``<language>/<category>.json`` packs in the workspace."""
        index = self.window_.index if self.window_ is not None else None
        roots: list[str] = []
        if index is not None:
            for entry in index.by_group("caveman"):
                root = str(entry.path.parent.parent)
                if root not in roots:
                    roots.append(root)
        return roots

    def refresh_context(self) -> None:
        """Re-read the active tab, the pack folder and the sample list (after a scan)."""
        tab = self.hook.current() if self.hook is not None else None
        if not self._take_tab(tab) and (self.window_ is not None or self.pack_root is None):
            # no pack open: the workspace's packs, else the built-in ones
            roots = self._pack_roots()
            builtin = builtin_rules_dir()
            self.pack_root = roots[0] if roots else (str(builtin) if builtin.is_dir() else None)
        self._fill_samples()
        untouched = self._auto_text is not None and self.input.plain_text() == self._auto_text
        if self._samples and (not self.input.plain_text() or untouched):
            self._load_best_sample()  # a first pick may improve once the scan finds workspace samples
        self.schedule()

    def _take_tab(self, tab: DocumentTab | None) -> bool:
        """Use ``tab``'s (unsaved) pack when it is one; returns whether it was."""
        if tab is None or tab.doc.kind != FileKind.CAVEMAN_PACK or tab.path is None:
            self.override = None
            self.rule_row = None
            self._set_rule(None)
            return False
        path = Path(tab.path)
        self.pack_root = str(path.parent.parent)
        self.override = PackOverride(path.parent.name, path.stem, tab.text)
        if self.language.currentText() != path.parent.name:
            self.language.blockSignals(True)
            if self.language.findText(path.parent.name) < 0:
                self.language.addItem(path.parent.name)
            self.language.setCurrentText(path.parent.name)
            self.language.blockSignals(False)
            self._follow_language(path.parent.name)
        row = tab.visual.current() if tab.visual is not None else -1
        self.rule_row = row if row >= 0 else None
        self._set_rule(_rule_name(item_value(tab, row)), switch=False)
        return True

    def _on_active_tab(self, tab: DocumentTab | None) -> None:
        if self._take_tab(tab) and self.window_ is not None and self.window_.right.indexOf(self) >= 0:
            self.window_.right.setCurrentWidget(self)  # the dock follows the active editor
        self.schedule()

    def _on_tab_edited(self, tab: DocumentTab) -> None:
        if tab.doc.kind == FileKind.CAVEMAN_PACK and tab.path is not None:
            self.override = PackOverride(Path(tab.path).parent.name, Path(tab.path).stem, tab.text)
            if self.rule_row is not None:
                # the rule is followed by its place in the pack, not by its name: a rename (or an
                # undo of one) re-derives the name the engine runs
                name = _rule_name(item_value(tab, self.rule_row))
                if name is not None and name != self.rule_name:
                    self._set_rule(name)
            self.schedule()

    def _on_rule_selected(self, tab: DocumentTab, row: int, previous: int) -> None:
        """A rule picked in the visual editor scopes the preview to it (not the automatic first
        selection when a pack opens, nor the same row selected again when the list is re-read
        after a reload or undo: those only offer the toggle)."""
        name = _rule_name(item_value(tab, row))
        if name is not None:
            self.rule_row = row
            self._set_rule(name, switch=previous >= 0 and row != previous)
            self.schedule(immediate=True)

    def _row_in_open_pack(self, name: str) -> int | None:
        """The row of rule ``name`` in the open pack (None: the rule lives in another pack)."""
        tab = self.hook.current() if self.hook is not None else None
        if tab is None or tab.doc.kind != FileKind.CAVEMAN_PACK or tab.index is None or tab.index.stale:
            return None
        return next((row for row, value in enumerate(tab.index.values) if _rule_name(value) == name), None)

    def _set_rule(self, name: str | None, *, switch: bool = False) -> None:
        self.rule_name = name
        self.rule_button.setEnabled(name is not None)
        # the button keeps its text (a name in it widened the dock under the mouse); the name is in
        # its tooltip and in the scope line below the controls
        self.rule_button.setToolTip(f"Run only rule {name}" if name else
                                    "Run only the rule selected in the pack's visual editor or in the list below")
        if name is None:
            self.whole_button.setChecked(True)
        elif switch:
            self.rule_button.setChecked(True)

    # -- samples ---------------------------------------------------------------------------------------------
    def _fill_samples(self) -> None:
        ws = self._workspace()
        builtin = builtin_rules_dir()
        self._samples = caveman_samples(ws, builtin if builtin.is_dir() else None, self._pack_roots())
        current = self.sample_combo.currentText()
        self.sample_combo.blockSignals(True)
        self.sample_combo.clear()
        self.sample_combo.addItem("(your text)")
        for s in self._samples:
            self.sample_combo.addItem(f"{s.name}  · {s.origin}", s.path)
            self.sample_combo.setItemData(self.sample_combo.count() - 1, s.path, Qt.ItemDataRole.ToolTipRole)
        index = self.sample_combo.findText(current)
        self.sample_combo.setCurrentIndex(max(0, index))
        self.sample_combo.blockSignals(False)

    def _load_best_sample(self) -> None:
        """The first sample in the language (workspace ones come first), else the first one."""
        language = self.language.currentText()
        best = next((i for i, s in enumerate(self._samples) if s.language == language), 0)
        self.sample_combo.setCurrentIndex(best + 1)
        self._sample_chosen(best + 1)
        self._auto_text = self.input.plain_text()

    def _follow_language(self, language: str) -> None:
        """A sample shown in another language gives way to the first one in ``language`` (a
        German pack run over an English sample matched nothing and said so as a 0 % saving).
        The user's own text, or a sample whose language is unknown, stays."""
        index = self.sample_combo.currentIndex()
        shown = self._samples[index - 1] if 0 < index <= len(self._samples) else None
        if shown is None or not shown.language or shown.language == language:
            return
        if any(s.language == language for s in self._samples):
            self._load_best_sample()

    def _sample_chosen(self, index: int) -> None:
        path = self.sample_combo.itemData(index)
        if path:
            self.load_sample_file(Path(path), keep_combo=True)

    def load_sample_file(self, path: Path, *, keep_combo: bool = False) -> bool:
        try:
            from engine.fsutil import read_input_bytes

            text = read_input_bytes(path).decode("utf-8", errors="replace")
        except OSError as exc:
            self.banner.show_message(f"Cannot read {path}: {exc.strerror or exc}", "error")
            return False
        self._sample_text = qt_plain_text(text) if keep_combo else None  # (as the view gives it back)
        self.set_text(text)
        if not keep_combo:
            self.sample_combo.setCurrentIndex(0)
        return True

    def open_sample_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open sample text", str(self._workspace() or Path.home()),
                                              "Text (*.txt *.md);;All files (*)")
        if name:
            self.load_sample_file(Path(name))

    def save_sample_dialog(self) -> None:
        name, ok = QInputDialog.getText(self, "Save sample", "Sample name:")
        if ok and name.strip():
            self.save_sample(name)

    def save_sample(self, name: str) -> Path | None:
        ws = self._workspace()
        if ws is None:
            self.banner.show_message("Open a workspace to keep named samples.", "warning")
            return None
        from engine.fsutil import atomic_write_text

        path = workspace_samples_dir(ws) / sample_file_name(name)
        atomic_write_text(path, self.input.plain_text())
        self._fill_samples()
        index = self.sample_combo.findData(str(path))
        if index >= 0:
            self.sample_combo.setCurrentIndex(index)
            self._sample_text = self.input.plain_text()
        return path

    # -- running -----------------------------------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        # a large text's first result starts before the input view has taken it (building the
        # blocks of 1 MB holds the GUI thread, and the GIL, for tens of milliseconds)
        self._text_coming(qt_plain_text(text))
        # the view's own set_text: the same text again is a no-op (replacing the document under
        # the shading left its layers "drawn" while nothing showed)
        self.input.set_text(text)

    def _text_coming(self, text: str) -> None:
        """``text`` is about to be the input (a paste, a loaded sample): start its first result now.
        ``_input_edited`` checks the input's own text against it once the view has it."""
        if len(text) >= STAGED_MIN and not self._docs_mode() and text != self.input.plain_text():
            self.schedule(immediate=True, text=text)
            self._announced = self._scheduled

    def _input_edited(self) -> None:
        """An edit of the input. A keystroke does not read the text (``toPlainText`` of 1 MB takes
        ~20 ms): the run it asks for reads it once the typing pauses (``Later``)."""
        if self.preview is not None:
            self.input.clear_spans()  # stale until the next result (which draws them again)
        if self.sample_combo.currentIndex() > 0 and self._sample_text != self.input.plain_text():
            self.sample_combo.setCurrentIndex(0)  # edited: it is the user's own text now
        # a paste (a large change at once) runs without the pause that gathers keystrokes
        length, self._input_length = self._input_length, self.input.document().characterCount()
        pasted = abs(self._input_length - length) >= PASTE_MIN
        if pasted and self._input_length > STAGED_MIN:
            QTimer.singleShot(0, self._prepare_output)
        announced, self._announced = self._announced, None
        self.scratchChanged.emit()
        if announced is not None and not self._docs_mode() and self.request() == announced:
            return  # the run for exactly this text started before the view had it (_text_coming)
        self.schedule(immediate=pasted)

    def scratch_state(self) -> dict[str, str]:
        """The user's own text (a named sample shown is not theirs to keep)."""
        text = self.input.plain_text() if self.sample_combo.currentIndex() <= 0 else ""
        return {"text": text} if text and text != self._auto_text else {}

    def restore_scratch(self, state: dict[str, str]) -> None:
        if state.get("text"):
            self._sample_text = self._auto_text = None
            self.set_text(state["text"])
            self.sample_combo.setCurrentIndex(0)
        elif self.scratch_state():  # (another workspace's own text: the next scan picks a sample)
            self.set_text("")

    def request(self, text: str | None = None) -> CavemanRequest:
        only = self.rule_name if self.rule_button.isChecked() else None
        return CavemanRequest(self.input.plain_text() if text is None else text,
                              self.language.currentText().strip() or "en",
                              self.intensity.currentText(), self.role.currentText(), self.profile.currentText(),
                              self.pack_root, self.override, only, self.timeout_ms)

    def _prepare_output(self) -> None:
        """While a large pasted text's first result is computed (in the helper), build the output
        view's document for the case it comes back unchanged (sent uncompressed, or no rule
        applies): it is then shown without a second megabyte's blocks on the way."""
        text = self.input.plain_text()
        if (len(text) < STAGED_MIN or self._docs_mode() or (self.preview is not None and self.preview.input == text)
                or self.output.prepared_text() == text or self.output.plain_text() == text):
            return
        self.output.prepare_text(text)

    def _docs_mode(self) -> bool:
        return self.window_ is not None and self.window_.docs_mode

    def schedule(self, immediate: bool = False, text: str | None = None) -> int:
        """Queue a run (debounced; the newest request wins) of the input, or of ``text`` about to
        be the input. Docs mode runs it in the GUI thread on the next event-loop turn so
        screenshots show a finished result."""
        scope = f"rule {self.rule_name}" if self.rule_button.isChecked() and self.rule_name else "the whole pack"
        self.scope_label.setText(f"running {scope}" + (f" from {self._shown_pack_root()}" if self.pack_root else ""))
        self.scope_label.setToolTip(self.pack_root or "")
        if self.window_ is not None:
            self.timeout_ms = self.window_.settings.regex_timeout_ms
            if self.window_.docs_mode:
                self._docs_timer.start()
                return 0
        self.cancel_explanation()
        if self.preview is not None and not self._stale and not self._stale_timer.isActive():
            # the result shown is an older request's until this one's is in; counted from the first
            # edit it does not answer (restarted at every keystroke, typing would never show it)
            self._stale_timer.start()
        if immediate or text is not None:
            return self.dispatcher.request(run_request, self._next_request(text), immediate=immediate)
        # debounced: the request (and the input's text) is read when the run starts
        return self.dispatcher.request(run_request, Later(self._next_request))

    def _shown_pack_root(self) -> str:
        """The pack folder as the scope line says it: from the workspace (``rules/``), or "the
        built-in packs" (an absolute path elided in its middle hid the part that told them apart)."""
        root = self.pack_root or ""
        if Path(root) == builtin_rules_dir():
            return "the built-in packs"
        workspace = self.window_.workspace if self.window_ is not None else None
        shown = shown_path(root, workspace)
        if shown == ".":
            return "the workspace folder"
        return shown if shown == root else f"{shown}/"

    def _next_request(self, text: str | None = None) -> CavemanRequest:
        """The request a run is about to take (the newest one)."""
        req = self._scheduled = self.request(text)
        return req

    def warm_helper_now(self) -> bool:
        """Warm the first-result helper now rather than a little after the panel opened (a
        benchmark); False when it has been warmed already (``helperWarmed`` will not come)."""
        if _helper_warmed or self._docs_mode():
            return False
        self._warm_helper()
        return True

    def _warm_helper(self) -> None:
        """Start the first-result helper and let it pay its one-time costs (imports, packs,
        patterns, case tables) on a small text, once per IDE process, before a large text needs
        it: a few seconds after the panel opens (not in the way of the window's start, nor of a
        short-lived window's). ``helperWarmed`` says when it is done."""
        global _helper_warmed
        if _helper_warmed or self._docs_mode():
            return
        _helper_warmed = True
        self._warmer.request(warm_helper, self.request(warm_up_text()))

    def _first_done(self, preview: CavemanPreview) -> None:
        self.show_result(preview)
        if preview.partial and not preview.error:
            self._explain(preview)

    def _mark_stale(self, *, failed: bool = False) -> None:
        """The result shown belongs to an older text (or older options, or an older pack) and the
        new one is not in yet (or ``failed``): say so on every view derived from it, and grey
        them out."""
        if self.preview is None or self._stale or not (failed or self.dispatcher.busy):
            return
        self._stale = True
        for view in self._derived_views():
            view.setEnabled(False)
        self.output_label.setText(f"<b>Output</b> · {STALE_TEXT}")
        self.output_label.setToolTip("The output, the rules, the savings and the notes shown are those of an "
                                     "earlier text or setting; the current one is being run")
        self.summary.setText(f"<i>{STALE_TEXT}</i> · " + self.summary.text())

    def _derived_views(self) -> tuple[QWidget, ...]:
        """What a result draws (besides the summary line and the output's caption, which say so
        in words): greyed while it is an older request's."""
        return (self.output, self.details, self.banner, self.input_label)

    def _clear_stale(self) -> None:
        self._stale_timer.stop()
        if not self._stale:
            return
        self._stale = False
        for view in self._derived_views():
            view.setEnabled(True)
        self.output_label.setText("<b>Output</b>")  # (a drawn result says its tokens here)
        self.output_label.setToolTip("")

    def _explain(self, first: CavemanPreview) -> None:
        """Start explaining the text of ``first`` (a partial result) in the background."""
        req = self.request()
        if req.text != first.input:
            return  # the text changed meanwhile: a newer run is on its way
        self._explanations += 1
        self._explanation = _Explanation(self._explanations, self._relay)
        self.explain_progress.setValue(0)
        self.explain_progress.show()
        self.cancel_button.show()
        self.explainer.request(explain_paused, req, self._explanation, immediate=True)

    def cancel_explanation(self, *, by_user: bool = False) -> None:
        """Stop the explanation in flight (a newer text, or the Cancel button)."""
        running, self._explanation = self._explanation, None
        if running is not None:
            running.cancelled.set()
        self.explain_progress.hide()
        self.cancel_button.hide()
        self.explain_button.hide()
        if by_user and running is not None and self.preview is not None and self.preview.partial:
            # said first: the line elides at its end, where the tokens and counts are
            self.summary.setText("explanation cancelled · " + self.summary.text().replace(" · explaining…", ""))
            self.explain_button.show()

    def _explain_again(self) -> None:
        """After Cancel: explain the text whose first result is shown."""
        self.explain_button.hide()
        if self.preview is not None and self.preview.partial and not self.preview.error:
            self.summary.setText(self.summary.text().replace("explanation cancelled · ", "") + " · explaining…")
            self._explain(self.preview)

    def _rules_known(self, number: int, preview: CavemanPreview) -> None:
        """The explanation's first part: the rules with their matches, the savings and the notes
        (the word diff and the attribution of each change are still being worked out)."""
        if (self._explanation is not None and number == self._explanation.number
                and preview.input == self.input.plain_text()):
            self._draw(preview)
            self.rulesShown.emit(preview)

    def _explain_progress(self, number: int, percent: int, stage: str) -> None:
        if self._explanation is not None and number == self._explanation.number:
            self.explain_progress.setValue(percent)
            self.explain_progress.setToolTip(f"explaining: {stage}")

    def _explained(self, preview: CavemanPreview) -> None:
        self._explanation = None
        self.explain_progress.hide()
        self.cancel_button.hide()
        if preview.input == self.input.plain_text():
            self.show_result(preview)

    def _explain_failed(self, message: str) -> None:
        if message.startswith(PreviewCancelled.__name__):
            return  # stopped on purpose: the first result stays
        self.cancel_explanation()
        self._show_failure(message)

    def set_debounce(self, ms: int) -> None:
        """How long typing must pause before a run starts (benchmarks measure with 0)."""
        self.dispatcher.set_debounce(ms)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.window_ is not None and self.window_.docs_mode:
            present_for_docs(self.window_)

    def _busy(self, busy: bool) -> None:
        self.refresh_button.setText("Running…" if busy else "Refresh")

    def _run_failed(self, message: str) -> None:
        """The run of the newest request failed: the result shown is an older request's."""
        self._stale_timer.stop()
        self._mark_stale(failed=True)
        self._show_failure(message)

    def _show_failure(self, message: str) -> None:
        self.banner.show_message(f"The preview failed: {message.splitlines()[0]}", "error")

    # -- drawing -------------------------------------------------------------------------------------------------
    def show_result(self, preview: CavemanPreview) -> None:
        """Draw a run's result: ``firstShown`` after a large text's first (partial) one,
        ``resultShown`` after any other."""
        self._draw(preview)
        (self.firstShown if preview.partial and not preview.error and preview.input else self.resultShown).emit(preview)

    def _draw(self, preview: CavemanPreview) -> None:
        self.preview = preview
        self._clear_stale()
        self.explain_button.hide()
        self._fill_languages(preview)
        if preview.error:
            self.banner.show_message(f"The pack cannot be loaded: {preview.error}", "error")
            self._show_no_result("No result: fix the pack (see Diagnostics).")
            return
        if not preview.input:
            self.banner.show_message("")
            self._show_no_result("Pick a sample or type some text to see what the pack does to it.")
            return
        uncompressed = [n for n in preview.notes if "uncompressed" in n.text]
        if uncompressed:
            self.banner.show_message(uncompressed[0].text, uncompressed[0].level)
        else:
            timeouts = [h for h in preview.rules if h.timeout_ms is not None]
            self.banner.show_message("; ".join(f"rule {h.name} timed out after {h.timeout_ms} ms" for h in timeouts)
                                     + (" — skipped, the rest of the pack ran" if timeouts else ""), "error")
        if preview.partial:  # the first result, or the explanation's rules before its word diff
            rules = f" · {preview.rules_line()}" if preview.rules else ""
            self.summary.setText(f"<b>{preview.summary()}</b>{rules} · {len(preview.protected)} protected region(s) "
                                 f"· {preview.seconds * 1000:.0f} ms · explaining…")
        else:
            self.summary.setText(f"<b>{preview.summary()}</b> · {preview.rules_line()} · {len(preview.protected)} "
                                 f"protected region(s) · {preview.seconds * 1000:.0f} ms")
        self.summary.setToolTip("Tokens are OmniRoute's estimate: ceil(UTF-16 length / 4)")
        self.output.set_text(preview.output)
        if preview.input == self.input.plain_text():
            self.input.set_layer("protected", preview.protected)
            self.input.set_layer("diff", preview.input_spans)
        self.output.set_layer("diff", preview.output_spans)
        self.input_label.setText(f"<b>Input</b> · {preview.tokens_before} tokens")
        self.output_label.setText(f"<b>Output</b> · {preview.tokens_after} tokens")
        self._fill_rules()
        self.rule_chart.set_items([Bar(h.name, h.saved_tokens, f"{h.name} ({h.category}): {h.matches} match(es), "
                                   f"{h.saved_tokens} token(s) saved", h.name)
                                   for h in sorted(preview.rules, key=lambda h: -h.saved_tokens) if h.saved_tokens])
        self.category_chart.set_items([Bar(c, n, f"{c}: {n} token(s) saved", c) for c, n in preview.categories])
        self.notes.set_notes(preview.notes)
        count = len(preview.notes)
        self.details.setTabText(2, f"Notes ({count})" if count else "Notes")
        self._highlight_rule(self.rule_name)

    def _fill_languages(self, preview: CavemanPreview) -> None:
        current = self.language.currentText()
        wanted = list(dict.fromkeys([*preview.languages, current]))
        existing = [self.language.itemText(i) for i in range(self.language.count())]
        if wanted != existing:
            self.language.blockSignals(True)
            self.language.clear()
            self.language.addItems(wanted)
            self.language.setCurrentText(current)
            self.language.blockSignals(False)

    def _show_no_result(self, why: str) -> None:
        """Nothing to show (a pack that does not load, no input): every view a result draws is
        emptied, the input's marks and both token counts included, so none is left from the run
        before."""
        self.output.set_text("")
        self.output.clear_spans()
        self.input.set_layer("protected", [])
        self.input.set_layer("diff", [])
        self.input_label.setText("<b>Input</b>")
        self.output_label.setText("<b>Output</b>")
        self.rules.clear()
        self.rules_empty.clear()
        self.rule_chart.set_items([])
        self.category_chart.set_items([])
        self.notes.set_notes([])
        self.summary.setText(why)

    def _fill_rules(self) -> None:
        preview = self.preview
        self.rules.blockSignals(True)
        self.rules.clear()
        if preview is None:
            self.rules.blockSignals(False)
            return
        t = tints()
        for hit in preview.rules:
            if self.fired_only.isChecked() and not (hit.matches or hit.changed or hit.timeout_ms is not None):
                continue
            item = QTreeWidgetItem([hit.name, hit.category, str(hit.matches), str(hit.saved_tokens), hit.status])
            item.setData(0, Qt.ItemDataRole.UserRole, hit.name)
            item.setToolTip(0, f"{hit.source}:{hit.name}")
            item.setToolTip(3, "tokens this rule saved on the text it ran on")
            for col in (2, 3):
                item.setTextAlignment(col, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if hit.timeout_ms is not None:
                for col in range(len(COLUMNS)):
                    item.setForeground(col, QBrush(QColor(t.error)))
            elif not hit.changed:
                item.setForeground(4, QBrush(QColor(t.punct)))
            self.rules.addTopLevelItem(item)
            if hit.name == self.rule_name:
                self.rules.setCurrentItem(item)
        self.rules.blockSignals(False)
        self._say_why_no_rule_is_listed(preview)

    def _say_why_no_rule_is_listed(self, preview: CavemanPreview) -> None:
        """An empty list says why (a blank one read as "the pack did not run")."""
        if self.rules.topLevelItemCount() or preview.error:
            self.rules_empty.clear()
        elif preview.partial:
            self.rules_empty.show_message("The rules are listed when the explanation is in.")
        elif preview.rules:
            count = len(preview.rules)
            self.rules_empty.show_message(
                f"None of the {count} rule{'' if count == 1 else 's'} matched this text.",
                [("Show All Rules", lambda: self.fired_only.setChecked(False))])
        else:
            self.rules_empty.show_message(
                "No rule ran on this text; the notes say why.",
                [("Show Notes", lambda: self.details.setCurrentWidget(self.notes))])

    def _rule_row_selected(self, item: QTreeWidgetItem | None) -> None:
        name = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        self._highlight_rule(name)
        if name and name != self.rule_name:
            self.rule_row = self._row_in_open_pack(name)
            self._set_rule(name)
            if self.rule_button.isChecked():
                self.schedule(immediate=True)

    def _note_activated(self, note: Note) -> None:
        if note.rule:
            self.select_rule(note.rule)

    def select_rule(self, name: str) -> None:
        """Select rule ``name`` in the list (lighting up its spans)."""
        for i in range(self.rules.topLevelItemCount()):
            item = self.rules.topLevelItem(i)
            if item is not None and item.data(0, Qt.ItemDataRole.UserRole) == name:
                self.rules.setCurrentItem(item)
                self.details.setCurrentIndex(0)
                return
        self._highlight_rule(name)

    def _highlight_rule(self, name: str | None) -> None:
        """Light up rule ``name``'s matches in the input and the output spans it caused."""
        preview = self.preview
        if preview is None or not name or preview.input != self.input.plain_text():
            self.input.set_layer("match", [])
            self.output.set_layer("match", [])
            return
        spans = [Span(s, e, "match", f"matched by {name}", name) for s, e in preview.rule_spans(name)]
        self.input.set_layer("match", spans)
        self.output.set_layer("match", [Span(s.start, s.end, "match", s.tip, name)
                                        for s in preview.output_spans if s.rule == name])
        self.rule_chart.set_selected(name)
        if spans and name != self._scrolled_to:
            self.input.scroll_to(spans[0].start)  # once per newly selected rule, not per keystroke
        self._scrolled_to = name

    def _span_clicked(self, span: Span) -> None:
        if span.rule:
            self.select_rule(span.rule)


register_panel("caveman-preview", "Caveman preview", "right", lambda window: CavemanPreviewPanel(window))
