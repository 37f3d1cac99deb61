"""A filter file brought to the front with no workspace sample it is chosen for is previewed on
its own first inline test: reopened later, a filter showed another command's output and only
"not chosen" (the demo workspace keeps no samples/ folder at all)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui


def _front(qtbot, window, path):
    tab = window.open_file(path)
    qtbot.waitUntil(tab.is_settled, timeout=10000)
    return tab


def test_a_filter_is_previewed_on_its_own_test_when_no_sample_fits(qtbot, window, demo):
    rtk = window.panel_widgets["rtk-preview"]
    window.show_panel("rtk-preview")
    _front(qtbot, window, demo / "filters" / "pytest.json")
    qtbot.waitUntil(lambda: rtk.sample_combo.currentText() == "pytest-quiet › drops the header (its test)",
                    timeout=30000)
    assert rtk.command.text() == "pytest -q"
    assert rtk.input.plain_text().startswith("platform linux -- Python 3.11")
    qtbot.waitUntil(lambda: rtk.preview is not None and rtk.preview.text == "tests/test_a.py ...\n3 passed",
                    timeout=30000)
    assert rtk.preview.filter_id == "pytest-quiet"
    # another filter file to the front: its own test, one such entry in the box at a time
    _front(qtbot, window, demo / "filters" / "npm.json")
    qtbot.waitUntil(lambda: rtk.sample_combo.currentText() == "npm-install › drops warnings (its test)",
                    timeout=30000)
    assert rtk.command.text() == "npm install"
    entries = [rtk.sample_combo.itemText(i) for i in range(rtk.sample_combo.count())]
    assert [e for e in entries if e.endswith("(its test)")] == ["npm-install › drops warnings (its test)"]
    qtbot.waitUntil(lambda: rtk.preview is not None and rtk.preview.text == "added 120 packages in 3s", timeout=30000)


def test_the_users_own_output_is_never_swapped_for_a_test(qtbot, window, demo):
    rtk = window.panel_widgets["rtk-preview"]
    window.show_panel("rtk-preview")
    rtk.set_output("my own output\n")  # typed or pasted: "(your output)"
    rtk._input_edited()
    assert rtk.sample_combo.currentIndex() == 0
    _front(qtbot, window, demo / "filters" / "pytest.json")
    qtbot.wait(500)
    assert rtk.input.plain_text() == "my own output\n" and rtk.sample_combo.currentIndex() == 0


def test_an_rtk_toml_filter_file_is_previewed_on_its_own_test_alone(qtbot, window, demo):
    """``filters/make.toml`` is known by its ``[filters.…]`` tables; its test has no command, so
    the filter runs alone, as the test runs it."""
    rtk = window.panel_widgets["rtk-preview"]
    window.show_panel("rtk-preview")
    tab = _front(qtbot, window, demo / "filters" / "make.toml")
    assert tab.doc.kind.name == "RTK_TOML"
    qtbot.waitUntil(lambda: rtk.sample_combo.currentText() == "make-quiet › drops directory lines (its test)",
                    timeout=30000)
    assert rtk.filter_button.isChecked() and rtk.command.text() == ""
    qtbot.waitUntil(lambda: rtk.preview is not None and rtk.preview.text == "cc -o app main.c", timeout=30000)
    assert rtk.preview.filter_id == "make-quiet"
    # the next filter's test has a command: the whole engine again (the scope was not the user's)
    _front(qtbot, window, demo / "filters" / "pytest.json")
    qtbot.waitUntil(lambda: rtk.sample_combo.currentText() == "pytest-quiet › drops the header (its test)",
                    timeout=30000)
    assert rtk.engine_button.isChecked()
    # a scope the user chose stays theirs
    _front(qtbot, window, demo / "filters" / "make.toml")
    qtbot.waitUntil(lambda: rtk.filter_button.isChecked(), timeout=30000)
    rtk.filter_button.click()  # (already on: clicked, it is the user's choice now)
    _front(qtbot, window, demo / "filters" / "pytest.json")
    qtbot.waitUntil(lambda: rtk.sample_combo.currentText() == "pytest-quiet › drops the header (its test)",
                    timeout=30000)
    assert rtk.filter_button.isChecked()
