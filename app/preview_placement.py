"""The preview dock steps aside while a playground tab is active.

The dock shows the Caveman and RTK previews of the open pack or filter; a playground edits a
payload that feeds neither. At 1366×768 the dock's third of the width left the Params
playground's payload editor about 200 px wide, so while a playground is the active tab the dock
is hidden, and it comes back as it was when a file (or the start page) is active again.

The user has the last word in each context: showing the preview from a playground (View ▸
Preview, a Show … preview command) keeps it shown on playgrounds from then on (a setting), and
hiding it from a file keeps it hidden on files. A floating dock is the user's own arrangement
and is never moved. Programmatic hides are told apart from the user's by a guard, not by Qt's
visibility signal, which also fires when the window is minimized or closed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject

from app import panels

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDockWidget, QWidget

    from app.mainwindow import MainWindow


class PreviewPlacement(QObject):
    """Shows or hides ``window.right_dock`` by the kind of the active editor tab."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window_ = window
        self.dock: QDockWidget = window.right_dock
        self.aside = False  # a playground is the active tab (the dock shows the playground choice)
        self.for_files = True  # the dock's visibility on files, while a playground is active
        self._placing = False
        window.tabs.currentChanged.connect(lambda _index: self.follow())
        self.dock.toggleViewAction().triggered.connect(self.chosen)
        self.dock.installEventFilter(self)  # its title bar's close button

    # -- the user's choices ---------------------------------------------------------------------
    def chosen(self, shown: bool) -> None:
        """The user showed (True) or hid the dock: remembered for the active tab's kind."""
        if self._placing:
            return
        if self.aside:
            self.window_.settings.preview_in_playgrounds = shown
        else:
            self.for_files = shown

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.dock and event.type() == QEvent.Type.Close:
            self.chosen(False)
        return False

    # -- following the active tab ---------------------------------------------------------------
    def is_playground(self, widget: QWidget | None) -> bool:
        """A playground is a panel of the editor area (``app.panels``: area ``"editor"``)."""
        if widget is None:
            return False
        return any(spec.area == "editor" and self.window_.panel_widgets.get(name) is widget
                   for name, spec in panels.PANELS.items())

    def follow(self) -> None:
        """Place the dock for the active tab, when its kind changed."""
        playground = self.is_playground(self.window_.tabs.currentWidget())
        if playground == self.aside:
            return
        if playground:
            self.for_files = not self.dock.isHidden()  # (isVisible is False before the window is shown)
            self.aside = True
            self._place(self.window_.settings.preview_in_playgrounds)
        else:
            self.aside = False
            self._place(self.for_files)

    def settle(self) -> None:
        """The dock as it is on files (before the window's layout is saved for the next session,
        which starts on whatever tab it restores)."""
        if self.aside:
            self._place(self.for_files)

    def reset(self) -> None:
        """View ▸ Reset Layout: shown on files, and the default for playgrounds."""
        self.for_files = True
        self.window_.settings.preview_in_playgrounds = False
        self.aside = False
        self.follow()

    def _place(self, shown: bool) -> None:
        if self.dock.isFloating() or self.window_.right.count() == 0:
            return
        self._placing = True
        try:
            self.dock.setVisible(shown)
        finally:
            self._placing = False
