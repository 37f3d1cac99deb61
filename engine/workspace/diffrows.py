"""Side-by-side diff rows for the conflict "compare" view (mine vs the file on disk)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class DiffRow:
    tag: str  # equal | replace | delete | insert
    left_no: int | None  # 1-based line numbers, None for a gap
    left: str
    right_no: int | None
    right: str
    # of a replaced line, the stretch that differs on each side ((start, end) indices; empty
    # where the other side only added): a change far along a long line is found at a glance
    left_changed: tuple[int, int] | None = None
    right_changed: tuple[int, int] | None = None


def changed_stretches(left: str, right: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The stretch of each line between their common start and common end: one span a side,
    linear in the lines (a character diff of two long lines costs their product, and marks
    scattered single characters that happen to match)."""
    limit = min(len(left), len(right))
    head = 0
    while head < limit and left[head] == right[head]:
        head += 1
    tail = 0
    while tail < limit - head and left[-1 - tail] == right[-1 - tail]:
        tail += 1
    return (head, len(left) - tail), (head, len(right) - tail)


def side_by_side(left: str, right: str) -> list[DiffRow]:
    a, b = left.splitlines(), right.splitlines()
    rows: list[DiffRow] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            rows += [DiffRow("equal", i1 + k + 1, a[i1 + k], j1 + k + 1, b[j1 + k]) for k in range(i2 - i1)]
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            li, rj = i1 + k, j1 + k
            has_l, has_r = li < i2, rj < j2
            row_tag = tag if has_l and has_r else ("delete" if has_l else "insert")
            left_line, right_line = a[li] if has_l else "", b[rj] if has_r else ""
            marks = changed_stretches(left_line, right_line) if row_tag == "replace" else (None, None)
            rows.append(DiffRow(row_tag, li + 1 if has_l else None, left_line,
                                rj + 1 if has_r else None, right_line, *marks))
    return rows


def summary(rows: list[DiffRow]) -> str:
    changed = sum(1 for r in rows if r.tag != "equal")
    return "no differences" if not changed else f"{changed} line{'s' if changed != 1 else ''} differ"
