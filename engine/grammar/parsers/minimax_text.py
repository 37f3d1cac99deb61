"""MiniMax-Text-01 ``<function_call>…functions.NAME({…})`` (spec §3.5)."""

from __future__ import annotations

from engine.grammar.candidates import Call, Candidate, Hits, ParseContext
from engine.grammar.jsjson import parse_json_object
from engine.grammar.textscan import FENCE, IDENT, WS, find_matching, js_ascii, skip_ws
from engine.grammar.values import normalize_arguments
from engine.jsvalues import js_trim

CALL = js_ascii(rf"<function_call>[\s\S]*?functions\.({IDENT}){WS}*\(", ignore_case=True)
OPENER = "<function_call>"


def parse(ctx: ParseContext) -> list[Candidate]:
    text = ctx.text
    out: list[Candidate] = []
    for m in CALL.finditer(text, 0, text.rfind("(") + 1):
        if ctx.fenced(m.start()):
            continue
        open_paren = m.end() - 1
        close = find_matching(text, open_paren, "(", ")")
        if close is None:
            continue
        hits = Hits()
        obj = parse_json_object(js_trim(text[open_paren + 1 : close]))
        args = (normalize_arguments(obj, hits, strict=ctx.strict) if obj is not None else None) or {}
        fence = text.find(FENCE, close)
        end = close + 1 if fence == -1 else fence + 3
        if fence != -1:
            fenced_call = text.startswith(FENCE, skip_ws(text, m.start() + len(OPENER)))
            if not fenced_call:
                hits.add("GRM-Q8", "the range ran on to the next code fence, deleting the prose in between")
                if ctx.strict:
                    end = close + 1
        out.append(Candidate.of(Call(m.group(1), args, hits), "minimax-text", m.start(), end))
    return out
