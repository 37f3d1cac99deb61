"""Learning filters in the IDE: File ▸ New Filter from Samples…, and "Drop/Keep lines like these".

``LearnDialog``: paste or load one or more outputs of a command, Learn, and see the draft
(``engine.rtk.learn``): every proposed pattern with its reason and how many lines it matches;
selecting one highlights those lines in the samples; unticking one composes the filter again
without it (the proof, savings and JSON follow). Save writes an ordinary filter file, with its
tests, into the workspace's ``filters/`` — only when the proof passed, never over an existing
file without asking. Learning and composing run in a worker thread.

``install_preview_actions(panel)`` adds "Drop Lines Like These" / "Keep Lines Like These" to the
RTK preview's input: the selected lines are generalised into one pattern
(``engine.rtk.learn.lines_like``), ``LinesLikeDialog`` shows what else it matches in this sample
and in the workspace's other samples, and Add writes it into the open filter as one undoable
edit (``engine.workspace.learn_edits``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QBrush, QColor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.theme import mono_font, stripe_style, tints
from app.widgets.screen_fit import fit_to_screen
from app.widgets.spanview import SpanTextView
from app.workers import Dispatcher
from engine.jsvalues import utf16_len
from engine.workspace.previews.marks import Span

if TYPE_CHECKING:
    from app.mainwindow import MainWindow
    from app.panel_rtk import RtkPreviewPanel
    from engine.rtk.learn.draft import Draft, LearnResult

MAX_SAMPLE_BYTES = 16 * 1024 * 1024
PROPOSAL_COLUMNS = ("Pattern", "Kind", "Lines", "Why")
FIELD_NAMES = {"match.commands": "command", "match.patterns": "output", "rules.dropPatterns": "drop",
               "rules.collapsePatterns": "collapse", "preserve.errorPatterns": "keep (error)",
               "preserve.summaryPatterns": "keep (summary)"}


def _learn_job(samples: list[str], command: str, filter_id: str | None, builtin: str | None,
               workspace: str | None = None, workspace_files: tuple[str, ...] = ()):
    """Worker: read the samples and compose the first draft (plain data back to the GUI). The
    activation check meets the bundled filters, and names a filter of the workspace (its files,
    its .rtk) that the command would select instead, as the RTK preview would."""
    from engine.rtk.learn import compose, learn
    from engine.workspace.competing import workspace_neighbours

    pool = None
    if builtin and Path(builtin).is_dir():
        from engine.rtk.model import load_filter_dir

        pool = load_filter_dir(builtin)[0]
    neighbours = workspace_neighbours(workspace, workspace_files) if workspace else None
    draft = learn(samples, command, filter_id=filter_id or None, pool=pool, neighbours=neighbours)
    return draft, compose(draft)


def _compose_job(draft):
    from engine.rtk.learn import compose

    return draft, compose(draft)


def line_offsets(text: str) -> list[tuple[int, int]]:
    """UTF-16 (start, end) of each line of a view's text (Qt positions count UTF-16 units)."""
    out, pos = [], 0
    for line in text.split("\n"):
        n = utf16_len(line)
        out.append((pos, pos + n))
        pos += n + 1
    return out


class LearnDialog(QDialog):
    """See the module docstring."""

    def __init__(self, window: MainWindow | None = None, parent: QWidget | None = None, *,
                 command: str = "", samples: list[str] | None = None, inline: bool = False) -> None:
        super().__init__(parent or window)
        self.window_ = window
        self.setWindowTitle("New Filter from Samples")
        self.draft: Draft | None = None
        self.learned: LearnResult | None = None  # the composed filter and its proof
        self.saved_path: Path | None = None
        self._filling = False

        self.command = QLineEdit(command)
        self.command.setPlaceholderText("the command that printed these outputs, e.g. cargo build --release")
        self.filter_id = QLineEdit()
        self.filter_id.setPlaceholderText("filter id (default: from the command)")
        self.filter_id.setMaximumWidth(260)
        self.samples = QTabWidget()
        self.samples.setDocumentMode(True)
        self.samples.setTabsClosable(True)
        self.samples.tabCloseRequested.connect(self.remove_sample)
        add = QPushButton("Add Sample")
        add.setToolTip("A new empty sample: paste another run's output into it")
        add.clicked.connect(lambda: self.add_sample(""))
        load = QPushButton("Load…")
        load.setToolTip("Load outputs from files (one sample each)")
        load.clicked.connect(self.load_dialog)
        self.learn_button = QPushButton("Learn")
        self.learn_button.setShortcut("Ctrl+Return")
        self.learn_button.setToolTip("Draft a filter from the samples (Ctrl+Enter)")
        self.learn_button.clicked.connect(self.learn)

        self.proposals = QTreeWidget()
        self.proposals.setHeaderLabels(list(PROPOSAL_COLUMNS))
        self.proposals.setRootIsDecorated(False)
        self.proposals.setUniformRowHeights(True)
        header = self.proposals.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 260)
        for col in (1, 2):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.proposals.itemChanged.connect(self._item_changed)
        self.proposals.currentItemChanged.connect(lambda item, _prev: self.show_matches(item))
        self.proof = QLabel("Paste one or more outputs of the same command, give the command, then Learn.")
        self.proof.setWordWrap(True)
        self.proof.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.json = QPlainTextEdit()
        self.json.setReadOnly(True)
        self.json.setFont(mono_font())
        self.json.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.details = QTabWidget()
        self.details.setDocumentMode(True)
        self.details.addTab(self.proof_box(), "Proof and savings")
        self.details.addTab(self.json, "Filter JSON")

        top = QHBoxLayout()
        top.addWidget(QLabel("Command"))
        top.addWidget(self.command, 3)
        top.addWidget(QLabel("Id"))
        top.addWidget(self.filter_id, 1)
        left = QWidget()
        left_lay = QVBoxLayout(left)
        left_lay.setContentsMargins(0, 0, 0, 0)
        left_lay.addWidget(QLabel("<b>Samples</b> (matched lines of the selected pattern are highlighted)"))
        left_lay.addWidget(self.samples, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(load)
        buttons.addStretch(1)
        buttons.addWidget(self.learn_button)
        left_lay.addLayout(buttons)
        right = QSplitter(Qt.Orientation.Vertical)
        box = QWidget()
        box_lay = QVBoxLayout(box)
        box_lay.setContentsMargins(0, 0, 0, 0)
        box_lay.addWidget(QLabel("<b>Proposed patterns</b> (untick to reject; select to see its lines)"))
        box_lay.addWidget(self.proposals, 1)
        right.addWidget(box)
        right.addWidget(self.details)
        right.setStretchFactor(0, 3)
        right.setStretchFactor(1, 2)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setEnabled(False)
        self.save_button.setToolTip("Write the filter, with its tests, into the workspace's filters/ folder")
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(split, 1)
        lay.addWidget(self.buttons)

        self.dispatcher = Dispatcher(self, inline=inline)
        self.dispatcher.finished.connect(lambda _job, result: self.show_result(*result))
        self.dispatcher.failed.connect(lambda _job, message: self.proof.setText(
            f"Learning failed: {message.splitlines()[0]}"))
        self.dispatcher.busyChanged.connect(lambda busy: self.learn_button.setText("Learning…" if busy else "Learn"))
        for text in samples or [""]:
            self.add_sample(text)
        fit_to_screen(self, 1180, 720)

    def proof_box(self) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.addWidget(self.proof)
        lay.addStretch(1)
        return box

    # -- samples --------------------------------------------------------------------------------------------
    def add_sample(self, text: str, name: str = "") -> SpanTextView:
        view = SpanTextView(read_only=False, placeholder="Paste one run's output here.")
        view.setLineWrapMode(SpanTextView.LineWrapMode.NoWrap)
        view.setPlainText(text)
        index = self.samples.addTab(view, name or f"Sample {self.samples.count() + 1}")
        self.samples.setCurrentIndex(index)
        return view

    def remove_sample(self, index: int) -> None:
        if self.samples.count() > 1:
            self.samples.removeTab(index)

    def load_dialog(self) -> None:
        start = str(self.window_.workspace) if self.window_ is not None and self.window_.workspace else str(Path.home())
        names, _ = QFileDialog.getOpenFileNames(self, "Load command outputs", start,
                                                "Logs and text (*.log *.txt *.out);;All files (*)")
        for name in names:
            self.load_file(Path(name))

    def load_file(self, path: Path) -> bool:
        try:
            from engine.fsutil import read_input_bytes

            # the one bounded reader: a FIFO or device is refused unopened (never blocks the GUI)
            text = read_input_bytes(path, max_bytes=MAX_SAMPLE_BYTES).decode("utf-8", errors="replace")
        except OSError as exc:
            self.proof.setText(f"Cannot read {path}: {exc.strerror or exc}")
            return False
        current = self.sample_views()
        if len(current) == 1 and not current[0].toPlainText().strip():
            self.samples.removeTab(0)
        self.add_sample(text, path.name)
        return True

    def sample_views(self) -> list[SpanTextView]:
        views = [self.samples.widget(i) for i in range(self.samples.count())]
        return [v for v in views if isinstance(v, SpanTextView)]  # every tab is one

    def sample_texts(self) -> list[str]:
        return [v.toPlainText() for v in self.sample_views() if v.toPlainText().strip()]

    # -- learning ---------------------------------------------------------------------------------------------
    def learn(self) -> bool:
        samples = self.sample_texts()
        if not samples or not self.command.text().strip():
            self.proof.setText("Give the command and at least one sample output.")
            return False
        builtin = workspace = None
        files: tuple[str, ...] = ()
        if self.window_ is not None:
            from engine.paths import builtin_filters_dir

            builtin = str(builtin_filters_dir())
            if self.window_.workspace is not None:
                from app.playground.common import workspace_filter_files

                workspace, files = str(self.window_.workspace), workspace_filter_files(self.window_)
        self.dispatcher.request(_learn_job, samples, self.command.text().strip(),
                                self.filter_id.text().strip() or None, builtin, workspace, files, immediate=True)
        return True

    def show_result(self, draft, result) -> None:
        self.draft, self.learned = draft, result
        if not self.filter_id.text().strip():
            self.filter_id.setPlaceholderText(draft.filter_id)
        self._filling = True
        current = self.proposals.currentItem()
        keep = current.data(0, Qt.ItemDataRole.UserRole) if current is not None else None
        self.proposals.clear()
        refused = {id(p): why for p, why in result.refused}
        for p in draft.proposals:
            item = QTreeWidgetItem([p.pattern, FIELD_NAMES.get(p.field, p.field), str(len(p.matches)),
                                    refused.get(id(p), p.reason)])
            item.setData(0, Qt.ItemDataRole.UserRole, id(p))
            item.setFont(0, mono_font())
            item.setToolTip(0, p.pattern)
            item.setToolTip(3, refused.get(id(p), p.reason))
            if p.field == "match.commands":
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(0, Qt.CheckState.Checked)
            else:
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(0, Qt.CheckState.Checked if p.accepted and id(p) not in refused
                                   else Qt.CheckState.Unchecked)
            if id(p) in refused:
                item.setForeground(3, QBrush(QColor(tints().error)))
            self.proposals.addTopLevelItem(item)
            if keep == id(p):
                self.proposals.setCurrentItem(item)
        self._filling = False
        self._show_proof(result)
        import json

        self.json.setPlainText(json.dumps(result.filter, indent=2, ensure_ascii=False))
        self.save_button.setEnabled(result.proof.passed)
        self.show_matches(self.proposals.currentItem())

    def _show_proof(self, result) -> None:
        lines = []
        for check in result.proof.checks:
            mark = "✔" if check.passed else "✘"
            lines.append(f"{mark} <b>{check.name}</b>: {_html(check.detail)}")
        for lost in result.proof.lost[:5]:
            lines.append(f"&nbsp;&nbsp;lost in sample {lost.sample + 1}: <code>{_html(lost.line)}</code>")
        savings = ", ".join(f"sample {i + 1}: {s:.1f}%" for i, s in enumerate(result.savings))
        lines.append(f"<b>Savings</b>: {savings}")
        lines.append(f"<b>Line limits</b>: maxLines {result.limits.max_lines}, head {result.limits.head_lines}, "
                     f"tail {result.limits.tail_lines} — {_html(result.limits.reason)}")
        for p, why in result.refused:
            lines.append(f"refused <code>{_html(p.pattern)}</code>: {_html(why)}")
        self.proof.setText("<br>".join(lines))

    def proposal_of(self, item: QTreeWidgetItem | None):
        if item is None or self.draft is None:
            return None
        key = item.data(0, Qt.ItemDataRole.UserRole)
        return next((p for p in self.draft.proposals if id(p) == key), None)

    def _item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling or column != 0:
            return
        proposal = self.proposal_of(item)
        if proposal is None or proposal.field == "match.commands":
            return
        proposal.accepted = item.checkState(0) == Qt.CheckState.Checked
        self.save_button.setEnabled(False)
        self.dispatcher.request(_compose_job, self.draft, immediate=True)

    def set_accepted(self, pattern: str, accepted: bool) -> bool:
        """Tick or untick the first proposal with this pattern (as a click would)."""
        for i in range(self.proposals.topLevelItemCount()):
            item = self.proposals.topLevelItem(i)
            if item is not None and item.text(0) == pattern and item.flags() & Qt.ItemFlag.ItemIsUserCheckable:
                item.setCheckState(0, Qt.CheckState.Checked if accepted else Qt.CheckState.Unchecked)
                return True
        return False

    def show_matches(self, item: QTreeWidgetItem | None) -> None:
        """Highlight the selected proposal's matched lines in every sample; show the first."""
        proposal = self.proposal_of(item)
        views = self.sample_views()
        texts = [v for v in views if v.toPlainText().strip()]
        for view in views:
            view.set_layer("match", [])
        if proposal is None:
            return
        by_sample: dict[int, list[int]] = {}
        for sample, line, _text in proposal.matches:
            by_sample.setdefault(sample, []).append(line)
        first = None
        for sample, numbers in by_sample.items():
            if sample >= len(texts):
                continue
            view = texts[sample]
            offsets = line_offsets(view.toPlainText())
            tip = f"{FIELD_NAMES.get(proposal.field)}: {proposal.pattern}"
            # an empty line is shaded through its line break, or it would not show at all
            spans = [Span(offsets[n - 1][0], max(offsets[n - 1][1], offsets[n - 1][0] + 1), "match", tip,
                          proposal.pattern) for n in numbers if n - 1 < len(offsets)]
            view.set_layer("match", spans)
            if first is None and spans:
                first = (view, spans[0].start)
        if first is not None:
            self.samples.setCurrentWidget(first[0])
            first[0].scroll_to(first[1])

    # -- saving -----------------------------------------------------------------------------------------------
    def target_path(self) -> Path | None:
        if self.learned is None:
            return None
        ident = self.learned.filter["id"]
        if self.window_ is not None and self.window_.workspace is not None:
            from engine.workspace import templates

            return templates.filter_path(self.window_.workspace, ident)
        name, _ = QFileDialog.getSaveFileName(self, "Save filter", f"{ident}.json", "Filter files (*.json)",
                                              options=QFileDialog.Option.DontConfirmOverwrite)  # (save asks)
        return Path(name) if name else None

    def save(self, path: Path | None = None, *, overwrite: bool = False) -> bool:
        if self.learned is None or not self.learned.proof.passed:
            return False
        path = path or self.target_path()
        if path is None:
            return False
        if path.exists() and not overwrite:
            answer = QMessageBox.question(self, "Replace filter?", f"{path} already exists. Replace it?")
            if answer != QMessageBox.StandardButton.Yes:
                return False
        import json

        from engine.fsutil import atomic_write_text
        from engine.rtk.learn.draft import schema_ref

        obj = dict(self.learned.filter)
        obj["$schema"] = schema_ref(path.parent)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, json.dumps(obj, indent=2, ensure_ascii=False) + "\n")
        except OSError as exc:
            self.proof.setText(f"Cannot write {path}: {exc.strerror or exc}")
            return False
        self.saved_path = path
        if self.window_ is not None:
            self.window_.log(f"Created {path} from {len(self.learned.filter['tests'])} sample(s)")
            self.window_.rescan()
            self.window_.open_file(path)
        self.accept()
        return True


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def open_learn_dialog(window: MainWindow) -> LearnDialog:
    """File ▸ New Filter from Samples…: prefilled with the RTK preview's command and output."""
    # the panel registered as "rtk-preview" is an RtkPreviewPanel (app.panel_rtk, a layer above)
    preview = cast("RtkPreviewPanel | None", window.panel_widgets.get("rtk-preview"))
    command = preview.command.text() if preview is not None else ""
    sample = preview.input.toPlainText() if preview is not None else ""
    dialog = LearnDialog(window, command=command, samples=[sample] if sample.strip() else None)
    dialog.show()
    return dialog


# -- "Drop / Keep lines like these" in the RTK preview ------------------------------------------------------------
class LinesLikeDialog(QDialog):
    """The proposed pattern, what else it matches here and in the other samples, and Add."""

    def __init__(self, kind: str, found, filter_id: str, parent: QWidget | None = None, *, elsewhere: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Drop lines like these" if kind == "drop" else "Keep lines like these")
        self.found = found
        lay = QVBoxLayout(self)
        self.elsewhere = QLabel(elsewhere)  # (the output went through another filter: said first)
        self.elsewhere.setWordWrap(True)
        self.elsewhere.setStyleSheet(stripe_style("warning"))
        self.elsewhere.setVisible(bool(elsewhere))
        lay.addWidget(self.elsewhere)
        if found.proposal is None:
            reason = QLabel(f"No pattern: {found.why_not}")
            reason.setWordWrap(True)
            lay.addWidget(reason)
        else:
            p = found.proposal
            pattern = QLineEdit(p.pattern)
            pattern.setReadOnly(True)
            pattern.setFont(mono_font())
            title = QLabel(f"<b>{FIELD_NAMES.get(p.field, p.field)}</b> pattern for filter <b>{_html(filter_id)}</b>:")
            title.setWordWrap(True)
            lay.addWidget(title)
            lay.addWidget(pattern)
            lay.addWidget(QLabel(f"Matches {len(found.current)} line(s) of this sample and {len(found.others)} of "
                                 "the workspace's other samples:"))
            self.matches = QListWidget()
            self.matches.setFont(mono_font())
            for line, text in found.current:
                self.matches.addItem(f"this sample:{line}: {text}")
            for name, line, text in found.others:
                self.matches.addItem(f"{name}:{line}: {text}")
            lay.addWidget(self.matches, 1)
            if found.blocking_drops:
                warn = QLabel("These drop patterns still remove the lines (a drop runs before any limit): "
                              + ", ".join(f"<code>{_html(d)}</code>" for d in found.blocking_drops))
                warn.setWordWrap(True)
                lay.addWidget(warn)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        if found.proposal is not None:
            self.add_button = buttons.addButton(f"Add to {filter_id}", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(760, 420)


def selected_lines(view: QPlainTextEdit) -> list[str]:
    """Whole lines touched by the view's selection (the cursor's line when nothing is selected)."""
    cursor = view.textCursor()
    doc = view.document()
    first = doc.findBlock(cursor.selectionStart()).blockNumber()
    last_pos = cursor.selectionEnd()
    if cursor.hasSelection() and last_pos > cursor.selectionStart():
        last_block = doc.findBlock(last_pos)
        if last_block.position() == last_pos:  # selection ends at the start of a line: not that line
            last_pos -= 1
    last = doc.findBlock(last_pos).blockNumber()
    return [doc.findBlockByNumber(i).text() for i in range(first, last + 1)]


def _other_sample_files(panel: RtkPreviewPanel) -> list[tuple[str, str]]:
    current = panel.sample_combo.currentData()
    return [(sample.name, sample.path) for sample in getattr(panel, "_samples", []) if sample.path != current]


def _lines_like_job(lines: list[str], text: str, kind: str, files: list[tuple[str, str]], drops: list[str]):
    """Worker: read the workspace's other samples and generalise the selected lines."""
    from engine.rtk.learn.lines_like import lines_like

    others: dict[str, str] = {}
    for name, path in files:
        try:
            from engine.fsutil import read_input_bytes

            others[name] = read_input_bytes(path, max_bytes=MAX_SAMPLE_BYTES).decode("utf-8", errors="replace")
        except OSError:
            continue
    return lines_like(lines, text, kind, others=others, drop_patterns=drops)


def target_of(panel: RtkPreviewPanel):
    """(tab, filter id) the preview actions write into: the open JSON filter file's selected
    filter (or its first), or (None, reason)."""
    from engine.workspace.kinds import FileKind

    window = panel.window_
    tab = window.current_tab() if window is not None else None
    if tab is None or tab.doc.kind not in (FileKind.RTK_FILTER, FileKind.RTK_FILTERS):
        return None, "open a JSON filter file to add patterns to it"
    from engine import jsontree
    from engine.workspace.filter_files import filter_pointers

    parsed = jsontree.shallow_parse(tab.text)
    pointers = filter_pointers(parsed.value if parsed.ok else None)
    if not pointers:
        return None, f"{tab.doc.display_name} has no filter objects (or is not valid JSON)"
    selected = panel.active.selected_id if panel.active is not None else None
    return (tab, selected if selected in pointers else next(iter(pointers))), ""


def lines_like_action(panel: RtkPreviewPanel, kind: str, *, confirm: bool = True) -> bool:
    """Propose a pattern for the selected input lines (in a worker); once it arrives and is
    confirmed, add it to the open filter as one undoable edit (``_offer``). False when there is
    nothing to do it for."""
    from engine import jsonedit
    from engine.workspace.learn_edits import pattern_list

    target, why = target_of(panel)
    if target is None:
        panel.banner.show_message(f"Lines like these: {why}", "warning")
        return False
    tab, filter_id = target
    try:
        drops = pattern_list(tab.text, filter_id, "rules.dropPatterns")
    except jsonedit.EditError:
        drops = []
    panel.lines_like_pending = (tab, filter_id, kind, confirm)
    panel.lines_like_jobs.request(_lines_like_job, selected_lines(panel.input), panel.input.toPlainText(), kind,
                                  _other_sample_files(panel), drops, immediate=True)
    return True


def _went_elsewhere(panel: RtkPreviewPanel, filter_id: str) -> str:
    """Why adding to ``filter_id`` will not change this preview, when the whole engine chose
    another filter (or none) for the output: the pattern still goes where the user asked, but
    the preview's own line saying so was cut short at the width of a dock."""
    preview = getattr(panel, "preview", None)
    if preview is None or not panel.engine_button.isChecked() or preview.filter_id == filter_id:
        return ""
    if preview.output != panel.input.plain_text():
        return ""  # (a result of an earlier input: what this one goes through is not known yet)
    ran = f"<b>{_html(preview.filter_id)}</b>" if preview.filter_id else "no filter"
    return (f"⚠ This output went through {ran}, not <b>{_html(filter_id)}</b>: the pattern changes what "
            f"{_html(filter_id)} does to its own commands' outputs, not this preview (“This filter only” runs "
            f"{_html(filter_id)} alone on it).")


def _offer(panel: RtkPreviewPanel, found) -> bool:
    from app.undo import SpliceCommand
    from engine import jsonedit
    from engine.workspace.learn_edits import add_pattern_splice

    pending = getattr(panel, "lines_like_pending", None)
    if pending is None:
        return False
    tab, filter_id, kind, confirm = pending
    panel.lines_like_pending = None
    dialog = LinesLikeDialog(kind, found, filter_id, panel, elsewhere=_went_elsewhere(panel, filter_id))
    panel.last_lines_like = dialog
    if found.proposal is None:
        if confirm:
            dialog.exec()
        panel.banner.show_message(f"No pattern: {found.why_not}", "warning")
        return False
    if confirm and dialog.exec() != QDialog.DialogCode.Accepted:
        return False
    try:
        splice = add_pattern_splice(tab.text, filter_id, found.proposal.field, found.proposal.pattern)
    except (jsonedit.EditError, ValueError) as exc:
        panel.banner.show_message(f"Cannot add the pattern: {exc}", "warning")
        return False
    label = f"{'Drop' if kind == 'drop' else 'Keep'} lines like these: {found.proposal.pattern}"
    inverse = tab.apply_splice(splice, "learn")
    tab.undo_stack.push(SpliceCommand(tab, splice, inverse, label, None, already_applied=True))
    if panel.window_ is not None:
        panel.window_.statusBar().showMessage(
            f"Added {found.proposal.pattern} to {filter_id} (Ctrl+Z undoes it); tests whose expected output "
            "changes now fail in the Tests panel until you accept the new output", 8000)
    panel.schedule(immediate=True)
    return True


def install_preview_actions(panel: RtkPreviewPanel) -> None:
    """The input view's context menu gets the two actions (after Qt's own entries)."""
    drop = QAction("Drop Lines Like These", panel)
    drop.setToolTip("Add a drop pattern for lines like the selected ones to the open filter")
    drop.triggered.connect(lambda: lines_like_action(panel, "drop"))
    keep_ = QAction("Keep Lines Like These", panel)
    keep_.setToolTip("Add a priority pattern so lines like the selected ones are never cut")
    keep_.triggered.connect(lambda: lines_like_action(panel, "keep"))
    panel.lines_like_actions = (drop, keep_)
    panel.lines_like_pending = None
    panel.lines_like_jobs = Dispatcher(panel)
    panel.lines_like_jobs.finished.connect(lambda _job, found: _offer(panel, found))
    panel.lines_like_jobs.failed.connect(lambda _job, message: panel.banner.show_message(
        f"Lines like these failed: {message.splitlines()[0]}", "error"))
    panel.input.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)

    def menu(pos) -> None:
        m = input_menu(panel)
        m.exec(panel.input.mapToGlobal(pos))
        m.deleteLater()

    panel.input.customContextMenuRequested.connect(menu)


def input_menu(panel: RtkPreviewPanel) -> QMenu:
    """The input view's context menu: Qt's own entries, then the two actions, enabled when there
    is a filter to add to, else with the reason beneath them (a disabled entry shows no tip)."""
    m = panel.input.createStandardContextMenu()
    m.addSeparator()
    target, why = target_of(panel)
    for action in panel.lines_like_actions:
        action.setEnabled(target is not None)
        action.setStatusTip(why)
        m.addAction(action)
    if target is None:
        m.addAction(why[:1].upper() + why[1:]).setEnabled(False)
    return m


__all__ = ["LearnDialog", "LinesLikeDialog", "input_menu", "install_preview_actions", "lines_like_action",
           "open_learn_dialog"]
