"""A tiny validator that reproduces zod 4's issue objects and messages for the RTK filter schema.

OmniRoute validates filter files with zod 4 and shows the thrown ``ZodError`` message — the issue
list as ``JSON.stringify(issues, null, 2)`` — verbatim. Reproducing that text (key order,
English messages, union handling, which issues "abort") is what lets the IDE and the
``rtk-sources`` diagnostics match the reference byte for byte.

Only the schema features the RTK filter schema uses are modelled: strict objects, strings with a
minimum length, booleans, integers with bounds, string enums, arrays with a minimum length,
``.default()`` (which, as in zod 4, returns the default *without* parsing it), ``.optional()``
and two-branch unions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.jsvalues import utf16_len


class _Missing:
    """The JavaScript ``undefined`` of a key that is absent."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
MAX_SAFE_INTEGER = 9007199254740991


def parsed_type(value: Any) -> str:
    """zod 4's English-locale name of a value's type (``received …`` in messages)."""
    if value is MISSING:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "NaN" if value != value else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


@dataclass
class Issue:
    """One zod issue; ``fields`` keeps zod's key order, ``aborted`` is ``continue !== true``."""

    fields: dict[str, Any]
    path: list[Any]
    message: str
    aborted: bool = True

    def finalized(self) -> dict[str, Any]:
        out = dict(self.fields)
        out["path"] = list(self.path)
        out["message"] = self.message
        if out.get("code") == "invalid_union":
            # ``errors`` is already a list of finalized branch lists.
            pass
        return out


def _type_issue(expected: str, value: Any) -> Issue:
    return Issue({"expected": expected, "code": "invalid_type"}, [],
                 f"Invalid input: expected {expected}, received {parsed_type(value)}")


class Schema:
    # The parsed value is ``Any`` on purpose: its shape is what the schema guarantees (a dict with
    # these keys, a list of those), which the type checker cannot follow from a schema value.
    def run(self, value: object) -> tuple[Any, list[Issue]]:
        raise NotImplementedError


class Str(Schema):
    def __init__(self, min_length: int | None = None) -> None:
        self.min_length = min_length

    def run(self, value: object) -> tuple[Any, list[Issue]]:
        if not isinstance(value, str):
            return value, [_type_issue("string", value)]
        if self.min_length is not None and utf16_len(value) < self.min_length:
            return value, [Issue(
                {"origin": "string", "code": "too_small", "minimum": self.min_length, "inclusive": True}, [],
                f"Too small: expected string to have >={self.min_length} characters", aborted=False)]
        return value, []


class Bool(Schema):
    def run(self, value: object) -> tuple[Any, list[Issue]]:
        if not isinstance(value, bool):
            return value, [_type_issue("boolean", value)]
        return value, []


class Int(Schema):
    """``z.number().int().min(lo).max(hi)``."""

    def __init__(self, minimum: int | None = None, maximum: int | None = None) -> None:
        self.minimum, self.maximum = minimum, maximum

    def run(self, value: object) -> tuple[Any, list[Issue]]:
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value \
                or value in (float("inf"), float("-inf")):
            return value, [_type_issue("number", value)]
        if isinstance(value, float) and not value.is_integer():
            return value, [Issue({"expected": "int", "format": "safeint", "code": "invalid_type"}, [],
                                 "Invalid input: expected int, received number")]
        if abs(value) > MAX_SAFE_INTEGER:
            big = value > 0
            bound = MAX_SAFE_INTEGER if big else -MAX_SAFE_INTEGER
            code, key, rel = ("too_big", "maximum", "<=") if big else ("too_small", "minimum", ">=")
            return value, [Issue({"code": code, key: bound,
                                  "note": "Integers must be within the safe integer range.", "origin": "number"},
                                 [], f"{'Too big' if big else 'Too small'}: expected number to be {rel}{bound}",
                                 aborted=False)]
        number = int(value)
        issues: list[Issue] = []
        if self.minimum is not None and number < self.minimum:
            issues.append(Issue({"origin": "number", "code": "too_small", "minimum": self.minimum,
                                 "inclusive": True}, [],
                                f"Too small: expected number to be >={self.minimum}", aborted=False))
        if self.maximum is not None and number > self.maximum:
            issues.append(Issue({"origin": "number", "code": "too_big", "maximum": self.maximum,
                                 "inclusive": True}, [],
                                f"Too big: expected number to be <={self.maximum}", aborted=False))
        return number, issues


class Enum(Schema):
    def __init__(self, values: Sequence[str]) -> None:
        self.values = list(values)

    def run(self, value: object) -> tuple[Any, list[Issue]]:
        if isinstance(value, str) and value in self.values:
            return value, []
        joined = "|".join(f'"{v}"' for v in self.values)
        return value, [Issue({"code": "invalid_value", "values": list(self.values)}, [],
                             f"Invalid option: expected one of {joined}")]


class Arr(Schema):
    def __init__(self, item: Schema, min_items: int | None = None) -> None:
        self.item, self.min_items = item, min_items

    def run(self, value: object) -> tuple[Any, list[Issue]]:
        if not isinstance(value, list):
            return value, [_type_issue("array", value)]
        out, issues = [], []
        for index, element in enumerate(value):
            parsed, element_issues = self.item.run(element)
            for issue in element_issues:
                issue.path.insert(0, index)
            issues.extend(element_issues)
            out.append(parsed)
        if self.min_items is not None and not any(i.aborted for i in issues) and len(value) < self.min_items:
            issues.append(Issue({"origin": "array", "code": "too_small", "minimum": self.min_items,
                                 "inclusive": True}, [],
                                f"Too small: expected array to have >={self.min_items} items", aborted=False))
        return out, issues


class Default(Schema):
    """``inner.default(value)``: an absent key yields the default as is (no inner parse)."""

    def __init__(self, inner: Schema, default: Any) -> None:
        self.inner, self.default = inner, default

    def run(self, value: object) -> tuple[Any, list[Issue]]:
        if value is MISSING:
            return _fresh(self.default), []
        return self.inner.run(value)


class Optional(Schema):
    def __init__(self, inner: Schema) -> None:
        self.inner = inner

    def run(self, value: object) -> tuple[Any, list[Issue]]:
        if value is MISSING:
            return MISSING, []
        return self.inner.run(value)


class Obj(Schema):
    """A strict object: unknown keys give one ``unrecognized_keys`` issue after the shape's."""

    def __init__(self, shape: Sequence[tuple[str, Schema]]) -> None:
        self.shape = list(shape)
        self.keys = {k for k, _ in shape}

    def run(self, value: object) -> tuple[Any, list[Issue]]:
        if not isinstance(value, dict):
            return value, [_type_issue("object", value)]
        out: dict[str, Any] = {}
        issues: list[Issue] = []
        for key, schema in self.shape:
            parsed, key_issues = schema.run(value.get(key, MISSING))
            for issue in key_issues:
                issue.path.insert(0, key)
            issues.extend(key_issues)
            if parsed is not MISSING:
                out[key] = parsed
        unknown = [k for k in value if k not in self.keys]
        if unknown:
            plural = "s" if len(unknown) > 1 else ""
            listed = ", ".join(f'"{k}"' for k in unknown)
            issues.append(Issue({"code": "unrecognized_keys", "keys": unknown}, [],
                                f"Unrecognized key{plural}: {listed}"))
        return out, issues


class Union(Schema):
    """zod 4 union: first clean branch wins; else a single non-aborted branch's issues; else
    one ``invalid_union`` issue listing every branch's issues."""

    def __init__(self, *options: Schema) -> None:
        self.options = options
        self.last_branch: int | None = None

    def run_branches(self, value: object) -> tuple[Any, list[Issue], int | None]:
        # Branches are pure (each builds its own output), so the first clean one ends the search
        # without running the rest — as zod does; only a failing input needs every branch's issues.
        results = []
        for index, option in enumerate(self.options):
            parsed, issues = option.run(value)
            if not issues:
                return parsed, [], index
            results.append((parsed, issues))
        nonaborted = [i for i, (_, issues) in enumerate(results) if not any(x.aborted for x in issues)]
        if len(nonaborted) == 1:
            index = nonaborted[0]
            return results[index][0], results[index][1], index
        errors = [[issue.finalized() for issue in issues] for _, issues in results]
        return value, [Issue({"code": "invalid_union", "errors": errors}, [], "Invalid input")], None

    def run(self, value: object) -> tuple[Any, list[Issue]]:
        parsed, issues, _ = self.run_branches(value)
        return parsed, issues


def error_message(issues: list[Issue]) -> str:
    """``ZodError.message``: the finalized issues as ``JSON.stringify(issues, null, 2)``."""
    return json.dumps([issue.finalized() for issue in issues], indent=2, ensure_ascii=False)


def _fresh(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    return value


