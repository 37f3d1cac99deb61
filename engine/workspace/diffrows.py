"""Side-by-side diff rows: the conflict and trust Compare views, the Repair playground's diff."""

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


EXACT_MAX_WORK = 4000 * 4000  # lines × lines diffed with every line a possible anchor (~0.1 s)


def side_by_side(left: str, right: str) -> list[DiffRow]:
    """The rows of a line diff, from the lines the two sides share at their start and end and a
    diff of the middle. ``difflib`` without its popular-line heuristic is exact but grows with
    the product of the lines where lines repeat (JSON's closing brackets): 6 s for two 33,000-line
    filter files. Beyond ``EXACT_MAX_WORK`` the heuristic is on: lines that occur in more than one
    in a hundred places no longer start a match, though they still extend one."""
    a, b = left.splitlines(), right.splitlines()
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    rows = [DiffRow("equal", k + 1, a[k], k + 1, b[k]) for k in range(head)]
    middle_a, middle_b = a[head:len(a) - tail], b[head:len(b) - tail]
    heuristic = len(middle_a) * len(middle_b) > EXACT_MAX_WORK
    matcher = difflib.SequenceMatcher(None, middle_a, middle_b, autojunk=heuristic)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        i1, i2, j1, j2 = i1 + head, i2 + head, j1 + head, j2 + head
        if tag == "equal":
            rows += [DiffRow("equal", i1 + k + 1, a[i1 + k], j1 + k + 1, b[j1 + k]) for k in range(i2 - i1)]
        elif tag == "replace":
            rows += _replaced_rows(a, b, i1, i2, j1, j2)
        else:
            rows += _rows_by_position(a, b, i1, i2, j1, j2)
    rows += [DiffRow("equal", len(a) - tail + k + 1, a[len(a) - tail + k], len(b) - tail + k + 1,
                     b[len(b) - tail + k]) for k in range(tail)]
    return rows


def _replaced_rows(a: list[str], b: list[str], i1: int, i2: int, j1: int, j2: int) -> list[DiffRow]:
    """The rows of a replaced block: each line side by side with the one it became
    (``pair_similar``), the lines between such pairs by position."""
    rows: list[DiffRow] = []
    li, rj = i1, j1
    for pi, pj in [*((i1 + i, j1 + j) for i, j in pair_similar(a[i1:i2], b[j1:j2])), (i2, j2)]:
        rows += _rows_by_position(a, b, li, pi, rj, pj)
        if pi < i2:  # (not the end)
            rows.append(_row(a, b, pi, pj))
            li, rj = pi + 1, pj + 1
    return rows


def _rows_by_position(a: list[str], b: list[str], i1: int, i2: int, j1: int, j2: int) -> list[DiffRow]:
    return [_row(a, b, i1 + k if i1 + k < i2 else None, j1 + k if j1 + k < j2 else None)
            for k in range(max(i2 - i1, j2 - j1))]


def _row(a: list[str], b: list[str], li: int | None, rj: int | None) -> DiffRow:
    """One row: line ``li`` of ``a`` beside line ``rj`` of ``b`` (None: a gap on that side)."""
    left_line, right_line = a[li] if li is not None else "", b[rj] if rj is not None else ""
    if li is not None and rj is not None:
        return DiffRow("replace", li + 1, left_line, rj + 1, right_line, *changed_stretches(left_line, right_line))
    return DiffRow("delete" if li is not None else "insert", li + 1 if li is not None else None, left_line,
                   rj + 1 if rj is not None else None, right_line)


def summary(rows: list[DiffRow]) -> str:
    changed = sum(1 for r in rows if r.tag != "equal")
    return "no differences" if not changed else "1 line differs" if changed == 1 else f"{changed} lines differ"
