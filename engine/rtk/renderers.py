"""Output renderers — OmniRoute's ``renderers/*.ts`` (``rtk.md`` §7.3).

A renderer rewrites a whole tool output of one detected type into a shorter form: a diff keeps its
change lines, a green test run becomes its summary line, a Terraform plan its counts and actions,
a JSON array of objects a TAB table. The reference's oddities (RTK-Q21 … RTK-Q27, RTK-Q29) are
reproduced under ``omniroute`` and fixed under ``strict``; each leaves a diagnostic when it
changed the rendered text.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.diagnostics import Diagnostic
from engine.jsvalues import JS_WHITESPACE, js_number, js_string, js_trim, object_keys

_WS = "[" + re.escape(JS_WHITESPACE) + "]"
_NWS = "[^" + re.escape(JS_WHITESPACE) + "]"

REGISTRY: dict[str, str] = {
    "git-diff": "git-diff",
    "test-pytest": "test-green", "test-jest": "test-green", "test-vitest": "test-green", "build-eslint": "test-green",
    "terraform-plan": "terraform-plan", "tofu-plan": "terraform-plan",
    "aws": "structured-table", "json-output": "structured-table",
}
UNSET = object()  # `renderers` absent from the config


def js_truthy(value: Any) -> bool:
    """JavaScript truthiness of a JSON value (``rtk.md`` §7.1)."""
    if value is None or value is False or value is UNSET:
        return False
    if isinstance(value, bool):
        return True
    if isinstance(value, int | float):
        return value != 0 and not math.isnan(value)
    if isinstance(value, str):
        return value != ""
    return True


@dataclass
class Rendering:
    """What step 5 did: the renderer's name when it reported a change, else ``None``."""

    text: str
    renderer: str | None = None
    considered: str | None = None  # the renderer the detection type maps to
    skipped: str = ""  # why a mapped renderer did not run
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _diag(code: str, message: str, level: str = "info") -> Diagnostic:
    return Diagnostic(message, level, code, source="rtk", data={"stage": "rtk:render"})  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- whitelist

def _whitelist_allows(raw: Any, detected: str, renderer: str, profile: str,
                      diagnostics: list[Diagnostic]) -> bool | None:
    """``True``/``False`` for a whitelist verdict, ``None`` when it throws (nothing rendered)."""
    if profile == "strict":
        if raw is UNSET or raw is None:
            return True
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            diagnostics.append(_diag("RTK-Q26", f"`renderers` must be an array of names; {json.dumps(raw)} "
                                     "was ignored", "warning"))
            return True
        return not raw or detected in raw or renderer in raw  # RTK-Q26 fix: renderer names count too
    if not js_truthy(raw):
        return True
    if isinstance(raw, list):
        length: Any = len(raw)
    elif isinstance(raw, str):
        length = len(raw)
    elif isinstance(raw, dict) and "length" in raw:
        length = raw["length"]
    else:
        return True  # no `length`: `undefined > 0` is false, so no whitelist
    value = js_number(js_string(length) if isinstance(length, list | dict) else length)
    if not value > 0:
        return True
    if isinstance(raw, list):
        allowed = any(isinstance(x, str) and x == detected for x in raw)
        if not allowed and renderer in raw:
            diagnostics.append(_diag("RTK-Q26", f"`renderers` lists the renderer name {renderer!r}, but the "
                                     f"whitelist is matched against detection types ({detected!r}), so nothing "
                                     "was rendered"))
        return allowed
    if isinstance(raw, str):
        allowed = detected in raw
        if allowed and raw != detected:
            diagnostics.append(_diag("RTK-Q26", f"`renderers` is the string {raw!r}; the reference tests "
                                     f"{detected!r} as a substring of it"))
        return allowed
    diagnostics.append(_diag("RTK-Q26", "`renderers` is an object with a `length`; the reference's `includes` "
                             "call throws and the output is not rendered"))
    return None


def render(text: str, detected: str, enable: Any, whitelist: Any = UNSET, *,
           profile: str = "omniroute") -> Rendering:
    """Re-render ``text`` with the renderer of the type detected on the *original* output
    (``rtk.md`` §7.2 step 5), when ``enable`` is truthy and the ``renderers`` whitelist allows
    that type; a renderer that fails or declines leaves the text as it was."""
    if not js_truthy(enable):
        return Rendering(text)
    name = REGISTRY.get(detected)
    if name is None:
        return Rendering(text)
    diagnostics: list[Diagnostic] = []
    allowed = _whitelist_allows(whitelist, detected, name, profile, diagnostics)
    if not allowed:
        why = "the `renderers` whitelist does not name this type" if allowed is False else \
            "the `renderers` value is not an array or string (the reference throws)"
        return Rendering(text, None, name, why, diagnostics)
    try:
        out = RENDERERS[name](text, detected, profile, diagnostics)
    except (ValueError, RecursionError, TypeError) as exc:  # the reference swallows a renderer's error
        return Rendering(text, None, name, f"renderer failed: {exc}", diagnostics)
    if out is None:
        return Rendering(text, None, name, "the renderer left the text alone", diagnostics)
    return Rendering(out, name, name, "", diagnostics)


# ----------------------------------------------------------------------------- git-diff

_MARKER_LINE = re.compile(r"\[(?:rtk:|line repeated \d+x\])")


def render_git_diff(text: str, detected: str, profile: str, diagnostics: list[Diagnostic]) -> str | None:
    if "@@ " not in text:
        return None
    kept = []
    double_sign = markers = 0
    for line in text.split("\n"):
        sign_line = line[:1] in ("+", "-")
        if line.startswith("diff --git ") or line.startswith("@@ ") or (sign_line and (len(line) == 1 or line[1] not in "+-")):
            kept.append(line)
        elif sign_line and not (line.startswith("--- ") or line.startswith("+++ ")):
            if profile == "strict":  # RTK-Q21 fix
                kept.append(line)
            else:
                double_sign += 1
        elif _MARKER_LINE.match(line):
            if profile == "strict":  # RTK-Q29 fix
                kept.append(line)
            else:
                markers += 1
    out = "\n".join(kept)
    if out == text:
        return None
    if double_sign:
        diagnostics.append(_diag("RTK-Q21", f"{double_sign} change line(s) whose content starts with `+` or `-` "
                                 "(`-- item`, `+--flag`) were dropped from the rendered diff"))
    if markers:
        diagnostics.append(_diag("RTK-Q29", f"{markers} marker line(s) of earlier stages were dropped, hiding that "
                                 "lines had been removed"))
    return out


# ----------------------------------------------------------------------------- test-green

_COLOUR = re.compile("\x1b\\[[0-9;]*m")
_FAIL_WORD = re.compile(r"\bFAIL\b", re.ASCII)
_ERROR_WORD = re.compile(r"\bError\b", re.ASCII)
_FAILED_COUNT = re.compile(r"(\d+)" + _WS + r"+failed", re.ASCII | re.IGNORECASE)
_FAILED_COLON = re.compile(r"failed[:" + re.escape(JS_WHITESPACE) + r"]+(\d+)", re.ASCII | re.IGNORECASE)
_SUMMARIES = (
    re.compile(r"={3,}" + _WS + r"+\d+" + _WS + r"+passed", re.ASCII),
    re.compile(r"Tests:" + _WS + r"+\d+" + _WS + r"+passed", re.ASCII),
    re.compile(r"\d+" + _WS + r"+tests?" + _WS + r"+passed", re.ASCII | re.IGNORECASE),
)
ESLINT_CLEAN = "ESLint: 0 problems found"


def render_test_green(text: str, detected: str, profile: str, diagnostics: list[Diagnostic]) -> str | None:
    s = _COLOUR.sub("", text)
    error_hit = _ERROR_WORD.search(s) is not None if profile == "strict" else "Error" in s
    if _FAIL_WORD.search(s) or "\u2716" in s or error_hit or "Traceback" in s or "AssertionError" in s:
        if profile != "strict" and test_green_error_quirk(text) and not (
                _FAIL_WORD.search(s) or "\u2716" in s or "Traceback" in s or "AssertionError" in s):
            diagnostics.append(_diag("RTK-Q24", "the output contains `Error` only inside a longer word "
                                     "(`test_ErrorHandler`), which kept a green run from collapsing"))
        return None
    first = _FAILED_COUNT.search(s) or _FAILED_COLON.search(s)
    if first and int(first.group(1)) > 0:
        return None
    every = [int(m.group(1)) for m in (*_FAILED_COUNT.finditer(s), *_FAILED_COLON.finditer(s))]
    later_failure = any(n > 0 for n in every)
    if later_failure and profile == "strict":
        return None  # RTK-Q22 fix: every failure count is checked
    out = _summary(s)
    if out is None:
        if js_trim(s) != "":
            return None
        if detected != "build-eslint":
            if profile == "strict":
                return None  # RTK-Q23 fix
            diagnostics.append(_diag("RTK-Q23", f"empty {detected} output was replaced by the ESLint message "
                                     f"{ESLINT_CLEAN!r}"))
        out = ESLINT_CLEAN
    if later_failure:
        diagnostics.append(_diag("RTK-Q22", "a later `N failed` count above 0 was hidden by an earlier `0 failed`; "
                                 "a failing run was collapsed to its pass line", "warning"))
    return out


def _summary(s: str) -> str | None:
    lines = s.split("\n")
    for pattern in _SUMMARIES:
        for line in lines:
            if pattern.search(line):
                return js_trim(line)
    return None


def test_green_error_quirk(text: str) -> bool:
    """RTK-Q24: the bare ``Error`` substring (not the word) kept a green run from collapsing."""
    s = _COLOUR.sub("", text)
    return "Error" in s and _ERROR_WORD.search(s) is None


# ----------------------------------------------------------------------------- terraform-plan

_NO_CHANGES = re.compile(r"(?:^|(?<=[\n\r\u2028\u2029]))No changes\.")
_PLAN = re.compile(
    rf"Plan:{_WS}+(\d+){_WS}+to add,{_WS}+(\d+){_WS}+to change,{_WS}+(\d+){_WS}+to destroy", re.ASCII)
_ACTION = re.compile(rf"{_WS}+#{_WS}+({_NWS}+){_WS}+will{_WS}+be{_WS}+{_NWS}")
_ACTION_PREFIX = re.compile(rf"#{_WS}+{_NWS}+{_WS}+will{_WS}+be{_WS}+")
_ANY_ACTION = re.compile(rf"{_WS}+#{_WS}+({_NWS}.*)")


def render_terraform_plan(text: str, detected: str, profile: str, diagnostics: list[Diagnostic]) -> str | None:
    if _NO_CHANGES.search(text):
        return None
    plan = _PLAN.search(text)
    if plan is None:
        return None
    out = [f"Plan: +{plan.group(1)} ~{plan.group(2)} -{plan.group(3)}"]
    unlisted = 0
    for line in text.split("\n"):
        m = _ACTION.match(line)
        if m:
            out.append(f"  # {m.group(1)} will be {_ACTION_PREFIX.sub('', js_trim(line), count=1)}")
            continue
        other = _ANY_ACTION.match(line)
        if other:
            if profile == "strict":  # RTK-Q25 fix: every `# ADDR …` action line
                out.append(f"  # {js_trim(other.group(1))}")
            else:
                unlisted += 1
    if unlisted:
        diagnostics.append(_diag("RTK-Q25", f"{unlisted} action line(s) (`must be replaced`, `has moved to`, or an "
                                 "address with spaces) are counted in `Plan:` but not listed"))
    return "\n".join(out)


# ----------------------------------------------------------------------------- structured-table

INHERITED = frozenset((
    "__proto__", "constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString",
    "toString", "valueOf", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__"))
PREFERRED_COLUMNS = ("name", "id", "status", "type", "kind")
MAX_ROWS = 200
MAX_COLUMNS = 5


def _reject_constant(name: str) -> Any:
    raise ValueError(f"JSON.parse does not accept {name}")


def js_json_parse(text: str) -> Any:
    """``JSON.parse``: strict JSON, numbers as doubles (a repeated key keeps its first place)."""
    return json.loads(text, parse_constant=_reject_constant, parse_int=lambda s: float(int(s)))


def _parse(text: str) -> Any:
    t = js_trim(text)
    try:
        return js_json_parse(t)
    except (ValueError, RecursionError):
        first, last = t.find("["), t.rfind("]")
        if first == -1 or last <= first:
            raise
        return js_json_parse(t[first:last + 1])


def _cell(value: Any) -> str:
    if value is None:
        return ""
    return js_string(value)


def render_structured_table(text: str, detected: str, profile: str, diagnostics: list[Diagnostic]) -> str | None:
    try:
        data = _parse(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, list) or len(data) < 2 or not all(isinstance(o, dict) for o in data):
        return None
    counts: dict[str, int] = {}
    hidden: set[str] = set()
    for obj in data:
        for key in (list(obj) if profile == "strict" else object_keys(obj)):
            value = obj[key]
            if value is None or isinstance(value, str | int | float):
                if profile != "strict" and key in INHERITED:
                    hidden.add(key)  # RTK-Q27: the plain-object counter never counts these
                    continue
                counts[key] = counts.get(key, 0) + 1
    if not counts and not hidden:
        return None
    keys = list(counts) if profile == "strict" else object_keys(counts)
    threshold = len(data) // 2
    candidates = [k for k in keys if counts[k] >= threshold]
    preferred = [k for k in PREFERRED_COLUMNS if k in candidates]
    rest = sorted((k for k in candidates if k not in preferred), key=lambda k: -counts[k])
    columns = (preferred + rest)[:MAX_COLUMNS]
    if not columns:
        return None
    if hidden:
        diagnostics.append(_diag("RTK-Q27", "key(s) named like inherited JavaScript properties never become "
                                 f"columns: {', '.join(sorted(hidden))}"))
    lines = ["\t".join(columns)]
    lines.extend("\t".join(_cell(obj.get(c)) for c in columns) for obj in data[:MAX_ROWS])
    if len(data) > MAX_ROWS:
        lines.append(f"\u2026 (+{len(data) - MAX_ROWS} more)")
    return "\n".join(lines)


RENDERERS: dict[str, Callable[[str, str, str, list[Diagnostic]], str | None]] = {
    "git-diff": render_git_diff,
    "test-green": render_test_green,
    "terraform-plan": render_terraform_plan,
    "structured-table": render_structured_table,
}
