"""Schema-located repair (``repairSchemaInput``, spec §5).

Legacy path fields, a strict fast path, root repairs (stringified object, rootString wrap),
legacy structural repairs, then up to three passes of per-site rules located by the strict
errors, and a Convert + Check verdict. Iteration never invents values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.jsvalues import UNDEFINED, as_array, as_object, js_trim, js_trim_start

from .context import RepairContext
from .feedback import fingerprint, issue_summary, retry_message
from .jsdata import JSONParseError, deep_clone, is_plain_object, js_get, js_in, parse_json
from .model import RepairChange
from .preprocess import fold_flat_edit_fields, unwrap_markdown_autolinks
from .typebox import SchemaError, check, convert, errors

MAX_PASSES = 3
STAGE = "schema-repair"

LegacyStructural = Callable[[Any, str], Any]  # (args, toolName) -> note | False; mutates args


def legacy_fold(args: Any, tool_name: str) -> str | bool:
    """``foldFlatEditFields`` as a legacy structural repair: in place, real tool name."""
    folded = fold_flat_edit_fields(args, tool_name)
    if folded is None:
        return False
    args.clear()
    args.update(folded[0])
    return folded[1]


BUILTIN_LEGACY_STRUCTURAL: dict[str, LegacyStructural] = {"foldFlatEditFields": legacy_fold}


@dataclass
class LegacyConfig:
    """pi's ``ToolRepairConfig``."""

    field_aliases: dict[str, list[str]] = field(default_factory=dict)
    root_string: dict[str, Any] | None = None  # {"field": F, "wrapInArray"?: bool}
    path_fields: list[str] = field(default_factory=list)
    structural: list[tuple[str, LegacyStructural]] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> LegacyConfig:
        data = data or {}
        aliases = as_object(data.get("fieldAliases"))
        root = data.get("rootString") if isinstance(data.get("rootString"), dict) else None
        paths = as_array(data.get("pathFields"))
        structural: list[tuple[str, LegacyStructural]] = []
        for item in data.get("structural") or []:
            if isinstance(item, str) and item in BUILTIN_LEGACY_STRUCTURAL:
                structural.append((item, BUILTIN_LEGACY_STRUCTURAL[item]))
            elif isinstance(item, dict) and callable(item.get("apply")):
                structural.append((str(item.get("name", "structural")), item["apply"]))
            elif isinstance(item, dict) and item.get("name") in BUILTIN_LEGACY_STRUCTURAL:
                structural.append((item["name"], BUILTIN_LEGACY_STRUCTURAL[item["name"]]))
        return cls({k: [a for a in v if isinstance(a, str)] for k, v in aliases.items() if isinstance(v, list)},
                   root, [p for p in paths if isinstance(p, str)], structural)


@dataclass
class SchemaStageResult:
    outcome: str
    args: Any
    changes: list[RepairChange] = field(default_factory=list)
    errors: list[SchemaError] = field(default_factory=list)
    issue_summary: str | None = None
    fingerprint: str | None = None
    retry_message: str | None = None
    final_value: Any = None  # the value after every repair attempt (for strict retry texts)


@dataclass
class _Site:
    parent: Any
    key: Any
    expected: str | None


def _decode(segment: str) -> str:
    return segment.replace("~1", "/").replace("~0", "~")


def _walk(root: object, segments: list[str]) -> Any:
    node = root
    for segment in segments:
        if isinstance(node, dict):
            node = node.get(segment, UNDEFINED)
        elif isinstance(node, list) and segment.isdigit() and int(segment) < len(node):
            node = node[int(segment)]
        else:
            return UNDEFINED
    return node


def _segments(pointer: str) -> list[str]:
    return [_decode(s) for s in pointer.split("/")[1:]] if pointer else []


def collect_sites(value: object, errs: list[SchemaError]) -> list[_Site]:
    sites: list[_Site] = []
    seen: set[str] = set()
    for error in errs:
        if error.keyword == "required":
            parent = _walk(value, _segments(error.instance_path))
            for name in error.params.get("requiredProperties", []):
                key = f"{error.instance_path}::{name}"
                if key in seen:
                    continue
                seen.add(key)
                if is_plain_object(parent):
                    sites.append(_Site(parent, name, None))
            continue
        if not error.instance_path or error.instance_path in seen:
            continue
        seen.add(error.instance_path)
        segments = _segments(error.instance_path)
        parent = _walk(value, segments[:-1])
        last = segments[-1]
        index_or_key: int | str = int(last) if last.isdigit() and last.isascii() else last
        expected = error.params.get("type") if isinstance(error.params.get("type"), str) else None
        if isinstance(parent, dict | list):
            sites.append(_Site(parent, index_or_key, expected))
    return sites


class _Stage:
    def __init__(self, ctx: RepairContext, legacy: LegacyConfig) -> None:
        self.ctx = ctx
        self.legacy = legacy
        self.changes: list[RepairChange] = []
        self.refused = False  # strict: a value was judged unrepairable (REP-Q1 fix)

    @property
    def tool(self) -> str:
        return self.ctx.tool_name

    def fire(self, rule_id: str, note: str) -> None:
        self.changes.append(RepairChange(rule_id, STAGE, note))

    def path_fields(self, value: Any) -> None:
        if not is_plain_object(value):
            return
        for name in self.legacy.path_fields:
            before = value.get(name)
            if not isinstance(before, str):
                continue
            after = unwrap_markdown_autolinks(before, relative_links=self.ctx.strict)
            if after != before:
                value[name] = after
                self.fire("unwrapMarkdownAutoLink",
                          f"Unwrapped a markdown auto-link in `{name}` for tool \"{self.tool}\" "
                          f"(`{before}` -> `{after}`). Send plain paths, not markdown links.")

    def root_repair(self, value: str) -> Any:
        trimmed = js_trim(value)
        if trimmed.startswith("{") and trimmed.endswith("}"):
            try:
                parsed = parse_json(trimmed, exact_ints=self.ctx.strict)
            except JSONParseError:
                parsed = None
            if is_plain_object(parsed):
                self.fire("parseJsonStringifiedRootObject",
                          f"Parsed your JSON-stringified arguments for tool \"{self.tool}\". Send the "
                          "arguments as a JSON object next time, not a string.")
                return parsed
        root = self.legacy.root_string
        if root and isinstance(root.get("field"), str):
            if js_trim_start(value).startswith("{"):
                if self.ctx.strict:
                    return value  # strict fix of REP-Q14: never wrap JSON-looking object text
                self.ctx.quirk("REP-Q14", "rootString wrapped text that looks like a truncated JSON object")
            name = root["field"]
            in_array = bool(root.get("wrapInArray"))
            shape = '["..."]' if in_array else '"..."'
            self.fire("wrapRootStringAsObject",
                      f"Wrapped your bare string as `{{{name}: {shape}}}` for tool \"{self.tool}\". "
                      "Call this tool with an object, not a bare string, next time.")
            return {name: [value] if in_array else value}
        return value

    # -- per-site rules, in order; the first that fires wins the site

    def rename_aliased_field(self, site: _Site) -> bool:
        parent, key = site.parent, site.key
        if not is_plain_object(parent) or not isinstance(key, str):
            return False
        own_only = self.ctx.strict
        current = js_get(parent, key, own_only=own_only)
        if current is not None and current is not UNDEFINED:
            return False
        for alias in self.legacy.field_aliases.get(key, []):
            if not js_in(alias, parent, own_only=own_only):
                continue
            candidate = js_get(parent, alias, own_only=own_only)
            if candidate is None or candidate is UNDEFINED or candidate == "":
                continue
            parent[key] = candidate
            parent.pop(alias, None)
            self.fire("renameAliasedField",
                      f"Renamed `{alias}` to `{key}` for tool \"{self.tool}\". Use `{key}` next time — "
                      f"`{alias}` is not a valid field for this tool.")
            return True
        return False

    def drop_null(self, site: _Site) -> bool:
        parent, key = site.parent, site.key
        if not is_plain_object(parent):
            return False
        key = str(key)
        if key not in parent or (parent[key] is not None and parent[key] is not UNDEFINED):
            return False
        word = "null" if parent[key] is None else "undefined"
        del parent[key]
        self.fire("dropNullOrUndefinedField",
                  f"Dropped {word} `{key}` from tool \"{self.tool}\". Optional fields can be omitted "
                  f"entirely rather than sent as {word}.")
        return True

    def drop_empty_object(self, site: _Site) -> bool:
        parent, key = site.parent, site.key
        if site.expected != "array" or not is_plain_object(parent):
            return False
        key = str(key)
        if not (isinstance(parent.get(key), dict) and not parent[key]):
            return False
        del parent[key]
        self.fire("dropEmptyObjectPlaceholder",
                  f"Dropped empty `{{}}` placeholder from `{key}` for tool \"{self.tool}\". Send an "
                  "actual array (or omit the field) next time.")
        return True

    def _get(self, site: _Site) -> Any:
        if isinstance(site.parent, list):
            return site.parent[site.key] if isinstance(site.key, int) and site.key < len(site.parent) else UNDEFINED
        return site.parent.get(str(site.key), UNDEFINED)

    def _set(self, site: _Site, value: object) -> None:
        if isinstance(site.parent, list):
            site.parent[site.key] = value
        else:
            site.parent[str(site.key)] = value

    def _parse(self, site: _Site, opener: str, closer: str) -> Any:
        value = self._get(site)
        if not isinstance(value, str):
            return UNDEFINED
        trimmed = js_trim(value)
        if not (trimmed.startswith(opener) and trimmed.endswith(closer)):
            return UNDEFINED
        try:  # no control-character escaping here: only the envelope does that (pi#8521)
            return parse_json(trimmed, exact_ints=self.ctx.strict)
        except JSONParseError:
            return UNDEFINED

    def parse_array(self, site: _Site) -> bool:
        if site.expected != "array":
            return False
        parsed = self._parse(site, "[", "]")
        if not isinstance(parsed, list):
            return False
        self._set(site, parsed)
        self.fire("parseJsonStringifiedArray",
                  f"Parsed JSON-stringified array for `{site.key}` in tool \"{self.tool}\". Send the "
                  'array literal directly (e.g. `["a","b"]`) next time, not a string.')
        return True

    def parse_object(self, site: _Site) -> bool:
        if site.expected != "object":
            return False
        parsed = self._parse(site, "{", "}")
        if not is_plain_object(parsed):
            return False
        self._set(site, parsed)
        self.fire("parseJsonStringifiedObject",
                  f"Parsed JSON-stringified object for `{site.key}` in tool \"{self.tool}\". Send the "
                  "object literal directly next time, not a string.")
        return True

    def wrap_string(self, site: _Site) -> bool:
        value = self._get(site)
        if site.expected != "array" or not isinstance(value, str):
            return False
        if js_trim_start(value).startswith("["):
            if self.ctx.strict:  # strict fix of REP-Q1: broken JSON array text is unrepairable
                self.refused = True
                return False
            self.ctx.quirk("REP-Q1", f"wrapped unparseable array text at `{site.key}` as a one-item array")
        self._set(site, [value])
        self.fire("wrapBareStringAsArray",
                  f"Wrapped your bare string in a single-element array for `{site.key}` in tool "
                  f"\"{self.tool}\". Send an array (e.g. `[\"foo\"]`) next time, not a single string.")
        return True

    def run_site(self, site: _Site) -> bool:
        return (self.rename_aliased_field(site) or self.drop_null(site) or self.drop_empty_object(site)
                or self.parse_array(site) or self.parse_object(site) or self.wrap_string(site))


def repair_schema_input(value: object, ctx: RepairContext, legacy: LegacyConfig) -> SchemaStageResult:
    schema = ctx.schema
    stage = _Stage(ctx, legacy)
    work = deep_clone(value)
    stage.path_fields(work)
    if check(schema, work):
        ctx.step("strict-validation", "strict check passed")
        if not stage.changes:
            return SchemaStageResult("valid", value)
        return SchemaStageResult("repaired", work, stage.changes)
    first_errors = errors(schema, work)
    summary = issue_summary(first_errors)
    print_ = fingerprint(ctx.tool_name, first_errors)
    ctx.step("strict-validation", f"strict check failed: {summary}", fingerprint=print_)

    def unrepairable() -> SchemaStageResult:
        return SchemaStageResult("unrepairable", value, [], first_errors, summary, print_,
                                 retry_message(ctx.tool_name, first_errors, value), work)

    if isinstance(work, str):
        work = stage.root_repair(work)
        stage.path_fields(work)
    if not is_plain_object(work):
        return unrepairable()
    for name, apply in legacy.structural:
        note = apply(work, ctx.tool_name)
        if note:
            stage.fire(name, str(note))
    for number in range(1, MAX_PASSES + 1):
        if check(schema, work):
            break
        fired_before = len(stage.changes)
        fired = False
        for site in collect_sites(work, errors(schema, work)):
            fired = stage.run_site(site) or fired
        rules = [c.rule_id for c in stage.changes[fired_before:]]
        ctx.step("schema-repair", f"pass {number}: " + (", ".join(rules) if rules else "no rule fired"))
        if not fired:
            break
    probe = convert(schema, deep_clone(work))
    if stage.refused or not check(schema, probe):
        return unrepairable()
    if not stage.changes:
        return SchemaStageResult("valid", value, [], first_errors)
    return SchemaStageResult("repaired", probe, stage.changes, first_errors, summary, print_)
