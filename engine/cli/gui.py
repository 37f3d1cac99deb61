"""``rulewright gui``: the only command that imports Qt, and only when it runs."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workspace", nargs="?",
                        help="workspace folder, or a file to open (default: the last or the example workspace)")
    parser.add_argument("--screenshot", metavar="PNG", help="render the window offscreen, save it as PNG, exit")
    parser.add_argument("--panel", metavar="NAME", help="panel to bring to the front (e.g. diagnostics)")
    parser.add_argument("--size", default="1366x768", metavar="WxH", help="window (and offscreen screen) size (default 1366x768)")
    parser.add_argument("--tour-step", metavar="N", help="show the first-run tour at step N (docs mode: photograph it)")
    parser.add_argument("--open", metavar="FILE", help="docs mode: file to open, relative to the workspace")
    parser.add_argument("--select", metavar="NAME", help="docs mode: rule name or filter id to select in that file")
    parser.add_argument("--layout-report", metavar="JSON",
                        help="docs mode: write the window, screen and input geometry (and too-narrow inputs) as JSON")


GUI_ENTRY_POINT_GROUP = "rulewright.gui"
GUI_FALLBACK = "app.main:launch"


def _gui_launcher() -> Callable[[argparse.Namespace], int]:
    """The desktop app's ``launch``, found as a plug-in so the engine never depends on ``app``.

    The distribution registers it as an entry point; a frozen bundle without package metadata
    falls back to the module path.
    """
    import importlib
    from importlib.metadata import entry_points

    launch: Callable[[argparse.Namespace], int]
    for entry in entry_points(group=GUI_ENTRY_POINT_GROUP):
        launch = entry.load()
        return launch
    module, _, name = GUI_FALLBACK.partition(":")
    launch = getattr(importlib.import_module(module), name)
    return launch


def run(args: argparse.Namespace) -> int:
    return _gui_launcher()(args)  # a missing Qt is a broken installation: engine.cli.main says so
