"""Pythonic calls: Granite lines (§3.8), Llama ``<|python_tag|>`` (§3.9), OLMo blocks (§3.10)."""

from __future__ import annotations

from engine.grammar.candidates import Candidate, ParseContext
from engine.grammar.jsjson import parse_json
from engine.grammar.textscan import (
    end_of_last,
    find_matching,
    first_balanced_json,
    js_ascii,
    line_end,
    skip_ws,
)
from engine.grammar.values import PYTHONIC_CALL, calls_from_json_value, pythonic_calls
from engine.jsvalues import js_trim

OLMO = js_ascii(r"<function_calls>([\s\S]*?)</function_calls>", ignore_case=True)
PYTHON_TAG = "<|python_tag|>"


def parse_granite_lines(ctx: ParseContext) -> list[Candidate]:
    text = ctx.text
    out: list[Candidate] = []
    for m in PYTHONIC_CALL.finditer(text):
        if ctx.fenced(m.start()):
            continue
        start = m.start() + (1 if m.group(0).startswith("\n") else 0)
        open_paren = m.end() - 1
        close = find_matching(text, open_paren, "(", ")")
        if close is None:
            continue
        line_start = text.rfind("\n", 0, open_paren) + 1
        if js_trim(text[line_start : m.start()]):
            continue
        calls = pythonic_calls(text[start : close + 1], strict=ctx.strict)
        if not calls:
            continue
        call = calls[0][0]
        cand = Candidate.of(call, "granite", start, close + 1)
        if not call.arguments:
            cand.hits.add("GRM-Q3", f"the line `{call.name}(…)` has no keyword arguments but counts as a call")
            if ctx.strict:
                continue
        out.append(cand)
    return out


def parse_python_tag(ctx: ParseContext) -> list[Candidate]:
    text = ctx.text
    out: list[Candidate] = []
    index = text.find(PYTHON_TAG)
    while index != -1:
        if ctx.fenced(index):
            index = text.find(PYTHON_TAG, index + len(PYTHON_TAG))
            continue
        body_start = index + len(PYTHON_TAG)
        payload_start = skip_ws(text, body_start)
        found = first_balanced_json(text, payload_start)
        at_start = found is not None and found[1] == 0
        if found is not None and (at_start or not ctx.strict):
            end = payload_start + found[2]
            calls = calls_from_json_value(parse_json(found[0]), strict=ctx.strict)
            for call in calls:
                cand = Candidate.of(call, "llama", index, end)
                if not at_start:
                    cand.hits.add("GRM-Q29", "the JSON after <|python_tag|> did not start the payload; the prose before it was swallowed")
                out.append(cand)
            if calls or not ctx.strict:
                if not calls:
                    ctx.hits.add("GRM-Q29", "a <|python_tag|> payload held JSON that is not a call; the pythonic form was not tried")
                index = text.find(PYTHON_TAG, end)
                continue
        end = line_end(text, payload_start)
        for call, start, _ in pythonic_calls(text[payload_start:end], strict=ctx.strict):
            if start == 0:
                out.append(Candidate.of(call, "llama", index, end))
        index = text.find(PYTHON_TAG, end)
    return out


def parse_olmo(ctx: ParseContext) -> list[Candidate]:
    out: list[Candidate] = []
    for m in OLMO.finditer(ctx.text, 0, end_of_last(ctx.text, "</function_calls>")):
        if ctx.fenced(m.start()):
            continue
        for call, _, _ in pythonic_calls(m.group(1) or "", strict=ctx.strict):
            out.append(Candidate.of(call, "olmo", m.start(), m.end()))
    return out
