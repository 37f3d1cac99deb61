"""Panel registry: named views that docs mode (``--panel NAME``) and the View menu can bring forward.

A panel is a factory ``(window) -> QWidget`` plus where it lives: ``"bottom"`` (the tabbed
bottom area), ``"right"`` (the preview dock), ``"left"`` (the explorer dock) or ``"editor"`` (a
tab in the editor area). Besides the window's own panels, modules named ``app/panel_*.py``
register ``caveman-preview``, ``rtk-preview``, ``tests``, ``trust``, ``repair``, ``params`` and
``corpus`` by calling :func:`register_panel` when imported; :func:`load_panel_modules` imports them
all, and the window creates every registered panel at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QMenu, QWidget

    from app.mainwindow import MainWindow


@dataclass(frozen=True)
class PanelSpec:
    name: str
    title: str
    area: str  # bottom | right | editor
    factory: Callable[[MainWindow], QWidget]


PANELS: dict[str, PanelSpec] = {}
AREAS = ("bottom", "right", "left", "editor")


class UnknownPanelError(KeyError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        known = ", ".join(sorted(PANELS)) or "(none)"
        return f"unknown panel '{self.name}'; known panels: {known}"


def register_panel(name: str, title: str, area: str, factory: Callable[[MainWindow], QWidget]) -> None:
    if area not in AREAS:
        raise ValueError(f"panel area must be one of {', '.join(AREAS)}, not {area!r}")
    PANELS[name] = PanelSpec(name, title, area, factory)


def panel(name: str) -> PanelSpec:
    try:
        return PANELS[name]
    except KeyError:
        raise UnknownPanelError(name) from None


def offer_action(window: MainWindow, key: str, action: QAction) -> None:
    """List ``action`` in the window's action table (the command palette reads it) as ``key``.

    A bare window (as some tests build it) has no table; then there is nothing to offer it in.
    """
    actions = getattr(window, "actions_", None)
    if isinstance(actions, dict):
        actions[key] = action


def offer_command(window: MainWindow, key: str, action: QAction, menu_title: str, *, before: str | None = None) -> None:
    """A panel's window command: in the palette's table as ``key`` and in the menu ``menu_title``,
    at its end or, with ``before``, in a group of its own above the window action of that key
    (call it once the window has built them: panels are created before its actions and menus)."""
    offer_action(window, key, action)
    menu = window_menu(window, menu_title)
    if menu is None:
        return
    anchor = getattr(window, "actions_", {}).get(before) if before is not None else None
    if anchor is None or anchor not in menu.actions():
        menu.addAction(action)
        return
    menu.insertAction(anchor, action)
    menu.insertSeparator(anchor)


def window_menu(window: MainWindow, title: str) -> QMenu | None:
    """The menu bar's menu called ``title`` (mnemonics ignored), or None."""
    from PySide6.QtWidgets import QMenu  # at call time: this registry module imports no Qt

    for action in window.menuBar().actions():
        menu = action.menu()
        if isinstance(menu, QMenu) and action.text().replace("&", "") == title:
            return menu
    return None


def _register_builtin() -> None:
    """The window's own panels (explorer, diagnostics, output); the ``app.panel_*`` modules add theirs
    on import (see ``app.mainwindow``)."""

    def diagnostics(window: MainWindow) -> QWidget:
        return window.diagnostics_panel

    def output(window: MainWindow) -> QWidget:
        return window.output

    def explorer(window: MainWindow) -> QWidget:
        return window.explorer

    register_panel("explorer", "Explorer", "left", explorer)
    register_panel("diagnostics", "Diagnostics", "bottom", diagnostics)
    register_panel("output", "Output", "bottom", output)


def load_panel_modules() -> list[str]:
    """Import every ``app.panel_*`` module (each registers its panels); returns their names."""
    import importlib
    import pkgutil

    import app

    loaded = []
    for info in pkgutil.iter_modules(app.__path__):
        if info.name.startswith("panel_"):
            importlib.import_module(f"app.{info.name}")
            loaded.append(info.name)
    return loaded


_register_builtin()
