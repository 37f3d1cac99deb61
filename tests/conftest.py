"""Every test keeps Rulewright's per-user folders (settings, journal, trust snapshots) in its tmp_path,
and every GUI test runs on an offscreen screen of a known size (default 1920×1080).

Qt's default offscreen screen is 800×600, smaller than the windows the IDE tests open, and the
main window keeps itself inside its screen. ``RULEWRIGHT_TEST_SCREEN=WxH`` (and
``RULEWRIGHT_TEST_DPR``) choose another; the layout tests re-run themselves in a subprocess at
1366×768, 1280×720, … that way (``tests/app/ide_helpers.run_at_screen``). Set here, before any
test module creates the ``QApplication``; an explicit non-offscreen platform is left alone.

Hypothesis runs without its per-example deadline (200 ms by default): a deadline is a timed unit
test, and on a loaded machine (the suite runs two workers on two cores) an example of a large
text passed it now and then and failed the run as "flaky". Speed is measured by ``bench/``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from app.offscreen import use_offscreen_screen

settings.register_profile("rulewright", deadline=None)
settings.load_profile("rulewright")

_width, _, _height = os.environ.get("RULEWRIGHT_TEST_SCREEN", "1920x1080").partition("x")
use_offscreen_screen(int(_width), int(_height), float(os.environ.get("RULEWRIGHT_TEST_DPR", "1")))


@pytest.fixture(autouse=True)
def _private_user_folders(tmp_path_factory, monkeypatch):
    base = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("RULEWRIGHT_DATA_DIR", str(base / "data"))
    monkeypatch.setenv("RULEWRIGHT_CONFIG_DIR", str(base / "config"))


# Fixtures that build the whole IDE main window (about a second or two each): tests using them are
# `slow`, so the fast lane (`./dev test -m "not slow"`) runs the engine and widget tests only.
MAIN_WINDOW_FIXTURES = frozenset({"window", "ide"})


def pytest_collection_modifyitems(items):
    for item in items:
        if MAIN_WINDOW_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
