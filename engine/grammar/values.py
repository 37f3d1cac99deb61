"""How leaked text becomes argument values (spec §2.4–§2.6).

Each function reproduces pi-repair-layer 0.4.3 by default; ``strict=True`` applies the quirk fix.
Whenever the two would differ, the quirk is recorded in ``hits`` so the caller can say which
quirk changed the result.
"""

from __future__ import annotations

import ast
import math
from typing import Any

from engine.grammar.candidates import Call, Hits
from engine.grammar.jsjson import FAIL, parse_json, parse_json_or_string
from engine.grammar.textscan import (
    IDENT,
    IDENT_FULL,
    WS,
    find_matching,
    find_top_level_char,
    js_ascii,
    split_top_level,
)
from engine.jsvalues import canonical_number, js_number, js_trim

# ----------------------------------------------------------------------------- §2.4 call objects:
# a name and its arguments read from a leaked JSON object, a nested ``arguments`` object unwrapped


def assignable(key: str) -> bool:
    """Whether ``args[key] = v`` creates an own property in JavaScript.

    Assigning ``__proto__`` on a plain object sets its prototype instead, so the key never shows
    up in the arguments (``JSON.parse`` output is different: it keeps ``__proto__`` as data).
    """
    return key != "__proto__"


def normalize_arguments(value: object, hits: Hits, *, strict: bool) -> dict[str, Any] | None:
    """``N(v)``: parse strings, unwrap an inner ``arguments`` object (GRM-Q14)."""
    if isinstance(value, str):
        parsed = parse_json(value)
        return None if parsed is FAIL else normalize_arguments(parsed, hits, strict=strict)
    if isinstance(value, dict):
        nested = value.get("arguments", FAIL)
        if isinstance(nested, str | dict):
            unwrapped = normalize_arguments(nested, hits, strict=strict)
            if unwrapped is not None:
                siblings = [k for k in value if k != "arguments"]
                if not siblings:
                    return unwrapped
                if strict:
                    hits.add("GRM-Q14", f"kept {siblings!r} beside an inner `arguments` object (strict)")
                    return value
                hits.add(
                    "GRM-Q14",
                    f"unwrapped the inner `arguments` object and dropped the sibling keys {siblings!r}",
                )
                return unwrapped
        return value
    return None


def call_from_json_object(obj: dict[str, Any], *, strict: bool) -> Call | None:
    """A call object (spec §2.4): the name from ``name``, else ``function_name``, else
    ``function.name`` (non-blank, trimmed); the arguments from the first of ``arguments``,
    ``args``, ``parameters`` that is present, else ``function.arguments``, normalised by
    :func:`normalize_arguments` (a non-object value gives no arguments, GRM-Q12)."""
    hits = Hits()
    function = obj.get("function")
    name = obj.get("name")
    if name is None:
        name = obj.get("function_name")
    if name is None and isinstance(function, dict):
        name = function.get("name")
    if not isinstance(name, str) or not js_trim(name):
        return None
    raw: Any = FAIL  # FAIL stands for JavaScript undefined
    for key in ("arguments", "args", "parameters"):
        if obj.get(key) is not None:
            raw = obj[key]
            break
    else:
        # `a ?? b ?? c` yields c itself, so a present-but-null `parameters` stops the lookup.
        raw = obj.get("parameters", FAIL)
    if raw is FAIL and isinstance(function, dict):
        raw = function.get("arguments", FAIL)
    arguments = normalize_arguments(raw, hits, strict=strict) if raw is not FAIL else None
    if arguments is None and raw is not FAIL and raw is not None and raw != {}:
        hits.add("GRM-Q12", f"the arguments value {_short(raw)} is not a JSON object, so the call has none")
    return Call(js_trim(name), arguments or {}, hits)


def calls_from_json_value(value: object, *, strict: bool) -> list[Call]:
    """An object gives one call, an array one per object item (non-objects skipped)."""
    if isinstance(value, list):
        out: list[Call] = []
        for item in value:
            if isinstance(item, dict):
                out.extend(calls_from_json_value(item, strict=strict))
        return out
    if isinstance(value, dict):
        call = call_from_json_object(value, strict=strict)
        return [call] if call else []
    return []


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ----------------------------------------------------------------------------- §2.5 sniffing: a
# value's type guessed from its text (JSON-looking text parsed, anything else kept as a string)

_SNIFF = js_ascii(r"(?:true|false|null|-?[0-9]|[\[{]|\")")


def sniff(value: str, hits: Hits | None = None) -> Any:
    """``S``: a trimmed value that looks like JSON is parsed as JSON (GRM-Q6)."""
    if value == "":
        return ""
    if _SNIFF.match(value):
        parsed = parse_json_or_string(value)
        if hits is not None and not isinstance(parsed, str):
            hits.add("GRM-Q6", f"the text value {_short(value)} was typed as JSON by its shape")
        elif hits is not None and parsed != value:
            hits.add("GRM-Q6", f"the quoted value {_short(value)} lost its quotes")
        return parsed
    return value


def layout_trim(value: str) -> str:
    """Remove only the newline the tag layout puts after an opener and before a closer."""
    if value.startswith("\r\n"):
        value = value[2:]
    elif value.startswith("\n"):
        value = value[1:]
    if value.endswith("\r\n"):
        value = value[:-2]
    elif value.endswith("\n"):
        value = value[:-1]
    return value


def tag_value(raw: str, hits: Hits, *, strict: bool) -> Any:
    """A Qwen/GLM/invoke parameter value: trimmed then sniffed (GRM-Q5, GRM-Q6).

    Strict keeps the value's own indentation and trailing blanks when it stays a string, removing
    only the layout newlines.
    """
    trimmed = js_trim(raw)
    typed = sniff(trimmed, hits)
    if isinstance(typed, str):
        kept = layout_trim(raw)
        if kept != typed:
            hits.add("GRM-Q5", f"the value {_short(kept)} was trimmed to {_short(typed)}")
            if strict:
                return kept
    return typed


# ----------------------------------------------------------------------------- §2.6 pythonic:
# ``name(key=value)`` calls, with Python literals (True, None, quoted strings) read as JSON values

_PY_NUMBER = js_ascii(r"[-+]?[0-9]+(?:\.[0-9]+)?\Z")
_PY_ESCAPE = js_ascii(r"\\(['\"\\])")
_WORD_TRUE = js_ascii(r"\bTrue\b")
_WORD_FALSE = js_ascii(r"\bFalse\b")
_WORD_NONE = js_ascii(r"\bNone\b")


def pythonish_value(raw: str) -> Any:
    """``PY`` as the reference converts it (GRM-Q30)."""
    trimmed = js_trim(raw)
    if trimmed == "True":
        return True
    if trimmed == "False":
        return False
    if trimmed == "None":
        return None
    if _PY_NUMBER.match(trimmed):
        return canonical_number(js_number(trimmed))
    if len(trimmed) >= 1 and (
        (trimmed.startswith("'") and trimmed.endswith("'"))
        or (trimmed.startswith('"') and trimmed.endswith('"'))
    ):
        return _PY_ESCAPE.sub(r"\1", trimmed[1:-1])
    replaced = _WORD_TRUE.sub("true", trimmed)
    replaced = _WORD_FALSE.sub("false", replaced)
    replaced = _WORD_NONE.sub("null", replaced)
    return parse_json_or_string(replaced)


def _from_python_literal(value: object) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        number = float(value)
        return canonical_number(number) if math.isfinite(number) else FAIL
    if isinstance(value, list | tuple):
        items = [_from_python_literal(v) for v in value]
        return FAIL if any(i is FAIL for i in items) else items
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            converted = _from_python_literal(v)
            if converted is FAIL or not isinstance(k, str | int | float | bool):
                return FAIL
            out[k if isinstance(k, str) else str(k)] = converted
        return out
    return FAIL


def python_literal_value(raw: str) -> Any:
    """Strict ``PY``: Python literal rules; anything else stays verbatim."""
    trimmed = js_trim(raw)
    if len(trimmed) > 10_000:
        return trimmed
    try:
        value = ast.literal_eval(trimmed)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return trimmed
    converted = _from_python_literal(value)
    return trimmed if converted is FAIL else converted


def keyword_arguments(text: str, hits: Hits, *, strict: bool) -> dict[str, Any]:
    """``k=v`` pieces at top level; positional pieces ignored; last repeat wins."""
    args: dict[str, Any] = {}
    for part in split_top_level(text, ","):
        eq = find_top_level_char(part, "=")
        if eq == -1:
            continue
        key = js_trim(part[:eq])
        if not IDENT_FULL.match(key) or not assignable(key):
            continue
        raw = js_trim(part[eq + 1 :])
        reference = pythonish_value(raw)
        fixed = python_literal_value(raw)
        if fixed != reference or type(fixed) is not type(reference):
            hits.add("GRM-Q30", f"`{key}={_short(raw)}` reads as {_short(reference)}, not {_short(fixed)}")
        args[key] = fixed if strict else reference
    return args


PYTHONIC_CALL = js_ascii(r"(?:^|\n)" + WS + "*(" + IDENT + ")" + WS + r"*\(")


def pythonic_calls(text: str, *, strict: bool) -> list[tuple[Call, int, int]]:
    """Calls at line starts (§2.6): ``(call, match start, close paren)``.

    The next search resumes just after the ``(``, so a line inside a multi-line argument that
    starts with IDENT( is found as a further call.
    """
    calls: list[tuple[Call, int, int]] = []
    for m in PYTHONIC_CALL.finditer(text):
        open_paren = m.end() - 1
        close = find_matching(text, open_paren, "(", ")")
        if close is None:
            continue
        hits = Hits()
        args = keyword_arguments(text[open_paren + 1 : close], hits, strict=strict)
        calls.append((Call(m.group(1), args, hits), m.start(), close))
    return calls
