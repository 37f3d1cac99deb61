"""The first-run tour (ux.md "First run"): explorer → a pack → its preview → a failing test → trust.

Non-modal on purpose: the highlight frame is drawn on an overlay that lets every mouse event
through, and the callout (Back / Next / Skip tour) is a small child of the window. Esc closes it.
Showing a step never moves keyboard focus (the buttons do not take it on click either), and all
waiting (the test run) happens in the panels' own workers: the tour only reacts to their signals.

The tour knows the window only through its public attributes (``show_panel``, ``panel_widgets``,
``index``, ``document_tabs``, ``open_file``, ``menuBar``, ``actions_``) and the panel registry.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QColor,
    QKeySequence,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPolygonF,
    QShortcut,
)
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget
from shiboken6 import isValid

from app import panels
from engine.workspace.kinds import FileKind

if TYPE_CHECKING:
    from app.document_tab import DocumentTab
    from app.mainwindow import MainWindow
    from app.panel_tests import TestsPanel
    from app.workers import Dispatcher

TRACK_MS = 200  # how often the frame follows a target that moved (dock resized, list scrolled)
CALLOUT_WIDTH = 360
ARROW = 12  # the callout's pointer; also its transparent margin
GAP = 6  # between the target's frame and the callout's pointer tip


@dataclass
class Target:
    """What a step points at: ``widget`` framed; ``spot`` gives a rectangle inside it to mark (in
    the widget's coordinates, asked again at every relayout since lists scroll and docks resize);
    ``detail`` is appended to the step's text; ``refresh_on`` is a signal after which to look again."""

    widget: QWidget | None
    spot: Callable[[], QRect | None] | None = None
    detail: str = ""
    refresh_on: Any = None  # a bound Qt signal, e.g. the tests panel's ranChanged


@dataclass(frozen=True)
class TourStep:
    key: str
    title: str
    body: str
    locate: Callable[[MainWindow], Target]


SCANNING = "The workspace is still being scanned…"


# -- locating the widgets (each brings its panel to the front) -----------------------------------------------
def _panel(window: MainWindow, name: str) -> QWidget | None:
    """``window.show_panel(name)``, or None when no module registered that panel."""
    if name not in panels.PANELS or name not in window.panel_widgets:
        return None
    return window.show_panel(name)


def _is_pack(tab: DocumentTab | None) -> bool:
    return tab is not None and tab.doc.kind == FileKind.CAVEMAN_PACK


def pack_tab(window: MainWindow) -> DocumentTab | None:
    """The pack to show: the active one, else an open one, else the workspace's first pack."""
    current = window.current_tab()
    if _is_pack(current):
        return current
    for tab in window.document_tabs():
        if _is_pack(tab):
            window.tabs.setCurrentWidget(tab)
            return tab
    packs = window.index.by_group("caveman") if window.index is not None else []
    return window.open_file(packs[0].path) if packs else None


def _relative(window: MainWindow, path: Path | str | None) -> str:
    if path is None:
        return ""
    try:
        return str(Path(path).relative_to(window.workspace)) if window.workspace else str(path)
    except ValueError:
        return str(path)


def locate_explorer(window: MainWindow) -> Target:
    _panel(window, "explorer")
    if window.index is None:
        return Target(window.explorer, detail=SCANNING, refresh_on=window.workspaceScanned)
    if not window.index.files:
        return Target(window.explorer, detail="This workspace has no packs or filters yet: File ▸ New Pack or "
                                              "New Filter makes one.")
    return Target(window.explorer)


def locate_pack(window: MainWindow) -> Target:
    tab = pack_tab(window)
    if tab is None and window.index is None:
        return Target(window.centralWidget(), detail=SCANNING, refresh_on=window.workspaceScanned)
    if tab is None:
        return Target(window.centralWidget(), detail="This workspace has no Caveman pack: File ▸ New Pack "
                                                     "creates one from a template.")
    if tab.path is not None:
        window.explorer.select_path(tab.path)
    return Target(tab, detail=f"Open now: <code>{html.escape(_relative(window, tab.path))}</code>.")


def locate_preview(window: MainWindow) -> Target:
    tab = pack_tab(window)  # the preview dock follows the active editor
    panel = _panel(window, "caveman-preview")
    if panel is None:
        return Target(window.centralWidget(), detail="(The Caveman preview is not available in this build.)")
    if tab is None:
        return Target(panel, detail="Open a pack to preview it; until then the built-in packs run.")
    return Target(panel)


def _first_failing_item(panel: TestsPanel):
    from app.panel_tests import ROW_ROLE

    for item in panel.test_items():
        data = item.data(0, ROW_ROLE)
        if data and not data[1].passed:
            return item, data[1]
    return None, None


def locate_failing_test(window: MainWindow) -> Target:
    panel = cast("TestsPanel | None", _panel(window, "tests"))  # registered as "tests" by app.panel_tests
    if panel is None:
        return Target(window.centralWidget(), detail="(The Tests panel is not available in this build.)")
    if panel.result is None:
        if not panel.runner.busy:
            panel.run_tests()
        return Target(panel, detail="Running the workspace's tests…", refresh_on=panel.ranChanged)
    item, row = _first_failing_item(panel)
    if item is None:
        return Target(panel, detail="Every test passes in this workspace; a failing one shows ✗ and its diff here.",
                      refresh_on=panel.ranChanged)
    panel.tree.setCurrentItem(item)  # selection only: the tree does not take the focus
    panel.tree.scrollToItem(item)

    def spot() -> QRect | None:
        if not isValid(item):  # the next run rebuilt the tree
            return None
        viewport = panel.tree.viewport()
        rect = panel.tree.visualItemRect(item).intersected(viewport.rect())
        if rect.isEmpty():
            return None
        return QRect(viewport.mapTo(panel, QPoint(0, rect.top())), QSize(viewport.width(), rect.height()))

    detail = (f"Here <b>{html.escape(row.filter_id)} › {html.escape(row.test_name)}</b> fails "
              f"(<code>{html.escape(_relative(window, row.file))}</code>): fix the expectation "
              "(Accept actual) or the rule, then run again with F5.")
    return Target(panel, spot, detail, refresh_on=panel.ranChanged)


def locate_trust(window: MainWindow) -> Target:
    panel = _panel(window, "trust")
    if panel is None:
        return Target(window.centralWidget(), detail="(The Trust panel is not available in this build.)")
    verdict = getattr(panel, "verdict", None)
    if not isinstance(verdict, QWidget):
        return Target(panel)

    def spot() -> QRect | None:
        return QRect(verdict.mapTo(panel, QPoint(0, 0)), verdict.size()) if verdict.isVisibleTo(panel) else None

    return Target(panel, spot)


STEPS: tuple[TourStep, ...] = (
    TourStep("explorer", "The explorer",
             "Everything in the workspace: Caveman packs by language, RTK filter files and <code>.rtk</code> "
             "(project filters and their trust record). Badges show unsaved edits, diagnostics, test results "
             "and the trust verdict. Double-click a file to open it.",
             locate_explorer),
    TourStep("pack", "A Caveman pack",
             "A pack is an ordered list of rules. Pick a rule on the left and edit it in the form, or switch to "
             "the raw JSON (Ctrl+2): both views stay in sync, and Ctrl+Z undoes either.",
             locate_pack),
    TourStep("preview", "Its preview",
             "The open pack runs on a sample as you type: input and output side by side, the rules that fired, "
             "tokens before → after, and any reference quirk in plain words. Select a rule to see only its "
             "matches.",
             locate_preview),
    TourStep("failing-test", "A failing test",
             "RTK filters carry their own tests. A failing one shows ✗ and the diff between the expected and "
             "the actual output.",
             locate_failing_test),
    TourStep("trust", "The trust panel",
             "OmniRoute applies a project's <code>.rtk</code> filters only when <code>.rtk/trust.json</code> "
             "holds their hash. Review the risk summary, then Trust… records exactly what it says. "
             "On a small screen, Ctrl+Shift+J (or a double-click on a tab) gives the panels most of the height.",
             locate_trust),
)


# -- drawing ------------------------------------------------------------------------------------------------
def accent(widget: QWidget) -> QColor:
    """The palette's highlight colour: readable on both the light and the dark palette."""
    return widget.palette().color(QPalette.ColorRole.Highlight)


class TourOverlay(QWidget):
    """Covers the window and draws the frame; every mouse event goes through to the widgets below."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground, True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.frame: QRect | None = None
        self.spot: QRect | None = None
        self.hide()

    def set_rects(self, frame: QRect | None, spot: QRect | None) -> None:
        if frame != self.frame or spot != self.spot:
            self.frame, self.spot = frame, spot
            self.update()

    def paintEvent(self, _event) -> None:
        if self.frame is None:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = accent(self)
        halo = QColor(colour)
        halo.setAlpha(70)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(halo, 8))
        painter.drawRoundedRect(QRectF(self.frame).adjusted(-2, -2, 2, 2), 6, 6)
        painter.setPen(QPen(colour, 3))
        painter.drawRoundedRect(QRectF(self.frame).adjusted(-1, -1, 1, 1), 5, 5)
        if self.spot is not None:
            # a selected row is already painted in the accent colour: ring it in a deeper shade
            # (darker on a light base, lighter on a dark one) on its own edge, over no neighbour
            light = self.palette().color(QPalette.ColorRole.Base).lightness() >= 128
            painter.setPen(QPen(colour.darker(170) if light else colour.lighter(170), 2))
            painter.drawRoundedRect(QRectF(self.spot).adjusted(1, 1, -1, -1), 3, 3)
        painter.end()


class TourCallout(QWidget):
    """The bubble: step count, title, text, Back / Next / Skip tour, with a pointer to the target."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName("tourCallout")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.side: str | None = None  # where the target is: left / right / top / bottom, or None
        self.tip = QPoint()  # the pointer's tip, in this widget's coordinates
        self.counter = QLabel()
        self.title = QLabel()
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.title.setFont(font)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        # mnemonics give the keyboard Alt+B / Alt+N / Alt+K; a click leaves the focus where it was
        self.back_button = QPushButton("&Back")
        self.next_button = QPushButton("&Next")
        self.skip_button = QPushButton("S&kip tour")
        self.skip_button.setFlat(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.skip_button)
        buttons.addStretch(1)
        buttons.addWidget(self.back_button)
        buttons.addWidget(self.next_button)
        for button in (self.back_button, self.next_button, self.skip_button):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            button.setAutoDefault(False)
        lay = QVBoxLayout(self)
        pad = ARROW + 12
        lay.setContentsMargins(pad, pad - 4, pad, pad - 4)
        lay.setSpacing(6)
        lay.addWidget(self.counter)
        lay.addWidget(self.title)
        lay.addWidget(self.body)
        lay.addLayout(buttons)
        self.setFixedWidth(CALLOUT_WIDTH + 2 * ARROW)
        self.hide()

    def set_step(self, number: int, total: int, title: str, text: str) -> None:
        self.counter.setText(f"<small>Tour · step {number} of {total} · Esc closes</small>")
        self.title.setText(title)
        self.body.setText(text)
        self.back_button.setEnabled(number > 1)
        self.next_button.setText("&Done" if number == total else "&Next")
        self.adjustSize()

    def sizeHint(self) -> QSize:
        width = CALLOUT_WIDTH + 2 * ARROW
        lay = self.layout()
        assert lay is not None  # set in __init__
        return QSize(width, lay.heightForWidth(width) if lay.hasHeightForWidth() else lay.sizeHint().height())

    def place(self, frame: QRect | None, spot: QRect | None, bounds: QRect) -> None:
        """Outside the framed widget where there is room (so it never hides what it explains), else
        beside the spot, else inside the frame's lower right corner; centred when there is no target.
        The pointer aims at the spot when there is one."""
        self.resize(self.sizeHint())
        if frame is None:
            self.side = None
            self.move(self._clamp(bounds.center() - QPoint(self.width() // 2, self.height() // 2), bounds))
        elif not any(self._beside(anchor, (spot or frame).center(), bounds) for anchor in (frame, spot) if anchor):
            self.side = None
            corner = frame.bottomRight() - QPoint(self.width() + 2 * GAP, self.height() + 2 * GAP)
            self.move(self._clamp(corner, bounds))
        self.update()

    def _clamp(self, pos: QPoint, bounds: QRect) -> QPoint:
        return QPoint(max(bounds.left(), min(pos.x(), bounds.right() - self.width())),
                      max(bounds.top(), min(pos.y(), bounds.bottom() - self.height())))

    def _beside(self, anchor: QRect, aim: QPoint, bounds: QRect) -> bool:
        """Move to the first side of ``anchor`` with room (right, left, below, above), pointing at ``aim``."""
        w, h = self.width(), self.height()
        candidates = (  # (the callout's side that faces the target, fits, top-left corner)
            ("left", anchor.right() + GAP + w <= bounds.right(), QPoint(anchor.right() + GAP, aim.y() - h // 2)),
            ("right", anchor.left() - GAP - w >= bounds.left(), QPoint(anchor.left() - GAP - w, aim.y() - h // 2)),
            ("top", anchor.bottom() + GAP + h <= bounds.bottom(), QPoint(aim.x() - w // 2, anchor.bottom() + GAP)),
            ("bottom", anchor.top() - GAP - h >= bounds.top(), QPoint(aim.x() - w // 2, anchor.top() - GAP - h)),
        )
        for side, fits, corner in candidates:
            if not fits:
                continue
            pos = self._clamp(corner, bounds)
            local = aim - pos
            if side in ("left", "right"):
                self.tip = QPoint(0 if side == "left" else w, max(ARROW * 3, min(local.y(), h - ARROW * 3)))
            else:
                self.tip = QPoint(max(ARROW * 3, min(local.x(), w - ARROW * 3)), 0 if side == "top" else h)
            self.side = side
            self.move(pos)
            return True
        return False

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        bubble = QRectF(self.rect()).adjusted(ARROW, ARROW, -ARROW, -ARROW)
        path = QPainterPath()
        path.addRoundedRect(bubble, 8, 8)
        if self.side is not None:
            t = QPointF(self.tip)
            if self.side in ("left", "right"):
                edge = bubble.left() if self.side == "left" else bubble.right()
                base = (QPointF(edge, t.y() - ARROW), QPointF(edge, t.y() + ARROW))
            else:
                edge = bubble.top() if self.side == "top" else bubble.bottom()
                base = (QPointF(t.x() - ARROW, edge), QPointF(t.x() + ARROW, edge))
            arrow = QPainterPath()
            arrow.addPolygon(QPolygonF([base[0], t, base[1]]))
            arrow.closeSubpath()
            path = path.united(arrow)
        palette = self.palette()
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        painter.setPen(QPen(accent(self), 2))
        painter.drawPath(path)
        painter.end()


# -- the controller -----------------------------------------------------------------------------------------
class Tour(QObject):
    """Step through :data:`STEPS` over ``window``. ``closed(completed)`` fires when it ends."""

    stepChanged = Signal(int)
    closed = Signal(bool)

    def __init__(self, window: MainWindow, steps: tuple[TourStep, ...] = STEPS) -> None:
        super().__init__(window)
        self.setObjectName("tour")
        self.window_ = window
        self.steps = steps
        self.index = -1
        self.target: Target | None = None
        self._refresh_signal = None
        self.overlay = TourOverlay(window)
        self.callout = TourCallout(window)
        self.callout.back_button.clicked.connect(self.back)
        self.callout.next_button.clicked.connect(self.next)
        self.callout.skip_button.clicked.connect(lambda: self.close(completed=False))
        self.escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), window)
        self.escape.setContext(Qt.ShortcutContext.WindowShortcut)
        self.escape.setEnabled(False)
        self.escape.activated.connect(lambda: self.close(completed=False))
        self._tracker = QTimer(self)
        self._tracker.setInterval(TRACK_MS)
        self._tracker.timeout.connect(self.relayout)
        self._saver: Dispatcher | None = None
        self.action: QAction | None = None  # Help ▸ Show Tour, set by install_tour
        self._placed: tuple | None = None  # what the last relayout drew for

    # -- state
    def is_active(self) -> bool:
        return self.index >= 0

    def current_step(self) -> TourStep | None:
        return self.steps[self.index] if self.is_active() else None

    # -- navigation
    def start(self, step: int = 0) -> None:
        """Show the tour from ``step`` (0-based); it counts as seen from now on (settings.tour_done)."""
        self.window_.settings.tour_done = True  # the window's own save on close keeps it too
        self.escape.setEnabled(True)
        self._tracker.start()
        # the window's resizes reach Python only while the tour is up, not for the app's lifetime
        self.window_.installEventFilter(self)
        self.show_step(max(0, min(step, len(self.steps) - 1)))

    def next(self) -> None:
        if not self.is_active():
            return
        if self.index + 1 >= len(self.steps):
            self.close(completed=True)
        else:
            self.show_step(self.index + 1)

    def back(self) -> None:
        if self.is_active() and self.index > 0:
            self.show_step(self.index - 1)

    def close(self, completed: bool = False) -> None:
        if not self.is_active():
            return
        self.index = -1
        self.target = None
        self._watch(None)
        self._tracker.stop()
        self.window_.removeEventFilter(self)
        self.escape.setEnabled(False)
        self.overlay.hide()
        self.callout.hide()
        self._remember_done()
        self.closed.emit(completed)

    def show_step(self, index: int) -> None:
        self.index = index
        self.refresh()
        self.stepChanged.emit(index)

    def refresh(self) -> None:
        """Locate the current step's target again (it brings its panel to the front) and redraw."""
        step = self.current_step()
        if step is None:
            return
        self.target = step.locate(self.window_)
        self._watch(self.target.refresh_on)
        text = step.body + (f"<br><br>{self.target.detail}" if self.target.detail else "")
        self.callout.set_step(self.index + 1, len(self.steps), step.title, text)
        self.overlay.show()
        self.callout.show()
        self.relayout(force=True)

    def _watch(self, signal) -> None:
        """Refresh once more when ``signal`` fires (e.g. the test run the step started finished)."""
        if self._refresh_signal is not None:
            try:
                self._refresh_signal.disconnect(self._on_target_changed)
            except (RuntimeError, TypeError):
                pass
        self._refresh_signal = signal
        if signal is not None:
            signal.connect(self._on_target_changed)

    def _on_target_changed(self, *_args) -> None:
        QTimer.singleShot(0, self.refresh)  # after the panel has drawn what it just received

    # -- geometry
    def target_widget(self) -> QWidget | None:
        widget = self.target.widget if self.target is not None else None
        return widget if widget is not None and isValid(widget) else None

    def frame_rect(self) -> QRect | None:
        """The target's rectangle in window coordinates (None when it is gone or hidden)."""
        widget = self.target_widget()
        if widget is None or not widget.isVisible() or widget.window() is not self.window_:
            return None
        return QRect(widget.mapTo(self.window_, QPoint(0, 0)), widget.size())

    def spot_rect(self) -> QRect | None:
        frame = self.frame_rect()
        if frame is None or self.target is None or self.target.spot is None:
            return None
        spot = self.target.spot()
        return spot.translated(frame.topLeft()).intersected(frame) if spot is not None else None

    def relayout(self, force: bool = False) -> None:
        """Follow the target; the tracking timer's ticks cost two ``mapTo`` calls when nothing moved."""
        if not self.is_active():
            return
        frame, spot = self.frame_rect(), self.spot_rect()
        key = (self.window_.size(), frame, spot)
        if key == self._placed and not force:
            return
        self._placed = key
        self.overlay.setGeometry(self.window_.rect())
        self.overlay.set_rects(frame, spot)
        self.callout.place(frame, spot, self.window_.rect().adjusted(4, 4, -4, -4))
        self.overlay.raise_()
        self.callout.raise_()

    def eventFilter(self, obj, event) -> bool:
        if obj is self.window_ and event.type() == QEvent.Type.Resize:
            self.relayout()
        return False

    # -- settings
    def _remember_done(self) -> None:
        settings = self.window_.settings
        settings.tour_done = True
        if getattr(self.window_, "docs_mode", False):
            return
        from app.workers import Dispatcher

        if self._saver is None:
            self._saver = Dispatcher(self)
        # fsync off the GUI thread, to the settings file of now: the worker may run after the
        # environment that named the config folder has changed (a test's private folder, gone)
        target = settings.path()
        self._saver.request(lambda: settings.save(target))


# -- wiring -------------------------------------------------------------------------------------------------
def install_tour(window: MainWindow) -> Tour:
    """Create the window's tour once and offer it in Help ▸ Show Tour and the command palette."""
    existing = tour_of(window)
    if existing is not None:
        return existing
    tour = Tour(window)
    action = QAction("Show &Tour", window)
    action.setObjectName("show_tour")
    action.setToolTip("Walk through the explorer, a pack, its preview, a failing test and the trust panel")
    action.triggered.connect(lambda _checked=False: tour.start(0))
    window.addAction(action)
    panels.offer_action(window, "show_tour", action)
    menu = panels.window_menu(window, "Help") or window.menuBar().addMenu("&Help")
    first = menu.actions()[0] if menu.actions() else None
    if first is None:
        menu.addAction(action)
    else:
        menu.insertAction(first, action)
        menu.insertSeparator(first)
    tour.action = action
    return tour


def tour_of(window: MainWindow) -> Tour | None:
    return window.findChild(Tour, "tour")


def is_example_workspace(path: Path) -> bool:
    from engine.workspace.example import user_example_workspace

    example = user_example_workspace()
    try:
        return os.path.samefile(path, example)
    except OSError:
        return False


def start_after_scan(window: MainWindow, tour: Tour, step: int = 0) -> None:
    """Start the tour at ``step`` once the workspace scan is in (the steps need the file index)."""

    def once() -> None:
        window.workspaceScanned.disconnect(once)
        if not tour.is_active():
            tour.start(step)

    window.workspaceScanned.connect(once)


def start_on_first_run(window: MainWindow, tour: Tour) -> bool:
    """Schedule the tour for the example workspace while it was never seen; returns whether it was."""
    if window.docs_mode or window.settings.tour_done or window.workspace is None \
            or not is_example_workspace(window.workspace):
        return False
    start_after_scan(window, tour)
    return True
