"""The JSON Schemas in ``resources/schemas`` and validation that says where the problem is.

``jsonschema`` reports a path into the instance; we turn it into a pointer so
``JsonDocument.locate`` can put a line and column on it, and reword the messages for people
(``unknown key "x"`` at the key itself, rather than "Additional properties are not allowed").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine import memo
from engine.diagnostics import Diagnostic, Level
from engine.jsondoc import escape_pointer_token, pointer_of
from engine.paths import schemas_dir

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator, ValidationError
    from referencing import Registry

SCHEMA_FILES = {
    "caveman-pack": "caveman-pack.schema.json",
    "rtk-filter": "rtk-filter.schema.json",
    "rtk-filter-file": "rtk-filter-file.schema.json",
    "trust": "trust.schema.json",
    "repair-config": "repair-config.schema.json",
    "params-payload": "params-payload.schema.json",
}


@memo.lru(maxsize=None)
def _registry() -> Registry[Any]:
    from referencing import Registry, Resource

    resources = []
    for path in sorted(schemas_dir().glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resource = Resource.from_contents(schema)
        resources.append((schema.get("$id", path.name), resource))
        resources.append((path.name, resource))
    return Registry().with_resources(resources)


@memo.lru(maxsize=None)
def load_schema(kind: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((schemas_dir() / SCHEMA_FILES[kind]).read_text(encoding="utf-8"))
    return schema


@memo.lru(maxsize=None)
def _validator(kind: str, fragment: str = "") -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    schema = load_schema(kind)
    if fragment:
        schema = {"$ref": f"{schema['$id']}#{fragment}"}
    return Draft202012Validator(schema, registry=_registry())


def _describe(value: object) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "integer" if isinstance(value, int) else "number")


def _messages(error: ValidationError) -> list[tuple[str, str, bool]]:
    """(pointer, message, at_key) for one jsonschema error."""
    pointer = pointer_of(error.absolute_path)
    where = pointer or "the document"
    keyword = error.validator
    # The subschema is an object for every keyword below (a boolean schema reports none of them).
    schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    if keyword == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed]
        return [(pointer + "/" + escape_pointer_token(k), f'unknown key "{k}" in {where}', True) for k in extra]
    if keyword == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return [(pointer, f'{where}: missing required key "{missing}"', False)]
    if keyword == "type":
        want = error.validator_value
        want = " or ".join(want) if isinstance(want, list) else want
        return [(pointer, f"{where} must be {want}, not {_describe(error.instance)}", False)]
    if keyword == "enum" and isinstance(error.validator_value, list):
        options = ", ".join(json.dumps(v) for v in error.validator_value)
        return [(pointer, f"{where} must be one of {options}; got {json.dumps(error.instance)}", False)]
    if keyword in ("minLength", "pattern") and isinstance(error.instance, str) and not error.instance.strip():
        return [(pointer, f"{where} must be a non-empty string", False)]
    if keyword == "anyOf" and schema.get("anyOf") == [{"required": ["replacement"]}, {"required": ["replacementMap"]}]:
        return [(pointer, f"{where} must define replacement or replacementMap", False)]
    return [(pointer, f"{where}: {error.message}", False)]


def validate_against(kind: str, value: object, *, fragment: str = "", code_prefix: str = "schema",
                     unknown_key_level: Level = "error") -> list[Diagnostic]:
    """Schema errors as diagnostics carrying pointers (no line yet).

    ``unknown_key_level``: OmniRoute ignores unknown keys in Caveman packs (a warning) but its
    strict RTK filter objects reject them (an error).
    """
    out: list[Diagnostic] = []
    errors = sorted(_validator(kind, fragment).iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    for error in errors:
        for pointer, message, at_key in _messages(error):
            level: Level = unknown_key_level if at_key else "error"
            out.append(Diagnostic(message, level, f"{code_prefix}:{error.validator}", pointer=pointer,
                                  source="schema", data={"at_key": at_key} if at_key else {}))
    return out


def filter_branch(value: object) -> str:
    """Which RTK filter shape an object is meant to be (OmniRoute tries canonical, then legacy)."""
    if isinstance(value, dict) and ("commandTypes" in value or "name" in value) and "label" not in value:
        return "/$defs/legacy"
    return "/$defs/canonical"
