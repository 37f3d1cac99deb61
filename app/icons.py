"""Bundled SVG icons for states and badges, and the symbols of the app's texts they replace.

Emoji and dingbats (🔒, ✓, ⚠ …) render as empty boxes where no font has them. Texts in the app
keep their symbol as data (``"✓ pass"``: tests and tooltips read it), and the views that show
them draw the icon instead: :func:`split_symbol` takes a leading symbol off a text and names its
icon; :class:`SymbolIconDelegate` does that for item views, ``ElidedLabel.setIcon`` for labels.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from engine.paths import resources_dir

SYMBOL_ICONS = {"✓": "ok", "✗": "fail", "✖": "error", "⚠": "warning", "ℹ": "info", "🔒": "trusted",
                "🔓": "untrusted", "✎": "repaired"}


@cache
def icon(name: str) -> QIcon:
    """``resources/icons/<name>.svg`` (scales to any size and device pixel ratio)."""
    path = resources_dir() / "icons" / f"{name}.svg"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such icon")
    return QIcon(str(path))


def split_symbol(text: str) -> tuple[str | None, str]:
    """``"✓ pass"`` → ``("ok", "pass")``; a text without a known leading symbol is returned as is."""
    stripped = text.lstrip()
    for symbol, name in SYMBOL_ICONS.items():
        if stripped.startswith(symbol):
            return name, stripped[len(symbol):].lstrip()
    return None, text


class SymbolIconDelegate(QStyledItemDelegate):
    """Draws a cell whose text starts with a known symbol as that icon followed by the rest."""

    def initStyleOption(self, option: QStyleOptionViewItem, index) -> None:
        super().initStyleOption(option, index)
        name, rest = split_symbol(option.text or "")
        if name is not None:
            option.text = rest
            option.icon = icon(name)
            option.features |= QStyleOptionViewItem.ViewItemFeature.HasDecoration
