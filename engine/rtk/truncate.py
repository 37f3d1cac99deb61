"""``smartTruncate`` (``rtk.md`` §6): keep the head, the priority lines and the tail.

The reference selects lines *by text* (duplicates vanish, a priority line from the tail region
comes before earlier tail lines — RTK-Q6) and always writes the line marker, even
``[rtk:truncated 0 lines]`` when only the character limit was exceeded; its character cut is by
UTF-16 unit and can split a surrogate pair (RTK-Q7). ``strict`` selects by index, keeps the
original order, omits a zero marker and cuts at code-point boundaries.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from engine.diagnostics import Diagnostic
from engine.jsvalues import from_utf16_units, to_utf16_units, utf16_len
from engine.rtk.dedup import split_lines

CHAR_MARKER = "\n[rtk:truncated by chars]\n"


@dataclass
class TruncateResult:
    text: str
    truncated: bool
    dropped_lines: int = 0
    # indexes (into the input lines) kept as head, priority and tail lines
    head: list[int] = field(default_factory=list)
    priority: list[int] = field(default_factory=list)
    tail: list[int] = field(default_factory=list)
    char_cut: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _limit(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return 0
    if math.isinf(value):
        return 0 if value < 0 else 2 ** 53
    return max(0, math.floor(value))


def smart_truncate(
    text: str | None,
    *,
    max_lines: object = 0,
    max_chars: object = 0,
    preserve_head: int = 20,
    preserve_tail: int = 20,
    priority: Sequence[Callable[[str], bool]] = (),
    profile: str = "omniroute",
    lines: list[str] | None = None,
    priority_lines: Callable[[], Collection[int]] | None = None,
) -> TruncateResult:
    """Truncate ``text`` to ``max_lines`` lines / ``max_chars`` UTF-16 units (0 = no limit).

    Priority lines are those any ``priority`` test accepts, or, when given, the indexes
    ``priority_lines()`` returns (computed only if truncation happens). ``text`` may be None
    when ``lines`` are given: it is then joined from them only if needed."""
    max_lines, max_chars = _limit(max_lines), _limit(max_chars)
    head_n, tail_n = _limit(preserve_head), _limit(preserve_tail)
    if lines is None:
        lines = split_lines(text or "")
    if text is None and max_chars > 0:
        text = "\n".join(lines)
    too_many = max_lines > 0 and len(lines) > max_lines
    too_long = max_chars > 0 and text is not None and utf16_len(text) > max_chars  # (text is set when max_chars > 0)
    if not too_many and not too_long:
        return TruncateResult("\n".join(lines) if text is None else text, False)
    result = TruncateResult("", True)
    total = len(lines)
    head_idx = list(range(min(head_n, total)))
    if priority_lines is not None:
        prio_candidates = sorted(priority_lines())
    else:
        prio_candidates = [i for i, line in enumerate(lines) if any(test(line) for test in priority)]
    tail_start = max(head_n, total - tail_n) if tail_n > 0 else total
    tail_candidates = list(range(tail_start, total))
    if profile == "strict":
        chosen = set(head_idx)
        prio_idx = [i for i in prio_candidates if i not in chosen]
        chosen.update(prio_idx)
        tail_idx = [i for i in tail_candidates if i not in chosen]
        chosen.update(tail_idx)
        body = sorted(chosen - set(head_idx))
        rest = [lines[i] for i in body]
    else:
        seen = {lines[i] for i in head_idx}
        prio_idx, tail_idx = [], []
        for i in prio_candidates:
            if lines[i] not in seen:
                seen.add(lines[i])
                prio_idx.append(i)
        for i in tail_candidates:
            if lines[i] not in seen:
                seen.add(lines[i])
                tail_idx.append(i)
        rest = [lines[i] for i in prio_idx + tail_idx]
        if tail_idx and prio_idx and max(prio_idx) > min(tail_idx):
            result.diagnostics.append(Diagnostic(
                "a priority line from the tail region was moved before earlier tail lines", "info",
                "RTK-Q6", source="rtk"))
        if len(set(head_idx) | set(prio_idx) | set(tail_idx)) < len(
                set(head_idx) | set(prio_candidates) | set(tail_candidates)):
            result.diagnostics.append(Diagnostic(
                "lines repeated in the kept head/priority/tail regions were dropped (selection by text)",
                "info", "RTK-Q6", source="rtk"))
    kept = len(head_idx) + len(rest)
    dropped = max(0, total - kept)
    result.head, result.priority, result.tail = head_idx, prio_idx, tail_idx
    result.dropped_lines = dropped
    parts = [lines[i] for i in head_idx]
    if dropped > 0 or profile != "strict":
        if dropped == 0:
            result.diagnostics.append(Diagnostic(
                "`[rtk:truncated 0 lines]` written although no line was dropped (only the character "
                "limit was exceeded)", "info", "RTK-Q7", source="rtk"))
        parts.append(f"[rtk:truncated {dropped} lines]")
    parts.extend(rest)
    out = "\n".join(parts)
    if max_chars > 0 and utf16_len(out) > max_chars:
        result.char_cut = True
        out = _cut_chars(out, max_chars, profile, result)
    result.text = out
    return result


def _cut_chars(text: str, max_chars: int, profile: str, result: TruncateResult) -> str:
    marker_len = len(CHAR_MARKER)
    budget = max(0, max_chars - marker_len)
    if budget == 0:
        return CHAR_MARKER[:max_chars]
    head_chars = math.ceil(budget * 0.55)
    tail_chars = budget - head_chars
    units = to_utf16_units(text)
    head = units[:head_chars]
    tail = units[len(units) - tail_chars:] if tail_chars > 0 else ""
    if profile == "strict":
        # Cut at code-point boundaries: never keep half of a surrogate pair.
        if head and "\ud800" <= head[-1] <= "\udbff":
            head = head[:-1]
        if tail and "\udc00" <= tail[0] <= "\udfff":
            tail = tail[1:]
    else:
        split = (head and "\ud800" <= head[-1] <= "\udbff" and head_chars < len(units)
                 and "\udc00" <= units[head_chars] <= "\udfff")
        split = split or (tail and "\udc00" <= tail[0] <= "\udfff" and len(units) - tail_chars > 0
                          and "\ud800" <= units[len(units) - tail_chars - 1] <= "\udbff")
        if split:
            result.diagnostics.append(Diagnostic(
                "the character cut split a surrogate pair (a lone surrogate is left in the output)",
                "info", "RTK-Q7", source="rtk"))
    out = head + CHAR_MARKER + tail
    return from_utf16_units(out[:max_chars])
