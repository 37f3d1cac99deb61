"""The Params playground (editor-area tab): Cherry Studio's request params for one payload.

Left: the payload (provider, model, assistant, request) with templates per provider family
(``resources/samples/params``). Right: the report as a navigable tree — features (applied or
not, and why), plugins in order with their effect on a sample request, providerOptions, the
system prompt, tools, routing — plus the quirk diagnostics. Recomputed in a worker as you type.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QTreeWidgetItemIterator,
    QVBoxLayout,
    QWidget,
)

from app.icons import SymbolIconDelegate
from app.panels import register_panel
from app.playground.common import (
    Badge,
    LastGoodNote,
    NotesList,
    add_json_children,
    compact,
    docs_focus,
    expand_marked,
    json_pane,
    set_pane_text,
    short_json,
    show_pane_error,
    show_pane_marks,
    titled,
)
from app.playground.jobs import panel_jobs
from app.theme import tints
from app.widgets.elided import ElidedLabel
from app.widgets.elided_combo import ElidedComboBox
from app.widgets.trees import child_items, top_items
from engine.paths import resources_dir
from engine.workspace.panel_models.json_panes import pretty
from engine.workspace.panel_models.params_playground import ParamsView, load_params_templates, run_params_view

if TYPE_CHECKING:
    from app.mainwindow import MainWindow

SECTION_ROLE = Qt.ItemDataRole.UserRole + 3


class ParamsPanel(QWidget):
    status: Badge  # built below the worker whose failure callback sets it
    scratchChanged = Signal()  # the payload changed (app.scratch keeps the user's own)
    scratch_key = "params-playground"

    def __init__(self, window: MainWindow | None = None) -> None:
        super().__init__()
        self.window_ = window
        self.view: ParamsView | None = None
        self.templates = load_params_templates(resources_dir() / "samples" / "params")
        self._template_texts = {t.name: pretty(t.payload) for t in self.templates}  # as the pane shows each
        self.worker = panel_jobs(self, window, debounce_ms=150)
        self.worker.finished.connect(self._on_result)
        self.worker.failed.connect(lambda _j, m: self.status.set("engine error: " + m.splitlines()[0], "bad"))

        self.template = ElidedComboBox()
        self.template.addItem("Template…", None)
        for t in self.templates:
            self.template.addItem(t.name, t.name)
        self.template.activated.connect(lambda i: self.load_template(self.template.itemData(i)))
        self.profile = ElidedComboBox()
        self.profile.addItem("cherry-studio", "cherry-studio")
        self.profile.addItem("strict", "strict")
        self.profile.setToolTip("cherry-studio reproduces the reference with its quirks; strict fixes them")
        self.profile.currentIndexChanged.connect(self.schedule)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter the report (e.g. thinking, webSearch, anthropic)")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._apply_filter)
        self.convert = QPushButton("Convert to payload")
        self.convert.setToolTip("Replace the pasted request with the Cherry Studio payload it maps to, to edit "
                                "what the request could not say (undoable with Ctrl+Z)")
        self.convert.clicked.connect(self.convert_request)
        self.convert.hide()
        bar = QHBoxLayout()
        bar.addWidget(self.template)
        bar.addWidget(self.profile)
        bar.addStretch(1)
        bar.addWidget(self.search, 1)

        self.payload = json_pane("The payload: {provider, model, assistant, request, …} — pick a template, or paste "
                                 "an OpenAI Chat Completions, OpenAI Responses or Anthropic Messages request body")
        self.payload.textChanged.connect(self.schedule)

        self.status = Badge("—", "muted")
        self.headline = ElidedLabel()  # errors can be long: one line, the full text in its tooltip
        self.tree = QTreeWidget()
        self.tree.setItemDelegate(SymbolIconDelegate(self.tree))  # ✓/✗ drawn as icons
        self.tree.setHeaderLabels(["Item", "Value", "Why / effect"])
        self.tree.setColumnWidth(0, 200)
        self.tree.setColumnWidth(1, 170)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        self.notes = NotesList()
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.status)
        head.addWidget(self.headline, 1)
        head.addWidget(self.convert)
        rl.addLayout(head)
        report_split = QSplitter(Qt.Orientation.Vertical)
        self.stale = LastGoodNote(report_split)
        rl.addWidget(self.stale)
        report_split.addWidget(self.tree)
        report_split.addWidget(titled("Quirks that changed this report, schema findings", self.notes))
        report_split.setSizes([700, 140])
        rl.addWidget(report_split, 1)

        split = QSplitter()
        split.addWidget(titled("Payload", self.payload))
        split.addWidget(right)
        split.setSizes([340, 760])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(bar)
        lay.addWidget(split, 1)
        compact(self)
        self.template.setMinimumContentsLength(18)
        if self.templates:
            self.load_template(self._first_template())

    def showEvent(self, event) -> None:
        super().showEvent(event)
        docs_focus(self.window_, bottom_share=0.22)

    # -- inputs ---------------------------------------------------------------------------------------------
    def load_template(self, name: str | None) -> None:
        if name not in self._template_texts:
            return
        set_pane_text(self.payload, self._template_texts[name])
        self.template.setCurrentIndex(max(0, self.template.findData(name)))

    @Slot()
    def schedule(self) -> int:
        text = self.payload.toPlainText()
        # the combo names the template the payload is, or none (edited, replaced); an undo back
        # to a template's text names it again
        name = self.template.currentData()
        if self._template_texts.get(name) != text:
            same = next((n for n, shown in self._template_texts.items() if shown == text), None)
            self.template.setCurrentIndex(max(0, self.template.findData(same)) if same is not None else 0)
        self.scratchChanged.emit()
        return self.worker.request(run_params_view, text, self.profile.currentData())

    def scratch_state(self) -> dict[str, str]:
        """The payload, once it is the user's own (a template as loaded is not)."""
        text = self.payload.toPlainText()
        return {"payload": text} if text and self.template.currentIndex() <= 0 else {}

    def restore_scratch(self, state: dict[str, str]) -> None:
        if state.get("payload"):
            set_pane_text(self.payload, state["payload"])
            self.schedule()
        elif self.scratch_state() and self.templates:  # (another workspace's own payload)
            self.load_template(self._first_template())

    def _first_template(self) -> str:
        """The template the playground opens on."""
        return next((t.name for t in self.templates if t.name.startswith("anthropic")), self.templates[0].name)

    # -- results -------------------------------------------------------------------------------------------
    @Slot()
    def convert_request(self) -> bool:
        """Put the payload the pasted request maps to in the pane (one undoable edit)."""
        imported = self.view.imported if self.view is not None else None
        if imported is None:
            return False
        set_pane_text(self.payload, pretty(imported.payload))
        return True

    def _imported_section(self, imported) -> None:
        """What the pasted request became: mapped fields, fields it could not map, defaults supplied."""
        t = tints()
        sec = self._section("imported", f"Imported {imported.title} request",
                            f"{len(imported.mapped)} mapped · {len(imported.unmapped)} not mapped",
                            "the report below is for the payload this request maps to", {"imported"})
        for title, rows, colour in (("Mapped", imported.mapped, t.string), ("Not mapped", imported.unmapped, t.warning),
                                    ("Defaults supplied", imported.assumed, t.punct)):
            group = QTreeWidgetItem([f"{title} ({len(rows)})", "", ""])
            group.setForeground(0, QColor(colour))
            sec.addChild(group)
            for key, why in rows:
                item = QTreeWidgetItem([key, "", why])
                item.setToolTip(2, why)
                group.addChild(item)
            group.setExpanded(True)
        sec.setExpanded(True)

    @Slot(int, object)
    def _on_result(self, _job: int, view: ParamsView) -> None:
        self.view = view
        self.convert.setVisible(view.imported is not None)
        if view.errors:
            show_pane_error(self.payload, view.errors[0])
        else:
            show_pane_marks(self.payload, [(f["line"], f["column"], "warning", f["message"])
                                           for f in view.schema_findings])
        if not view.ok:
            self.status.set("✖ payload", "bad")
            self.headline.setText("; ".join(e.format() for e in view.errors))
            self.stale.mark(True, view.errors[0].format() if view.errors else "",
                            has_result=self.tree.topLevelItemCount() > 0)
            return
        self.stale.mark(False)
        report = view.report or {}
        sdk = report.get("sdkConfig", {})
        applied = sum(1 for f in view.feature_rows if f["applied"])
        self.status.set(f"✓ {sdk.get('providerId')} · {sdk.get('modelId')}", "ok")
        self.headline.setText((f"{view.imported.summary()} · " if view.imported is not None else "") + f"{applied}/{len(view.feature_rows)} features apply · {len(report.get('plugins', []))} "
                              f"plugin(s) · {len(report.get('tools', {}).get('active', []))} active tool(s) · "
                              f"profile {report.get('profile')}")
        expanded = self._expanded_sections()
        self.tree.clear()
        if view.imported is not None:
            self._imported_section(view.imported)
        self._fill(view, expanded)
        expand_marked(self.tree)
        for key in expanded:
            section = self.section_item(key)
            if section is not None:
                section.setExpanded(True)
        self.notes.set_notes(report.get("diagnostics", []) + view.schema_findings,
                             empty="no quirk changed this report")
        self._apply_filter(self.search.text())

    def _expanded_sections(self) -> set[str]:
        out = set()
        for item in top_items(self.tree):
            if item.isExpanded():
                out.add(item.data(0, SECTION_ROLE))
        return out or {"features", "plugins", "providerOptions", "system"}

    def _section(self, key: str, title: str, value: str, why: str, expanded: set[str]) -> QTreeWidgetItem:
        item = QTreeWidgetItem([title, value, why])
        font = QFont(item.font(0))
        font.setBold(True)
        item.setFont(0, font)
        item.setData(0, SECTION_ROLE, key)
        self.tree.addTopLevelItem(item)
        item.setExpanded(key in expanded)
        return item

    def _fill(self, view: ParamsView, expanded: set[str]) -> None:
        t = tints()
        report = view.report or {}
        explain = report.get("explain", {})
        routing = explain.get("routing", {})
        sec = self._section("routing", "Routing", f"{routing.get('scopeProviderId')} → {report['sdkConfig'].get('providerId')}",
                            f"endpoint {routing.get('endpointType')}, builder {routing.get('sdkBuilder')}", expanded)
        for k, v in routing.items():
            sec.addChild(QTreeWidgetItem([k, short_json(v), ""]))
        add_json_children(sec, "sdkConfig", report.get("sdkConfig"), expand_depth=0)

        applied = sum(1 for f in view.feature_rows if f["applied"])
        sec = self._section("features", "Features", f"{applied} of {len(view.feature_rows)} apply",
                            "every internal feature, in order: applied or not, and why", expanded)
        for f in view.feature_rows:
            item = QTreeWidgetItem([f["name"], "✓ applied" if f["applied"] else "✗ not applied", f["why"]])
            item.setForeground(1, QColor(t.string if f["applied"] else t.punct))
            item.setToolTip(2, f["why"] + (f"\n⚠ {f['warning']}" if f["warning"] else ""))
            if f["warning"]:
                item.setForeground(2, QColor(t.warning))
            if f["plugins"]:
                item.addChild(QTreeWidgetItem(["plugins", ", ".join(f["plugins"]), ""]))
            sec.addChild(item)

        sec = self._section("plugins", "Plugins (in order)", ", ".join(report.get("plugins", [])) or "(none)",
                            "what each does to a sample request", expanded)
        for n, p in enumerate(view.plugin_rows, 1):
            acts = "acts on the chat path" if p.get("actsOnChatPath") else "never runs on the chat path (PAR-Q1)"
            item = QTreeWidgetItem([f"{n}. {p['name']}", f"{p.get('kind')} · from {p['feature']}",
                                    p.get("summary", "")])
            item.setToolTip(2, p.get("summary", "") + "\n" + (p.get("caveat") or acts))
            if not p.get("actsOnChatPath"):
                item.setForeground(1, QColor(t.warning))
            item.addChild(QTreeWidgetItem(["chat path", acts, p.get("caveat", "")]))
            effect = p.get("effect")
            if effect is not None:
                add_json_children(item, "effect", effect, expand_depth=2)
            details = report.get("pluginDetails", {}).get(p["name"])
            if details is not None:
                add_json_children(item, "details", details, expand_depth=0)
            sec.addChild(item)
            item.setExpanded(True)

        options = report.get("options", {})
        provider_options = options.get("providerOptions") or {}
        sec = self._section("providerOptions", "providerOptions", short_json(provider_options, 60),
                            "sent to the provider SDK", expanded)
        for k, v in provider_options.items():
            add_json_children(sec, k, v, expand_depth=2)
        other = {k: v for k, v in options.items() if k != "providerOptions"}
        add_json_children(sec, "other options", other, expand_depth=0)

        system = report.get("system")
        sec = self._section("system", "System prompt", f"{len(system or '')} characters" if system else "(none)",
                            "; ".join(explain.get("systemPrompt", [])), expanded)
        if system:
            for line in str(system).split("\n"):
                sec.addChild(QTreeWidgetItem(["", line, ""]))

        tools = report.get("tools", {})
        tool_explain = explain.get("tools", {})
        sec = self._section("tools", "Tools", f"{len(tools.get('active', []))} active, "
                            f"{len(tools.get('deferred', []))} deferred",
                            f"skipped: {tool_explain.get('skipped')}" if tool_explain.get("skipped") else "", expanded)
        for entry in tool_explain.get("entries", []):
            sec.addChild(QTreeWidgetItem([entry["name"], f"defer: {entry.get('defer')}", entry.get("why", "")]))
        add_json_children(sec, "report", tools, expand_depth=0)
        if explain.get("hooks"):
            sec = self._section("hooks", "Hooks", ", ".join(explain["hooks"]), "composed from the features", expanded)
        scope = report.get("scope", {})
        sec = self._section("scope", "Scope & capabilities", scope.get("aiSdkProviderId") or "", "", expanded)
        for k, v in scope.items():
            add_json_children(sec, k, v, expand_depth=0)
        sec = self._section("raw", "Whole report (JSON)", "", "the report as the CLI prints it", expanded)
        for k, v in report.items():
            if k != "explain":
                add_json_children(sec, k, v, expand_depth=0)

    @Slot(str)
    def _apply_filter(self, text: str) -> None:
        needle = text.strip().lower()
        it = QTreeWidgetItemIterator(self.tree)
        while it.value():
            item = it.value()
            item.setHidden(False)
            it += 1
        if not needle:
            return

        def visit(item: QTreeWidgetItem) -> bool:
            own = any(needle in item.text(c).lower() for c in range(3))
            child_hit = False
            for child in child_items(item):
                child_hit = visit(child) or child_hit
            item.setHidden(not (own or child_hit))
            if child_hit:
                item.setExpanded(True)
            return own or child_hit

        for top in top_items(self.tree):
            visit(top)

    def section_item(self, key: str) -> QTreeWidgetItem | None:
        for item in top_items(self.tree):
            if item.data(0, SECTION_ROLE) == key:
                return item
        return None

    def payload_value(self) -> Any:
        return json.loads(self.payload.toPlainText())


register_panel("params", "Params playground", "editor", ParamsPanel)
