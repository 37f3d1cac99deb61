"""Configured preprocessors (``preprocessInput``, spec §4): explicit, owner-chosen transforms.

They run in configuration order on a deep clone, before any validation. Unknown kinds are
ignored. Model-gated kinds (anchor-bleed, grammar-tokens) mutate only when the policy allows
valid-value transforms; otherwise they are observed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.jsvalues import UNDEFINED, js_number, js_string, js_trim

from .context import RepairContext
from .jsdata import (
    NullProtoDict,
    deep_clone,
    is_number,
    is_plain_object,
    js_get,
    js_in,
    normalize_number,
    same_value,
)
from .model import RepairChange
from .policy import model_matches_families
from .selectors import Location, resolve, schema_at, set_location, split_selector
from .typebox import check

# ------------------------------------------------------------------ value cleanups (pure)

_MARKDOWN_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+)\)")
_BARE_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_PROTOCOL = re.compile(r"\Ahttps?://")


def unwrap_markdown_autolinks(text: str, *, relative_links: bool = False) -> str:
    """Replace ``[x](http(s)://x)`` by ``x`` (anywhere in the string); ``[x](x)`` too when
    ``relative_links`` (the strict fix of REP-Q16)."""
    def replace(m: re.Match[str]) -> str:
        return m.group(1) if _PROTOCOL.sub("", m.group(2)) == m.group(1) else m.group(0)

    out = _MARKDOWN_LINK.sub(replace, text)
    if relative_links:
        out = _BARE_LINK.sub(lambda m: m.group(1) if m.group(2) == m.group(1) else m.group(0), out)
    return out


def has_relative_autolink(text: str) -> bool:
    return any(m.group(1) == m.group(2) for m in _BARE_LINK.finditer(text))


def strip_anchor_bleed(text: str) -> str:
    """Remove every leading ``^`` and every trailing ``$``."""
    return text.lstrip("^").rstrip("$")


_LEADING_TOKEN = re.compile(r"\A<arg_(?:key|value)>")
_TRAILING_TOKEN = re.compile(r"</arg_(?:key|value)>\Z")


def strip_grammar_tokens(text: str, *, trim_always: bool = True) -> str:
    """One leading ``<arg_key>``/``<arg_value>``, one trailing close token, then JS trim.

    The reference trims even when no token was present (REP-Q6); ``trim_always=False`` fixes it.
    """
    stripped = _TRAILING_TOKEN.sub("", _LEADING_TOKEN.sub("", text, count=1), count=1)
    if stripped == text and not trim_always:
        return text
    return js_trim(stripped)


# ------------------------------------------------------------------ the edit fold

OLD_TEXT_KEYS = ("oldText", "old_string", "oldString", "old_str", "oldStr", "old_text", "oldValue",
                 "old_value", "oldContent", "old_content", "old", "from", "search")
NEW_TEXT_KEYS = ("newText", "new_string", "newString", "new_str", "newStr", "new_text", "newValue",
                 "new_value", "newContent", "new_content", "new", "to", "replace")


def fold_flat_edit_fields(value: Any, tool_name: str) -> tuple[dict[str, Any], str] | None:
    """pi's ``foldFlatEditFields``: flat old/new text fields become ``edits: [{oldText, newText}]``.

    Returns ``(new object, note)`` or ``None`` when it does not apply.
    """
    if not is_plain_object(value):
        return None
    edits = value.get("edits", UNDEFINED)
    if isinstance(edits, list) and edits:
        return None
    old_key = next((k for k in OLD_TEXT_KEYS if isinstance(value.get(k), str)), None)
    new_key = next((k for k in NEW_TEXT_KEYS if isinstance(value.get(k), str)), None)
    if old_key is None or new_key is None:
        return None
    old_text, new_text = value[old_key], value[new_key]
    out = value.__class__(value)
    for key in OLD_TEXT_KEYS + NEW_TEXT_KEYS:
        out.pop(key, None)
    out["edits"] = [{"oldText": old_text, "newText": new_text}]
    note = (f"Folded flat `{old_key}`/`{new_key}` fields into `edits: [{{oldText, newText}}]` for tool "
            f"\"{tool_name}\". This tool takes an array of edit objects — send `edits` next time.")
    return out, note


def fold_structural(value: object) -> dict[str, Any] | None:
    """The fold as a structural preprocessor: the reference always names tool "edit" (quirk)."""
    folded = fold_flat_edit_fields(value, "edit")
    return None if folded is None else {"value": folded[0], "note": folded[1]}


BUILTIN_STRUCTURAL: dict[str, Callable[[Any], Any]] = {"foldFlatEditFields": fold_structural}


# ------------------------------------------------------------------ the stage


@dataclass
class PreprocessOutcome:
    value: Any
    changes: list[RepairChange] = field(default_factory=list)
    observed: list[str] = field(default_factory=list)


def _where(selector: str) -> str:
    return selector or "/"


def _accepts(kind: object, value: object) -> bool:
    if kind is None:
        return value is not None and value is not UNDEFINED
    if kind == "string":
        return isinstance(value, str)
    if kind == "number":
        return is_number(value)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    return False


class _Run:
    """One ``preprocessInput`` call."""

    def __init__(self, value: object, ctx: RepairContext) -> None:
        self.value = deep_clone(value)
        self.ctx = ctx
        self.changes: list[RepairChange] = []
        self.observed: list[str] = []
        self.own_only = ctx.strict  # REP-Q11 fix
        self.gate_closed = False

    def locations(self, selector: str) -> list[Location]:
        def numeric(sel: str) -> None:
            self.ctx.quirk("REP-Q4", f"selector {sel!r} has a numeric segment over an array",
                           pointer=sel if sel.startswith("/") else None)
        return resolve(self.value, selector, index_arrays=self.ctx.strict,
                       own_only=self.own_only, on_numeric_array=None if self.ctx.strict else numeric)

    def record(self, rule_id: str, note: str) -> None:
        self.changes.append(RepairChange(rule_id, "preprocess", note))

    def write(self, loc: Location, new: object) -> bool:
        """Store ``new`` at ``loc`` when it differs; True when something changed."""
        if same_value(loc.value, new):
            return False
        self.value = set_location(self.value, loc, new)
        return True

    def map_strings(self, entry: dict[str, Any], rule_id: str, note: str, fn: Callable[[str], str]) -> None:
        for loc in self.locations(str(entry.get("selector", ""))):
            if isinstance(loc.value, str) and self.write(loc, fn(loc.value)):
                self.record(rule_id, note)

    # -- kinds

    def alias(self, entry: dict[str, Any]) -> None:
        selector = str(entry.get("selector", ""))
        segments = selector.split("/")
        canonical = segments.pop().replace("~1", "/").replace("~0", "~")
        parent_selector = "/".join(segments) or "/"
        raw_aliases = entry.get("aliases")
        aliases = [a for a in raw_aliases if isinstance(a, str)] if isinstance(raw_aliases, list) else []
        accepts = entry.get("accepts")
        empty_is_missing = bool(entry.get("emptyEquivalentToMissing"))
        target_schema = schema_at(self.ctx.schema, selector)
        strict = self.ctx.strict
        for loc in self.locations(parent_selector):
            parent = loc.value
            if not is_plain_object(parent):
                continue
            if js_in(canonical, parent, own_only=self.own_only):
                current = js_get(parent, canonical, own_only=self.own_only)
                present = current is not None and current is not UNDEFINED
                if present and not (empty_is_missing and current == ""):
                    empty_rejected = current == "" and target_schema is not None and not check(target_schema, "")
                    if not empty_rejected or not strict:  # strict fix of REP-Q5: such a value is missing
                        if canonical not in parent:
                            self.ctx.quirk("REP-Q11", f"inherited member `{canonical}` blocks its aliases")
                        elif empty_rejected and any(a in parent for a in aliases):
                            self.ctx.quirk("REP-Q5", f"an empty `{canonical}` the schema rejects blocks its aliases")
                        continue
            moved = None
            for alias in aliases:
                if not js_in(alias, parent, own_only=self.own_only):
                    continue
                candidate = js_get(parent, alias, own_only=self.own_only)
                if not _accepts(accepts, candidate) or candidate == "":
                    continue
                if accepts is None and target_schema is not None and not check(target_schema, candidate):
                    if strict:
                        continue  # strict fix of REP-Q8: the value must satisfy the canonical schema
                    self.ctx.quirk("REP-Q8", f"alias `{alias}` moved a value `{canonical}`'s schema rejects")
                if alias not in parent:
                    self.ctx.quirk("REP-Q11", f"alias `{alias}` is an inherited member")
                moved = alias
                parent[canonical] = candidate
                parent.pop(alias, None)
                break
            if moved is None:
                continue
            self.record("preprocess.exact-alias",
                        f"Renamed `{moved}` to `{canonical}` for tool \"{self.ctx.tool_name}\". "
                        f"Use `{canonical}` next time.")
            left = [a for a in aliases if a in parent]
            if left:
                self.ctx.quirk("REP-Q9", f"aliases {', '.join(left)} of `{canonical}` stay as extra keys",
                               level="warning")

    def filesystem_path(self, entry: dict[str, Any], rule_id: str) -> None:
        selector = str(entry.get("selector", ""))
        note = (f"Unwrapped a markdown auto-link at {_where(selector)} for tool "
                f"\"{self.ctx.tool_name}\". Send plain filesystem paths, not markdown links.")
        strict = self.ctx.strict

        def clean(text: str) -> str:
            out = unwrap_markdown_autolinks(text, relative_links=strict)
            if not strict and has_relative_autolink(out):
                self.ctx.quirk("REP-Q16", "a relative `[x](x)` link was left as is")
            return out

        if rule_id == "preprocess.filesystem-path":
            self.map_strings(entry, rule_id, note, clean)
            return
        for loc in self.locations(selector):
            if isinstance(loc.value, list):
                new = [clean(v) if isinstance(v, str) else v for v in loc.value]
                if self.write(loc, new):
                    self.record(rule_id, note)

    def string_or_array(self, entry: dict[str, Any]) -> None:
        selector = str(entry.get("selector", ""))
        note = (f"Applied configured string-or-array preprocessing at {_where(selector)} for tool "
                f"\"{self.ctx.tool_name}\".")
        for loc in self.locations(selector):
            if isinstance(loc.value, str) and self.write(loc, [loc.value]):
                self.record("preprocess.string-or-array", note)

    def scalar(self, entry: dict[str, Any]) -> None:
        selector = str(entry.get("selector", ""))
        scalar_type = entry.get("scalarType")
        note = (f"Applied configured scalar preprocessing at {_where(selector)} for tool "
                f"\"{self.ctx.tool_name}\".")
        target = schema_at(self.ctx.schema, selector)
        for loc in self.locations(selector):
            new = _scalar(loc.value, scalar_type)
            if new is UNDEFINED or same_value(loc.value, new):
                continue
            if target is not None and isinstance(target.get("type"), str) and not check(target, new) \
                    and check(target, loc.value):
                if self.ctx.strict:
                    continue  # strict fix of REP-Q7: the schema type at the location disagrees
                self.ctx.quirk("REP-Q7", f"scalar {scalar_type} at {_where(selector)} fights the schema type")
            self.write(loc, new)
            self.record("preprocess.scalar", note)

    def gated(self, entry: dict[str, Any], rule_id: str, note: str, fn: Callable[[Any], Any]) -> None:
        families = entry.get("modelFamilies")
        if not isinstance(families, list) or not model_matches_families(self.ctx.model_id, families):
            self.gate_closed = True
            return
        for loc in self.locations(str(entry.get("selector", ""))):
            new = fn(loc.value)
            if new is UNDEFINED or same_value(loc.value, new):
                continue
            if self.ctx.policy.allow_valid_value_transforms:
                self.write(loc, new)
                self.record(rule_id, note)
            elif rule_id not in self.observed:
                self.observed.append(rule_id)

    def anchor_bleed(self, entry: dict[str, Any]) -> None:
        note = (f"Stripped leaked regex anchors (`^` / `$`) from a configured value for tool "
                f"\"{self.ctx.tool_name}\".")
        self.gated(entry, "stripAnchorBleed", note,
                   lambda v: strip_anchor_bleed(v) if isinstance(v, str) else UNDEFINED)

    def grammar_tokens(self, entry: dict[str, Any]) -> None:
        note = (f"Removed leaked grammar tokens (`<arg_key>`/`<arg_value>`) from configured keys or "
                f"values for tool \"{self.ctx.tool_name}\".")
        trim_always = not self.ctx.strict

        def clean_text(text: str) -> str:
            out = strip_grammar_tokens(text, trim_always=trim_always)
            if trim_always and out != text and strip_grammar_tokens(text, trim_always=False) == text:
                self.ctx.quirk("REP-Q6", "grammar-tokens trimmed a value that had no token")
            return out

        def clean(value: Any) -> Any:
            if isinstance(value, str):
                return clean_text(value)
            if is_plain_object(value):
                out = NullProtoDict()
                for k, v in value.items():
                    out[clean_text(k)] = clean_text(v) if isinstance(v, str) else v
                return out
            return UNDEFINED

        self.gated(entry, "stripGrammarTokenLeak", note, clean)

    def structural(self, entry: dict[str, Any]) -> None:
        apply = entry.get("apply")
        if not callable(apply):
            apply = BUILTIN_STRUCTURAL.get(str(entry.get("builtin", entry.get("ruleId", ""))))
        if apply is None:
            return
        rule_id = str(entry.get("ruleId") or entry.get("builtin") or "structural")
        for loc in self.locations(str(entry.get("selector", ""))):
            result = apply(loc.value)
            if not result:
                continue
            new, note = (result.get("value"), result.get("note")) if isinstance(result, dict) else result
            if self.write(loc, new):
                self.record(rule_id, str(note))


def _scalar(value: object, scalar_type: object) -> Any:
    if scalar_type == "string" and (is_number(value) or isinstance(value, bool)):
        return js_string(value)
    if scalar_type == "number" and isinstance(value, str) and js_trim(value) != "":
        n = js_number(value)
        if n == n and n not in (float("inf"), float("-inf")):
            return normalize_number(n)
    if scalar_type == "boolean" and isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return UNDEFINED


def preprocess_input(value: object, preprocessors: list[dict[str, Any]], ctx: RepairContext) -> PreprocessOutcome:
    """Run the configured preprocessors in order on a clone of ``value``."""
    run = _Run(value, ctx)
    for entry in preprocessors:
        if not isinstance(entry, dict):
            continue
        kind = entry.get("kind")
        before_changes, before_observed = len(run.changes), len(run.observed)
        run.gate_closed = False
        if kind == "alias":
            run.alias(entry)
        elif kind in ("filesystem-path", "filesystem-path-array"):
            run.filesystem_path(entry, f"preprocess.{kind}")
        elif kind == "string-or-array":
            run.string_or_array(entry)
        elif kind == "scalar":
            run.scalar(entry)
        elif kind == "anchor-bleed":
            run.anchor_bleed(entry)
        elif kind == "grammar-tokens":
            run.grammar_tokens(entry)
        elif kind == "structural":
            run.structural(entry)
        else:  # "glob" and unknown kinds: ignored on purpose (version skew degrades safely)
            ctx.step("preprocess", f"{kind!r} at {_where(str(entry.get('selector', '')))}: unknown kind, ignored")
            continue
        if run.gate_closed:
            ctx.step("preprocess", f"{kind} at {_where(str(entry.get('selector', '')))}: skipped, "
                                   "the model id does not match its model families")
            continue
        changed, observed = len(run.changes) - before_changes, run.observed[before_observed:]
        what = f"{changed} change(s)" if changed else "no change"
        if observed:
            what += f", observed {', '.join(observed)}"
        ctx.step("preprocess", f"{kind} at {_where(str(entry.get('selector', '')))}: {what}")
    return PreprocessOutcome(run.value, run.changes, run.observed)


__all__ = ["BUILTIN_STRUCTURAL", "NEW_TEXT_KEYS", "OLD_TEXT_KEYS", "PreprocessOutcome",
           "fold_flat_edit_fields", "preprocess_input", "split_selector", "strip_anchor_bleed",
           "strip_grammar_tokens", "unwrap_markdown_autolinks"]
