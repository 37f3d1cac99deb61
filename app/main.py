"""Start the desktop app: QApplication, main window, workspace, and the docs-mode screenshot path."""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import cast


def _parse_size(text: str | None) -> tuple[int, int]:
    width, sep, height = (text or "1366x768").lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit() or int(width) < 200 or int(height) < 150:
        raise ValueError(f"--size must look like 1366x768, not {text!r}")
    return int(width), int(height)


def _parse_tour_step(value) -> int | None:
    """``--tour-step N`` (docs mode): which step of the tour to photograph, 1-based."""
    if value in (None, ""):
        return None
    from app.tour import STEPS

    text = str(value)
    if not text.isdigit() or not 1 <= int(text) <= len(STEPS):
        raise ValueError(f"--tour-step must be a step number from 1 to {len(STEPS)}, not {text!r}")
    return int(text)


def _docs_workspace() -> Path:
    """Screenshots use the bundled example as shipped (deterministic), not the user's copy."""
    from engine.paths import example_workspace_dir

    bundled = example_workspace_dir()
    if bundled.is_dir() and any(bundled.iterdir()):
        return bundled
    from engine.workspace.example import ensure_example_workspace

    return ensure_example_workspace()


def _first_file(window) -> Path | None:
    """A representative file to show in docs mode: a pack, else a filter file, else anything."""
    if window.index is None:
        return None
    for group in ("caveman", "rtk", "project", "other"):
        files = window.index.by_group(group)
        if files:
            return files[0].path
    return None


def _select_item(tab, name: str) -> bool:
    """Select the rule (by ``name``) or filter (by ``id``) called ``name`` in ``tab``'s list."""
    if tab is None or tab.visual is None or tab.index is None:
        return False
    for row, value in enumerate(tab.index.values):
        if isinstance(value, dict) and name in (value.get("name"), value.get("id")):
            tab.show_visual()
            tab.visual.select(row)
            return True
    return False


def _settle(app, window, timeout: float = 20.0) -> None:
    """Process events until loading, parsing, validation and highlighting are done (docs mode)."""
    deadline = time.monotonic() + timeout
    quiet_since = None
    while time.monotonic() < deadline:
        app.processEvents()
        busy = window.scanner.busy or window.validator.busy
        for tab in window.document_tabs():
            busy = busy or not tab.is_settled()
        if busy:
            quiet_since = None
        else:
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since > 0.6:
                break
        time.sleep(0.01)
    app.processEvents()


def _write_layout_report(window, path: str) -> list[str]:
    import json

    from app.layout_report import layout_problems, layout_report

    report = layout_report(window)
    problems = layout_problems(report)
    Path(path).write_text(json.dumps({**report, "problems": problems}, indent=2) + "\n", encoding="utf-8")
    return problems


def launch(args: argparse.Namespace) -> int:
    screenshot = getattr(args, "screenshot", None)
    report_path = getattr(args, "layout_report", None)
    open_arg, select_arg = getattr(args, "open", None), getattr(args, "select", None)
    try:
        size = _parse_size(getattr(args, "size", None))
        tour_step = _parse_tour_step(getattr(args, "tour_step", None))
        if (open_arg or select_arg or report_path) and not screenshot:
            raise ValueError("--open, --select and --layout-report belong to docs mode (--screenshot PNG)")
        if select_arg and not open_arg:
            raise ValueError("--select needs --open FILE")
    except ValueError as exc:
        print(f"rulewright gui: error: {exc}", file=sys.stderr)
        return 2
    workspace_arg = getattr(args, "workspace", None)
    if workspace_arg and not Path(workspace_arg).exists():
        print(f"{workspace_arg}:1:1: error: no such file or folder", file=sys.stderr)
        return 1
    if open_arg:
        base = Path(workspace_arg) if workspace_arg else _docs_workspace()
        if not (base / open_arg).is_file():
            print(f"{base / open_arg}:1:1: error: --open: no such file in the workspace", file=sys.stderr)
            return 1
    if screenshot:
        from app.offscreen import use_offscreen_screen

        use_offscreen_screen(*size, frames=False)  # the screen is the size asked for: the report measures against it

    from PySide6.QtWidgets import QApplication, QLayout

    from app import panels

    panels.load_panel_modules()
    panel_name = getattr(args, "panel", None)
    if panel_name:
        try:
            panels.panel(panel_name)
        except panels.UnknownPanelError as exc:
            print(f"rulewright gui: error: {exc}", file=sys.stderr)
            return 2

    # the one application object of this process is a QApplication (instance() is typed as its base)
    app = cast("QApplication | None", QApplication.instance()) or QApplication(sys.argv[:1])
    app.setApplicationName("Rulewright")
    app.setOrganizationName("Rulewright")
    app.setDesktopFileName("rulewright")

    from app.mainwindow import MainWindow
    from engine.workspace.settings import Settings

    docs_mode = bool(screenshot)
    settings = Settings() if docs_mode else Settings.load()
    window = MainWindow(settings, docs_mode=docs_mode)
    # a preview's screenshot gives the preview the room; an editor's keeps the default layout
    window.docs_presents_preview = bool(panel_name and panels.panel(panel_name).area == "right")
    window.resize(*size)
    if docs_mode:
        layout = window.layout()
        if layout is not None:  # a QMainWindow always has its layout
            layout.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        window.setFixedSize(*size)  # screenshots have exactly the size asked for
    # Everything created so far (Qt wrappers, modules) lives as long as the app: keep it out of
    # the garbage collector's full passes, which otherwise pause every thread for their length.
    gc.freeze()

    target = Path(workspace_arg).resolve() if workspace_arg else None
    open_file = None
    if target is not None and target.is_file():
        open_file, target = target, target.parent
    if target is None:
        if docs_mode:
            target = _docs_workspace()
        elif settings.last_workspace and Path(settings.last_workspace).is_dir():
            target = Path(settings.last_workspace)
        else:
            from engine.workspace.example import ensure_example_workspace

            target = ensure_example_workspace()
    window.open_workspace(target)
    from app.tour import install_tour, start_after_scan, start_on_first_run

    tour = install_tour(window)  # Help ▸ Show Tour and the palette; shown by itself only on first run
    if tour_step is not None and not docs_mode:
        start_after_scan(window, tour, tour_step - 1)
    else:
        start_on_first_run(window, tour)
    window.show()

    if docs_mode:
        app.setCursorFlashTime(0)
        _settle(app, window)
        first = (target / open_arg) if open_arg else (open_file or _first_file(window))
        tab = window.open_file(first) if first is not None else None
        if panel_name:
            window.show_panel(panel_name)
        _settle(app, window)
        if select_arg and not _select_item(tab, select_arg):
            window.close()
            print(f"{first}:1:1: error: --select: no rule or filter named {select_arg!r}", file=sys.stderr)
            return 1
        _settle(app, window)
        if tour_step is not None:  # docs mode shows the tour only when asked
            tour.start(tour_step - 1)
            _settle(app, window)
            tour.relayout()
        ok = window.grab().save(str(screenshot))
        problems = _write_layout_report(window, report_path) if report_path else []
        files = len(window.index.files) if window.index is not None else 0
        window.close()
        if not ok:
            print(f"{screenshot}:1:1: error: could not write the PNG", file=sys.stderr)
            return 1
        print(f"rulewright: workspace {target} ({files} files); screenshot {screenshot}"
              + (f"; layout report {report_path}: {len(problems)} problem(s)" if report_path else ""))
        for problem in problems:
            print(f"{report_path}: layout: {problem}")
        return 0

    if open_file is not None:
        window.open_file(open_file)
    else:
        for name in settings.open_files:
            p = Path(name)
            if p.is_file() and target in p.parents:
                window.open_file(p)
    return app.exec()
