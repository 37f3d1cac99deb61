"""Typed walks over a ``QTreeWidget``'s items.

``topLevelItem(i)`` and ``child(i)`` return ``None`` only for an index out of range; these
helpers walk the valid range, so callers get plain items and the type checker agrees.
"""

from __future__ import annotations

from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem


def top_items(tree: QTreeWidget) -> list[QTreeWidgetItem]:
    """The tree's top-level items, in order."""
    items = (tree.topLevelItem(i) for i in range(tree.topLevelItemCount()))
    return [item for item in items if item is not None]


def child_items(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    """``item``'s children, in order."""
    children = (item.child(i) for i in range(item.childCount()))
    return [child for child in children if child is not None]
