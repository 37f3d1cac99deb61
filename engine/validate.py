"""``rulewright validate``: every file kind, every way it can be wrong, located.

A file goes through three layers, each adding diagnostics with a JSON pointer that the
document turns into ``line:col``: JSON parsing (``engine.jsondoc``), the JSON Schema
(``engine.schemas``), and the reference's own checks from the engine that runs the file
(Caveman's ``check_pack`` with OmniRoute's error texts; RTK's ``check_filter_file`` with the
load-time pattern hygiene). Where an engine check and the schema speak about the same value,
the engine's wording wins: it is what OmniRoute would say.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from engine.diagnostics import Diagnostic, position, sort_key
from engine.fsutil import missing_reason
from engine.jsondoc import JsonDocument, parse_json_text, read_json_file, read_text_file
from engine.rtk.empty_patterns import empty_pattern_diagnostics
from engine.schemas import SCHEMA_FILES, filter_branch, validate_against

SKIPPED_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", "samples", ".rulewright"}
KINDS = ("caveman-pack", "rtk-filter-file", "trust", "rtk-toml", "repair-config", "params-payload")


def classify(path: Path, value: object = None) -> str | None:
    """Which kind of Rulewright file this is, from its ``$schema``, name, place and shape."""
    if isinstance(value, dict) and isinstance(value.get("$schema"), str):
        for kind, filename in SCHEMA_FILES.items():
            if value["$schema"].endswith(filename):
                return "rtk-filter-file" if kind == "rtk-filter" else kind
    if path.suffix == ".toml":
        return "rtk-toml"
    if path.name == "trust.json":
        return "trust"
    if path.name == "filters.json" and path.parent.name in (".rtk", "rtk"):
        return "rtk-filter-file"
    if isinstance(value, dict) and ("language" in value or ("rules" in value and isinstance(value.get("rules"), list))):
        return "caveman-pack"
    if isinstance(value, list) or (isinstance(value, dict) and "id" in value):
        return "rtk-filter-file"
    if len(path.parts) >= 3 and path.parent.parent.name == "rules":
        return "caveman-pack"
    return None


def _prefer_engine_wording(schema_diags: list[Diagnostic], engine_diags: list[Diagnostic]) -> list[Diagnostic]:
    taken = {d.pointer for d in engine_diags if d.level == "error"}
    return [d for d in schema_diags if d.pointer not in taken] + engine_diags


def _duplicate_names(items: list[Any], key: str, base: str, what: str) -> list[Diagnostic]:
    seen: dict[str, int] = {}
    out = []
    for i, item in enumerate(items):
        name = item.get(key) if isinstance(item, dict) else None
        if not isinstance(name, str):
            continue
        if name in seen:
            out.append(Diagnostic(f'duplicate {what} "{name}" (first at index {seen[name]})', "warning",
                                  f"duplicate-{key}", pointer=f"{base}/{i}/{key}", source="validate"))
        else:
            seen[name] = i
    return out


def _check_caveman(value: object, profile: str) -> list[Diagnostic]:
    schema = validate_against("caveman-pack", value, unknown_key_level="warning")
    from engine.caveman import check_pack

    engine = list(check_pack(value, profile=profile))
    out = _prefer_engine_wording(schema, engine)
    if isinstance(value, dict) and isinstance(value.get("rules"), list):
        out += _duplicate_names(value["rules"], "name", "/rules", "rule name")
    return out


def _check_filters(value: object, profile: str) -> list[Diagnostic]:
    items = value if isinstance(value, list) else [value]
    base = "" if isinstance(value, list) else None
    schema: list[Diagnostic] = []
    if not isinstance(value, (list, dict)):
        schema.append(Diagnostic("a filter file holds one filter object or an array of them", "error",
                                 "schema:type", pointer="", source="schema"))
        items = []
    for i, item in enumerate(items):
        prefix = f"/{i}" if base is not None else ""
        for d in validate_against("rtk-filter", item, fragment=filter_branch(item)):
            schema.append(d.with_location(pointer=prefix + (d.pointer or "")))
    from engine.rtk.model import check_filter_file

    engine = [_zod_in_place(d) for d in check_filter_file(value, profile=profile)]
    out = _prefer_engine_wording(schema, engine)
    flagged = {d.pointer for d in out}
    out += [d for d in empty_pattern_diagnostics(value) if d.pointer not in flagged]
    if isinstance(value, list):
        out += _duplicate_names(value, "id", "", "filter id")
    return out


def _zod_in_place(d: Diagnostic) -> Diagnostic:
    """OmniRoute's zod messages name no field: add the pointer, and put unknown keys on the key."""
    message = f"{d.pointer}: {d.message}" if d.pointer and d.source == "rtk" and d.code == "RTK-SCHEMA" else d.message
    if d.data.get("zodCode") == "unrecognized_keys" and '"' in d.message:
        key = d.message.split('"')[1]
        return d.with_location(message=message, pointer=f"{d.pointer}/{key}", data={**d.data, "at_key": True})
    return d.with_location(message=message)


def _check_trust(value: Any, path: Path) -> list[Diagnostic]:
    """Schema, then the verdict for each filter file beside this trust.json."""
    from engine.rtk.trust import decide_trust

    out = validate_against("trust", value)
    for name in ("filters.json", "filters.toml"):
        filters = path.parent / name
        if not filters.exists():
            continue
        decision = decide_trust(filters, environ={})
        key = decision.key or ("filtersTomlSha256" if name.endswith(".toml") else "filtersSha256")
        if decision.verdict == "changed":
            out.append(Diagnostic(f"{name} changed after it was trusted: stored {decision.stored}, "
                                  f"file hashes to {decision.computed}; OmniRoute will skip it", "warning",
                                  "trust-changed", pointer="/" + key, source="trust"))
        elif decision.verdict == "untrusted":
            out.append(Diagnostic(f"{name} is not trusted by this file ({decision.reason}); OmniRoute will skip it",
                                  "warning", "trust-untrusted", pointer="/" + key if key in (value or {}) else "",
                                  source="trust"))
        out.extend(decision.diagnostics)
    return out


def check_document(doc: JsonDocument, kind: str | None, *, profile: str = "omniroute") -> list[Diagnostic]:
    path = Path(doc.path or "input.json")
    if kind == "caveman-pack":
        found = _check_caveman(doc.value, profile)
    elif kind == "rtk-filter-file":
        found = _check_filters(doc.value, profile)
    elif kind == "trust":
        found = _check_trust(doc.value, path)
    elif kind in ("repair-config", "params-payload"):
        try:
            found = validate_against(kind, doc.value)
        except (FileNotFoundError, KeyError):
            found = [Diagnostic(f"no schema for {kind} in this build", "warning", "schema-missing", pointer="")]
    else:
        found = [Diagnostic("not a Rulewright file (Caveman pack, RTK filter file, trust.json, TOML filters, "
                            "repair config or params payload); add a \"$schema\" key to say which",
                            "warning", "unknown-kind", pointer="")]
    return [doc.locate(d) for d in found]


def _check_toml(path: Path, text: str | None, profile: str) -> list[Diagnostic]:
    """rtk TOML v1: OmniRoute's parse-time validation, inline tests included (VT-Q9)."""
    from engine.rtk.toml_io import TomlFilterError, parse_rtk_toml

    problems: list[Diagnostic] = []
    if text is None:
        text, problems = read_text_file(path)
        if text is None:
            return problems
    shown = str(path)
    try:
        result = parse_rtk_toml(text, profile=profile)
    except TomlFilterError as exc:
        from engine.rtk.toml_io import error_position

        message = exc.explained()
        line, column = error_position(text, exc)  # the same place verify reports
        return [*problems, Diagnostic(message, "error", "rtk-toml", shown, line, column, source="toml")]
    out = list(problems)
    out += [Diagnostic(w, "warning", "rtk-toml", shown, 1, 1, source="toml") for w in result.warnings]
    out += [d if d.path else d.with_location(path=shown, line=d.line or 1, column=d.column or 1)
            for d in result.notes]
    for outcome in result.outcomes:
        if not outcome.passed:
            line, column = _toml_test_position(text, outcome.test_name)
            out.append(Diagnostic(f'inline test "{outcome.test_name}" of filter {outcome.filter_id} fails: '
                                  "OmniRoute rejects the whole file", "error", "rtk-toml-test",
                                  shown, line, column, source="toml"))
    return out


def _toml_test_position(text: str, test_name: str) -> tuple[int, int]:
    for quoted in (f'"{test_name}"', f"'{test_name}'"):
        index = text.find(quoted)
        if index >= 0:
            return position(text, index)
    return 1, 1


def validate_file(path: str | os.PathLike[str], text: str | None = None, *, kind: str | None = None,
                  profile: str = "omniroute") -> list[Diagnostic]:
    """Diagnostics for one file. ``text`` validates an unsaved editor buffer instead of the disk."""
    p = Path(path)
    if p.suffix == ".toml" or kind == "rtk-toml":
        return sorted(_check_toml(p, text, profile), key=sort_key)
    doc = parse_json_text(text, str(p)) if text is not None else read_json_file(p)
    diagnostics = list(doc.diagnostics)
    if doc.ok:
        diagnostics += check_document(doc, kind or classify(p, doc.value), profile=profile)
    return sorted(diagnostics, key=sort_key)


def iter_files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path]:
    """Files named, and the ``.json``/``.toml`` files below folders named, in a stable order."""
    for raw in paths:
        p = Path(raw)
        if not p.is_dir():
            yield p
            continue
        for root, dirs, files in os.walk(p):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and (not d.startswith(".") or d == ".rtk"))
            for name in sorted(files):
                if name.endswith((".json", ".toml")) and not name.startswith("_"):
                    yield Path(root) / name


def validate_paths(paths: Iterable[str | os.PathLike[str]], *, profile: str = "omniroute") -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for file in iter_files(paths):
        missing = missing_reason(file)
        if missing is not None:
            out.append(Diagnostic(missing, "error", "symlink-loop" if "loop" in missing else "io", str(file), 1, 1))
            continue
        out.extend(validate_file(file, profile=profile))
    return out
