"""Caveman rule packs: load them as OmniRoute does and check them with its own error texts.

Layout ``<root>/<language>/<category>.json``; every ``*.json`` of a language folder is loaded in
UTF-16 file-name order and the rules are concatenated (spec §4). Packs may also come in memory
("as if written to ``<language>/<category>.json``"). A pack that fails ``validateRulePack``
(§12) makes the loader throw ``Invalid Caveman rule pack <language>/<file>: …`` exactly as the
reference does; ``check_pack`` reports the same problems as located diagnostics for the IDE.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from engine.diagnostics import Diagnostic
from engine.fsutil import read_input_text
from engine.jsvalues import JS_WHITESPACE, js_sort_key, js_trim

CONTEXTS = ("all", "user", "system", "assistant")
CATEGORIES = ("filler", "context", "structural", "dedup", "terse", "ultra")
INTENSITIES = ("lite", "full", "ultra")
_JS_WS_RUN = re.compile("[" + JS_WHITESPACE + "]+")


class PackError(ValueError):
    """A pack the reference loader would reject (message is the reference's text)."""


def normalize_key(s: str) -> str:
    """``N(s)`` of spec §7.3: JS trim, collapse JS whitespace runs to one space, lower-case."""
    return _JS_WS_RUN.sub(" ", js_trim(s)).lower()


@dataclass(frozen=True)
class Rule:
    """One compiled-ready rule. ``map_mode`` says how ``replacement_map`` is looked up:
    ``"pack"`` (normalised key, miss → ``replacement`` verbatim or the match) or ``"fallback"``
    (the reference's built-in English list: trimmed lower-case key, miss → ``""`` or the match).
    """

    name: str
    pattern: str
    flags: str = "gi"
    replacement: str | None = None
    replacement_map: Mapping[str, str] | None = None
    context: str = "all"
    category: str = "filler"
    min_intensity: str = "lite"
    source: str = ""  # "<language>/<file>" or "fallback"
    index: int = 0  # position in its file
    map_mode: str = "pack"
    miss: str = "match"  # fallback map rules only: "empty" | "match"
    description: str = ""

    @property
    def ref(self) -> str:
        return f"{self.source}:{self.name}"


# ---------------------------------------------------------------- validateRulePack (§12): a pack's
# shape checks, in the reference's order and with its exact error texts

def _non_blank(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and bool(js_trim(value))


def _escape(token: Any) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def validate_rule_pack(pack: Any) -> list[tuple[str, str]]:
    """``validateRulePack``: ``(pointer, reference message)`` pairs, in the reference's order."""
    from engine.jsregex import JSSyntaxError, compile_js

    if not isinstance(pack, dict | list):
        return [("", "Rule pack must be an object")]
    get = pack.get if isinstance(pack, dict) else (lambda _key, default=None: default)
    out: list[tuple[str, str]] = []
    if not _non_blank(get("language")):
        out.append(("/language", "language must be a non-empty string"))
    if not _non_blank(get("category")):
        out.append(("/category", "category must be a non-empty string"))
    rules = get("rules")
    if not isinstance(rules, list):
        out.append(("/rules", "rules must be an array"))
        return out
    for i, rule in enumerate(rules):
        at = f"/rules/{i}"
        if not isinstance(rule, dict):
            out.append((at, f"rules[{i}] must be an object"))
            continue
        if not _non_blank(rule.get("name")):
            out.append((f"{at}/name", f"rules[{i}].name must be a non-empty string"))
        pattern = rule.get("pattern")
        flags = rule.get("flags")
        if not _non_blank(pattern):
            out.append((f"{at}/pattern", f"rules[{i}].pattern must be a non-empty string"))
        else:
            try:
                compile_js(pattern, flags if isinstance(flags, str) else "gi")
            except JSSyntaxError as exc:
                where = f"{at}/flags" if "flags" in str(exc).split(":")[0] else f"{at}/pattern"
                out.append((where, f"rules[{i}].pattern is invalid: {exc}"))
        if "flags" in rule and not isinstance(flags, str):
            out.append((f"{at}/flags", f"rules[{i}].flags must be a string"))
        if "replacement" in rule and not isinstance(rule["replacement"], str):
            out.append((f"{at}/replacement", f"rules[{i}].replacement must be a string"))
        if "replacementMap" in rule:
            mapping = rule["replacementMap"]
            if not isinstance(mapping, dict):
                out.append((f"{at}/replacementMap", f"rules[{i}].replacementMap must be an object"))
            else:
                for key, value in mapping.items():
                    if not js_trim(key):
                        out.append((f"{at}/replacementMap/{_escape(key)}",
                                    f"rules[{i}].replacementMap contains an empty key"))
                    elif not isinstance(value, str):
                        out.append((f"{at}/replacementMap/{_escape(key)}",
                                    f"rules[{i}].replacementMap.{key} must be a string"))
        if not isinstance(rule.get("replacement"), str) and "replacementMap" not in rule:
            out.append((at, f"rules[{i}] must define replacement or replacementMap"))
        for key, allowed in (("context", CONTEXTS), ("category", CATEGORIES), ("minIntensity", INTENSITIES)):
            if key in rule and rule[key] not in allowed:
                out.append((f"{at}/{key}", f"rules[{i}].{key} is invalid"))
    return out


def check_pack(obj: Any, *, profile: str = "omniroute", with_schema: bool = False) -> list[Diagnostic]:
    """Located diagnostics for one pack object (``pointer`` set; ``engine.jsondoc`` adds lines).

    These are the reference's own checks with its texts (code ``CAV-pack``): what makes
    OmniRoute's loader throw. ``with_schema`` adds the JSON Schema's findings that the reference
    ignores (unknown keys, a non-string description…) as warnings; ``rulewright validate`` runs
    the schema itself and leaves it off. ``strict`` also warns about a rule with ``y`` but no
    ``g``, which OmniRoute keeps stateful across messages (JSR-Q8).
    """
    diags = [Diagnostic(msg, "error", "CAV-pack", pointer=ptr, source="caveman", data=_pattern_error_at(obj, ptr))
             for ptr, msg in validate_rule_pack(obj)]
    diags += _unsupported_patterns(obj, {d.pointer for d in diags})
    if with_schema and isinstance(obj, dict):
        from engine.schemas import validate_against

        taken = {d.pointer for d in diags}
        diags += [d.with_location(level="warning")
                  for d in validate_against("caveman-pack", obj, unknown_key_level="warning")
                  if d.pointer not in taken and not any((d.pointer or "").startswith(p + "/") for p in taken if p)]
    if profile == "strict" and isinstance(obj, dict) and isinstance(obj.get("rules"), list):
        for i, rule in enumerate(obj["rules"]):
            flags = rule.get("flags") if isinstance(rule, dict) else None
            if isinstance(flags, str) and "y" in flags and "g" not in flags:
                diags.append(Diagnostic(
                    f"rules[{i}] uses 'y' without 'g': OmniRoute keeps its lastIndex across messages",
                    "warning", "JSR-Q8", pointer=f"/rules/{i}/flags", source="caveman"))
    return diags


def _pattern_error_at(obj: Any, pointer: str) -> dict[str, int]:
    """``data`` placing the error of the pattern at ``pointer`` (``/rules/<i>/pattern``) at its
    character (``engine.jsondoc.pattern_error_data``); {} for any other pointer."""
    from engine.jsondoc import pattern_error_data

    index = pointer.removeprefix("/rules/").removesuffix("/pattern")
    rules = obj.get("rules") if isinstance(obj, dict) else None
    if not (pointer.endswith("/pattern") and index.isdigit() and isinstance(rules, list) and int(index) < len(rules)):
        return {}
    rule = rules[int(index)]
    pattern, flags = (rule.get("pattern"), rule.get("flags", "gi")) if isinstance(rule, dict) else (None, None)
    return pattern_error_data(pattern, flags) if isinstance(pattern, str) and isinstance(flags, str) else {}


def _unsupported_patterns(obj: Any, taken: set[str | None]) -> list[Diagnostic]:
    """Rules whose pattern is valid JavaScript but will not run here (over the regex layer's
    compile limits — 32,000 capture groups, deep nesting, huge length, unrolled counts — or
    JSR-Q12): OmniRoute loads them, Rulewright skips them at run time; ``validate`` says so."""
    from engine.jsregex import JSSyntaxError
    from engine.jsregex.translate import translate

    rules = obj.get("rules") if isinstance(obj, dict) else None
    out: list[Diagnostic] = []
    for i, rule in enumerate(rules if isinstance(rules, list) else []):
        pattern = rule.get("pattern") if isinstance(rule, dict) else None
        flags = rule.get("flags", "gi") if isinstance(rule, dict) else "gi"
        if not isinstance(pattern, str) or f"/rules/{i}/pattern" in taken:
            continue
        try:
            reason = translate(pattern, flags if isinstance(flags, str) else "gi").unsupported
        except JSSyntaxError:
            continue
        if reason:
            name = rule.get("name") if isinstance(rule.get("name"), str) else f"rules[{i}]"
            out.append(Diagnostic(f"rule {name}: the pattern cannot run in Rulewright ({reason}); "
                                  "it would be skipped with a diagnostic", "error", "CAV-unsupported",
                                  pointer=f"/rules/{i}/pattern", source="caveman"))
    return out


# ---------------------------------------------------------------- building rules

def rules_from_pack(pack: dict[str, Any], source: str) -> list[Rule]:
    """Rules of an already validated pack, with the reference's defaults for missing fields (spec
    §4): flags ``gi``, context ``all``, category ``filler``, minimum intensity ``lite``; the keys of
    a ``replacementMap`` are normalised (:func:`normalize_key`), a later duplicate winning."""
    out = []
    for i, raw in enumerate(pack["rules"]):
        mapping = raw.get("replacementMap")
        normalised = None
        if isinstance(mapping, dict):
            normalised = {}
            for key, value in mapping.items():
                normalised[normalize_key(key)] = value  # later duplicates win
        out.append(Rule(
            name=raw["name"], pattern=raw["pattern"], flags=raw.get("flags", "gi"),
            replacement=raw.get("replacement"), replacement_map=normalised,
            context=raw.get("context", "all"), category=raw.get("category", "filler"),
            min_intensity=raw.get("minIntensity", "lite"), source=source, index=i,
            description=raw.get("description", "") if isinstance(raw.get("description"), str) else "",
        ))
    return out


def load_fallback_rules(path: str | os.PathLike[str]) -> list[Rule]:
    """The reference's built-in English list, supplied by the user as data (spec §4.1)."""
    data = json.loads(read_input_text(path))
    rules = data["rules"] if isinstance(data, dict) else data
    out = []
    for i, raw in enumerate(rules):
        mapping = raw.get("map")
        out.append(Rule(
            name=raw["name"], pattern=raw["pattern"], flags=raw.get("flags", "gi"),
            replacement=raw.get("replacement"), replacement_map=dict(mapping) if mapping is not None else None,
            context=raw.get("context", "all"), category=raw.get("category", "filler"),
            min_intensity=raw.get("minIntensity", "lite"), source="fallback", index=i,
            map_mode="fallback", miss=raw.get("miss", "match"),
        ))
    return out


# ---------------------------------------------------------------- pack sources

@dataclass
class PackSource:
    """What the loader sees: per language, its files in load order (base name, object or error).

    Loading is lazy per language, as in the reference: a broken pack only fails when its
    language is asked for.
    """

    files: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    origin: str = "<memory>"
    _cache: dict[str, list[Rule]] = field(default_factory=dict, repr=False)

    def languages(self) -> list[str]:
        return sorted(self.files, key=js_sort_key)

    def rules_for(self, language: str) -> list[Rule]:
        """File rules of ``language`` (empty when the folder is missing or has no ``*.json``)."""
        if language not in self._cache:
            rules: list[Rule] = []
            for base, obj in self.files.get(language, []):
                if isinstance(obj, Exception):
                    raise obj
                errors = [msg for _ptr, msg in validate_rule_pack(obj)]
                if errors:
                    raise PackError(f"Invalid Caveman rule pack {language}/{base}: {'; '.join(errors)}")
                rules.extend(rules_from_pack(obj, f"{language}/{base}"))
            self._cache[language] = rules
        return self._cache[language]

    @classmethod
    def from_packs(cls, packs: Iterable[Any]) -> PackSource:
        """In-memory packs, as if each were written to ``<language>/<category>.json``."""
        by_lang: dict[str, dict[str, Any]] = {}
        for i, pack in enumerate(packs):
            if not isinstance(pack, dict) or not isinstance(pack.get("language"), str) \
                    or not isinstance(pack.get("category"), str):
                errors = "; ".join(msg for _p, msg in validate_rule_pack(pack)) or "not a pack"
                raise PackError(f"Invalid Caveman rule pack #{i}: {errors}")
            by_lang.setdefault(pack["language"], {})[pack["category"]] = pack  # a later file overwrites
        files = {
            lang: [(cat, obj) for cat, obj in sorted(cats.items(), key=lambda kv: js_sort_key(kv[0] + ".json"))]
            for lang, cats in by_lang.items()
        }
        return cls(files=files)

    @classmethod
    def from_dir(cls, root: str | os.PathLike[str]) -> PackSource:
        """``<root>/<language>/*.json``; a missing root is an empty source (no packs yet)."""
        base = Path(root)
        files: dict[str, list[tuple[str, Any]]] = {}
        if base.is_dir():
            for lang_dir in base.iterdir():
                if not lang_dir.is_dir():
                    continue
                entries = sorted((p for p in lang_dir.iterdir() if p.name.endswith(".json") and p.is_file()),
                                 key=lambda p: js_sort_key(p.name))
                loaded: list[tuple[str, Any]] = []
                for path in entries:
                    try:
                        obj: Any = json.loads(read_input_text(path))
                    except (OSError, ValueError, RecursionError) as exc:  # ValueError: bad UTF-8/JSON, huge ints
                        obj = PackError(f"{path}: {exc}")
                    loaded.append((path.name[: -len(".json")], obj))
                files[lang_dir.name] = loaded
        return cls(files=files, origin=str(base))
