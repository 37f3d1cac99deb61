"""An offscreen Qt platform whose one screen has a chosen size and device pixel ratio.

Qt's ``offscreen`` platform reads its screens from a JSON file named in the platform string
(``offscreen:configfile=PATH``); without one the screen is 800×600. Docs mode and the layout
tests use this so that "the window fits the screen" is measured against the screen size asked
for, not against the default. It must run before the ``QApplication`` exists.
"""

from __future__ import annotations

import json
import os
import tempfile


def offscreen_platform(width: int, height: int, dpr: float = 1.0, *, frames: bool = True) -> str:
    """The ``QT_QPA_PLATFORM`` value for one ``width``×``height`` screen (logical pixels).

    ``frames``: windows get a small frame, as under a window manager (the frame must fit the
    screen too); docs mode turns it off so that a screenshot is the whole screen.
    """
    config = {"windowFrameMargins": frames, "screens": [{"name": f"offscreen-{width}x{height}", "x": 0, "y": 0, "width": width,
                           "height": height, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": dpr}]}
    # one file per screen shape, rewritten atomically with the same content: nothing piles up in /tmp
    path = os.path.join(tempfile.gettempdir(), f"rulewright-offscreen-{width}x{height}@{dpr:g}{'' if frames else '-noframe'}.json")
    fd, tmp = tempfile.mkstemp(prefix=".rulewright-offscreen-", dir=tempfile.gettempdir())
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(config, f)
    os.replace(tmp, path)
    return f"offscreen:configfile={path}"


def use_offscreen_screen(width: int, height: int, dpr: float = 1.0, *, frames: bool = True) -> bool:
    """Point Qt at an offscreen screen of this size unless a platform was chosen otherwise.

    Returns whether it did: an explicit platform (``xcb``, a configured ``offscreen:…``) wins.
    """
    current = os.environ.get("QT_QPA_PLATFORM", "")
    if current not in ("", "offscreen"):
        return False
    os.environ["QT_QPA_PLATFORM"] = offscreen_platform(width, height, dpr, frames=frames)
    return True
