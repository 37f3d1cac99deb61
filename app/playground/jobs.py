"""Where a panel's computation runs: a pool thread normally, the GUI thread in docs mode.

Panels use :class:`app.workers.Dispatcher` (debounced, one job in flight, the newest request
wins, results delivered in the GUI thread) like every other background job of the IDE; this
module only says when its ``inline`` mode applies. Docs mode (``rulewright gui --screenshot``)
grabs the window once the workspace settles; running the playgrounds inline there makes each
screenshot show a finished, deterministic result and leaves no pool thread alive when the
process exits.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject

from app.workers import Dispatcher


def docs_mode(window: Any) -> bool:
    return bool(getattr(window, "docs_mode", False))


def panel_jobs(parent: QObject, window: Any, *, debounce_ms: int = 0) -> Dispatcher:
    """The dispatcher of a panel of ``window``: inline in docs mode, a pool thread otherwise."""
    return Dispatcher(parent, debounce_ms=debounce_ms, inline=docs_mode(window))
