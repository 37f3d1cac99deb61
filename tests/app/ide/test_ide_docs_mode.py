"""Docs mode (``rulewright gui --screenshot``), the panel registry and IDE-Q12."""

from __future__ import annotations

import argparse
import sys

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLabel

from app import panels
from app.main import launch

pytestmark = pytest.mark.gui


def args(**kw) -> argparse.Namespace:
    base = {"workspace": None, "screenshot": None, "panel": None, "size": "1400x900"}
    base.update(kw)
    return argparse.Namespace(**base)


@pytest.mark.slow
def test_screenshot_renders_the_workspace_and_exits_0(qapp, workspace, tmp_path, capsys):
    png = tmp_path / "shot.png"
    assert launch(args(workspace=str(workspace), screenshot=str(png), size="1000x700",
                       panel="diagnostics")) == 0
    image = QImage(str(png))
    assert (image.width(), image.height()) == (1000, 700)
    assert f"workspace {workspace}" in capsys.readouterr().out


def test_unknown_panel_is_an_error_listing_the_known_ones(qapp, tmp_path, capsys):
    assert launch(args(screenshot=str(tmp_path / "x.png"), panel="no-such-panel")) == 2
    err = capsys.readouterr().err
    assert "unknown panel 'no-such-panel'" in err and "diagnostics" in err and "output" in err
    assert not (tmp_path / "x.png").exists()


def test_bad_size_and_missing_workspace(qapp, tmp_path, capsys):
    assert launch(args(screenshot=str(tmp_path / "x.png"), size="huge")) == 2
    assert launch(args(workspace=str(tmp_path / "missing"), screenshot=str(tmp_path / "x.png"))) == 1
    assert "no such file or folder" in capsys.readouterr().err


def test_registered_panels_can_be_brought_forward(qtbot, workspace):
    from app.mainwindow import MainWindow
    from engine.workspace.settings import Settings

    panels.register_panel("test-panel", "Test panel", "bottom", lambda window: QLabel("hello"))
    try:
        window = MainWindow(Settings(), docs_mode=True)
        qtbot.addWidget(window)
        widget = window.show_panel("test-panel")
        assert isinstance(widget, QLabel) and window.bottom.currentWidget() is widget
        with pytest.raises(panels.UnknownPanelError, match=r"known panels:.*test-panel"):
            window.show_panel("nope")
    finally:
        panels.PANELS.pop("test-panel", None)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="None is immortal from CPython 3.12 on")
def test_ide_q12_none_survives_millions_of_void_calls(qapp):
    """IDE-Q12: void PySide6 calls drop a reference to None; importing ``app`` neutralises it."""
    from PySide6.QtCore import QTimer

    timer = QTimer()
    for _ in range(20000):
        timer.setInterval(5)
    assert sys.getrefcount(None) > 1 << 40  # far from zero whatever the session length
