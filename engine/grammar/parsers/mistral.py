"""Mistral ``[TOOL_CALLS]`` (spec §3.3) and bare JSON call objects (spec §3.4)."""

from __future__ import annotations

from engine.grammar.candidates import Call, Candidate, Hits, ParseContext
from engine.grammar.jsjson import parse_json, parse_json_object
from engine.grammar.textscan import IDENT, WS, first_balanced_json, js_ascii, skip_ws
from engine.grammar.values import call_from_json_object, calls_from_json_value, normalize_arguments

MARKER = "[TOOL_CALLS]"
V11 = js_ascii(rf"({IDENT})\[CALL_ID\]([^\[]*)\[ARGS\]")
NO_CALL_ID = js_ascii(rf"({IDENT})\[ARGS\]")  # strict fix of GRM-Q13


def parse_tool_calls(ctx: ParseContext) -> list[Candidate]:
    text = ctx.text
    out: list[Candidate] = []
    index = text.find(MARKER)
    while index != -1:
        if ctx.fenced(index):
            index = text.find(MARKER, index + len(MARKER))
            continue
        after = index + len(MARKER)
        json_start = skip_ws(text, after)
        next_index = _array_form(ctx, index, json_start, out)
        if next_index is None:
            next_index = _v11_form(ctx, index, json_start, out)
        if next_index is None:
            ctx.hits.add("GRM-Q13", "a `[TOOL_CALLS]` marker in a form the reference does not read was left in place")
            if ctx.strict:
                out.append(Candidate("", {}, "mistral", index, after, strip_only=True))
            next_index = after
        index = text.find(MARKER, next_index)
    return out


def _array_form(ctx: ParseContext, index: int, json_start: int, out: list[Candidate]) -> int | None:
    if not ctx.text.startswith("[", json_start):
        return None
    found = first_balanced_json(ctx.text, json_start)
    if found is None or not found[0].startswith("["):
        return None
    json_text, _, end = found
    parsed = parse_json(json_text)
    if isinstance(parsed, list):
        for item in parsed:
            if isinstance(item, dict):
                call = call_from_json_object(item, strict=ctx.strict)
                if call:
                    out.append(Candidate.of(call, "mistral", index, json_start + end))
    return json_start + end


def _v11_form(ctx: ParseContext, index: int, json_start: int, out: list[Candidate]) -> int | None:
    m = V11.match(ctx.text, json_start)
    if m is None and ctx.strict:
        m = NO_CALL_ID.match(ctx.text, json_start)
    if m is None:
        return None
    args_start = m.end()
    found = first_balanced_json(ctx.text, args_start)
    if found is None:
        return None
    hits = Hits()
    obj = parse_json_object(found[0])
    args = (normalize_arguments(obj, hits, strict=ctx.strict) if obj is not None else None) or {}
    out.append(Candidate.of(Call(m.group(1), args, hits), "mistral", index, args_start + found[2]))
    return args_start + found[2]


BARE_OBJECT = js_ascii(rf"\{{{WS}*\"(?:name|function_name|function)\"")
BARE_ARRAY = js_ascii(rf"\[{WS}*\{{{WS}*\"(?:name|function_name|function)\"")
# Strict GRM-Q1: the outer OpenAI shape `{"id"?, "type": "function", "function": {…}}`.
OPENAI_OBJECT = js_ascii(rf"\{{{WS}*\"(?:type|id)\"{WS}*:")


def _alone_on_lines(text: str, start: int, end: int) -> bool:
    """Strict GRM-Q1: the JSON is the only thing on its first and last lines."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end == -1 else line_end
    return not text[line_start:start].strip() and not text[end:line_end].strip()


def parse_bare_json(ctx: ParseContext, grammar: str) -> list[Candidate]:
    """The bare-JSON pass; the reference runs it once per label, ``mistral`` and ``llama`` (GRM-Q1)."""
    if ctx.strict and grammar == "llama" and ctx.has("mistral"):
        return []
    text = ctx.text
    out: list[Candidate] = []
    patterns = [BARE_OBJECT, BARE_ARRAY] + ([OPENAI_OBJECT] if ctx.strict else [])
    for pattern in patterns:
        for m in pattern.finditer(text):
            if ctx.fenced(m.start()):
                continue
            found = first_balanced_json(text, m.start())
            if found is None:
                continue
            end = m.start() + found[2]
            parsed = parse_json(found[0])
            if pattern is OPENAI_OBJECT:
                is_openai = isinstance(parsed, dict) and parsed.get("type") == "function"
                parsed = parsed.get("function") if is_openai else None
            in_prose = not _alone_on_lines(text, m.start(), end)
            if ctx.strict and in_prose:
                continue
            for call in calls_from_json_value(parsed, strict=ctx.strict):
                cand = Candidate.of(call, grammar, m.start(), end)
                if grammar == "llama" and ctx.has("mistral"):
                    cand.hits.add("GRM-Q1", "the bare-JSON pass ran twice, so this call was found under two labels")
                if in_prose:
                    cand.hits.add("GRM-Q1", "JSON inside prose was taken as a tool call")
                if _inside_openai_shape(text, m.start()):
                    cand.hits.add("GRM-Q1", "only the inner `function` object of an OpenAI-shaped call was matched")
                out.append(cand)
    return out


def _inside_openai_shape(text: str, start: int) -> bool:
    before = text[max(0, start - 200) : start].rstrip()
    return before.endswith('"function":') or before.endswith('"function" :')
