"""The Trust panel: may the project's ``.rtk`` filters run, and exporting filters there.

Top: the verdict for ``.rtk/filters.json`` (and ``filters.toml``) — trusted / untrusted /
changed — with the stored and computed hash, what changed since the last trust (filter by filter,
with the risk of each change) and the risk review; "Compare…" sets the trusted version beside the
file now, line by line; and a "Trust…" button that asks ("Trust 3 filters in filters.json (hash
9f2c…)?") with that comparison, then records exactly the hash shown.
Bottom: every filter of the workspace as a checklist; export the chosen ones as
``.rtk/filters.json`` or RTK TOML, optionally trusting the result in the same step.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, QUrl, Slot
from PySide6.QtGui import QAction, QColor, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.conflict import DiffDialog
from app.icons import SymbolIconDelegate
from app.panels import offer_command, register_panel
from app.playground.common import Badge, NotesList, compact, docs_focus, scanned_entries, titled
from app.playground.jobs import panel_jobs
from app.theme import mono_font, tints
from app.timers import single_shot
from app.widgets.elided import ElidedLabel
from app.widgets.elided_combo import ElidedComboBox
from app.widgets.empty_state import EmptyState
from app.widgets.previewkit import ActiveTabHook
from app.widgets.scrollbody import scroll_body
from app.widgets.trees import child_items, top_items
from engine.diagnostics import Diagnostic
from engine.workspace.filter_files import filter_files_of
from engine.workspace.panel_models.trust_compare import compare_refusal, filter_place, trusted_versus_now
from engine.workspace.panel_models.trust_panel import (
    ExportCandidate,
    TrustOverview,
    export_candidates,
    plan_selection,
    since_trust_rows,
    trust_confirmation,
    trust_overview,
)

if TYPE_CHECKING:
    from app.document_tab import DocumentTab
    from app.mainwindow import MainWindow

VERDICT_BADGES = {"trusted": ("🔒 trusted", "ok"), "untrusted": ("🔓 untrusted", "warn"),
                  "changed": ("⚠ changed after trust", "bad"), "missing": ("— no file", "muted")}
REASONS = {
    "option": "trustProjectFilters is on", "env": "OMNIROUTE_RTK_TRUST_PROJECT_FILTERS=1",
    "hash-match": "trust.json holds this file's hash", "no-trust-file": "no .rtk/trust.json",
    "unreadable": "trust.json cannot be read", "invalid-json": "trust.json is not valid JSON",
    "not-object": "trust.json is not an object", "no-key": "trust.json has no hash for this file",
    "empty-hash": "the stored hash is empty", "hash-mismatch": "the file changed since it was trusted",
    "no file": "",
}
CANDIDATE_ROLE = Qt.ItemDataRole.UserRole + 2
FILE_ROLE = Qt.ItemDataRole.UserRole + 3  # a file row's path
RISK_PLACEHOLDER = "The risk review of the project filters appears here."


def _load(project: Path, entries: list | None, profile: str) -> tuple[TrustOverview, list[ExportCandidate], list]:
    """Worker job: the trust overview and every filter of the workspace (from the scan's entries)."""
    overview = trust_overview(project, profile=profile)
    candidates, problems = export_candidates(filter_files_of(project, entries), profile,
                                             tested=overview.test_problems())
    return overview, candidates, problems


class TrustPanel(QWidget):
    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window_ = window
        self.overview: TrustOverview | None = None
        self.candidates: list[ExportCandidate] = []
        self.loader = panel_jobs(self, window, debounce_ms=150)
        self.loader.finished.connect(self._on_loaded)
        self.loader.failed.connect(lambda _j, msg: self._note_error(msg.splitlines()[0]))
        self._refresh_timer = single_shot(self, 300, self._refresh_if_visible)
        self._stale = True  # the workspace changed while the panel was hidden

        # -- trust half
        self.verdict = Badge("no workspace", "muted")
        self.headline = ElidedLabel()  # one line (paths, reasons); the full text in its tooltip
        self.trust_button = QPushButton("Trust…")
        self.trust_button.setToolTip("Record the hash of .rtk/filters.json|toml in .rtk/trust.json (asks first)")
        self.trust_button.clicked.connect(self.trust_clicked)
        self.compare_button = QPushButton("Compare…")
        self.compare_button.clicked.connect(lambda _checked=False: self.compare_with_trusted())
        refresh = QPushButton("Refresh")
        refresh.clicked.connect(lambda _checked=False: self.refresh())
        head = QHBoxLayout()
        head.addWidget(self.verdict)
        head.addWidget(self.headline, 1)
        head.addWidget(refresh)
        head.addWidget(self.compare_button)
        head.addWidget(self.trust_button)
        self.files = QTreeWidget()
        self.files.setItemDelegate(SymbolIconDelegate(self.files))  # verdict symbols drawn as icons
        self.files.setHeaderLabels(["File", "Verdict", "Why", "Filters", "Stored hash", "Computed hash"])
        self.files.setRootIsDecorated(False)
        for col, width in enumerate((90, 160, 220, 50, 150, 150)):
            self.files.setColumnWidth(col, width)
        self.files.setMaximumHeight(90)
        self.files.itemDoubleClicked.connect(lambda item, _col: self.compare_with_trusted(item.data(0, FILE_ROLE)))
        self.risk = QTextBrowser()  # (a line that heads a changed filter links to it in the file)
        self.risk.setOpenLinks(False)
        self.risk.anchorClicked.connect(self._on_review_link)
        self._review_links: dict[str, tuple[str, str]] = {}  # href -> (file, filter id)
        self.risk.setFont(mono_font())
        self.risk.setLineWrapMode(QTextBrowser.LineWrapMode.WidgetWidth)
        self.risk.setPlaceholderText(RISK_PLACEHOLDER)
        # the reviewer's main reading: at least a few lines, even in a short bottom dock (the
        # panel scrolls then, rather than squeeze the review to a sliver)
        self.risk.setMinimumHeight(self.risk.fontMetrics().lineSpacing() * 6)
        trust_box = QWidget()
        tl = QVBoxLayout(trust_box)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addLayout(head)
        tl.addWidget(self.files)
        tl.addWidget(titled("Risk review — what these filters could hide from the model", self.risk), 1)

        # -- export half
        self.export_tree = QTreeWidget()
        self.export_tree.setHeaderLabels(["Filter", "File"])
        self.export_tree.setColumnWidth(0, 220)
        self.export_tree.itemChanged.connect(self._on_check_changed)
        self.format = ElidedComboBox()
        self.format.addItem("JSON (.rtk/filters.json)", "json")
        self.format.addItem("RTK TOML v1 (.rtk/filters.toml)", "toml")
        self.format.setToolTip("OmniRoute's JSON filter array, or RTK TOML v1 (lossy: dropped fields are listed)")
        self.with_trust = QCheckBox("and trust it")
        self.with_trust.setToolTip("Write trust.json for the exported file in the same step (only for the "
                                   "project's .rtk/filters.json or .rtk/filters.toml)")
        self.replace_file = QCheckBox("replace the file")
        self.replace_file.setToolTip("Replace an existing file as a whole. Unchecked, the export merges: filters "
                                     "with the same id are replaced, the others kept as they are")
        self.export_button = QPushButton("Export…")
        self.export_button.clicked.connect(self.export_clicked)
        self.selection_label = QLabel("")
        ex_bar = QHBoxLayout()
        ex_bar.addWidget(self.format)
        ex_bar.addWidget(self.with_trust)
        ex_bar.addWidget(self.replace_file)
        ex_bar.addStretch(1)
        ex_bar.addWidget(self.export_button)
        self.notes = NotesList()
        export_box = QWidget()
        el = QVBoxLayout(export_box)
        el.setContentsMargins(0, 0, 0, 0)
        # (the count beside the caption: in the bar it cut "and trust it" at 1366 px)
        el.addWidget(titled("Export filters", self.export_tree, self.selection_label))
        el.addLayout(ex_bar)
        el.addWidget(titled("Notes", self.notes), 1)

        split = QSplitter()
        split.addWidget(trust_box)
        split.addWidget(export_box)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        lay = QVBoxLayout(scroll_body(self))  # scrolls rather than force a minimum on its dock
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(split)
        compact(self)
        self.format.setMinimumContentsLength(22)

        # Run ▸ Trust Project Filters…: in the palette too (ux.md: every command), asking the same
        # question as the button once the panel has read the files afresh
        self._trust_when_loaded = False
        self._compare_when_loaded = False
        self.trust_action = QAction("Trust &Project Filters…", window)
        self.trust_action.setToolTip("Review the project's .rtk filters and record their hash in .rtk/trust.json "
                                     "(asks first, with the exact effect)")
        self.trust_action.triggered.connect(lambda _checked=False: self.trust_from_action())
        self.compare_action = QAction("Compare Project Filters with Trusted…", window)
        self.compare_action.setToolTip("The trusted version of .rtk/filters.json|toml beside the file now, line by "
                                       "line")
        self.compare_action.triggered.connect(lambda _checked=False: self.compare_from_action())
        # File ▸ Export Filters…: the product's last step had no menu item or palette entry, only
        # this panel's button
        self._export_when_loaded = False
        self.export_action = QAction("&Export Filters…", window)
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.setToolTip("Export the workspace's RTK filters into .rtk/filters.json or .toml "
                                      "(the ticked ones in the Trust panel; asks first, with the exact effect)")
        self.export_action.triggered.connect(lambda _checked=False: self.export_from_action())
        QTimer.singleShot(0, self._register_action)
        window.workspaceScanned.connect(self._refresh_timer.start)
        window.workspaceOpened.connect(lambda _root: self._update_empty())
        window.watcher.fileChanged.connect(self._on_file_changed)
        self._renamed: dict[str, str] = {}  # a filter file's old path → new, until a list holds the new one
        self._renamed_ticks: set[tuple[str, str]] = set()  # ticks in a renamed file no list has held yet
        window.fileRenamed.connect(self._renamed.__setitem__)
        self._watched_tabs: set[int] = set()
        self._edits = ActiveTabHook(window, self._watch_tab, lambda _tab: None, lambda *_a: None)
        self.no_workspace = EmptyState.over(self.risk)
        self.no_filters = EmptyState.over(self.export_tree)
        self._update_buttons()
        self._update_empty()

    def _register_action(self) -> None:
        offer_command(self.window_, "trust_project", self.trust_action, "Run")
        offer_command(self.window_, "compare_trusted", self.compare_action, "Run")
        offer_command(self.window_, "export_filters", self.export_action, "File", before="close_tab")

    def export_from_action(self) -> None:
        """The panel shown and read afresh, then the export of the ticked filters, or, with none
        ticked, the list to tick them in (never an export of an older reading)."""
        self.window_.show_panel("trust")
        self._export_when_loaded = True
        self.refresh()

    def _export_or_point(self) -> None:
        if self.selected():
            self.export_clicked()
            return
        self.export_tree.setFocus()
        self.window_.statusBar().showMessage(
            "Tick the filters to export in the Trust panel's list, then Export…" if self.candidates
            else "No RTK filters to export yet: create a filter file first (File ▸ New Filter…)", 8000)

    def compare_from_action(self) -> None:
        """The panel shown and read afresh, then the comparison (never of an older reading)."""
        self.window_.show_panel("trust")
        self._compare_when_loaded = True
        self.refresh()

    def trust_from_action(self) -> None:
        """The panel shown and read afresh, then the Trust… question (never on an older review)."""
        self.window_.show_panel("trust")
        self._trust_when_loaded = True
        self.refresh()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        docs_focus(self.window_, bottom_share=0.5)
        if self._stale:
            self.refresh()

    # -- loading ------------------------------------------------------------------------------------------
    @Slot()
    def _refresh_if_visible(self) -> None:
        """Reading every filter (and reviewing a big .rtk file) is real work: only for a visible
        panel; a hidden one catches up when it is shown."""
        if self.isVisible():
            self.refresh()
        else:
            self._stale = True

    def refresh(self) -> None:
        if self.window_.workspace is None:
            return
        self._stale = False
        self.loader.request(_load, self.window_.workspace, scanned_entries(self.window_), self.window_.settings.default_profile)

    @Slot(str)
    def _on_file_changed(self, path: str) -> None:
        if ".rtk" in Path(path).parts or path.endswith((".json", ".toml")):
            self._refresh_timer.start()

    @Slot(int, object)
    def _on_loaded(self, _job: int, result) -> None:
        overview, candidates, problems = result
        self.overview = overview
        self._show_overview(overview)
        self._fill_candidates(candidates)
        if problems:
            self.notes.set_notes(problems)
        self._update_empty()
        if self._trust_when_loaded and not self.loader.busy:
            self._trust_when_loaded = False
            QTimer.singleShot(0, self.trust_clicked)
        if self._compare_when_loaded and not self.loader.busy:
            self._compare_when_loaded = False
            QTimer.singleShot(0, self.compare_with_trusted)
        if self._export_when_loaded and not self.loader.busy:
            self._export_when_loaded = False
            QTimer.singleShot(0, self._export_or_point)

    def _update_empty(self) -> None:
        """Empty halves say what to do: open a workspace; get filters to export (ux.md)."""
        window_action = getattr(self.window_, "actions_", {}).get
        self.risk.setPlaceholderText("" if self.window_.workspace is None else RISK_PLACEHOLDER)
        if self.window_.workspace is None:
            self.no_workspace.show_message(
                "No workspace is open. Open a folder to review its project filters (.rtk/filters.json or "
                ".toml) and record their trust.", [window_action("open_workspace"), window_action("open_example")])
            self.no_filters.show_message("The filters of the workspace's RTK filter files are listed here to "
                                         "export into .rtk.")
            return
        self.no_workspace.clear()
        if self.export_tree.topLevelItemCount():
            self.no_filters.clear()
        elif self.overview is None:
            self.no_filters.show_message("Reading the workspace's filters…")
        else:
            self.no_filters.show_message(
                "No RTK filters to export yet. Create a filter file (File ▸ New Filter…) or add filter files to "
                "the workspace; their filters appear here.", [window_action("new_filter")])

    def _show_overview(self, ov: TrustOverview) -> None:
        t = tints()
        self.files.clear()
        present = ov.present
        for f in ov.files:
            text, _level = VERDICT_BADGES.get(f.verdict, (f.verdict, "muted"))
            item = QTreeWidgetItem([Path(f.path).name, text, REASONS.get(f.reason, f.reason),
                                    str(len(f.filter_ids)) if f.exists else "",
                                    (f.stored or "—")[:16] + ("…" if f.stored and len(f.stored) > 16 else ""),
                                    (f.computed or "—")[:16] + ("…" if f.computed else "")])
            item.setData(0, FILE_ROLE, f.path)
            item.setData(2, Qt.ItemDataRole.UserRole, item.text(2))  # (the reason, before an unsaved mark)
            item.setToolTip(4, f.stored or "")
            item.setToolTip(5, f.computed or "")
            colour = {"trusted": t.string, "untrusted": t.warning, "changed": t.error}.get(f.verdict, t.punct)
            item.setForeground(1, QColor(colour))
            self.files.addTopLevelItem(item)
        if not present:
            self.verdict.set("— no project filters", "muted")
            self.headline.setText("This workspace has no .rtk/filters.json or .rtk/filters.toml. Export filters "
                                  "there (right) to ship them with the project.")
            self.risk.setPlainText("")
            self._review_links = {}
        else:
            worst = max(present, key=lambda f: {"trusted": 0, "untrusted": 1, "changed": 2}.get(f.verdict, 0))
            text, level = VERDICT_BADGES[worst.verdict]
            self.verdict.set(text, level)
            count = sum(len(f.filter_ids) for f in present)
            line = f"{count} project filter(s) in .rtk — {REASONS.get(worst.reason, worst.reason)}"
            high = sum(f.high_risks for f in present)
            if high:
                line += f" · {high} high risk(s) in the review below"
            if worst.verdict != "trusted":
                line += ". OmniRoute skips them until trust.json records their hash."
            if ov.env_override:
                line += " (OMNIROUTE_RTK_TRUST_PROJECT_FILTERS=1 is set in this environment: OmniRoute would run "
                line += "them anyway, VT-Q11.)"
            self.headline.setText(line)
            review, self._review_links = self._review_html(present)
            self.risk.setHtml(review)
            notes: list[Diagnostic] = [d for f in present for d in f.diagnostics]
            if notes:
                self.notes.set_notes(notes)
        self._update_buttons()

    @staticmethod
    def _review_html(present) -> tuple[str, dict[str, tuple[str, str]]]:
        """What changed since the last trust, what the filters' own tests say, then the risk
        review, as text; a finding tinted by its level (the level word stays: colour is not the
        only signal). A line that heads an added or changed filter links to it; the links'
        targets come back beside the text (href -> file, filter id)."""
        t = tints()
        colours = {"[high]": t.error, "[medium]": t.warning, "[!]": t.warning}
        links: dict[str, tuple[str, str]] = {}

        def tinted(line: str) -> str:
            colour = next((c for key, c in colours.items() if key in line), None)
            text = html.escape(line)
            return f"<span style='color:{colour}'>{text}</span>" if colour else text

        def linked(path: str, line: str, filter_id: str | None) -> str:
            if filter_id is None:
                return tinted(line)
            href = f"filter-{len(links)}"
            links[href] = (path, filter_id)
            text = line.lstrip()  # (the indent stays outside the link: no underlined blanks)
            return f"{line[:len(line) - len(text)]}<a href='{href}' title='Open {html.escape(filter_id)} in " \
                   f"{Path(path).name}'>{html.escape(text)}</a>"

        out = ["<b>What changed since trust</b>",
               *(linked(f.path, line, filter_id) for f in present for line, filter_id in since_trust_rows(f)),
               "", "<b>Their inline tests</b>", *(tinted(line) for f in present for line in f.tests_lines()), ""]
        for f in present:
            out.append(f"<b>{html.escape(Path(f.path).name)}</b> <span style='color:{t.punct}'>"
                       f"({html.escape(f.computed or 'no hash')})</span>")
            out += [tinted(line) for line in f.risk_text.splitlines()]
            out.append("")
        return "<div style='white-space: pre-wrap'>" + "<br>".join(out) + "</div>", links

    @Slot(QUrl)
    def _on_review_link(self, url: QUrl) -> DocumentTab | None:
        """Open the file at the filter a review line heads (its place as the editor's text has it)."""
        target = self._review_links.get(url.toString())
        if target is None:
            return None
        path, filter_id = target
        tab = self.window_.open_file(Path(path))
        if tab is None:
            return None
        place = filter_place(tab.text, filter_id)
        if place is None:
            self.window_.statusBar().showMessage(f"{filter_id} is not in {Path(path).name} as the editor has it", 8000)
        else:
            tab.go_to(*place)
        return tab

    def _fill_candidates(self, candidates: list[ExportCandidate]) -> None:
        # the filters ticked stay ticked, in a file renamed meanwhile too — also when this list
        # comes from a scan that began before the rename and does not hold the new name yet:
        # its ticks then wait for the list that does (a busy machine lost them)
        renamed = self._renamed
        checked = {(renamed.get(c.file, c.file), c.filter_id) for c in self.selected()} | self._renamed_ticks
        present = {c.file for c in candidates}
        self._renamed_ticks = {key for key in checked if key[0] in renamed.values() and key[0] not in present}
        for old in [old for old, new in renamed.items() if new in present]:
            del renamed[old]  # (in place: the window's signal fills this very dict)
        first = not self.candidates
        self.candidates = candidates
        self.export_tree.blockSignals(True)
        self.export_tree.clear()
        files: dict[str, QTreeWidgetItem] = {}
        root = self.window_.workspace
        for c in candidates:
            parent = files.get(c.file)
            if parent is None:
                rel = str(Path(c.file).relative_to(root)) if root and Path(c.file).is_relative_to(root) else c.file
                parent = QTreeWidgetItem([rel, c.format])
                parent.setFlags(parent.flags() | Qt.ItemFlag.ItemIsAutoTristate | Qt.ItemFlag.ItemIsUserCheckable)
                self.export_tree.addTopLevelItem(parent)
                files[c.file] = parent
            item = QTreeWidgetItem([c.filter_id + (" ⚠ tests" if c.problem else ""), Path(c.file).name])
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setData(0, CANDIDATE_ROLE, c)
            if c.problem:
                item.setToolTip(0, f"{c.problem}: never pre-selected; exporting it asks a second time")
                item.setForeground(0, QColor(tints().warning))
            # a filter whose tests fail is never pre-selected (it stays chosen once the user chose it)
            on = (c.file, c.filter_id) in checked or (first and Path(c.file).parent.name != ".rtk"
                                                       and not c.problem)
            item.setCheckState(0, Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            parent.addChild(item)
        self.export_tree.expandAll()
        self.export_tree.blockSignals(False)
        self._mark_unsaved()
        self._on_check_changed()

    def _watch_tab(self, tab) -> None:
        """Each open file's saved/unsaved state marks its entry in the export list."""
        key = id(tab)
        if tab is not None and key not in self._watched_tabs:
            self._watched_tabs.add(key)
            tab.dirtyChanged.connect(self._mark_unsaved)
            tab.destroyed.connect(lambda _o=None: self._watched_tabs.discard(key))

    def _mark_unsaved(self, *_args) -> None:
        """Files with unsaved edits say so, in the verdicts and the export list (both are of the
        files on disk; each load fills the verdicts, then this list, which marks both)."""
        self._mark_unsaved_files()
        root = self.window_.workspace
        for parent in top_items(self.export_tree):
            children = child_items(parent)
            if not children:
                continue
            file = children[0].data(0, CANDIDATE_ROLE).file
            rel = str(Path(file).relative_to(root)) if root and Path(file).is_relative_to(root) else file
            tab = self.window_.tab_for(Path(file))
            dirty = tab is not None and tab.is_dirty()
            parent.setText(0, f"{rel} — unsaved edits" if dirty else rel)
            parent.setToolTip(0, f"{file} has unsaved edits: this list and the export are of the file on disk; "
                                 "save to include your edits" if dirty else file)
            parent.setForeground(0, QColor(tints().warning) if dirty else self.export_tree.palette().text())

    def _mark_unsaved_files(self) -> None:
        """A verdict row of a file open with unsaved edits says the verdict is of the saved file
        (the status bar already calls the editor's version changed: the two must not seem to
        disagree)."""
        for item in top_items(self.files):
            path = item.data(0, FILE_ROLE)
            tab = self.window_.tab_for(Path(path)) if path else None
            dirty = tab is not None and tab.is_dirty()
            reason = item.data(2, Qt.ItemDataRole.UserRole) or ""
            item.setText(2, f"unsaved edits, not in this verdict of the saved file · {reason}" if dirty else reason)
            item.setToolTip(2, item.text(2))
            item.setForeground(2, QColor(tints().warning) if dirty else self.files.palette().text())

    # -- selection ----------------------------------------------------------------------------------------
    def selected(self) -> list[ExportCandidate]:
        out = []
        for parent in top_items(self.export_tree):
            for item in child_items(parent):
                if item.checkState(0) == Qt.CheckState.Checked:
                    out.append(item.data(0, CANDIDATE_ROLE))
        return out

    def set_selected(self, keys: set[tuple[str, str]]) -> None:
        for parent in top_items(self.export_tree):
            for child in child_items(parent):
                c: ExportCandidate = child.data(0, CANDIDATE_ROLE)
                child.setCheckState(0, Qt.CheckState.Checked if (c.file, c.filter_id) in keys
                                    else Qt.CheckState.Unchecked)

    @Slot()
    def _on_check_changed(self, *_args) -> None:
        n = len(self.selected())
        self.selection_label.setText(f"{n} filter(s) selected")
        self._update_buttons()

    def _update_buttons(self) -> None:
        present = self.overview.present if self.overview else []
        self.trust_button.setEnabled(bool(present))
        self.export_button.setEnabled(bool(self.selected()))
        refusal = compare_refusal(present)
        self.compare_button.setEnabled(refusal is None)
        if refusal is None:
            names = " and ".join(Path(f.path).name for f in present if trusted_versus_now(f) is not None)
            self.compare_button.setToolTip(f"The trusted version of {names} beside the file now, line by line "
                                           "(double-click a file above to choose)")
        else:
            self.compare_button.setToolTip(f"Nothing to compare: {refusal}")

    def compare_with_trusted(self, path: str | None = None) -> DiffDialog | None:
        """The trusted version of a project filter file (``path``, or the first that has one)
        beside the bytes under review; the reason in the status bar when there is none."""
        present = self.overview.present if self.overview else []
        refusal = compare_refusal(present, path)
        pair = next((p for f in present if (path is None or f.path == path)
                     and (p := trusted_versus_now(f)) is not None), None)
        if refusal is not None or pair is None:
            self.window_.statusBar().showMessage(f"Nothing to compare: {refusal}", 8000)
            return None
        tidy = pair.formatted()
        dialog = DiffDialog(pair.trusted, pair.now, f"{pair.name}: trusted → now", self,
                            labels=(f"Trusted ({pair.origin})", "Now (under review)"), settle=False,
                            label_tips=(f"The version trusted last, from {pair.origin}: {pair.detail}",
                                        f"{pair.name} as read for this review"),
                            alternate=("Lay out both as JSON", tidy.trusted, tidy.now) if tidy else None)
        dialog.exec()
        return dialog

    # -- actions ------------------------------------------------------------------------------------------
    def _note_error(self, message: str, code: str = "RTK-trust") -> None:
        self.notes.set_notes([Diagnostic(message, "error", code, source="trust")])

    @Slot()
    def trust_clicked(self) -> bool:
        """Confirm with the exact effect, then write ``trust.json`` from the bytes on disk."""
        from engine.rtk.trust import TrustWriteError, write_trust

        if self.overview is None or self.window_.workspace is None:
            return False
        dirty = [t for t in self.window_.document_tabs() if t.path is not None and t.path.parent.name == ".rtk"
                 and t.is_dirty()]
        try:
            text, snapshots = trust_confirmation(self.overview)
        except (TrustWriteError, ValueError) as exc:
            self._note_error(str(exc))
            return False
        warning = ("\n\nUnsaved edits of " + ", ".join(t.doc.display_name for t in dirty)
                   + " are NOT trusted: the hash is of the file on disk.") if dirty else ""
        answer = QMessageBox.question(self, "Trust project filters", text + warning,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        files = [s.path for s in snapshots]
        try:
            # exactly the bytes reviewed (and hashed in the question); refused if a file changed since
            result = write_trust(Path(self.overview.project), snapshots=snapshots)
        except (TrustWriteError, OSError) as exc:
            self._note_error(str(exc))
            self.refresh()
            return False
        written = ", ".join(f"{k} = {v[:12]}…" for k, v in result.entries.items())
        self.notes.set_notes([Diagnostic(f"wrote {result.trust_path}: {written}", "info", "RTK-trust",
                                         source="trust"), *result.diagnostics])
        self.window_.log(f"Trusted {', '.join(str(f) for f in files)} in {result.trust_path}")
        for tab in self.window_.document_tabs():
            tab.refresh_trust()
        self.refresh()
        return True

    def default_export_path(self) -> Path | None:
        root = self.window_.workspace
        if root is None:
            return None
        return root / ".rtk" / ("filters.toml" if self.format.currentData() == "toml" else "filters.json")

    @Slot()
    def export_clicked(self) -> bool:
        target = self.default_export_path()
        if target is None:
            return False
        fmt = self.format.currentData()
        # (no "replace it?" from the dialog: an existing file is merged into unless "replace the
        # file" is ticked, and export_to's own question says which, with what is kept or dropped)
        name, _ = QFileDialog.getSaveFileName(self, "Export filters", str(target),
                                              "TOML (*.toml)" if fmt == "toml" else "JSON (*.json)",
                                              options=QFileDialog.Option.DontConfirmOverwrite)
        if not name:
            return False
        return self.export_to(Path(name))

    def export_to(self, target: Path) -> bool:
        """One question with the whole plan (added, replaced, kept, removed); a second, explicit one
        only when an exported filter fails its tests or is not selected by its test command."""
        from engine.rtk.export import ExportError, execute_export
        from engine.rtk.export_plan import trust_lost, trust_target_problem
        from engine.rtk.trust import TrustWriteError

        chosen = self.selected()
        fmt = self.format.currentData()
        profile = self.window_.settings.default_profile
        tab = self.window_.tab_for(target)
        if tab is not None and tab.is_dirty():
            self._note_error(f"{target.name} has unsaved edits in the editor; save or revert them before exporting "
                             "over it")
            return False
        with_trust = self.with_trust.isChecked()
        if with_trust and (problem := trust_target_problem(target)):
            self._note_error(problem, "RTK-EXPORT")
            return False
        try:
            plan = plan_selection(chosen, self.candidates, target, fmt=fmt, profile=profile,
                                  replace=self.replace_file.isChecked())
        except ExportError as exc:
            self.notes.set_notes([Diagnostic(str(exc), "error", "RTK-EXPORT", source="export"), *exc.diagnostics])
            return False
        lines = [line for line in plan.lines() if not line.lstrip().startswith("failing:")]
        lost = trust_lost(plan, with_trust)
        parts = [*lines, ""]
        if plan.failing:
            parts += [f"{len(plan.failing)} test problem(s) — asked next.", ""]
        if lost:
            parts += [f"⚠ {lost}.", ""]
        question = "\n".join([*parts, f"Export {len(plan.exported)} filter(s)"
                               + (" and trust the result" if with_trust else "") + "?"])
        if plan.mode != "create":  # a new file: choosing its name was the confirmation
            answer = QMessageBox.question(self, "Export filters", question,
                                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                          QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Yes:
                return False
        if plan.failing:
            failing = "\n".join(f"{f.filter_id}: {f.reason}" for f in plan.failing)
            answer = QMessageBox.question(self, "Export filters whose tests fail?",
                                          f"{failing}\n\nThese filters do not do what their tests say (or their "
                                          "test commands select another filter). Export them anyway?",
                                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                          QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Yes:
                return False
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            result = execute_export(plan, with_trust=with_trust, allow_failing=True, profile=profile)
        except ExportError as exc:
            self.notes.set_notes([Diagnostic(str(exc), "error", "RTK-EXPORT", source="export"), *exc.diagnostics])
            return False
        except (TrustWriteError, OSError) as exc:
            self._note_error(str(exc), "RTK-EXPORT")
            return False
        summary = Diagnostic(f"exported {len(result.filter_ids)} filter(s) to {result.path} "
                             f"({plan.file_count} in the file)"
                             + (" and trusted it" if result.trust is not None else ""), "info", "RTK-EXPORT",
                             path=result.path, source="export")
        self.notes.set_notes([summary, *result.diagnostics])
        self.window_.log(summary.message)
        self.window_.rescan()
        self.refresh()
        return True


register_panel("trust", "Trust", "bottom", TrustPanel)
