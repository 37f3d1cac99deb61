"""Kimi K2 sentinel tokens (spec §3.2): calls between the section and call begin/end markers."""

from __future__ import annotations

from engine.grammar.candidates import Call, Candidate, Hits, ParseContext
from engine.grammar.jsjson import parse_json_object
from engine.grammar.textscan import IDENT, end_of_last, js_ascii
from engine.grammar.values import normalize_arguments
from engine.jsvalues import js_trim

SECTION = js_ascii(
    r"<\|tool_calls?_section_begin\|>([\s\S]*?)<\|tool_calls?_section_end\|>", ignore_case=True
)
CALL = js_ascii(
    r"<\|tool_call_begin\|>([^<]*?)<\|tool_call_argument_begin\|>([\s\S]*?)<\|tool_call_end\|>",
    ignore_case=True,
)
CANONICAL_ID = js_ascii(rf"functions\.({IDENT}):[0-9]+\Z")
RELAXED_ID = js_ascii(rf"(?:functions\.)?({IDENT})(?::[0-9]+)?\Z")
CALL_ID = js_ascii(r"call[_-]?[0-9]+\Z", ignore_case=True)


def tool_name(id_text: str) -> str | None:
    """The tool name in a Kimi call id; call ids such as ``call_0`` are not names."""
    m = CANONICAL_ID.match(id_text)
    if m:
        return m.group(1)
    m = RELAXED_ID.match(id_text)
    if m and not CALL_ID.match(m.group(1)):
        return m.group(1)
    return None


def parse(ctx: ParseContext) -> list[Candidate]:
    out: list[Candidate] = []
    for section in SECTION.finditer(ctx.text, 0, end_of_last(ctx.text, "_section_end|>")):
        if ctx.fenced(section.start()):
            continue
        for call in CALL.finditer(section.group(1)):
            name = tool_name(js_trim(call.group(1)))
            if not name:
                continue
            hits = Hits()
            args = parse_json_object(js_trim(call.group(2))) or {}
            if ctx.strict:
                # Strict GRM-Q14: unwrap like every other grammar (only a sole `arguments` key).
                args = normalize_arguments(args, hits, strict=True) or {}
            out.append(Candidate.of(Call(name, args, hits), "kimi", section.start(), section.end()))
    return out
