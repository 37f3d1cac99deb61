"""Catalogue of the stable rule ids a result can carry, for legends and documentation."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleInfo:
    rule_id: str
    stage: str
    summary: str


RULES: dict[str, RuleInfo] = {r.rule_id: r for r in (
    RuleInfo("envelope.decode-json", "envelope", "decoded a JSON-stringified argument object (one per layer)"),
    RuleInfo("envelope.escape-control-character", "envelope", "escaped raw control characters inside JSON strings (first layer)"),
    RuleInfo("envelope.unwrap-singleton-object-array", "envelope", "unwrapped [ {...} ] sent as the arguments"),
    RuleInfo("envelope.complete-truncated-object", "envelope", "completed a truncated JSON object that then passed the schema"),
    RuleInfo("preprocess.exact-alias", "preprocess", "moved a configured alias key to its canonical name"),
    RuleInfo("preprocess.filesystem-path", "preprocess", "unwrapped a markdown auto-link in a path"),
    RuleInfo("preprocess.filesystem-path-array", "preprocess", "unwrapped markdown auto-links in an array of paths"),
    RuleInfo("preprocess.string-or-array", "preprocess", "wrapped a string as a one-item array"),
    RuleInfo("preprocess.scalar", "preprocess", "converted a scalar to the configured scalarType"),
    RuleInfo("stripAnchorBleed", "preprocess", "removed leaked ^/$ regex anchors (model-gated)"),
    RuleInfo("stripGrammarTokenLeak", "preprocess", "removed leaked <arg_key>/<arg_value> tokens (model-gated)"),
    RuleInfo("foldFlatEditFields", "preprocess", "folded flat old/new text fields into edits[] (also a legacy structural repair)"),
    RuleInfo("parseJsonStringifiedRootObject", "schema-repair", "parsed a stringified root object the envelope did not decode"),
    RuleInfo("wrapRootStringAsObject", "schema-repair", "wrapped a bare string as {rootString field: ...}"),
    RuleInfo("unwrapMarkdownAutoLink", "schema-repair", "unwrapped a markdown auto-link in a legacy path field"),
    RuleInfo("renameAliasedField", "schema-repair", "renamed a legacy field alias at a required-property site"),
    RuleInfo("dropNullOrUndefinedField", "schema-repair", "dropped an optional field sent as null"),
    RuleInfo("dropEmptyObjectPlaceholder", "schema-repair", "dropped {} sent where an array is expected"),
    RuleInfo("parseJsonStringifiedArray", "schema-repair", "parsed a stringified array field"),
    RuleInfo("parseJsonStringifiedObject", "schema-repair", "parsed a stringified object field"),
    RuleInfo("wrapBareStringAsArray", "schema-repair", "wrapped a string sent where an array is expected"),
    # Rulewright strict profile only
    RuleInfo("ownerPrepareArguments", "owner-shim", "strict: the owner's prepareArguments hook changed the arguments (REP-Q12)"),
    RuleInfo("convertValue", "final-validation", "strict: Convert coerced values to the declared types (REP-Q2)"),
)}
