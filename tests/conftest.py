"""Every GUI test runs on an offscreen screen of a known size (default 1920×1080).

Qt's default offscreen screen is 800×600, smaller than the windows the IDE tests open, and the
main window keeps itself inside its screen. ``RULEWRIGHT_TEST_SCREEN=WxH`` (and
``RULEWRIGHT_TEST_DPR``) choose another; the layout tests re-run themselves in a subprocess at
1366×768, 1280×720, … that way (``tests/app/ide_helpers.run_at_screen``). Set here, before any
test module creates the ``QApplication``; an explicit non-offscreen platform is left alone.
"""

from __future__ import annotations

import os

from app.offscreen import use_offscreen_screen

_width, _, _height = os.environ.get("RULEWRIGHT_TEST_SCREEN", "1920x1080").partition("x")
use_offscreen_screen(int(_width), int(_height), float(os.environ.get("RULEWRIGHT_TEST_DPR", "1")))
