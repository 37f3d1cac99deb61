"""The ``<tool_call>``/``<tools>`` family and bare ``<function=…>`` elements (spec §3.7)."""

from __future__ import annotations

from typing import Any

from engine.grammar.candidates import Call, Candidate, Hits, ParseContext
from engine.grammar.jsjson import parse_json, parse_json_object
from engine.grammar.textscan import (
    IDENT,
    IDENT_FULL,
    WS,
    end_of_last,
    first_balanced_json,
    js_ascii,
    split_ws,
)
from engine.grammar.values import assignable, calls_from_json_value, normalize_arguments, tag_value
from engine.jsvalues import js_trim

WRAPPER = js_ascii(r"<(tool_call|tools)>[\s\S]*?</\1>", ignore_case=True)
MD_FENCE = js_ascii(rf"```[A-Za-z0-9_]*{WS}*([\s\S]*?){WS}*```\Z")
ARG_KEY = js_ascii(r"<arg_key>([\s\S]*?)</arg_key>", ignore_case=True)
ARG_VALUE = js_ascii(r"<arg_value>([\s\S]*?)</arg_value>", ignore_case=True)
ARG_KEY_OPEN = js_ascii(r"<arg_key>", ignore_case=True)
FUNCTION = js_ascii(rf"<function=({IDENT})>{WS}*([\s\S]*?)</function>", ignore_case=True)
BARE_FUNCTION = js_ascii(rf"<function=({IDENT})>[\s\S]*?</function>", ignore_case=True)
PARAMETER = js_ascii(r"<parameter=([^>]+)>([\s\S]*?)</parameter>", ignore_case=True)


def _json_calls(body: str, *, strict: bool) -> list[Call]:
    trimmed = js_trim(body)
    fenced = MD_FENCE.match(trimmed)
    if fenced:
        trimmed = fenced.group(1) or ""
    found = first_balanced_json(trimmed)
    return calls_from_json_value(parse_json(found[0] if found else trimmed), strict=strict)


def _glm_call(body: str, *, strict: bool) -> Call | None:
    hits = Hits()
    all_keys = [js_trim(m.group(1) or "") for m in ARG_KEY.finditer(body)]
    keys = [k for k in all_keys if k]
    values = [js_trim(m.group(1) or "") for m in ARG_VALUE.finditer(body)]
    if keys:
        opener = ARG_KEY_OPEN.search(body)
        name_end = opener.start() if opener else -1
        region = body[:name_end] if name_end >= 0 else body[: len(body) + name_end]
    else:
        region = body
    tokens = split_ws(js_trim(region))
    name = tokens[0]
    if not name or not IDENT_FULL.match(name):
        return None
    extra = js_trim(js_trim(region)[len(name) :])
    if extra and not keys:
        found = first_balanced_json(extra)
        trailing = parse_json_object(found[0]) if found else None
        if trailing is not None:
            hits.add("GRM-Q31", f"the JSON after `{name}` was ignored, leaving the call without arguments")
            if strict:
                return Call(name, normalize_arguments(trailing, hits, strict=True) or {}, hits)
        elif strict:
            return None  # prose inside <tool_call> is not a call
    elif extra:
        hits.add("GRM-Q19", f"words after the name `{name}` were ignored")
    if name.startswith("functions."):
        hits.add("GRM-Q19", f"the `functions.` prefix was kept in the name `{name}`")
        if strict:
            name = name[len("functions.") :]
            if not IDENT_FULL.match(name):
                return None
    reference: dict[str, Any] = {}
    for i, key in enumerate(keys):
        if not assignable(key):
            continue
        reference[key] = tag_value(values[i] if i < len(values) else "", hits, strict=strict)
    paired: dict[str, Any] = {}
    for i, key in enumerate(all_keys):
        if key and assignable(key):
            paired[key] = tag_value(values[i] if i < len(values) else "", Hits(), strict=strict)
    if paired != reference:
        hits.add("GRM-Q19", "a blank <arg_key> shifted the keys against their values")
    if len(values) < len(keys):
        hits.add("GRM-Q19", "a key without an <arg_value> got the empty string")
    return Call(name, paired if strict else reference, hits)


def qwen_function_calls(body: str, *, strict: bool) -> list[Call]:
    calls: list[Call] = []
    for m in FUNCTION.finditer(body):
        name = js_trim(m.group(1))
        if not name:
            continue
        hits = Hits()
        args: dict[str, Any] = {}
        for p in PARAMETER.finditer(m.group(2) or ""):
            key = js_trim(p.group(1))
            if key and assignable(key):
                args[key] = tag_value(p.group(2) or "", hits, strict=strict)
        calls.append(Call(name, args, hits))
    return calls


def parse(ctx: ParseContext) -> list[Candidate]:
    out: list[Candidate] = []
    text = ctx.text
    for w in WRAPPER.finditer(text, 0, end_of_last(text, "</tool_call>", "</tools>")):
        if ctx.fenced(w.start()):
            continue
        tag = w.group(1).lower()
        whole = w.group(0)
        body = whole[whole.index(">") + 1 : len(whole) - len(f"</{tag}>")]
        if ctx.has("granite") or ctx.has("qwen"):
            label = "qwen" if tag == "tools" or not ctx.has("granite") or ctx.strict else "granite"
            for call in _json_calls(body, strict=ctx.strict):
                cand = Candidate.of(call, label, w.start(), w.end())
                if label == "granite":
                    cand.hits.add("GRM-Q2", "Hermes/Qwen2.5 JSON inside <tool_call> is labelled granite")
                out.append(cand)
        if ctx.has("glm"):
            glm = _glm_call(body, strict=ctx.strict)
            if glm:
                out.append(Candidate.of(glm, "glm", w.start(), w.end()))
        if ctx.has("qwen"):
            out.extend(Candidate.of(c, "qwen", w.start(), w.end()) for c in qwen_function_calls(body, strict=ctx.strict))
    if ctx.has("qwen"):
        for m in BARE_FUNCTION.finditer(text, 0, end_of_last(text, "</function>")):
            if ctx.fenced(m.start()):
                continue
            out.extend(
                Candidate.of(c, "qwen", m.start(), m.end()) for c in qwen_function_calls(m.group(0), strict=ctx.strict)
            )
    return out
