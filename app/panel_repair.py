"""The Repair playground (editor-area tab): tool-argument repair and the leaked-grammar tab.

"Arguments": schema, arguments and config panes (JSON; samples for common model failures and
pi's built-in tool presets), policy, model id and profile. The result shows the outcome, each
change with its rule id and note, a diff of the final vs the raw arguments, observations, the
stage trace and the retry message the model would get.

"Leaked grammar": paste an assistant message, pick model, policy and allowed tools; the detected
calls are highlighted in the text (the engine's UTF-16 spans are Qt positions), with what was
promoted or stripped and why not, and the final message.

Both recompute in a worker as you type (debounced, latest wins).
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QTabWidget,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.panels import register_panel
from app.playground.common import (
    Badge,
    DiffView,
    LastGoodNote,
    NotesList,
    compact,
    docs_focus,
    json_pane,
    read_only_text,
    set_pane_text,
    short_json,
    show_pane_error,
    titled,
)
from app.playground.grammar_samples import SAMPLES as GRAMMAR_SAMPLES
from app.playground.jobs import docs_mode
from app.theme import mono_font, tints
from app.widgets.elided import ElidedLabel
from app.widgets.elided_combo import ElidedComboBox
from app.widgets.page_tabs import PageSizedTabs
from app.workers import Dispatcher
from engine.paths import resources_dir
from engine.workspace.panel_models.grammar_playground import (
    GRAMMAR_MODES,
    GRAMMAR_POLICIES,
    PI_TOOLS,
    GrammarRequest,
    GrammarView,
    run_grammar_view,
)
from engine.workspace.panel_models.json_panes import pretty
from engine.workspace.panel_models.repair_playground import (
    PRESET_SCHEMAS,
    RepairRequest,
    RepairView,
    load_repair_samples,
    run_repair_view,
)

if TYPE_CHECKING:
    from app.mainwindow import MainWindow

OUTCOME_BADGES = {"valid": ("✓ valid", "ok"), "repaired": ("✎ repaired", "info"),
                  "unrepairable": ("✖ unrepairable", "bad")}
DEBOUNCE_MS = 150


def _combo(items: list[tuple[str, str]], tip: str = "") -> QComboBox:
    box = ElidedComboBox()
    for label, data in items:
        box.addItem(label, data)
    box.setToolTip(tip)
    return box


class RepairTab(QWidget):
    """Schema + arguments + config in, the pipeline's verdict out."""

    scratchChanged = Signal()  # an input changed (app.scratch keeps the user's own)
    scratch_key = "repair-playground"
    _SCRATCH_COMBOS = ("preset", "policy", "profile")

    def __init__(self, inline: bool = False) -> None:
        super().__init__()
        self.view: RepairView | None = None
        self._sample_inputs: tuple[str, str, str] | None = None  # the panes as the chosen sample left them
        self.samples = load_repair_samples(resources_dir() / "samples" / "repair")
        self.worker = Dispatcher(self, debounce_ms=DEBOUNCE_MS, inline=inline)
        self.worker.finished.connect(self._on_result)
        self.worker.failed.connect(self._on_failed)

        self.sample = ElidedComboBox()
        self.sample.setToolTip("Ready samples of common model failures")
        self.sample.addItem("Sample…", None)
        for s in self.samples:
            self.sample.addItem(s.title, s.name)
            self.sample.setItemData(self.sample.count() - 1, s.description, Qt.ItemDataRole.ToolTipRole)
        self.sample.activated.connect(self._on_sample)
        self.preset = _combo([("no preset", "")] + [(f"preset: {t}", t) for t in PRESET_SCHEMAS],
                             "pi's built-in tool preset: its preprocessors and legacy config (builtinTool)")
        self.preset.activated.connect(self._on_preset)
        self.policy = _combo([("policy: from config", ""), ("conservative", "conservative"),
                              ("adaptive", "adaptive"), ("recover", "recover")], "repair policy")
        self.model = QLineEdit()
        self.model.setPlaceholderText("model id (gates anchor-bleed, grammar tokens)")
        self.model.setClearButtonEnabled(True)
        self.profile = _combo([("pi-repair-layer", "pi-repair-layer"), ("strict", "strict")],
                              "pi-repair-layer reproduces the reference with its quirks; strict fixes them")
        self.raw = QCheckBox("raw string")
        self.raw.setToolTip("The arguments pane is the raw text the model sent, not JSON")
        bar = QHBoxLayout()
        bar.addWidget(self.sample, 2)
        bar.addWidget(self.preset, 1)
        bar.addWidget(self.policy, 1)
        bar.addWidget(self.model, 2)
        bar.addWidget(self.profile, 1)

        self.schema = json_pane("The tool's parameter JSON Schema (or pick a preset)")
        self.args = json_pane("The arguments the model sent")
        self.config = json_pane("Options (optional)")
        self.description = QLabel("Pick a sample for a common model failure, or type your own.")
        self.description.setWordWrap(True)
        inputs = QSplitter(Qt.Orientation.Vertical)
        inputs.addWidget(titled("Schema", self.schema))
        inputs.addWidget(titled("Arguments (raw)", self.args, self.raw))
        inputs.addWidget(titled("Config", self.config))
        inputs.setSizes([300, 200, 120])
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.description)
        ll.addWidget(inputs, 1)

        self.outcome = Badge("—", "muted")
        self.outcome_detail = ElidedLabel()  # errors can be long: one line, the full text in its tooltip
        self.changes = QTextEdit()
        self.changes.setReadOnly(True)
        self.diff = DiffView()
        self.retry = read_only_text("The message the model would get back (only when unrepairable)")
        self.trace = QTreeWidget()
        self.trace.setHeaderLabels(["Stage", "What happened"])
        self.trace.setRootIsDecorated(False)
        self.trace.setColumnWidth(0, 130)
        self.notes = NotesList()
        details = QTabWidget()
        details.setDocumentMode(True)
        details.addTab(self.diff, "Final vs raw")
        details.addTab(self.retry, "Retry message")
        details.addTab(self.trace, "Trace")
        details.addTab(self.notes, "Observations")
        self.details = details
        self._last_outcome = ""
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.outcome)
        head.addWidget(self.outcome_detail, 1)
        rl.addLayout(head)
        changes = titled("Changes", self.changes)
        self.stale = LastGoodNote(changes, details)
        rl.addWidget(self.stale)
        rl.addWidget(changes, 2)
        rl.addWidget(details, 3)

        split = QSplitter()
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([520, 640])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(bar)
        lay.addWidget(split, 1)

        for pane in (self.schema, self.args, self.config):
            pane.textChanged.connect(self.schedule)
        self.model.textChanged.connect(self.schedule)
        for box in (self.policy, self.profile):
            box.currentIndexChanged.connect(self.schedule)
        self.preset.currentIndexChanged.connect(self.schedule)
        self.raw.toggled.connect(lambda _on: self.schedule())
        if self.samples:
            self.load_sample(self.samples[0].name)

    # -- inputs -----------------------------------------------------------------------------------------
    def load_sample(self, name: str) -> None:
        sample = next((s for s in self.samples if s.name == name), None)
        if sample is None:
            return
        options = dict(sample.options)
        tool = options.pop("builtinTool", "")
        policy = options.pop("policy", "")
        model = options.pop("modelId", "")
        self.preset.setCurrentIndex(max(0, self.preset.findData(tool)))
        self.policy.setCurrentIndex(max(0, self.policy.findData(policy)))
        self.model.setText(model)
        raw = isinstance(sample.args, str)
        self.raw.setChecked(raw)
        set_pane_text(self.schema, pretty(sample.schema))
        set_pane_text(self.args, sample.args if raw else pretty(sample.args))
        set_pane_text(self.config, pretty(options) if options else "")
        self.description.setText(f"<b>{sample.title}</b> — {sample.description}")
        self.sample.setCurrentIndex(max(0, self.sample.findData(name)))
        self._sample_inputs = self._inputs()
        self.schedule()

    def _inputs(self) -> tuple[str, str, str]:
        return self.schema.toPlainText(), self.args.toPlainText(), self.config.toPlainText()

    @Slot(int)
    def _on_sample(self, index: int) -> None:
        name = self.sample.itemData(index)
        if name:
            self.load_sample(name)

    @Slot(int)
    def _on_preset(self, index: int) -> None:
        tool = self.preset.itemData(index)
        if tool:
            set_pane_text(self.schema, pretty(PRESET_SCHEMAS[tool]))
            self.description.setText(f"Preset <b>{tool}</b>: pi's schema, preprocessors and legacy config for "
                                     f"the {tool} tool. Type the arguments a model sent.")

    def request(self) -> RepairRequest:
        return RepairRequest(self.schema.toPlainText(), self.args.toPlainText(), self.config.toPlainText(),
                             self.policy.currentData(), self.model.text(), self.preset.currentData(),
                             raw_args=self.raw.isChecked(), profile=self.profile.currentData())

    @Slot()
    def schedule(self) -> int:
        if self._sample_inputs is not None and self._inputs() != self._sample_inputs:
            # edited: the sample's name and story no longer describe what is in the panes
            title = self.sample.currentText()
            self._sample_inputs = None
            self.sample.setCurrentIndex(0)
            self.description.setText(f"Your own input (edited from the sample “{title}”).")
        self.scratchChanged.emit()
        return self.worker.request(run_repair_view, self.request())

    def scratch_state(self) -> dict[str, str]:
        """The panes and options, once they are the user's own (a sample as loaded is not)."""
        if self._sample_inputs is not None:
            return {}
        schema, args, config = self._inputs()
        state = {"schema": schema, "args": args, "config": config, "model": self.model.text(),
                 "raw": "1" if self.raw.isChecked() else ""}
        state.update({name: str(getattr(self, name).currentData() or "") for name in self._SCRATCH_COMBOS})
        return state

    def restore_scratch(self, state: dict[str, str]) -> None:
        if not any(state.get(k) for k in ("schema", "args", "config")):
            if self._sample_inputs is None and self.samples:  # (another workspace's own input)
                self.load_sample(self.samples[0].name)
            return
        for name in self._SCRATCH_COMBOS:
            box = getattr(self, name)
            box.setCurrentIndex(max(0, box.findData(state.get(name, ""))))
        self.model.setText(state.get("model", ""))
        self.raw.setChecked(bool(state.get("raw")))
        set_pane_text(self.schema, state.get("schema", ""))
        set_pane_text(self.args, state.get("args", ""))
        set_pane_text(self.config, state.get("config", ""))
        self._sample_inputs = None
        self.sample.setCurrentIndex(0)
        self.description.setText("Your own input, as you left it.")
        self.schedule()

    # -- results ------------------------------------------------------------------------------------------
    @staticmethod
    def _changes_html(view: RepairView, outcome: str) -> str:
        """Each change: its rule id (hover: what the rule does) and stage, then pi's note, wrapped."""
        t = tints()
        if not view.changes:
            return f"<i>{'no changes: the arguments were used as sent' if outcome == 'valid' else 'no changes'}</i>"
        blocks = []
        for n, c in enumerate(view.changes, 1):
            summary = html.escape(c.get("summary") or "", quote=True)
            blocks.append(f"<p style='margin:0 0 6px 0'>{n}. <b style='color:{t.keyword}' title='{summary}'>"
                          f"{html.escape(c['ruleId'])}</b> <span style='color:{t.punct}'>· {html.escape(c['stage'])}"
                          f"</span><br>{html.escape(c['note'])}</p>")
        return "".join(blocks)

    @Slot(int, str)
    def _on_failed(self, _job: int, message: str) -> None:
        self.outcome.set("engine error", "bad")
        self.outcome_detail.setText(message.splitlines()[0] if message else "")

    @Slot(int, object)
    def _on_result(self, _job: int, view: RepairView) -> None:
        self.view = view
        errors = {e.pane: e for e in view.errors}
        show_pane_error(self.schema, errors.get("schema"))
        show_pane_error(self.args, errors.get("arguments"))
        show_pane_error(self.config, errors.get("config"))
        if not view.ok:
            self.outcome.set("✖ input", "bad")
            self.outcome_detail.setText("; ".join(e.format() for e in view.errors))
            self.stale.mark(True, view.errors[0].format() if view.errors else "",
                            has_result=self._last_outcome != "")
            return
        self.stale.mark(False)
        result = view.result or {}
        text, level = OUTCOME_BADGES.get(result["outcome"], (result["outcome"], "muted"))
        self.outcome.set(text, level)
        detail = f"policy {result['policy']}"
        if view.threw:
            detail += " · the tool adapter throws UnrepairableToolInputError"
        else:
            detail += f" · the tool receives {short_json(view.returned, 90)}"
        if result.get("issueSummary"):
            detail += f" · issues: {result['issueSummary']}"
        self.outcome_detail.setText(detail)
        self.changes.clear()
        self.changes.setHtml(self._changes_html(view, result["outcome"]))
        self.diff.show_rows(view.diff, empty="(no arguments)")
        if result.get("retryMessage"):
            self.retry.setPlainText(result["retryMessage"])
        else:
            self.retry.setPlainText("")
            self.retry.setPlaceholderText("No retry: the outcome is " + result["outcome"]
                                          + ". The model gets a retry message only when the input is unrepairable.")
        self.trace.clear()
        for step in result.get("trace", []):
            item = QTreeWidgetItem([step["stage"], step["message"]])
            if step.get("data"):
                item.setToolTip(1, json.dumps(step["data"], ensure_ascii=False, indent=2)[:3000])
            self.trace.addTopLevelItem(item)
        notes = [{"level": "info", "message": f"observed {o['ruleId']} on {o['toolName'] or 'the tool'} "
                                              f"({o['stage']}, {o['outcome']})", "code": o["ruleId"]}
                 for o in result.get("observations", [])]
        quirks = result.get("diagnostics", [])
        self.notes.set_notes(notes + quirks, empty="no observations, no quirks involved")
        self.details.setTabText(3, f"Observations ({len(notes)}) && quirks ({len(quirks)})")
        self.details.setTabText(1, "Retry message" if result.get("retryMessage") else "Retry message (none)")
        if result["outcome"] == "unrepairable" and self._last_outcome != "unrepairable":
            self.details.setCurrentWidget(self.retry)  # what the model gets back is the point now
        self._last_outcome = result["outcome"]


class GrammarTab(QWidget):
    """An assistant message in, the message_end decision out, leaks highlighted in place."""

    verdict: Badge  # built below the worker whose failure callback sets it

    def __init__(self, inline: bool = False) -> None:
        super().__init__()
        self.view: GrammarView | None = None
        self.worker = Dispatcher(self, debounce_ms=DEBOUNCE_MS, inline=inline)
        self.worker.finished.connect(self._on_result)
        self.worker.failed.connect(lambda _j, m: self.verdict.set("engine error: " + m.splitlines()[0], "bad"))

        self.sample = ElidedComboBox()
        self.sample.addItem("Sample…", -1)
        for i, s in enumerate(GRAMMAR_SAMPLES):
            self.sample.addItem(s.title, i)
        self.sample.activated.connect(lambda i: self.load_sample(self.sample.itemData(i)))
        self.model = QLineEdit()
        self.model.setPlaceholderText("model id (the leak-list gate: glm, kimi, qwen, …)")
        self.model.setClearButtonEnabled(True)
        self.policy = _combo([(f"policy: {p}", p) for p in GRAMMAR_POLICIES], "policy profile (its grammar mode)")
        self.policy.setCurrentIndex(self.policy.findData("recover"))
        self.mode = _combo([("mode: policy's", "")] + [(m, m) for m in GRAMMAR_MODES if m],
                           "grammarRecovery override")
        self.allowed = QLineEdit()
        self.allowed.setPlaceholderText("allowed tools (empty: the active tools)")
        self.allowed.setToolTip("grammarAllowedTools, comma-separated; it replaces the active tools (GRM-Q24)")
        self.active = QLineEdit(", ".join(PI_TOOLS))
        self.active.setToolTip("the tools active in the session (pi's seven built-ins by default)")
        self.unknown = _combo([("preserve", "preserve"), ("strip", "strip")],
                              "what happens to a leaked call of a tool that is not active")
        self.stop = _combo([("stop", "stop"), ("toolUse", "toolUse"), ("length", "length"), ("(none)", "")],
                           "the message's stopReason")
        self.profile = _combo([("pi-repair-layer", "pi-repair-layer"), ("strict", "strict")])
        row1 = QHBoxLayout()
        row1.addWidget(self.sample)
        row1.addWidget(self.model, 1)
        row1.addWidget(self.policy)
        row1.addWidget(self.mode)
        row1.addWidget(self.profile)
        row2 = QHBoxLayout()
        row2.addWidget(QLabel("Active"))
        row2.addWidget(self.active, 1)
        row2.addWidget(QLabel("Allowed"))
        row2.addWidget(self.allowed, 1)
        row2.addWidget(QLabel("Unknown-tool text"))  # (a label of its own: the combo showed "unknown-tool tex")
        row2.addWidget(self.unknown)
        row2.addWidget(QLabel("stopReason"))
        row2.addWidget(self.stop)

        self.text = QPlainTextEdit()
        self.text.setFont(mono_font())
        self.text.setPlaceholderText("Paste an assistant message here")
        self.final = read_only_text("The message after the hook")
        left = QSplitter(Qt.Orientation.Vertical)
        t = tints()
        legend = QLabel(f"<span style='background:{t.inserted}'>&nbsp;promoted&nbsp;</span> "
                        f"<span style='background:{t.removed}'>&nbsp;stripped&nbsp;</span> "
                        f"<span style='background:{'#5a4a1e' if t.dark else '#fff4b0'}'>&nbsp;left in place&nbsp;</span>")
        legend.setToolTip("Spans are the engine's UTF-16 offsets; hover a highlight for its grammar and reason")
        left.addWidget(titled("Assistant message (leaks highlighted)", self.text, legend))
        left.addWidget(titled("Final message", self.final))

        self.verdict = Badge("—", "muted")
        self.detected = QLabel("")
        self.detected.setWordWrap(True)
        self.calls = QTreeWidget()
        self.calls.setHeaderLabels(["Grammar", "Call", "Arguments", "Span", "Result", "Why"])
        self.calls.setRootIsDecorated(False)
        for col, width in enumerate((70, 80, 170, 70, 80)):
            self.calls.setColumnWidth(col, width)
        self.calls.currentItemChanged.connect(self._select_span)
        self.promoted = read_only_text("Promoted tool calls (JSON) and the note their result carries")
        self.notes = NotesList()
        tabs = QTabWidget()
        tabs.setDocumentMode(True)
        tabs.addTab(self.promoted, "Promoted calls")
        tabs.addTab(self.notes, "Quirks && notes")
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.verdict, 0, Qt.AlignmentFlag.AlignLeft)
        rl.addWidget(self.detected)
        rl.addWidget(titled("Detected calls", self.calls), 2)
        rl.addWidget(tabs, 2)

        split = QSplitter()
        split.addWidget(left)
        split.addWidget(right)
        split.setSizes([560, 600])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(row1)
        lay.addLayout(row2)
        lay.addWidget(split, 1)

        self._sample_text: str | None = None
        self.text.textChanged.connect(self.schedule)
        for edit in (self.model, self.allowed, self.active):
            edit.textChanged.connect(self.schedule)
        for box in (self.policy, self.mode, self.unknown, self.stop, self.profile):
            box.currentIndexChanged.connect(self.schedule)
        self.load_sample(0)

    def load_sample(self, index: int) -> None:
        if index is None or not 0 <= index < len(GRAMMAR_SAMPLES):
            return
        sample = GRAMMAR_SAMPLES[index]
        self.model.setText(sample.model_id)
        self.policy.setCurrentIndex(self.policy.findData(sample.policy))
        self.text.setPlainText(sample.text)
        self.sample.setCurrentIndex(index + 1)
        self._sample_text = sample.text
        self.schedule()

    @staticmethod
    def _tools(text: str) -> tuple[str, ...]:
        return tuple(t.strip() for t in text.split(",") if t.strip())

    def request(self) -> GrammarRequest:
        return GrammarRequest(self.text.toPlainText(), self.model.text(), self.policy.currentData(),
                              self.mode.currentData(), self._tools(self.allowed.text()), self._tools(self.active.text()),
                              self.unknown.currentData(), self.stop.currentData(), self.profile.currentData())

    @Slot()
    def schedule(self) -> int:
        if self._sample_text is not None and self.text.toPlainText() != self._sample_text:
            self._sample_text = None
            self.sample.setCurrentIndex(0)  # edited: no longer that sample
        return self.worker.request(run_grammar_view, self.request())

    @Slot(int, object)
    def _on_result(self, _job: int, view: GrammarView) -> None:
        self.view = view
        rec = view.record
        level = "ok" if rec.get("promoted") else "info" if rec.get("changed") else \
            "warn" if rec.get("observed") or rec.get("skippedBy") == "model-not-on-leak-list" else "muted"
        self.verdict.set(view.verdict, level)
        gate = "passes" if rec.get("modelGate") else "does not match"
        grammars = ", ".join(rec.get("detectedGrammars") or []) or "none"
        self.detected.setText(f"Model gate {gate} · detected grammar: {grammars} · known tools: "
                              f"{', '.join(rec.get('knownTools') or []) or '(none)'}")
        self._highlight(view)
        self.calls.clear()
        t = tints()
        for cand in rec.get("candidates", []):
            result = "promoted" if cand.get("promoted") else "stripped" if cand.get("stripped") else "kept"
            call = "(markers)" if cand.get("stripOnly") else cand.get("name", "")
            item = QTreeWidgetItem([cand.get("grammar", ""), call, short_json(cand.get("arguments"), 60),
                                    f"{cand['span'][0]}–{cand['span'][1]}", result, cand.get("reason", "")])
            item.setData(0, Qt.ItemDataRole.UserRole, tuple(cand["span"]))
            item.setForeground(4, QColor({"promoted": t.string, "stripped": t.info}.get(result, t.warning)))
            quirks = cand.get("quirks") or []
            item.setToolTip(5, cand.get("reason", "") + (f"\nquirks: {', '.join(quirks)}" if quirks else ""))
            self.calls.addTopLevelItem(item)
        self.final.setPlainText(view.final_text)
        promoted = rec.get("promotedCalls") or []
        if promoted:
            body = json.dumps(promoted, ensure_ascii=False, indent=2)
            if rec.get("notes"):
                body += "\n\nNote prepended to the tool result:\n" + "\n".join(rec["notes"])
            self.promoted.setPlainText(body)
        else:
            self.promoted.setPlainText("")
            reasons = ", ".join(rec.get("reasonsNotPromoted") or []) or "—"
            self.promoted.setPlaceholderText(f"Nothing promoted: {reasons}")
        self.notes.set_notes(rec.get("diagnostics", []), empty="no quirk changed this result")

    def _highlight(self, view: GrammarView) -> None:
        t = tints()
        colours = {"promoted": t.inserted, "stripped": t.removed, "kept": "#5a4a1e" if t.dark else "#fff4b0"}
        selections = []
        end = max(0, self.text.document().characterCount() - 1)
        for h in view.highlights:
            sel = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            fmt.setBackground(QColor(colours.get(h.kind, t.current_line)))
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline if h.kind != "stripped"
                                  else QTextCharFormat.UnderlineStyle.DashUnderline)
            fmt.setToolTip(h.label)
            sel.format = fmt
            cursor = QTextCursor(self.text.document())
            cursor.setPosition(min(h.start, end))  # spans are UTF-16: Qt's own unit (IDE-Q2)
            cursor.setPosition(min(h.end, end), QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor
            selections.append(sel)
        self.text.setExtraSelections(selections)

    @Slot(object, object)
    def _select_span(self, item: QTreeWidgetItem | None, _previous) -> None:
        if item is None:
            return
        span = item.data(0, Qt.ItemDataRole.UserRole)
        if not span:
            return
        end = max(0, self.text.document().characterCount() - 1)
        cursor = self.text.textCursor()
        cursor.setPosition(min(span[0], end))
        cursor.setPosition(min(span[1], end), QTextCursor.MoveMode.KeepAnchor)
        self.text.setTextCursor(cursor)


class RepairPanel(QWidget):
    """The editor-area tab holding both playgrounds."""

    def __init__(self, window: MainWindow | None = None) -> None:
        super().__init__()
        self.window_ = window
        self.repair = RepairTab(inline=docs_mode(window))
        self.grammar = GrammarTab(inline=docs_mode(window))
        self.tabs = PageSizedTabs()
        self.tabs.addTab(self.repair, "Arguments")
        self.tabs.addTab(self.grammar, "Leaked grammar")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.tabs)
        compact(self)

    def scratch_parts(self) -> list[RepairTab]:
        """What ``app.scratch`` keeps of this panel: the arguments tab's inputs."""
        return [self.repair]

    def showEvent(self, event) -> None:
        super().showEvent(event)
        docs_focus(self.window_, bottom_share=0.22)


register_panel("repair", "Repair playground", "editor", RepairPanel)
