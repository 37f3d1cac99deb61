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


PAIR_SIMILARITY = 0.6  # a removed and an added line this alike (difflib's ratio) are one line changed
PAIR_MAX_WORK = 4096  # removed × added lines of a hunk compared at most; larger equal runs pair by position


def pair_similar(removed: list[str], added: list[str]) -> list[tuple[int, int]]:
    """Which removed line each added line of a unified diff's hunk replaces: ``(i, j)`` pairs, in
    order on both sides, each of lines at least ``PAIR_SIMILARITY`` alike, the most alike first
    come. Pairing by position marked "health check 3/3 ok" as changed into "done in 41s" when
    a line was dropped above the one that changed."""
    if len(removed) * len(added) > PAIR_MAX_WORK:  # (each comparison is a difflib ratio)
        return list(zip(range(len(removed)), range(len(added)))) if len(removed) == len(added) else []
    pairs: list[tuple[int, int]] = []
    start = 0
    for j, line in enumerate(added):
        matcher = difflib.SequenceMatcher(None, b=line, autojunk=False)
        best, best_ratio = -1, PAIR_SIMILARITY
        for i in range(start, len(removed)):
            matcher.set_seq1(removed[i])
            if matcher.real_quick_ratio() < best_ratio or matcher.quick_ratio() < best_ratio:
                continue
            ratio = matcher.ratio()
            if ratio >= best_ratio and (best < 0 or ratio > best_ratio):
                best, best_ratio = i, ratio
        if best >= 0:
            pairs.append((best, j))
            start = best + 1
    return pairs


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
