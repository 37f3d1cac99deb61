"""Cleanup and recapitalisation (spec §9), CAV-Q14."""

from __future__ import annotations

from engine.caveman.cleanup import cleanup, cleanup_segments, recapitalize


def test_steps_in_order():
    assert cleanup("a  b\t\tc") == "a b c"
    assert cleanup("a , b ; c\t!") == "a, b; c!"
    assert cleanup("wait... what?! really!?") == "wait. what! really?"
    assert cleanup("line one  \nline two\t\nthree") == "line one\nline two\nthree"
    assert cleanup("\n\nhead\n\n\n\n\nbody\n\n") == "head\n\nbody"
    assert cleanup("end \u00a0 ") == "end"  # ends with a blank: JS trimEnd (NBSP included)
    assert cleanup("end \n \u00a0") == "end\n \u00a0"  # NBSP is not a blank for step 4


def test_single_tab_survives():
    assert cleanup("a\tb") == "a\tb"


def test_crlf_is_ignored_unless_strict():
    text = "one \r\ntwo\r\n\r\n\r\n\r\nthree"
    assert cleanup(text) == text
    assert cleanup(text, crlf=True) == "one\r\ntwo\r\n\r\nthree"


def test_recapitalize_positions():
    assert recapitalize("hello. world! yes? no.  two\n  indented\nélan") == \
        "Hello. World! Yes? No.  two\n  Indented\nélan"


def test_segment_cleanup_leaves_protected_pieces_alone():
    pieces = [("text  ,", False), ("  code  ...\n", True), ("\n\n\nmore  ", False)]
    assert cleanup_segments(pieces) == "text,  code  ...\n\n\nmore"
