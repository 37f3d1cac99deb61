"""The Corpus panel: run the workspace's rules and filters over a whole corpus, see the result.

The run is ``rulewright eval`` in a helper process (``QProcess``): progress comes from its
standard error, the report from a JSON file when it ends, and Stop sends SIGTERM, which makes
the command write a partial report. The panel shows the savings histogram, what each rule or
filter earns, the worst samples and every loss; double-clicking a sample opens it in the
Caveman or RTK preview. "A/B against saved" runs the unsaved buffer of the active pack or
filter against the file on disk. What to run and how to read it is ``engine.workspace.corpus_model``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QProcess, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.panels import offer_command, register_panel
from app.theme import tints
from app.widgets.charts import Bar, BarChart
from app.widgets.previewkit import ActiveTabHook
from app.widgets.scrollbody import scroll_body
from engine.workspace.corpus_model import (
    ab_folders,
    ab_refusal,
    eval_arguments,
    eval_program,
    open_sample,
    parse_progress,
    preview_text,
    read_report,
    shown_path,
)
from engine.workspace.previews.samples import sample_folders

if TYPE_CHECKING:
    from app.mainwindow import MainWindow
    from app.panel_caveman import CavemanPreviewPanel
    from app.panel_rtk import RtkPreviewPanel

ID_ROLE = Qt.ItemDataRole.UserRole + 1
AB_TIP = "Run the active pack or filter as edited (unsaved) against the file on disk"
NO_CORPUS = "No corpus chosen: add folders of samples, JSONL files of chat bodies or command-output captures."


def _wrapping_label(text: str = "") -> QLabel:
    """A label that wraps and never widens the panel with its text."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


class CorpusPanel(QWidget):
    """Bottom panel: corpus paths, Run / A/B / Stop, progress, histogram, rules, worst samples, losses."""

    finished = Signal(dict)  # the report (partial when stopped)

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window_ = window
        self.paths: list[str] = []
        self.report: dict[str, Any] | None = None
        self.process: QProcess | None = None
        self._scratch = tempfile.TemporaryDirectory(prefix="rulewright-corpus-")
        self._report_file = str(Path(self._scratch.name) / "report.json")
        self._stderr = b""
        self._errors: list[str] = []

        self.paths_label = _wrapping_label(NO_CORPUS)
        add_folder = QPushButton("Add Folder…")
        add_folder.clicked.connect(self.add_folder_dialog)
        add_file = QPushButton("Add File…")
        add_file.clicked.connect(self.add_file_dialog)
        clear = QPushButton("Clear")
        clear.clicked.connect(self.clear_paths)
        self.run_button = QPushButton("Run")
        self.run_button.setToolTip("Run the workspace's rules/ and filters/ over the corpus")
        self.run_button.clicked.connect(self.run)
        self.ab_button = QPushButton("A/B Against Saved")
        self.ab_button.setToolTip(AB_TIP)
        self.ab_button.clicked.connect(self.run_ab)
        self.stop_button = QPushButton("Stop")
        self.stop_button.clicked.connect(self.stop)
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.progress.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        # (an empty bar read as a text box to type in)
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.progress.setFormat("no run yet")
        # the workspace's own samples (samples/, and the packs' rules/<lang>/samples/): one click away
        self.samples_button = QPushButton("Use Samples")
        self.samples_button.clicked.connect(self.use_workspace_samples)
        row = QHBoxLayout()
        # (last: when it hides, no other button moves under the mouse)
        for button in (add_folder, add_file, clear, self.run_button, self.ab_button, self.stop_button,
                       self.samples_button):
            row.addWidget(button)
        row.addWidget(self.progress, 1)

        self.outdated = _wrapping_label()  # what changed since the report's run (hidden while none)
        self.outdated.setStyleSheet(f"color: {tints().warning};")
        self.outdated.hide()
        self._ab_path: str | None = None  # the file an A/B report ran as edited
        self.summary = _wrapping_label()
        # room for the three summary lines from the start: the dock must not grow under the mouse
        # when a report arrives
        self.summary.setMinimumHeight(self.summary.fontMetrics().lineSpacing() * 3 + 4)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.histogram = BarChart("Samples per savings band", max_bars=21)
        self.rules = BarChart("Tokens saved per rule or filter", max_bars=15)
        self.samples = QTreeWidget()
        self.samples.setHeaderLabels(["Sample (double-click: open in the preview)", "kind", "savings %", "lost",
                                      "what"])
        self.samples.setRootIsDecorated(True)
        self.samples.setUniformRowHeights(True)
        self.samples.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a path's file name stays visible
        header = self.samples.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 320)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.samples.itemDoubleClicked.connect(self._open_item)
        charts = QTabWidget()  # each chart as tall as its bars need, scrolled inside a short dock
        for chart, title in ((self.histogram, "Savings"), (self.rules, "Rules and filters")):
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setWidget(chart)
            charts.addTab(scroll, title)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(charts)
        split.addWidget(self.samples)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)

        lay = QVBoxLayout(scroll_body(self))  # scrolls rather than force a minimum on its dock
        lay.addWidget(self.paths_label)
        lay.addLayout(row)
        lay.addWidget(self.outdated)
        lay.addWidget(self.summary)
        lay.addWidget(split, 1)
        # Run ▸ Run Corpus, A/B Against Saved, Use Samples: window commands, in the palette too
        # (ux.md: every command), once the window has built its menus (panels come first)
        self.commands = {
            "run_corpus": self._command("Run &Corpus", "Run the workspace's rules/ and filters/ over the corpus",
                                        self.run),
            "corpus_ab": self._command("Corpus: &A/B Against Saved", "Run the active pack or filter as edited "
                                       "(unsaved) against the file on disk, over the corpus", self.run_ab),
            "corpus_samples": self._command("Corpus: Use the Workspace's &Samples",
                                            "Add the workspace's samples (samples/, and rules/<lang>/samples/ "
                                            "beside the packs) to the corpus",
                                            self.use_workspace_samples, needs_paths=False),
        }
        if hasattr(window, "menuBar"):
            QTimer.singleShot(0, self._offer_commands)
        settings = getattr(window, "settings", None)
        self.paths = [p for p in getattr(settings, "corpus_paths", []) if Path(p).exists()]
        self._show_paths()
        watcher = getattr(window, "watcher", None)
        if watcher is not None:  # a report is of the files as they were: a later change outdates it
            watcher.fileChanged.connect(self._on_disk_change)
            watcher.fileRemoved.connect(self._on_disk_change)
        if hasattr(window, "tabs"):
            self._edits = ActiveTabHook(window, lambda _tab: self._sync_ab(), self._on_tab_edited, lambda *_a: None)
        if hasattr(window, "settingsApplied"):
            window.settingsApplied.connect(self._on_settings_applied)
        if hasattr(window, "workspaceOpened"):
            window.workspaceOpened.connect(lambda _root: self._show_paths())
        self._ran_profile: str | None = None  # the profile the shown report ran under

    def _offer_commands(self) -> None:
        for key, action in self.commands.items():
            offer_command(self.window_, key, action, "Run")

    def _command(self, text: str, tip: str, start: Callable[[], object], *, needs_paths: bool = True) -> QAction:
        action = QAction(text, self)
        action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: self._from_command(start, needs_paths))
        return action

    def _from_command(self, start: Callable[[], object], needs_paths: bool) -> None:
        """A command from the menu or the palette: the panel shown, then the run (or what it lacks)."""
        show = getattr(self.window_, "show_panel", None)
        if show is not None:
            show("corpus")
        if needs_paths and not self.paths:
            self.summary.setText("No corpus yet: Add Folder… or Add File…"
                                 + (", or Use Samples" if self._workspace_samples() else "")
                                 + ", then run.")
            return
        start()

    def _update_commands(self) -> None:
        running = self.process is not None
        self.commands["run_corpus"].setEnabled(not running)
        self.commands["corpus_ab"].setEnabled(not running)
        self.commands["corpus_samples"].setEnabled(not self.samples_button.isHidden())

    def _on_settings_applied(self) -> None:
        if self.report is not None and self._ran_profile not in (None, self._profile()):
            self.mark_outdated(f"the default profile changed to {self._profile()}")

    # ------------------------------------------------------------------ staleness

    def _on_disk_change(self, path: str) -> None:
        """A pack, filter or ``.rtk`` file of the workspace, or a corpus file, changed on disk."""
        if self.report is None:
            return
        changed, root = Path(path), self.window_.workspace
        if root is not None and changed.is_relative_to(root):
            where = changed.relative_to(root)
            if where.parts[:1] in (("rules",), ("filters",), (".rtk",)):
                self.mark_outdated(f"{where.as_posix()} changed on disk")
                return
        if any(changed == Path(p) or changed.is_relative_to(p) for p in self.paths):
            self.mark_outdated(f"the corpus file {changed.name} changed")

    def _on_tab_edited(self, tab: Any) -> None:
        if self.report is not None and self._ab_path is not None and str(getattr(tab, "path", "")) == self._ab_path:
            self.mark_outdated(f"{Path(self._ab_path).name} was edited after the A/B run")

    def mark_outdated(self, why: str) -> None:
        """The report no longer describes the workspace: say why, and how to refresh it."""
        self.outdated.setText(f"Outdated: {why} since this run. Run again for a current report.")
        self.outdated.show()
        self._tab_title("Corpus (outdated)")

    def _tab_title(self, title: str) -> None:
        bottom = getattr(self.window_, "bottom", None)  # (a bare window in some tests has none)
        if bottom is not None and bottom.indexOf(self) >= 0:
            bottom.setTabText(bottom.indexOf(self), title)

    # ------------------------------------------------------------------ choosing the corpus

    def add_folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a corpus folder", str(self._start_dir()))
        if folder:
            self.add_paths([folder])

    def add_file_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Add a corpus file", str(self._start_dir()),
                                              "Corpus files (*.jsonl *.ndjson *.json *.txt *.log);;All files (*)")
        if name:
            self.add_paths([name])

    def _start_dir(self) -> Path:
        return self.window_.workspace or Path.home()

    def _workspace_samples(self) -> list[str]:
        """The workspace's sample folders not in the corpus yet."""
        return [str(folder) for folder in sample_folders(getattr(self.window_, "workspace", None))
                if str(folder) not in self.paths]

    def use_workspace_samples(self) -> None:
        self.add_paths(self._workspace_samples())

    def add_paths(self, paths: list[str]) -> None:
        self.paths.extend(p for p in paths if p not in self.paths)
        self._show_paths()

    def clear_paths(self) -> None:
        self.paths.clear()
        self._show_paths()

    def _show_paths(self) -> None:
        settings = getattr(self.window_, "settings", None)
        if settings is not None and hasattr(settings, "corpus_paths"):
            settings.corpus_paths = list(self.paths)  # saved with the other settings when the window closes
        if self.paths:
            workspace = self._workspace_root()
            self.paths_label.setText("Corpus: " + " · ".join(shown_path(p, workspace) for p in self.paths))
            self.paths_label.setToolTip("\n".join(self.paths))
        else:
            self.paths_label.setText(NO_CORPUS)
        samples = self._workspace_samples()
        self.samples_button.setVisible(bool(samples))
        self.samples_button.setToolTip("Add the workspace's samples to the corpus: "
                                       + (", ".join(samples) if samples else "none left to add"))
        self._set_running(self.process is not None)

    # ------------------------------------------------------------------ running

    def _workspace_folders(self) -> dict[str, str | None]:
        root = self.window_.workspace
        rules = root / "rules" if root is not None and (root / "rules").is_dir() else None
        filters = root / "filters" if root is not None and (root / "filters").is_dir() else None
        project = root if root is not None and (root / ".rtk").is_dir() else None
        return {"rules": str(rules) if rules else None, "filters": str(filters) if filters else None,
                "project": str(project) if project else None}

    def run(self) -> bool:
        """Run the workspace's folders (or the bundled ones) over the corpus."""
        folders = self._workspace_folders()
        self._ab_path = None
        return self._start(eval_arguments(self.paths, self._report_file, rules=folders["rules"],
                                          filters=folders["filters"], project=folders["project"],
                                          profile=self._profile()))

    def _ab_tab(self) -> tuple[Any, str | None]:
        """The active tab, and why A/B cannot run on it (None: it can)."""
        tab = self.window_.current_tab() if hasattr(self.window_, "current_tab") else None
        path = getattr(tab, "path", None)
        return tab, ab_refusal(getattr(self.window_, "workspace", None), Path(path) if path is not None else None)

    def _sync_ab(self) -> None:
        """The A/B button: enabled for a pack or filter of the workspace, else its tooltip says why
        (pressed without one, it said so over the last run's summary)."""
        _tab, refusal = self._ab_tab()
        self.ab_button.setEnabled(self.process is None and bool(self.paths) and refusal is None)
        self.ab_button.setToolTip(refusal + "." if refusal else AB_TIP)

    def run_ab(self) -> bool:
        """The active tab's unsaved text against the file on disk."""
        tab, refusal = self._ab_tab()
        if refusal is not None:
            status = getattr(self.window_, "statusBar", None)
            if callable(status):  # (the summary keeps the last run's)
                status().showMessage(refusal + ".", 8000)
            else:
                self.summary.setText(refusal + ".")
            return False
        root = self.window_.workspace
        assert root is not None  # (ab_refusal says so otherwise)
        try:
            flag, current, baseline = ab_folders(root, Path(tab.path), tab.text, Path(self._scratch.name))
        except (ValueError, OSError) as exc:
            self.summary.setText(f"A/B: {exc}")
            return False
        folders = self._workspace_folders()
        folders["rules" if flag == "--rules" else "filters"] = current
        self._ab_path = str(tab.path)
        return self._start(eval_arguments(self.paths, self._report_file, rules=folders["rules"],
                                          filters=folders["filters"], baseline=baseline, project=folders["project"],
                                          profile=self._profile()))

    def _profile(self) -> str:
        settings = getattr(self.window_, "settings", None)
        return getattr(settings, "default_profile", "omniroute") or "omniroute"

    def _start(self, args: list[str]) -> bool:
        if not self.paths or self.process is not None:
            return False
        Path(self._report_file).unlink(missing_ok=True)
        self._ran_profile = self._profile()
        program, lead = eval_program()
        process = QProcess(self)
        process.setProgram(program)
        process.setArguments([*lead, *args])
        process.readyReadStandardError.connect(self._read_progress)
        process.finished.connect(self._finished)
        self._stderr, self._errors = b"", []
        self.process = process
        self.progress.setRange(0, 0)  # busy until the first progress line
        self.summary.setText("Running…")
        self._set_running(True)
        process.start()
        return True

    def stop(self) -> None:
        if self.process is not None:
            self.summary.setText("Stopping: the report so far is being written…")
            self.process.terminate()  # SIGTERM: the command writes a partial report

    def _read_progress(self) -> None:
        if self.process is None:
            return
        self._stderr += bytes(self.process.readAllStandardError().data())
        *lines, self._stderr = self._stderr.split(b"\n")
        for raw in lines:
            line = raw.decode("utf-8", "replace")
            progress = parse_progress(line)
            if progress is None:
                if line.strip():
                    self._errors.append(line.strip())
                continue
            self.progress.setRange(0, 100)
            self.progress.setValue(progress.percent)
            self.progress.setFormat(f"{progress.samples:,} samples · %p%")

    def _finished(self, code: int, _status: QProcess.ExitStatus) -> None:
        self._read_progress()
        self.process = None
        self._set_running(False)
        report = read_report(self._report_file)
        if report is None:
            detail = "; ".join(self._errors[-3:]) or f"exit status {code}"
            self.summary.setText(f"The run failed: {detail}")
            self.progress.setValue(0)
            self.progress.setFormat("failed")
            return
        self.show_report(report)
        self.finished.emit(report)

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running and bool(self.paths))
        self.stop_button.setEnabled(running)
        self._sync_ab()
        self._update_commands()
        if not running:
            self.progress.setRange(0, 100)

    # ------------------------------------------------------------------ the report

    def show_report(self, report: dict[str, Any]) -> None:
        self.report = report
        self.outdated.hide()
        self._tab_title("Corpus")
        cur = report["current"]
        t, s = cur["tokens"], cur["savings"]
        where = cur["setup"].get("sources", "")
        lines = [f"{report['corpus']['samples']:,} samples" + (" (partial: stopped early)" if report["partial"] else "")
                 + f": {t['before']:,} → {t['after']:,} tokens, {t['savingsPercent']:g} % saved; per sample median "
                 f"{s['p50']:g} %, p10 {s['p10']:g} %, p90 {s['p90']:g} %. Losses in {cur['losses']['samples']:,} "
                 f"samples; {cur['fallbacks']:,} fallbacks; {report['corpus']['problems']:,} unreadable."]
        if "ab" in report:
            ab, base = report["ab"], report["baseline"]["tokens"]
            lines.append(f"A/B: {base['savingsPercent']:g} % saved on disk → {t['savingsPercent']:g} % as edited; "
                         f"{ab['changedSamples']:,} samples changed; new losses in {ab['newLosses']['samples']:,}.")
        if where:
            lines.append(f"Ran {where}.")
        never = cur["neverFired"]
        if never:
            lines.append(f"Never fired ({len(never)}): " + ", ".join(never[:12]) + (" …" if len(never) > 12 else ""))
        self.summary.setText("\n".join(lines))
        self.progress.setValue(100)
        bands = [Bar(("< 0" if b["from"] is None else f"{b['from']:g}–{b['to']:g}") + " %", b["count"],
                     f"{b['count']:,} samples saved " + ("less than 0 %" if b["from"] is None
                                                          else f"{b['from']:g}–{b['to']:g} %"))
                 for b in s["histogram"]]
        self.histogram.set_items(bands)
        self.rules.set_items([Bar(r["name"], r["tokensSaved"], f"{r['tokensSaved']:,} tokens in {r['samples']:,} "
                                  "samples", key=r["name"]) for r in cur["rules"]])
        self._fill_samples(report)

    def _fill_samples(self, report: dict[str, Any]) -> None:
        self.samples.clear()
        cur = report["current"]
        groups = [("Worst samples", [(r["id"], r["kind"], f"{r['savingsPercent']:g}", "", ", ".join(r["fired"]))
                                     for r in cur["worst"]]),
                  ("Losses", [(r["id"], r["kind"], "", str(r["lostCount"]), " | ".join(r["lost"][:3]))
                              for r in cur["losses"]["listed"]])]
        if "ab" in report:
            ab = report["ab"]
            groups.append(("Top regressions", [(r["id"], r["kind"], f"{r['baseline']:g} → {r['current']:g}", "",
                                                f"{r['delta']:+g}") for r in ab["topRegressions"]]))
            groups.append(("New losses", [(r["id"], r["kind"], "", f"{r['baselineLostCount']} → {r['lostCount']}",
                                           " | ".join(r["lost"][:3])) for r in ab["newLosses"]["listed"]]))
        workspace = self._workspace_root()
        for title, rows in groups:
            parent = QTreeWidgetItem(self.samples, [f"{title} ({len(rows)})"])
            for sample_id, *cells in rows:
                item = QTreeWidgetItem(parent, [shown_path(sample_id, workspace), *cells])
                item.setData(0, ID_ROLE, sample_id)
                item.setToolTip(0, sample_id)
                item.setToolTip(4, cells[-1])
            parent.setExpanded(True)

    def _workspace_root(self) -> Path | None:
        """The workspace folder as the corpus paths spell it (they are resolved when added)."""
        root = getattr(self.window_, "workspace", None)
        return Path(root).resolve() if root is not None else None

    def _open_item(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        sample_id = item.data(0, ID_ROLE)
        if sample_id:
            self.open_in_preview(sample_id)

    def open_in_preview(self, sample_id: str) -> bool:
        """Show a reported sample in the Caveman preview (prose, chat) or the RTK preview (output)."""
        sample = open_sample(sample_id)
        if sample is None:
            self.summary.setText(f"{sample_id} can no longer be read (moved or changed since the run).")
            return False
        if sample.kind == "output":
            # the panels registered under these names are these classes (app.panel_rtk, app.panel_caveman)
            rtk = cast("RtkPreviewPanel", self.window_.show_panel("rtk-preview"))
            rtk.show_output(sample.text, sample.command or "", sample.id)
        else:
            caveman = cast("CavemanPreviewPanel", self.window_.show_panel("caveman-preview"))
            caveman.set_text(preview_text(sample))
        return True

    def shutdown(self) -> None:
        """Stop a running helper when the window closes."""
        if self.process is not None:
            self.process.kill()
            self.process.waitForFinished(2000)
            self.process = None


register_panel("corpus", "Corpus", "bottom", CorpusPanel)
