"""The editor area's page while no file is open: what to do first, as buttons.

The Repair and Params playground tabs keep the editor's tab widget from ever being empty, so the
"open something" hint lives in a tab of its own that the window shows only while no document tab
is open. Every button triggers the window's own action (same effect as its menu item/shortcut).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from app.widgets.empty_state import EmptyAction, EmptyState

if TYPE_CHECKING:
    from app.mainwindow import MainWindow

RECENT_SHOWN = 5


class StartPage(QWidget):
    """Start actions (new pack/filter, open a workspace, the example, the tour) and recent workspaces."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window_ = window
        self.actions_state = EmptyState(self, vertical=True)
        self.recent_title = QLabel("<b>Recent workspaces</b>")
        self.recent_title.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.recent = EmptyState(self, vertical=True)
        lay = QVBoxLayout(self)
        lay.addStretch(1)
        for part in (self.actions_state, self.recent_title, self.recent):
            part.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
            lay.addWidget(part)
        lay.addStretch(1)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.refresh()  # the tour's action and the recent list may have changed since

    def refresh(self) -> None:
        w = self.window_
        act = w.actions_.get
        if w.workspace is None:
            text = ("No workspace is open. Open a folder of Caveman packs and RTK filters (or drop one on "
                    "the window), or start with the example workspace.")
            actions: list[EmptyAction | None] = [act("open_workspace"), act("open_example"), act("show_tour")]
        else:
            text = (f"No file is open. Pick a pack or filter in the explorer (Go to File… finds one by name), "
                    f"or create one in {w.workspace.name}.")
            actions = [act("quick_open"), act("new_pack"), act("new_filter"), act("open_workspace"),
                       act("show_tour")]
        self.actions_state.show_message(text, actions)
        recent = [p for p in w.settings.recent_workspaces
                  if w.workspace is None or Path(p) != w.workspace][:RECENT_SHOWN]
        self.recent_title.setVisible(bool(recent))
        if recent:
            self.recent.show_message("", [(p, partial(w.open_workspace, Path(p))) for p in recent])
        else:
            self.recent.clear()
