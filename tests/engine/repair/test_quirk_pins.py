"""REP quirks no other test pinned: both profiles, and the diagnostic id."""

from __future__ import annotations

from engine.repair import run_repair

OFFSETS = {"type": "object", "required": ["offsets"],
           "properties": {"offsets": {"type": "array", "items": {"type": "number"}}}}


def test_numeric_selector_segments_do_not_index_arrays():  # REP-Q4
    options = {"preprocessors": [{"kind": "scalar", "selector": "/offsets/0", "scalarType": "number"}]}
    ref = run_repair(OFFSETS, {"offsets": ["5", 6]}, options)
    assert ref.args == {"offsets": ["5", 6]}  # `/offsets/0` selected nothing
    assert "REP-Q4" in {d.code for d in ref.diagnostics}
    strict = run_repair(OFFSETS, {"offsets": ["5", 6]}, options, profile="strict")
    assert strict.outcome == "repaired" and strict.args == {"offsets": [5, 6]}
    assert "REP-Q4" not in {d.code for d in strict.diagnostics}
