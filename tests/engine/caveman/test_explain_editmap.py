"""EditMap answers exactly what the plain back-mapping walk answers, for any edit list."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman.explain import EditMap


def _map_back_one(pos: int, edits: list[tuple[int, int, int]], *, is_end: bool) -> int:
    """The plain definition, one walk over the edits: a position inside a replacement maps to
    the start (or, for an end, the end) of what it replaced; a start where text was deleted
    maps past it, an end there before it."""
    delta = 0
    for old_start, old_end, new_len in edits:
        new_start = old_start + delta
        if pos < new_start or (pos == new_start and (is_end or new_len > 0)):
            if pos == new_start and new_len > 0 and not is_end:
                return old_start  # (the replacement's first character)
            break
        if pos < new_start + new_len:
            return old_end if is_end else old_start
        delta += new_len - (old_end - old_start)
    return pos - delta


@st.composite
def edit_lists(draw):
    """Sorted, non-overlapping (old_start, old_end, new_len) edits, as a rule run produces."""
    edits, cursor = [], 0
    for _ in range(draw(st.integers(0, 12))):
        start = cursor + draw(st.integers(0, 6))
        end = start + draw(st.integers(0, 5))
        edits.append((start, end, draw(st.integers(0, 5))))
        cursor = end
    return edits


@given(edit_lists(), st.integers(0, 120), st.booleans())
def test_edit_map_equals_the_plain_walk(edits, pos, is_end) -> None:
    assert EditMap(edits).back(pos, is_end=is_end) == _map_back_one(pos, edits, is_end=is_end)


@given(edit_lists(), st.lists(st.integers(0, 120), max_size=20), st.booleans())
def test_back_all_maps_every_position_as_the_plain_walk(edits, positions, is_end) -> None:
    expected = [_map_back_one(p, edits, is_end=is_end) for p in positions]
    assert EditMap(edits).back_all(positions, is_end=is_end) == expected


@settings(max_examples=500)
@given(edit_lists(), st.lists(st.integers(0, 120), min_size=1, max_size=80), st.booleans())
def test_back_all_of_many_ascending_positions_goes_edit_by_edit_as_the_plain_walk(edits, positions, is_end) -> None:
    # (more positions than GROUPED_RATIO an edit, ascending: the walk over the edits)
    from engine.caveman.explain import GROUPED_RATIO

    positions.sort()
    edit_map = EditMap(edits)
    expected = [_map_back_one(p, edits, is_end=is_end) for p in positions]
    assert edit_map.back_all(positions, is_end=is_end) == expected
    assert edit_map._back_ascending(positions, is_end=is_end) == expected
    if edits and len(positions) > GROUPED_RATIO * len(edits):
        assert edit_map.back_all(positions, is_end=is_end) == edit_map._back_ascending(positions, is_end=is_end)
