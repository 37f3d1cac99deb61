"""TypeBox 1.1.38 as pi uses it: schema rebuild, ``Value.Check``, ``Value.Errors``, ``Value.Convert``.

pi hands tools TypeBox schemas. The reference run rebuilt every JSON Schema with TypeBox builders
(``Type.Object``, ``Type.Union``, ``Type.Literal``...), which tag each node with a hidden kind;
``Value.Convert`` only converts tagged nodes. :func:`build_schema` does that rebuild (schema mode
``typebox``); mode ``plain`` keeps the JSON Schema as is, so Convert changes nothing (spec §11).

Errors follow TypeBox's keyword order and English messages (spec §12); a check is simply "no
error". Only the first 8 errors are recorded, as TypeBox's ``Settings.maxErrors`` does.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from engine.jsvalues import UNDEFINED, as_array, as_object, js_number, number_to_js_string, object_keys

from .jsdata import (
    MAX_SAFE_INTEGER,
    deep_clone,
    deep_equal,
    is_number,
    js_strict_equal,
    js_typeof,
    normalize_number,
)

KIND = "~kind"
MAX_ERRORS = 8
SCHEMA_MODES = ("typebox", "plain")

_COPIED_OPTIONS = (
    "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties",
    "maxProperties", "description", "title", "default",
)
_SIMPLE_KINDS = {"string": "String", "number": "Number", "integer": "Integer", "boolean": "Boolean",
                 "null": "Null"}


# ----------------------------------------------------------------------------- rebuild


def build_schema(schema: object, mode: str = "typebox") -> Any:
    """Rebuild a JSON Schema as TypeBox builders would (mode ``typebox``) or keep it (``plain``).

    Local ``$ref``s (``#/$defs/…``, ``#/definitions/…``) are inlined first — an extension: the
    reference harness had none, and a recursive reference becomes Unknown where it recurses.
    """
    if mode == "plain":
        return schema
    if mode != "typebox":
        raise ValueError(f"unknown schema mode {mode!r}")
    return _build(_inline_refs(schema, schema, ()))


def _resolve_pointer(root: object, ref: str) -> Any:
    node = root
    for segment in ref[2:].split("/") if ref.startswith("#/") else ():
        segment = segment.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or segment not in node:
            return True
        node = node[segment]
    return node if ref.startswith("#/") else True


def _inline_refs(node: object, root: object, active: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_inline_refs(item, root, active) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        if ref in active:
            return True  # recursion: Unknown from here on
        target = _resolve_pointer(root, ref)
        merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}} if isinstance(target, dict) else target
        return _inline_refs(merged, root, (*active, ref))
    return {k: v if k in ("$defs", "definitions", "const", "enum", "default") else _inline_refs(v, root, active)
            for k, v in node.items()}


def _options(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: schema[k] for k in _COPIED_OPTIONS if k in schema}


def _literal(value: object, options: dict[str, Any]) -> dict[str, Any]:
    if isinstance(value, bool):
        type_name = "boolean"
    elif is_number(value):
        type_name = "number"
    elif isinstance(value, str):
        type_name = "string"
    else:  # not a valid Type.Literal: keep a bare const check, no conversion
        return {**options, "const": value}
    return {**options, KIND: "Literal", "type": type_name, "const": value}


def _build(schema: object) -> dict[str, Any]:
    if schema is True or schema is None:
        return {KIND: "Unknown"}
    if schema is False:
        return {KIND: "Never", "not": {}}
    if not isinstance(schema, dict):
        return {KIND: "Unknown"}
    options = _options(schema)
    if "const" in schema:
        return _literal(schema["const"], options)
    if isinstance(schema.get("enum"), list):
        return {**options, KIND: "Union", "anyOf": [_literal(v, {}) for v in schema["enum"]]}
    for keyword in ("anyOf", "oneOf"):
        if isinstance(schema.get(keyword), list):
            return {**options, KIND: "Union", "anyOf": [_build(v) for v in schema[keyword]]}
    type_name = schema.get("type")
    if isinstance(type_name, list):
        return {**options, KIND: "Union", "anyOf": [_build({**schema, "type": t}) for t in type_name]}
    if type_name in _SIMPLE_KINDS:
        return {**options, KIND: _SIMPLE_KINDS[type_name], "type": type_name}
    if type_name == "array":
        return {**options, KIND: "Array", "type": "array", "items": _build(schema.get("items"))}
    if type_name == "object":
        props = as_object(schema.get("properties"))
        wanted = as_array(schema.get("required"))
        node: dict[str, Any] = {**options, KIND: "Object", "type": "object",
                                "properties": {k: _build(v) for k, v in props.items()}}
        required = [k for k in props if k in wanted]
        if required:
            node["required"] = required
        extra = schema.get("additionalProperties")
        if isinstance(extra, bool):
            node["additionalProperties"] = extra
        elif isinstance(extra, dict):
            node["additionalProperties"] = _build(extra)
        return node
    return {**options, KIND: "Unknown"}


# ----------------------------------------------------------------------------- errors


@dataclass
class SchemaError:
    keyword: str
    instance_path: str
    message: str
    params: dict[str, Any] = field(default_factory=dict)
    schema_path: str = "#"

    def to_dict(self) -> dict[str, Any]:
        return {"keyword": self.keyword, "schemaPath": self.schema_path,
                "instancePath": self.instance_path, "params": self.params, "message": self.message}


def errors(schema: object, value: object, limit: int | None = MAX_ERRORS) -> list[SchemaError]:
    """``Value.Errors``: the first ``limit`` errors in TypeBox order."""
    found = _errors(schema, value, "", "#")
    return list(found if limit is None else islice(found, limit))


def check(schema: object, value: object) -> bool:
    """``Value.Check``."""
    return next(_errors(schema, value, "", "#"), None) is None


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def _type_ok(type_name: object, value: object) -> bool:
    if type_name == "string":
        return isinstance(value, str)
    if type_name == "number":
        return is_number(value) and math.isfinite(value)
    if type_name == "integer":
        return is_number(value) and math.isfinite(value) and float(value).is_integer()
    if type_name == "boolean":
        return isinstance(value, bool)
    if type_name == "null":
        return value is None
    if type_name == "array":
        return isinstance(value, list)
    if type_name == "object":
        return isinstance(value, dict)
    return True


def _num(n: object) -> str:
    return number_to_js_string(n) if is_number(n) else str(n)


def _errors(s: object, v: object, path: str, spath: str) -> Iterator[SchemaError]:
    if s is True or not isinstance(s, dict):
        if s is False:
            yield SchemaError("false", path, "schema is false", {}, spath)
        return
    if "type" in s:
        t = s["type"]
        if isinstance(t, list):
            if not any(_type_ok(x, v) for x in t):
                yield SchemaError("type", path, "must be either " + " or ".join(map(str, t)),
                                  {"type": t}, spath + "/type")
        elif not _type_ok(t, v):
            yield SchemaError("type", path, f"must be {t}", {"type": t}, spath + "/type")
    if isinstance(v, dict):
        yield from _object_errors(s, v, path, spath)
    elif isinstance(v, list):
        yield from _array_errors(s, v, path, spath)
    elif isinstance(v, str):
        yield from _string_errors(s, v, path, spath)
    elif is_number(v):
        yield from _number_errors(s, v, path, spath)
    if "const" in s and not deep_equal(s["const"], v):
        yield SchemaError("const", path, "must be equal to constant", {"allowedValue": s["const"]},
                          spath + "/const")
    if isinstance(s.get("enum"), list) and not any(deep_equal(e, v) for e in s["enum"]):
        yield SchemaError("enum", path, "must be equal to one of the allowed values",
                          {"allowedValues": s["enum"]}, spath + "/enum")
    if "not" in s and check(s["not"], v):
        yield SchemaError("not", path, "must not be valid", {}, spath + "/not")
    if isinstance(s.get("allOf"), list):
        for i, sub in enumerate(s["allOf"]):
            yield from _errors(sub, v, path, f"{spath}/allOf/{i}")
    if isinstance(s.get("anyOf"), list):
        branch_errors = []
        for i, sub in enumerate(s["anyOf"]):
            found = list(islice(_errors(sub, v, path, f"{spath}/anyOf/{i}"), MAX_ERRORS))
            if not found:
                break
            branch_errors.extend(found)
        else:
            yield from branch_errors
            yield SchemaError("anyOf", path, "must match a schema in anyOf", {}, spath + "/anyOf")
    yield from _applicator_errors(s, v, path, spath)
    if isinstance(s.get("oneOf"), list):
        branch_errors, passing = [], 0
        for i, sub in enumerate(s["oneOf"]):
            found = list(islice(_errors(sub, v, path, f"{spath}/oneOf/{i}"), MAX_ERRORS))
            if found:
                branch_errors.extend(found)
            else:
                passing += 1
        if passing != 1:
            if passing == 0:
                yield from branch_errors
            yield SchemaError("oneOf", path, "must match exactly one schema in oneOf",
                              {"passingSchemas": passing}, spath + "/oneOf")


def _applicator_errors(s: dict[str, Any], v: object, path: str, spath: str) -> Iterator[SchemaError]:
    """Keywords only a plain JSON Schema carries (the TypeBox rebuild drops them)."""
    if "if" in s and ("then" in s or "else" in s):
        branch = "then" if check(s["if"], v) else "else"
        if branch in s:
            found = list(islice(_errors(s[branch], v, path, f"{spath}/{branch}"), MAX_ERRORS))
            if found:
                yield from found
                yield SchemaError("if", path, f'must match "{branch}" schema', {"failingKeyword": branch},
                                  spath + "/if")
    if isinstance(v, list) and "contains" in s and not any(check(s["contains"], item) for item in v):
        yield SchemaError("contains", path, "must contain at least 1 valid item", {}, spath + "/contains")
    if isinstance(v, dict):
        dependent = s.get("dependentRequired")
        if isinstance(dependent, dict):
            for name, deps in dependent.items():
                missing = [d for d in deps if d not in v] if name in v and isinstance(deps, list) else []
                if missing:
                    yield SchemaError("dependentRequired", path,
                                      f"must have properties {', '.join(missing)} when property {name} is present",
                                      {"property": name, "missingProperty": missing}, spath + "/dependentRequired")
        if "propertyNames" in s:
            bad = [k for k in object_keys(v) if not check(s["propertyNames"], k)]
            if bad:
                yield SchemaError("propertyNames", path, f"property names {', '.join(bad)} are invalid",
                                  {"propertyNames": bad}, spath + "/propertyNames")


def _object_errors(s: dict[str, Any], v: dict[str, Any], path: str, spath: str) -> Iterator[SchemaError]:
    props = as_object(s.get("properties"))
    required = as_array(s.get("required"))
    missing = [k for k in required if k not in v]
    if missing:
        yield SchemaError("required", path, "must have required properties " + ", ".join(missing),
                          {"requiredProperties": missing}, spath + "/required")
    extra = s.get("additionalProperties", True)
    patterns = as_object(s.get("patternProperties"))
    if extra is not True and "additionalProperties" in s:
        # TypeBox: one error at the object's own path listing every undeclared key whose value
        # fails the additionalProperties schema (all of them for `false`); nested errors are not
        # reported. Declared names match exactly; patternProperties keys count as declared.
        extras = [k for k in object_keys(v) if k not in props and not _matches_any(patterns, k)
                  and not check(extra, v[k])]
        if extras:
            yield SchemaError("additionalProperties", path, "must not have additional properties",
                              {"additionalProperties": extras}, spath + "/additionalProperties")
    for k, sub in props.items():
        if k in v:
            yield from _errors(sub, v[k], f"{path}/{_escape(k)}", f"{spath}/properties/{_escape(k)}")
    for pattern, sub in patterns.items():
        for k in object_keys(v):
            if _matches_any({pattern: sub}, k):
                yield from _errors(sub, v[k], f"{path}/{_escape(k)}", f"{spath}/patternProperties")
    n = len(v)
    if "minProperties" in s and is_number(s["minProperties"]) and n < s["minProperties"]:
        yield SchemaError("minProperties", path,
                          f"must not have fewer than {_num(s['minProperties'])} properties",
                          {"limit": s["minProperties"]}, spath + "/minProperties")
    if "maxProperties" in s and is_number(s["maxProperties"]) and n > s["maxProperties"]:
        yield SchemaError("maxProperties", path,
                          f"must not have more than {_num(s['maxProperties'])} properties",
                          {"limit": s["maxProperties"]}, spath + "/maxProperties")


def _matches_any(patterns: dict[str, Any], key: str) -> bool:
    """``new RegExp(pattern).test(key)`` for any patternProperties pattern."""
    if not patterns:
        return False
    from engine.jsregex import JSSyntaxError, compile_js

    for pattern in patterns:
        try:
            if compile_js(pattern).test(key):
                return True
        except JSSyntaxError:
            continue
    return False


def _array_errors(s: dict[str, Any], v: list[Any], path: str, spath: str) -> Iterator[SchemaError]:
    if "items" in s and isinstance(s["items"], dict | bool):
        for i, item in enumerate(v):
            yield from _errors(s["items"], item, f"{path}/{i}", spath + "/items")
    n = len(v)
    if is_number(s.get("maxItems")) and n > s["maxItems"]:
        yield SchemaError("maxItems", path, f"must not have more than {_num(s['maxItems'])} items",
                          {"limit": s["maxItems"]}, spath + "/maxItems")
    if is_number(s.get("minItems")) and n < s["minItems"]:
        yield SchemaError("minItems", path, f"must not have fewer than {_num(s['minItems'])} items",
                          {"limit": s["minItems"]}, spath + "/minItems")
    if s.get("uniqueItems") is True and _has_duplicates(v):
        yield SchemaError("uniqueItems", path, "must not have duplicate items", {},
                          spath + "/uniqueItems")


def _has_duplicates(items: list[Any]) -> bool:
    return any(deep_equal(items[i], items[j]) for i in range(len(items)) for j in range(i))


def grapheme_count(text: str) -> int:
    """TypeBox's string length for min/maxLength: clusters of a code point plus combining marks
    and variation selectors; U+200D joins the next code point; a regional-indicator pair counts
    once; a surrogate pair (already one Python character) counts once."""
    count, i, n = 0, 0, len(text)
    while i < n:
        cp = ord(text[i])
        i += 1
        if 0x1F1E6 <= cp <= 0x1F1FF and i < n and 0x1F1E6 <= ord(text[i]) <= 0x1F1FF:
            i += 1
        while i < n:
            nxt = ord(text[i])
            if _is_modifier(nxt):
                i += 1
            elif nxt == 0x200D:
                i += 1
                if i < n:
                    i += 1
            else:
                break
        count += 1
    return count


def _is_modifier(cp: int) -> bool:
    return (0x300 <= cp <= 0x36F or 0x1AB0 <= cp <= 0x1AFF or 0x1DC0 <= cp <= 0x1DFF
            or 0xFE20 <= cp <= 0xFE2F or 0xFE00 <= cp <= 0xFE0F)


def _string_errors(s: dict[str, Any], v: str, path: str, spath: str) -> Iterator[SchemaError]:
    if is_number(s.get("maxLength")) or is_number(s.get("minLength")):
        n = grapheme_count(v)
        if is_number(s.get("maxLength")) and n > s["maxLength"]:
            yield SchemaError("maxLength", path,
                              f"must not have more than {_num(s['maxLength'])} characters",
                              {"limit": s["maxLength"]}, spath + "/maxLength")
        if is_number(s.get("minLength")) and n < s["minLength"]:
            yield SchemaError("minLength", path,
                              f"must not have fewer than {_num(s['minLength'])} characters",
                              {"limit": s["minLength"]}, spath + "/minLength")
    if isinstance(s.get("format"), str) and not _format_ok(s["format"], v):
        yield SchemaError("format", path, f'must match format "{s["format"]}"',
                          {"format": s["format"]}, spath + "/format")
    if isinstance(s.get("pattern"), str) and not _pattern_ok(s["pattern"], v):
        yield SchemaError("pattern", path, f'must match pattern "{s["pattern"]}"',
                          {"pattern": s["pattern"]}, spath + "/pattern")


def _pattern_ok(pattern: str, value: str) -> bool:
    from engine.jsregex import JSSyntaxError, compile_js

    try:
        return compile_js(pattern, "u").test(value)
    except JSSyntaxError:
        return False


# TypeBox's built-in string formats (the common subset); unknown formats pass.
_FORMATS = {
    "date": re.compile(r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\Z"),
    "time": re.compile(r"([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(z|[+-]([01]\d|2[0-3]):?[0-5]\d)?\Z", re.I),
    "date-time": re.compile(r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[t\s]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(z|[+-]([01]\d|2[0-3]):?[0-5]\d)\Z", re.I),
    "email": re.compile(r"[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]*[a-z0-9])?\Z", re.I),
    "uuid": re.compile(r"(urn:uuid:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\Z", re.I),
    "ipv4": re.compile(r"((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\Z"),
    "uri": re.compile(r"[a-z][a-z0-9+.-]*:[^\s]*\Z", re.I),
    "hostname": re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\Z", re.I),
}


def _format_ok(name: str, value: str) -> bool:
    rx = _FORMATS.get(name)
    return True if rx is None else rx.match(value) is not None


def _number_errors(s: dict[str, Any], v: float, path: str, spath: str) -> Iterator[SchemaError]:
    checks: tuple[tuple[str, str, Callable[[float], bool]], ...] = (
        ("exclusiveMaximum", "<", lambda lim: v < lim),
        ("exclusiveMinimum", ">", lambda lim: v > lim),
        ("maximum", "<=", lambda lim: v <= lim),
        ("minimum", ">=", lambda lim: v >= lim),
    )
    for keyword, comparison, ok in checks:
        limit = s.get(keyword)
        if is_number(limit) and not ok(limit):
            yield SchemaError(keyword, path, f"must be {comparison} {_num(limit)}",
                              {"comparison": comparison, "limit": limit}, f"{spath}/{keyword}")
    m = s.get("multipleOf")
    if is_number(m) and m != 0 and math.fmod(v, m) != 0:
        yield SchemaError("multipleOf", path, f"must be multiple of {_num(m)}", {"multipleOf": m},
                          spath + "/multipleOf")


# ----------------------------------------------------------------------------- convert

_FAIL = object()
_BIGINT = re.compile(r"-?(0|[1-9]\d*)n\Z")
_DECIMAL = re.compile(r"-?(0|[1-9]\d*)\.\d+\Z")
_INTEGER = re.compile(r"-?(0|[1-9]\d*)\Z")


def convert(schema: Any, value: Any) -> Any:
    """``Value.Convert`` on an already-cloned value (objects are converted in place)."""
    kind = schema.get(KIND) if isinstance(schema, dict) else None
    if kind is None:
        return value
    handler = _CONVERTERS.get(kind)
    return value if handler is None else handler(schema, value)


def _try_string(v: object) -> Any:
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if is_number(v) and math.isfinite(v):
        return number_to_js_string(v)
    if v is None:
        return "null"
    return _FAIL


def _try_number(v: object) -> Any:
    if isinstance(v, bool):
        return 1 if v else 0
    if is_number(v):
        return v if math.isfinite(v) else _FAIL
    if v is None:
        return 0
    if isinstance(v, str):
        n = js_number(v)
        if math.isfinite(n):
            return normalize_number(n)
        lowered = v.lower()
        if lowered in ("true", "false"):
            return 1 if lowered == "true" else 0
        for rx, text in ((_BIGINT, v[:-1]), (_DECIMAL, v.split(".")[0]), (_INTEGER, v)):
            if rx.match(v):
                n = int(text)
                return n if -MAX_SAFE_INTEGER <= n <= MAX_SAFE_INTEGER else _FAIL
    return _FAIL


def _try_boolean(v: object) -> Any:
    if isinstance(v, bool):
        return v
    if is_number(v) and v in (0, 1):
        return v == 1
    if v is None:
        return False
    if isinstance(v, str):
        lowered = v.lower()
        if lowered in ("true", "1"):
            return True
        if lowered in ("false", "0"):
            return False
    return _FAIL


def _try_null(v: object) -> Any:
    if v is None or v is False or (is_number(v) and not isinstance(v, bool) and v == 0):
        return None
    if isinstance(v, str) and (v in ("", "0") or v.lower() in ("null", "undefined")):
        return None
    return _FAIL


Converter = Callable[[dict[str, Any], Any], Any]  # (schema node, value) -> converted value


def _convert_with(try_fn: Callable[[Any], Any]) -> Converter:
    def run(_schema: dict[str, Any], v: object) -> Any:
        result = try_fn(v)
        return v if result is _FAIL else result
    return run


def _convert_integer(_schema: dict[str, Any], v: object) -> Any:
    result = _try_number(v)
    if result is _FAIL:
        return v
    return normalize_number(float(math.trunc(result))) if isinstance(result, float) else result


def _convert_literal(schema: dict[str, Any], v: object) -> Any:
    const = schema.get("const")
    if js_strict_equal(v, const):
        return v
    typeof = js_typeof(const)
    try_fn = {"boolean": _try_boolean, "number": _try_number, "string": _try_string}.get(typeof)
    if try_fn is None:
        return v
    result = try_fn(v)
    return result if result is not _FAIL and js_strict_equal(result, const) else v


def _convert_array(schema: dict[str, Any], v: object) -> Any:
    items = v if isinstance(v, list) else [v]
    item_schema = schema.get("items")
    return [convert(item_schema, item) for item in items]


def _key_matches(pattern: str, key: str) -> bool:
    """``new RegExp(`^${p}$`).test(key)``: the property name is used unescaped."""
    if re.fullmatch(r"[\w\- ]*", pattern):
        return pattern == key
    from engine.jsregex import JSSyntaxError, compile_js

    try:
        return compile_js(f"^{pattern}$").test(key)
    except JSSyntaxError:
        return pattern == key


def _convert_object(schema: dict[str, Any], v: object) -> Any:
    if not isinstance(v, dict):
        return v
    props = schema.get("properties", {})
    for name, sub in props.items():
        for key in list(v):
            if _key_matches(name, key):
                v[key] = convert(sub, v[key])
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        for name in props:
            for key in list(v):
                if not _key_matches(name, key):
                    v[key] = convert(extra, v[key])
    return v


def _convert_union(schema: dict[str, Any], v: object) -> Any:
    variants = schema.get("anyOf", [])
    if any(check(variant, v) for variant in variants):
        return v
    for variant in variants:
        candidate = convert(variant, deep_clone(v))
        if check(schema, candidate):
            return candidate
    return v


_CONVERTERS = {
    "String": _convert_with(_try_string),
    "Number": _convert_with(_try_number),
    "Boolean": _convert_with(_try_boolean),
    "Null": _convert_with(_try_null),
    "Integer": _convert_integer,
    "Literal": _convert_literal,
    "Array": _convert_array,
    "Object": _convert_object,
    "Union": _convert_union,
}

__all__ = [
    "KIND",
    "MAX_ERRORS",
    "SCHEMA_MODES",
    "UNDEFINED",
    "SchemaError",
    "build_schema",
    "check",
    "convert",
    "errors",
    "grapheme_count",
]
