"""``app.layout_report``: what it measures and what it calls a problem (docs mode uses it too)."""

from __future__ import annotations

import argparse
import json

import pytest
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QScrollArea, QWidget

from app.layout_report import layout_problems, layout_report, readable_min_width
from app.main import launch

pytestmark = pytest.mark.gui


def test_a_choice_cut_without_an_ellipsis_is_reported_and_an_elided_one_is_not(qtbot):
    from app.widgets.elided_combo import ElidedComboBox

    window = QWidget()
    qtbot.addWidget(window)
    lay = QHBoxLayout(window)
    boxes = []
    for kind, name in ((QComboBox, "cut"), (ElidedComboBox, "elided")):
        box = kind()
        box.setObjectName(name)
        box.addItems(["unknown-tool text: preserve", "unknown-tool text: strip"])
        box.setFixedWidth(150)  # (readable, but narrower than its choice)
        lay.addWidget(box)
        boxes.append(box)
    window.resize(400, 60)
    window.show()
    qtbot.waitExposed(window)
    problems = layout_problems(layout_report(window))
    assert any("'cut'" in p and "cuts its current choice" in p for p in problems)
    assert not any("'elided'" in p for p in problems)
    elided = boxes[1]
    elided.grab()  # (a paint)
    assert "…" in elided.shown_text() and elided.elided
    assert "unknown-tool text: preserve" in elided.toolTip()  # the whole choice, while it is cut
    elided.setFixedWidth(320)
    elided.grab()  # (a paint)
    assert elided.shown_text() == "unknown-tool text: preserve" and elided.toolTip() == ""


def test_a_narrow_line_edit_is_reported_and_a_short_choice_is_not(qtbot):
    window = QWidget()
    qtbot.addWidget(window)
    lay = QHBoxLayout(window)
    narrow = QLineEdit(objectName="narrow")
    narrow.setFixedWidth(40)
    wide = QLineEdit(objectName="wide")
    wide.setMinimumWidth(readable_min_width(wide) + 10)
    choice = QComboBox(objectName="choice")
    choice.addItems(["all", "user"])
    for w in (narrow, wide, choice):
        lay.addWidget(w)
    window.resize(600, 80)
    window.show()
    qtbot.waitExposed(window)
    report = layout_report(window)
    by_name = {i["name"]: i for i in report["inputs"]}
    assert by_name["narrow"]["too_narrow"] and by_name["narrow"]["width"] == 40
    assert not by_name["wide"]["too_narrow"] and not by_name["choice"]["too_narrow"]
    assert by_name["choice"]["readable_min"] < readable_min_width(wide)  # its longest choice, not 20 chars
    problems = layout_problems(report)
    assert len(problems) == 1 and "'narrow'" in problems[0]


def test_a_field_clipped_by_a_scroll_area_counts_by_what_shows(qtbot):
    window = QScrollArea()
    qtbot.addWidget(window)
    body = QWidget()
    edit = QLineEdit(body, objectName="clipped")
    edit.setGeometry(0, 0, 400, 24)
    body.resize(800, 40)
    window.setWidget(body)
    window.resize(500, 100)
    window.show()
    qtbot.waitExposed(window)
    window.horizontalScrollBar().setValue(window.horizontalScrollBar().maximum())
    row = next(i for i in layout_report(window)["inputs"] if i["name"] == "clipped")
    assert row["width"] == 400 and row["visible_width"] < 120 and row["too_narrow"]


def test_a_window_larger_than_the_screen_is_a_problem(qtbot):
    window = QWidget()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    available = window.screen().availableGeometry()
    window.resize(available.width() + 50, 200)
    problems = layout_problems(layout_report(window))
    assert any("exceeds the screen" in p for p in problems)


def _args(**kw) -> argparse.Namespace:
    base = {"workspace": None, "screenshot": None, "panel": None, "size": "1366x768", "open": None,
            "select": None, "layout_report": None, "tour_step": None}
    base.update(kw)
    return argparse.Namespace(**base)


@pytest.mark.slow
def test_docs_mode_opens_selects_and_reports(qapp, workspace, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert launch(_args(workspace=str(workspace), screenshot=str(tmp_path / "s.png"),
                        open="rules/en/filler.json", select="please", layout_report=str(out))) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert set(report) >= {"window", "screen", "inputs", "problems"}
    names = {i["name"] for i in report["inputs"]}
    assert {"/name", "/pattern"} <= names  # the selected rule's form is on screen
    assert "layout report" in capsys.readouterr().out


@pytest.mark.slow
def test_docs_mode_rejects_an_unknown_selection_and_file(qapp, workspace, tmp_path, capsys):
    png = str(tmp_path / "s.png")
    assert launch(_args(workspace=str(workspace), screenshot=png, open="rules/en/filler.json", select="nope")) == 1
    assert "no rule or filter named 'nope'" in capsys.readouterr().err
    assert launch(_args(workspace=str(workspace), screenshot=png, open="rules/xx.json")) == 1
    assert "--open: no such file" in capsys.readouterr().err
    assert launch(_args(workspace=str(workspace), select="please")) == 2
