"""Invariants that hold for any text (hypothesis)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grammar import GrammarSettings, HookState, detect, message_end, recover_grammar_leaks
from engine.jsvalues import utf16_len

from .conftest import NOW_MS, PI_TOOLS, assistant

# Without `<`, `[`, `{`, `(` or `>` no grammar can start: every family needs one of them.
PLAIN = st.text(st.characters(blacklist_characters="<[{(>", blacklist_categories=("Cs",)), max_size=300)

FRAGMENTS = st.sampled_from([
    "<tool_call>", "</tool_call>", "<tools>", "</tools>", "<function=bash>", "</function>",
    "<parameter=command>", "</parameter>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>",
    "<｜DSML｜tool_calls>", "</｜DSML｜tool_calls>", '<｜DSML｜invoke name="bash">', "</｜DSML｜invoke>",
    '<｜DSML｜parameter name="command" string="false">', "</｜DSML｜parameter>",
    "<|tool_calls_section_begin|>", "<|tool_call_begin|>functions.ls:0", "<|tool_call_argument_begin|>",
    "<|tool_call_end|>", "<|tool_calls_section_end|>", "[TOOL_CALLS]", "[CALL_ID]", "[ARGS]",
    "<|python_tag|>", "<function_calls>", "</function_calls>", "<function_call>", "functions.bash(",
    '<invoke name="ls">', "</invoke>", '<parameter name="path">', 'invoke name="read">', "parameter>",
    '{"name": "bash", "arguments": {"command": "ls"}}', '{"name": "read"', '"arguments":', "[", "]", "{", "}",
    "(", ")", "=", ",", "'", '"', "\\", "\n", "\n\n\n", "  ", "```", "~~~", "bash", "read(path='/a')",
    "ls", "x=1", "True", "None", "007", "😀", "é",
])
LEAKY = st.lists(st.one_of(FRAGMENTS, st.text(max_size=5)), max_size=25).map("".join)


def hook(text, mode="recover", strict=False):
    state = HookState(GrammarSettings(mode, "recover", "preserve", ()), "glm-4.6", list(PI_TOOLS), NOW_MS, strict)
    return message_end(assistant(text), state)


@given(PLAIN, st.booleans())
def test_text_without_markers_is_unchanged(text, strict):
    assert detect(text, strict=strict).kept == []
    record = hook(text, strict=strict)
    assert not record["changed"] and not record["promoted"]
    assert record["content"] == [{"type": "text", "text": text}]
    assert record["reasonsNotPromoted"] == ["no-leak-detected"]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(LEAKY, st.booleans(), st.sampled_from(["observe", "strip", "recover"]))
def test_any_text_gives_a_consistent_decision(text, strict, mode):
    message = assistant(text)
    before = copy.deepcopy(message)
    result = recover_grammar_leaks(message, mode=mode, known_tools=PI_TOOLS, now_ms=NOW_MS, strict=strict)
    assert message == before
    length = utf16_len(text)
    for cand in result.candidates:
        assert 0 <= cand.span[0] < cand.span[1] <= length
    if mode == "observe":
        assert not result.changed and result.message is message
    new_text = result.message["content"][0]["text"]
    assert len(new_text) <= len(text)
    for call in result.recovered_calls:
        assert call["name"] in PI_TOOLS and call["arguments"]
    assert result.promoted == bool(result.recovered_calls)
    assert result.message.get("stopReason") == ("toolUse" if result.promoted else "stop")


@settings(max_examples=200, deadline=None)
@given(LEAKY)
def test_selected_candidates_never_partially_overlap(text):
    kept = detect(text).kept
    for a in kept:
        for b in kept:
            if a.range != b.range:
                assert not (a.start < b.end and b.start < a.end)


@settings(max_examples=200, deadline=None)
@given(LEAKY)
def test_promoted_ids_count_from_zero_across_the_message(text):
    record = hook(text)
    if record["promoted"]:
        assert record["stopReason"] == "toolUse"
        ids = [c["id"] for c in record["promotedCalls"]]
        assert ids == [f"{i.rsplit('_', 1)[0]}_{n}" for n, i in enumerate(ids)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='{}[]()"\'\\ab', max_size=60), st.randoms(use_true_random=False))
def test_remembered_balanced_scans_match_a_fresh_scan(text, rnd):
    from engine.grammar.textscan import _BracketMatcher, _plain_find_matching

    for opener, closer in (("{", "}"), ("[", "]"), ("(", ")")):
        matcher = _BracketMatcher(text, opener, closer)
        starts = list(range(len(text)))
        rnd.shuffle(starts)
        for start in starts:
            assert matcher.match(start) == _plain_find_matching(text, start, opener, closer)
