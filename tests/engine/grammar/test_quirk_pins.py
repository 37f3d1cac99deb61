"""Grammar quirks no other test pinned by id: both profiles, and the diagnostic id where one exists."""

from __future__ import annotations

from engine.grammar.quirks import QUIRKS, STRICT_FIXED
from engine.grammar.recover import recovered_call_id

from .test_quirks import codes, decide, outcome

HERMES = '<tool_call>{"name":"ls","arguments":{"path":"/"}}</tool_call>'


def ids(record) -> list[str]:
    return [c["id"] for c in record["promotedCalls"]]


def test_json_inside_tool_call_is_labelled_granite():  # GRM-Q2
    ref = decide(HERMES)
    assert outcome(ref) == ("", [("ls", {"path": "/"})])
    assert ids(ref)[0].startswith("tool_repair_granite_") and "GRM-Q2" in codes(ref)
    strict = decide(HERMES, strict=True)
    assert outcome(strict) == ("", [("ls", {"path": "/"})])
    assert ids(strict)[0].startswith("tool_repair_qwen_") and "GRM-Q2" not in codes(strict)


def test_ids_collide_within_one_millisecond():  # GRM-Q16
    # Not reported: a collision needs two messages, and each hook call sees one.
    assert "GRM-Q16" in STRICT_FIXED
    first, second = decide(HERMES), decide(HERMES)
    assert ids(first) == ids(second)  # same clock, same index: same id
    assert "GRM-Q16" not in codes(first)
    strict_first, strict_second = decide(HERMES, strict=True), decide(HERMES, strict=True)
    assert ids(strict_first) != ids(strict_second)  # a process-wide sequence tells them apart
    assert recovered_call_id("minimax-text", 2, 0) == "tool_repair_minimax_text_0_2"
    assert recovered_call_id("minimax-text", 2, 0, strict=True).startswith("tool_repair_minimax_text_0_2_")


def test_recovery_note_survives_in_this_engine():  # GRM-Q32
    # The reference loses the recovery note when the host's own argument repair later replaces the
    # feedback for that call id; that lifecycle is outside this engine, so neither profile drops
    # the note and the id is catalogued only, never emitted.
    assert "GRM-Q32" in QUIRKS and "GRM-Q32" not in STRICT_FIXED
    for strict in (False, True):
        record = decide(HERMES, strict=strict)
        assert len(record["notes"]) == 1 and "ls" in record["notes"][0]
        assert "GRM-Q32" not in codes(record)
