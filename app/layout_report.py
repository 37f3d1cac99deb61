"""Where the main window and its inputs are, and which inputs are too narrow to read.

Used by docs mode (``rulewright gui … --layout-report JSON``) and by the layout and journey
tests, which assert ``layout_problems(layout_report(window)) == []`` after each step.

**Readable minimum** (the rule every input is held to), in the input's own font:

* free-text inputs — line edits, editable combo boxes, editable plain/rich text edits and
  editable item views (the form's pattern lists and tables: a view whose first cell is editable,
  or an empty one with edit triggers) — need 20 average characters
  (``QFontMetrics.averageCharWidth() * 20``): enough to read a name or the start of a pattern;
* a non-editable combo box needs the width its longest choice asks for, but never more than
  those 20 characters (a ``user/system/all`` choice is readable well below that);
* a spin box needs the width its own size hint asks for (its longest value).

An input's width is the part of it that is actually on screen: the widget's rectangle clipped by
every ancestor (a scroll area's viewport, a collapsed splitter pane). A field that is 300 px wide
but scrolled so that 90 px show is as unreadable as a 90 px field. Inputs with nothing on screen
(scrolled out vertically, in a hidden tab) are not visible and not listed.
"""

from __future__ import annotations

from typing import Any, TypeVar

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QStyle,
    QStyleOptionComboBox,
    QTextEdit,
    QWidget,
)

READABLE_CHARS = 20
CUT_SLACK_PX = 3  # (the style's size for a text runs a pixel or two over what Qt's own hint gives it)
W = TypeVar("W", bound=QWidget)


def _rect(r: QRect) -> dict[str, int]:
    return {"x": r.x(), "y": r.y(), "width": r.width(), "height": r.height()}


def _is_input(w: QWidget) -> bool:
    if isinstance(w, QLineEdit):
        # the line edit inside a combo box or spin box is reported as its owner
        return not isinstance(w.parentWidget(), (QComboBox, QAbstractSpinBox))
    if isinstance(w, (QComboBox, QAbstractSpinBox)):
        return True
    if isinstance(w, (QPlainTextEdit, QTextEdit)):
        return not w.isReadOnly()
    if isinstance(w, QAbstractItemView) and not isinstance(w, QHeaderView):
        model = w.model()
        if model is None or w.editTriggers() == QAbstractItemView.EditTrigger.NoEditTriggers:
            return False
        if model.rowCount() == 0:
            return True
        return bool(model.flags(model.index(0, 0)) & Qt.ItemFlag.ItemIsEditable)
    return False


def readable_min_width(w: QWidget) -> int:
    """The width below which ``w`` cannot be read (the rule in the module docstring)."""
    chars = w.fontMetrics().averageCharWidth() * READABLE_CHARS
    if isinstance(w, QComboBox) and not w.isEditable():
        return min(chars, w.minimumSizeHint().width())
    if isinstance(w, QAbstractSpinBox):
        return w.minimumSizeHint().width()
    return chars


def cut_choice(w: QWidget) -> bool:
    """A non-editable combo box too narrow for its current choice: Qt cuts the text without an
    ellipsis ("unknown-tool tex" for "unknown-tool text: preserve")."""
    if not isinstance(w, QComboBox) or w.isEditable() or not w.currentText() or hasattr(w, "elided"):
        return False  # (an ElidedComboBox draws what it cuts with an ellipsis)
    option = QStyleOptionComboBox()
    w.initStyleOption(option)
    metrics = w.fontMetrics()
    text = QSize(metrics.horizontalAdvance(w.currentText()), metrics.height())
    if not w.itemIcon(w.currentIndex()).isNull():
        text.setWidth(text.width() + w.iconSize().width() + 4)
    needed = w.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, text, w).width()
    return needed > w.width() + CUT_SLACK_PX


def readable(widget: W) -> W:
    """Give ``widget`` its readable minimum width: a form then wraps its label above it, or
    scrolls, instead of squeezing it to a sliver. Returns the widget."""
    widget.setMinimumWidth(readable_min_width(widget))
    return widget


def _visible_rect(w: QWidget, window: QWidget) -> QRect:
    """``w``'s rectangle in ``window`` coordinates, clipped by every ancestor up to the window."""
    rect = QRect(w.mapTo(window, w.rect().topLeft()), w.size())
    parent = w.parentWidget()
    while parent is not None and parent is not window:
        rect = rect.intersected(QRect(parent.mapTo(window, parent.rect().topLeft()), parent.size()))
        parent = parent.parentWidget()
    return rect.intersected(window.rect())


def _name(w: QWidget) -> str:
    name = w.objectName()
    return (name if not name.startswith("qt_") else "") or w.accessibleName() or ""


def layout_report(window: QWidget) -> dict[str, Any]:
    """The window's frame geometry, its screen's available geometry, every visible input.

    An input is named by its object name, else its accessible name, else the text of the label
    that is its buddy, else its parent's name (a form field's JSON pointer), else its
    placeholder, else the nearest named ancestor's name."""
    screen = window.screen()
    buddies = {id(label.buddy()): label.text().replace("&", "") for label in window.findChildren(QLabel)
               if label.buddy() is not None}
    inputs = []
    for w in window.findChildren(QWidget):
        if not _is_input(w) or not w.isVisibleTo(window) or not w.isVisible():
            continue
        shown = _visible_rect(w, window)
        if shown.isEmpty():
            continue
        pos = w.mapTo(window, w.rect().topLeft())
        minimum = readable_min_width(w)
        parent = w.parentWidget()
        label = (_name(w) or buddies.get(id(w), "") or (_name(parent) if parent is not None else "")
                 or (w.placeholderText() if isinstance(w, QLineEdit) else ""))
        owner = w.parentWidget()
        while not label and owner is not None and owner is not window:  # e.g. a form field's spec
            label = _name(owner)
            owner = owner.parentWidget()
        inputs.append({
            "class": type(w).__name__, "name": label, "x": pos.x(), "y": pos.y(),
            "width": w.width(), "height": w.height(), "visible_width": shown.width(),
            "readable_min": minimum, "too_narrow": shown.width() < minimum,
            "cut_choice": cut_choice(w) and shown.width() == w.width(),
        })
    inputs.sort(key=lambda i: (i["y"], i["x"]))
    smallest = window.minimumSizeHint().expandedTo(window.minimumSize())
    return {
        "window": {**_rect(window.frameGeometry()), "min_width": smallest.width(), "min_height": smallest.height()},
        "screen": {**_rect(screen.availableGeometry()), "device_pixel_ratio": screen.devicePixelRatio()},
        "inputs": inputs,
    }


def layout_problems(report: dict[str, Any]) -> list[str]:
    """What is wrong with a report, one line each; empty when the layout fits."""
    problems = []
    win, scr = report["window"], report["screen"]
    inside = (win["x"] >= scr["x"] and win["y"] >= scr["y"]
              and win["x"] + win["width"] <= scr["x"] + scr["width"]
              and win["y"] + win["height"] <= scr["y"] + scr["height"])
    if not inside:
        problems.append(f"window {win['width']}x{win['height']}+{win['x']}+{win['y']} exceeds the screen's "
                        f"available {scr['width']}x{scr['height']}+{scr['x']}+{scr['y']}")
    if win["min_width"] > scr["width"] or win["min_height"] > scr["height"]:
        problems.append(f"window minimum {win['min_width']}x{win['min_height']} exceeds the screen's "
                        f"available {scr['width']}x{scr['height']}")
    for i in report["inputs"]:
        if i["too_narrow"]:
            problems.append(f"{i['class']} '{i['name']}' at {i['x']},{i['y']} shows {i['visible_width']} px "
                            f"of {i['width']}, below its readable {i['readable_min']} px")
        elif i.get("cut_choice"):
            problems.append(f"{i['class']} '{i['name']}' at {i['x']},{i['y']} cuts its current choice "
                            f"({i['width']} px)")
    return problems
