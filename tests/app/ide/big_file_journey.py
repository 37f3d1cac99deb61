"""A 2 MB, 2,200-filter file edited through the real main window: one journey, two users.

``tests/app/ide/test_big_file_editing.py`` runs it to check that every edit lands in the document;
``bench/bench_gui_stalls.py`` runs the same steps with a stall watch, because timing belongs to the
benchmarks, not to the test suite. ``on_phase`` names each step before it starts.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from engine.jsonedit import Style, dumps
from engine.workspace.templates import example_filter

from .ide_helpers import wait_settled


def big_filters(target_bytes: int) -> str:
    """A filter file of about ``target_bytes``, 200 generated filters at a time."""
    filters = []
    i = 0
    text = ""
    while len(text) < target_bytes:
        chunk = []
        for _ in range(200):
            f = example_filter(set())
            f["id"] = f"tool-{i}"
            f["label"] = f"Tool {i} output"
            f["match"]["commands"] = [f"^tool{i}\\b", f"\\btool-{i}\\s+run"]
            f["rules"]["dropPatterns"] = ["^\\s*$", f"^DEBUG {i}:", "\\[\\d+ms\\]$"]
            f["rules"]["replace"] = [{"pattern": f"id={i}-\\w+", "replacement": "id=…"}]
            chunk.append(f)
            i += 1
        filters.extend(chunk)
        text = dumps(filters, Style(), 0) + "\n"
    return text


def edit_big_filter_file(qtbot, window, root: Path, on_phase: Callable[[str], None]) -> int:
    """Open the workspace at ``root`` (its ``.rtk/filters.json`` holds >= 1,600 filters), then
    scroll, type in the JSON view, edit in the form, reorder and undo; check each edit landed.
    Returns the number of filters the editor indexed."""
    path = root / ".rtk" / "filters.json"
    on_phase("open workspace")
    window.open_workspace(root, restore=False)
    qtbot.waitUntil(lambda: window.index is not None, timeout=60000)

    on_phase("open and load the file")
    tab = window.open_file(path)
    wait_settled(qtbot, tab, timeout=60000)
    qtbot.waitUntil(lambda: tab.index is not None and len(tab.index) > 1000, timeout=60000)
    count = len(tab.index)

    on_phase("scroll")
    tab.show_json()
    bar = tab.editor.verticalScrollBar()
    for fraction in (0.25, 0.5, 0.75, 1.0, 0.5):
        bar.setValue(int(bar.maximum() * fraction))
        qtbot.wait(60)

    on_phase("type in the JSON view")
    middle = tab.text.index('"tool-1000"') + 1
    cursor = tab.editor.textCursor()
    cursor.setPosition(middle)
    tab.editor.setTextCursor(cursor)
    for ch in "edited-":
        qtbot.keyClicks(tab.editor, ch)
        qtbot.wait(30)
    assert tab.index.values[1000]["id"] == "edited-tool-1000"

    on_phase("edit in the form")
    tab.show_visual()
    tab.visual.select(1500)
    label = tab.visual.form.fields["/label"]
    label.edit.end(False)
    for ch in " (v2)":
        qtbot.keyClicks(label.edit, ch)
        qtbot.wait(30)
    assert tab.index.values[1500]["label"] == "Tool 1500 output (v2)"

    on_phase("reorder, undo")
    tab.move_item(1500, 0)  # a drag in the list, then Ctrl+Z: two user actions, an event-loop turn apart
    assert tab.index.values[0]["id"] == "tool-1500"
    qtbot.wait(30)
    tab.undo_stack.undo()
    assert tab.index.values[1500]["id"] == "tool-1500"
    qtbot.wait(30)

    on_phase("validation and parse workers")
    wait_settled(qtbot, tab, timeout=60000)
    qtbot.wait(300)
    assert json.loads(tab.text)[1000]["id"] == "edited-tool-1000"
    tab.undo_stack.setClean()
    return count
