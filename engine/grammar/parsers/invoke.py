"""MiniMax-M2 ``<invoke>`` XML and its relatives (spec §3.6)."""

from __future__ import annotations

from typing import Any

from engine.grammar.candidates import Call, Candidate, Hits, ParseContext
from engine.grammar.jsjson import parse_json_object, parse_json_or_string
from engine.grammar.textscan import WS, end_of_last, end_of_last_match, js_ascii
from engine.grammar.values import assignable, layout_trim, normalize_arguments, sniff, tag_value
from engine.jsvalues import js_trim

NS = r"(?:[A-Za-z][A-Za-z0-9_.\-]*:)?"
WRAPPED = js_ascii(rf"<{NS}tool_call>([\s\S]*?)</{NS}tool_call>", ignore_case=True)
WRAPPED_CLOSE_LAST = js_ascii(rf"(?r)</{NS}tool_call>", ignore_case=True)
STANDALONE = js_ascii(rf"<invoke{WS}+name=[\"']([^\"']+)[\"']{WS}*>[\s\S]*?</invoke>", ignore_case=True)
INVOKE = js_ascii(rf"<invoke{WS}+name=[\"']([^\"']+)[\"']{WS}*>([\s\S]*?)</invoke>", ignore_case=True)
PARAMETER = js_ascii(
    rf"<parameter{WS}+name=[\"']([^\"']+)[\"'](?:{WS}+string=[\"'](true|false)[\"'])?{WS}*>"
    r"([\s\S]*?)</parameter>",
    ignore_case=True,
)
MALFORMED = js_ascii(
    rf"(?:^|\n)({WS}*)invoke{WS}+name=[\"']([^\"']+)[\"']{WS}*>([\s\S]*?)"
    rf"(?:\n{WS}*(?:/invoke|invoke)>|\Z)",
    ignore_case=True,
)
MALFORMED_PARAMETER = js_ascii(
    rf"parameter{WS}+name=[\"']([^\"']+)[\"']{WS}*>([\s\S]*?){WS}*parameter>", ignore_case=True
)
MALFORMED_PARAMETER_STRICT = js_ascii(
    rf"parameter{WS}+name=[\"']([^\"']+)[\"']{WS}*>([\s\S]*?){WS}*(?:</|/)?parameter>", ignore_case=True
)


def _arguments(body: str, hits: Hits, *, strict: bool) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for m in PARAMETER.finditer(body):
        key = js_trim(m.group(1))
        if not key or not assignable(key):
            continue
        raw = m.group(3) or ""
        if m.group(2) == "false":
            args[key] = parse_json_or_string(js_trim(raw))
        elif strict and m.group(2) == "true":
            args[key] = layout_trim(raw)  # strict GRM-Q6: the attribute says string; believe it
        else:
            args[key] = tag_value(raw, hits, strict=strict)
    if args:
        return args
    obj = parse_json_object(js_trim(body))
    return (normalize_arguments(obj, hits, strict=strict) if obj is not None else None) or {}


def invoke_calls(body: str, *, strict: bool) -> list[Call]:
    calls: list[Call] = []
    for m in INVOKE.finditer(body):
        name = js_trim(m.group(1))
        if not name:
            continue
        hits = Hits()
        calls.append(Call(name, _arguments(m.group(2) or "", hits, strict=strict), hits))
    return calls


def _malformed(ctx: ParseContext) -> list[Candidate]:
    out: list[Candidate] = []
    text = ctx.text
    for m in MALFORMED.finditer(text):
        if ctx.fenced(m.start()):
            continue
        start = m.start() + (1 if m.group(0).startswith("\n") else 0)
        name = js_trim(m.group(2))
        if not name:
            continue
        hits = Hits()
        body = m.group(3) or ""
        args: dict[str, Any] = {}
        for p in MALFORMED_PARAMETER.finditer(body):
            key = js_trim(p.group(1))
            if key and assignable(key):
                args[key] = sniff(js_trim(p.group(2) or ""), hits)
        strict_args: dict[str, Any] = {}
        for p in MALFORMED_PARAMETER_STRICT.finditer(body):
            key = js_trim(p.group(1))
            if key and assignable(key):
                strict_args[key] = sniff(js_trim(p.group(2) or ""))
        if strict_args != args:
            hits.add("GRM-Q7", "a `/parameter>` or `</parameter>` closer left its slash in the value")
        out.append(Candidate.of(Call(name, strict_args if ctx.strict else args, hits), "invoke", start, m.end()))
    return out


def parse(ctx: ParseContext) -> list[Candidate]:
    out: list[Candidate] = []
    text = ctx.text
    for w in WRAPPED.finditer(text, 0, end_of_last_match(text, WRAPPED_CLOSE_LAST)):
        if ctx.fenced(w.start()):
            continue
        for call in invoke_calls(w.group(1) or "", strict=ctx.strict):
            out.append(Candidate.of(call, "invoke", w.start(), w.end()))
    for m in STANDALONE.finditer(text, 0, end_of_last(text, "</invoke>")):
        if ctx.fenced(m.start()):
            continue
        for call in invoke_calls(m.group(0), strict=ctx.strict):
            out.append(Candidate.of(call, "invoke", m.start(), m.end()))
    out.extend(_malformed(ctx))
    return out
