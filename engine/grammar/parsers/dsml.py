"""DeepSeek DSML markup (spec §3.1): blocks, invokes, parameters and dangling markers."""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Any

from engine import memo
from engine.grammar.candidates import Call, Candidate, Hits, ParseContext
from engine.grammar.jsjson import parse_json_object, parse_json_or_string
from engine.grammar.textscan import WS, first_balanced_json, js_unicode
from engine.grammar.values import assignable, layout_trim, normalize_arguments
from engine.jsvalues import js_trim

if TYPE_CHECKING:
    import regex

# ⟨P⟩: fullwidth bars around DSML, DSML with one trailing bar, or ASCII bars with blanks.
PREFIX = f"(?:｜{{1,2}}DSML｜{{1,2}}|DSML｜|{WS}*\\|{WS}*DSML{WS}*\\|{WS}*)"


def _rx(body: str) -> regex.Pattern[str]:
    return js_unicode(body, ignore_case=True)


OUTER_OPEN = _rx(f"<{PREFIX}(tool_calls|function_calls)>")
CLOSE = {kind: _rx(f"</{PREFIX}{kind}>") for kind in ("tool_calls", "function_calls")}
INVOKE_CLOSE = _rx(f"</{PREFIX}invoke>")
INVOKE_OPEN = _rx(f"<{PREFIX}invoke{WS}+name=[\"']([^\"']+)[\"']{WS}*>")
INVOKE_OPEN_ANY = _rx(f"<{PREFIX}invoke")
PARAMETER = _rx(
    f"<{PREFIX}parameter{WS}+name=[\"']([^\"']+)[\"'](?:{WS}+string=[\"'](true|false)[\"'])?{WS}*>"
    f"([\\s\\S]*?)</{PREFIX}parameter>"
)
MARKER = _rx(f"</?{PREFIX}(tool_calls|function_calls|invoke|parameter)(?:{WS}+[^>\\n]*)?>?")


def _block_close(ctx: ParseContext, body_start: int, kind: str, hits: Hits) -> tuple[int, int] | None:
    """Where a block opened at ``body_start`` ends (GRM-Q23)."""
    text = ctx.text
    found = {k: _first_at_or_after(_closes(text, k), body_start) for k in CLOSE}
    reference = found["tool_calls"] or found["function_calls"]
    matching = found[kind]
    if matching is not None and reference is not None and matching[0] != reference[0]:
        hits.add("GRM-Q23", f"a `{kind}` block was closed by a later `tool_calls` closer, swallowing the text between")
    close = matching if ctx.strict else reference
    if close is not None:
        return close
    closes = _closes(text, "invoke")
    first = bisect_left(closes, body_start, key=lambda span: span[0])
    if first == len(closes):
        return None
    if first < len(closes) - 1:
        hits.add("GRM-Q23", "an unclosed block was ended at the last invoke close in the text")
    end = closes[first][1] if ctx.strict else closes[-1][1]
    return end, end


def _first_at_or_after(spans: list[tuple[int, int]], pos: int) -> tuple[int, int] | None:
    at = bisect_left(spans, pos, key=lambda span: span[0])
    return spans[at] if at < len(spans) else None


@memo.lru(maxsize=8)
def _closes(text: str, kind: str) -> list[tuple[int, int]]:
    """Every closer of one kind in the text. Closers cannot overlap (each is ``</``, a prefix
    without ``<``, and a name), so one pass finds every place a search could stop."""
    rx = INVOKE_CLOSE if kind == "invoke" else CLOSE[kind]
    return [m.span() for m in rx.finditer(text)]


def _invokes(body: str, *, strict: bool) -> list[Call]:
    calls: list[Call] = []
    for m in INVOKE_OPEN.finditer(body):
        name = js_trim(m.group(1))
        if not name:
            continue
        hits = Hits()
        close = INVOKE_CLOSE.search(body, m.end())
        if close is None:
            continue
        following = INVOKE_OPEN_ANY.search(body, m.end())
        invoke_end = close.start()
        if following is not None and following.start() < close.start():
            hits.add("GRM-Q27", f"the unclosed invoke `{name}` borrowed the next invoke's close and parameters")
            if strict:
                invoke_end = following.start()
        calls.append(Call(name, _arguments(body[m.end() : invoke_end], hits, strict=strict), hits))
    return calls


def _arguments(body: str, hits: Hits, *, strict: bool) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for m in PARAMETER.finditer(body):
        key = js_trim(m.group(1))
        if not key or not assignable(key):
            continue
        raw = m.group(3) or ""
        if m.group(2) == "false":
            args[key] = parse_json_or_string(js_trim(raw))
            continue
        # GRM-Q4: raw, untrimmed, never parsed.
        fixed = layout_trim(raw)
        if fixed != raw:
            hits.add("GRM-Q4", f"the value of `{key}` kept the newlines around it")
        args[key] = fixed if strict else raw
    if args:
        return args
    trimmed = js_trim(body)
    found = first_balanced_json(trimmed)
    direct = parse_json_object(found[0] if found else trimmed)
    return (normalize_arguments(direct, hits, strict=strict) if direct is not None else None) or {}


def parse_blocks(ctx: ParseContext) -> list[Candidate]:
    out: list[Candidate] = []
    text = ctx.text
    for m in OUTER_OPEN.finditer(text):
        if ctx.fenced(m.start()):
            continue
        hits = Hits()
        bounds = _block_close(ctx, m.end(), m.group(1).lower(), hits)
        if bounds is None:
            continue
        body_end, end = bounds
        for call in _invokes(text[m.end() : body_end], strict=ctx.strict):
            cand = Candidate.of(call, "dsml", m.start(), end)
            for hit in hits:
                cand.hits.add(hit.quirk, hit.message)
            out.append(cand)
    return out


def _group_markers(markers: list[tuple[int, int, str, bool]]) -> list[tuple[int, int]]:
    """Strict GRM-Q22: a malformed block goes whole, from its opener to its last marker."""
    ranges: list[tuple[int, int]] = []
    group: list[int] | None = None
    for start, end, kind, closing in markers:
        outer = kind in ("tool_calls", "function_calls")
        if outer and not closing:
            if group is not None:
                ranges.append((group[0], group[1]))
            group = [start, end]
        elif group is not None:
            group[1] = end
            if outer and closing:
                ranges.append((group[0], group[1]))
                group = None
        else:
            ranges.append((start, end))
    if group is not None:
        ranges.append((group[0], group[1]))
    return ranges


def parse_dangling_markers(ctx: ParseContext, blocks: list[Candidate]) -> list[Candidate]:
    """Strip-only candidates for DSML markers outside the complete ``blocks`` (§3.1).

    Markers inside a block that produced calls would lose to it in selection anyway; leaving
    them out here keeps the strict grouping (GRM-Q22) from competing with real blocks.
    """
    text = ctx.text
    markers = [
        (m.start(), m.end(), m.group(1).lower(), text[m.start() + 1] == "/")
        for m in MARKER.finditer(text)
        if not ctx.fenced(m.start()) and not any(b.start <= m.start() and m.end() <= b.end for b in blocks)
    ]
    if not markers:
        return []
    if "DSML" not in text:
        # GRM-Q28: the marker pass needs an uppercase `DSML` although the markers match any case.
        ctx.hits.add("GRM-Q28", "lowercase DSML markers were left in place (no uppercase `DSML` in the text)")
        if not ctx.strict:
            return []
    singles = [(s, e) for s, e, _, _ in markers]
    grouped = _group_markers(markers)
    hits = Hits()
    if grouped != singles:
        hits.add("GRM-Q22", "markers of a malformed block were stripped one by one, leaving its values behind")
    ranges = grouped if ctx.strict else singles
    return [Candidate("", {}, "dsml", s, e, strip_only=True, hits=Hits(hits)) for s, e in ranges]
