"""Exporting chosen filter files as one ``.rtk/filters.json`` (optionally trusted) or as RTK TOML v1.

JSON export keeps every filter and its tests, writes keys in the schema's order with
``JSON.stringify(…, null, 2)`` formatting (stable diffs), fills an omitted ``rules``/``preserve``
with ``{}`` so OmniRoute does not crash on it (RTK-Q1), and can write ``trust.json`` in the same
step from the bytes just written. TOML export (§6.4) is lossy: every dropped field is reported,
and the result is re-parsed and its inline tests re-run under OmniRoute semantics.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.diagnostics import Diagnostic
from engine.fsutil import atomic_write_text
from engine.jsvalues import json_stringify
from engine.rtk.patterns import has_top_level_alternation
from engine.rtk.sources import FilterFile, read_filter_file
from engine.rtk.toml_io import TomlTest, derive_category, dump_rtk_toml, parse_rtk_toml

CANONICAL_ORDER = ("id", "label", "description", "category", "priority", "match", "rules", "preserve", "tests")
LEGACY_ORDER = ("id", "name", "description", "commandTypes", "category", "priority", "stripPatterns",
                "keepPatterns", "priorityPatterns", "collapsePatterns", "stripAnsi", "replace", "matchOutput",
                "truncateLineAt", "onEmpty", "filterStderr", "maxLines", "preserveHead", "preserveTail", "tests")
NESTED_ORDER = {
    "match": ("commands", "patterns", "outputTypes"),
    "rules": ("stripAnsi", "replace", "matchOutput", "includePatterns", "dropPatterns", "collapsePatterns",
              "deduplicate", "truncateLineAt", "maxLines", "headLines", "tailLines", "onEmpty", "filterStderr"),
    "preserve": ("errorPatterns", "summaryPatterns"),
}
ITEM_ORDER = {"replace": ("pattern", "replacement"), "matchOutput": ("pattern", "message", "unless"),
              "tests": ("name", "command", "input", "expected")}


class ExportError(Exception):
    """Export refused; ``diagnostics`` say where and why."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics or []


@dataclass
class ExportResult:
    path: str
    format: str  # omniroute-json | rtk-toml-v1
    filter_ids: list[str]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    trust: Any = None  # TrustWriteResult
    test_outcomes: list = field(default_factory=list)  # TOML: inline tests re-run after export
    semantics: list = field(default_factory=list)  # TOML: each test under OmniRoute vs rtk semantics

    def to_dict(self) -> dict:
        out = {"path": self.path, "format": self.format, "filters": self.filter_ids,
               "diagnostics": [d.to_dict() for d in self.diagnostics]}
        if self.trust is not None:
            out["trust"] = self.trust.to_dict()
        if self.test_outcomes:
            out["testOutcomes"] = [o.to_dict() for o in self.test_outcomes]
        if self.semantics:
            out["semantics"] = [c.to_dict() for c in self.semantics]
        return out


def _ordered(obj: dict, order: tuple[str, ...]) -> dict:
    out = {k: obj[k] for k in order if k in obj}
    out.update({k: v for k, v in obj.items() if k not in out and k != "$schema"})
    return out


def normalise_filter_object(obj: dict) -> dict:
    """Schema key order at every level; ``rules``/``preserve`` made explicit (RTK-Q1)."""
    legacy = "label" not in obj and ("name" in obj or "commandTypes" in obj)
    out = _ordered(obj, LEGACY_ORDER if legacy else CANONICAL_ORDER)
    if not legacy:
        out.setdefault("rules", {})
        out.setdefault("preserve", {})
        out = _ordered(out, CANONICAL_ORDER)
        for key, order in NESTED_ORDER.items():
            if isinstance(out.get(key), dict):
                out[key] = _ordered(out[key], order)
        rules = out.get("rules", {})
        for key in ("replace", "matchOutput"):
            if isinstance(rules.get(key), list):
                rules[key] = [_ordered(i, ITEM_ORDER[key]) if isinstance(i, dict) else i for i in rules[key]]
    for key in ("replace", "matchOutput"):
        if isinstance(out.get(key), list):
            out[key] = [_ordered(i, ITEM_ORDER[key]) if isinstance(i, dict) else i for i in out[key]]
    if isinstance(out.get("tests"), list):
        out["tests"] = [_ordered(t, ITEM_ORDER["tests"]) if isinstance(t, dict) else t for t in out["tests"]]
    return out


def toml_table_to_json(name: str, table: dict, tests: list[TomlTest], where: str) -> tuple[dict, list[Diagnostic]]:
    """A TOML filter as a canonical JSON filter; warns where OmniRoute will treat it differently."""
    notes: list[Diagnostic] = []
    rules: dict[str, Any] = {}
    if table.get("strip_ansi"):
        rules["stripAnsi"] = True
    if table.get("replace"):
        rules["replace"] = [dict(r) for r in table["replace"]]
    if table.get("match_output"):
        rules["matchOutput"] = [dict(r) for r in table["match_output"]]
    rules["includePatterns"] = list(table.get("keep_lines_matching", []))
    rules["dropPatterns"] = list(table.get("strip_lines_matching", []))
    if table.get("truncate_lines_at"):
        rules["truncateLineAt"] = table["truncate_lines_at"]
    limits = {k: table[k] for k in ("head_lines", "tail_lines", "max_lines") if k in table}
    if limits:
        if "max_lines" in limits:
            rules["maxLines"] = limits["max_lines"]
        if "head_lines" in limits:
            rules["headLines"] = limits["head_lines"]
        if "tail_lines" in limits:
            rules["tailLines"] = limits["tail_lines"]
        notes.append(_warn(where, name, "head_lines/tail_lines/max_lines become headLines/tailLines/maxLines, "
                                        "which truncate differently (smart truncation with a "
                                        "[rtk:truncated N lines] marker): re-run the tests"))
    if table.get("on_empty"):
        rules["onEmpty"] = table["on_empty"]
    if table.get("filter_stderr"):
        notes.append(_warn(where, name, "filter_stderr dropped (a no-op in OmniRoute)"))
    notes.append(_warn(where, name, "as JSON the filter loses the TOML precedence (TOML filters are tried "
                                    "first within their scope)", level="info"))
    obj = {"id": name, "label": name, "description": table.get("description", ""),
           "category": derive_category(name, table["match_command"]), "priority": 50,
           "match": {"commands": [table["match_command"]]}, "rules": rules, "preserve": {},
           "tests": [{"name": t.name, "input": t.input, "expected": t.expected} for t in tests]}
    if not obj["tests"]:
        del obj["tests"]
    return obj, notes


def _warn(where: str, filter_id: str, message: str, level: str = "warning") -> Diagnostic:
    return Diagnostic(f"filter '{filter_id}': {message}", level, "RTK-EXPORT", path=where,  # type: ignore[arg-type]
                      source="export")


def _read_all(files: list[Path], profile: str) -> list[FilterFile]:
    """Inputs are validated with the fixed semantics (``strict``): an omitted ``rules``/``preserve``
    is fine (export writes ``{}``), an invalid regex is not. The written file is then re-read with
    the requested profile."""
    read = [read_filter_file(f, profile="strict", run_toml_tests=False) for f in files]
    errors = [d for r in read for d in r.diagnostics if d.level == "error"]
    if errors:
        raise ExportError(f"{len(errors)} error(s) in the chosen filter files", errors)
    return read


def collect_json_objects(files: list[Path], profile: str = "omniroute") -> tuple[list[dict], list[Diagnostic]]:
    objects: list[dict] = []
    notes: list[Diagnostic] = []
    for read in _read_all(files, profile):
        notes += [d for d in read.diagnostics if d.level != "error"]
        if read.toml is not None:
            for name, table in read.toml.tables.items():
                obj, found = toml_table_to_json(name, table, read.toml.tests[name], str(read.path))
                objects.append(obj)
                notes += found
        else:
            for obj in read.objects or []:
                fixed = normalise_filter_object(obj)
                for key in ("rules", "preserve"):
                    if key not in obj and "label" in obj:
                        notes.append(_warn(str(read.path), obj.get("id", "?"),
                                           f"added \"{key}\": {{}} (OmniRoute crashes on a filter without it, RTK-Q1)",
                                           level="info"))
                objects.append(fixed)
    seen: dict[str, int] = {}
    for obj in objects:
        seen[obj["id"]] = seen.get(obj["id"], 0) + 1
    for fid, count in seen.items():
        if count > 1:
            notes.append(Diagnostic(f"filter id '{fid}' appears {count} times; OmniRoute keeps every copy "
                                    "(no override by id)", "warning", "RTK-EXPORT", source="export"))
    return objects, notes


def render_filters_json(objects: list[dict]) -> str:
    return (json_stringify(objects, 2) or "[]") + "\n"


def _target(output: str | os.PathLike[str], name: str) -> Path:
    out = Path(output)
    return out / name if out.is_dir() else out


def export_json(files: list[str | os.PathLike[str]], output: str | os.PathLike[str], *,
                with_trust: bool = False, profile: str = "omniroute") -> ExportResult:
    """Write the chosen filters as one filters.json (array); optionally trust it right away."""
    target = _target(output, "filters.json")
    objects, notes = collect_json_objects([Path(f) for f in files], profile)
    if not objects:
        raise ExportError("no filters to export")
    atomic_write_text(target, render_filters_json(objects))
    result = ExportResult(str(target), "omniroute-json", [o["id"] for o in objects], notes)
    _check_written(result, target, profile)
    if with_trust:
        result.trust = _trust(target, result)
    return result


def _check_written(result: ExportResult, target: Path, profile: str) -> None:
    """Re-read what was written: it must load as OmniRoute would load it."""
    read = read_filter_file(target, profile=profile, run_toml_tests=True)
    result.diagnostics += [d for d in read.diagnostics if d.level == "error"]
    if read.toml is not None:
        from engine.rtk.toml_io import compare_semantics

        result.test_outcomes = list(read.toml.outcomes)
        for outcome in read.toml.outcomes:
            if not outcome.passed:
                result.diagnostics.append(_warn(str(target), outcome.filter_id,
                                                f"inline test '{outcome.test_name}' fails after export"))
        result.semantics = compare_semantics(read.toml, profile)
        for c in result.semantics:
            if c.differs:
                result.diagnostics.append(_warn(str(target), c.filter_id, f"inline test '{c.test_name}' gives a "
                                                "different result in rtk" + (f" ({c.note})" if c.note else ""),
                                                level="info"))


def _trust(target: Path, result: ExportResult):
    from engine.rtk.trust import write_trust

    if target.parent.name != ".rtk" or target.name not in ("filters.json", "filters.toml"):
        result.diagnostics.append(Diagnostic(
            "OmniRoute only reads .rtk/filters.json|toml with .rtk/trust.json beside it; the trust entry is "
            "written next to the exported file anyway", "warning", "RTK-EXPORT", path=str(target), source="export"))
    return write_trust(target.parent.parent, files=[target])


# ---------------------------------------------------------------- JSON -> TOML

def combine_commands(commands: list[str]) -> str:
    """One ``match_command`` from several: ``^(?:a)|^(?:b)``, every top-level branch anchored."""
    if len(commands) == 1:
        return commands[0]
    branches = []
    for p in commands:
        if p.startswith("^") and not has_top_level_alternation(p):
            branches.append(f"^(?:{p[1:]})")
        else:
            branches.append(f"^(?:{p})")
    return "|".join(branches)


def filter_object_to_toml(obj: dict, where: str) -> tuple[dict, list[TomlTest], list[Diagnostic]]:
    """One canonical JSON filter as a TOML table (§6.4 table); warns per dropped field."""
    fid = obj["id"]
    notes: list[Diagnostic] = []
    if "label" not in obj:
        raise ExportError(f"{where}: filter '{fid}' uses the legacy shape, which has no command patterns; "
                          "convert it to the canonical shape first")
    match = obj.get("match", {})
    rules = obj.get("rules", {})
    preserve = obj.get("preserve", {})
    commands = list(match.get("commands", []))
    if not commands:
        raise ExportError(f"{where}: filter '{fid}' has no match.commands; RTK TOML needs match_command")
    if rules.get("dropPatterns") and rules.get("includePatterns"):
        raise ExportError(f"{where}: filter '{fid}' has both dropPatterns and includePatterns; OmniRoute rejects "
                          "such a TOML file and rtk skips the filter")
    table: dict[str, Any] = {}
    if obj.get("description"):
        table["description"] = obj["description"]
    table["match_command"] = combine_commands(commands)
    if len(commands) > 1:
        notes.append(_warn(where, fid, f"{len(commands)} command patterns combined into one alternation"))
    elif not commands[0].startswith("^") or has_top_level_alternation(commands[0]):
        notes.append(_warn(where, fid, "match_command is not ^-anchored: newer rtk versions ignore such filters"))
    for key, label in (("label", "label"), ("category", "category"), ("priority", "priority")):
        if key in obj and not (key == "priority" and obj[key] == 50):
            notes.append(_warn(where, fid, f"{label} is not part of RTK TOML (lost)", level="info"))
    for key in ("patterns", "outputTypes"):
        if match.get(key):
            notes.append(_warn(where, fid, f"match.{key} dropped: TOML filters match by command only"))
    if rules.get("stripAnsi"):
        table["strip_ansi"] = True
    if rules.get("filterStderr"):
        table["filter_stderr"] = True
        notes.append(_warn(where, fid, "filter_stderr means 'merge stderr' in rtk and is a no-op in OmniRoute"))
    if rules.get("dropPatterns"):
        table["strip_lines_matching"] = list(rules["dropPatterns"])
    if rules.get("includePatterns"):
        table["keep_lines_matching"] = list(rules["includePatterns"])
    if rules.get("replace"):
        table["replace"] = [{"pattern": r["pattern"], "replacement": r["replacement"]} for r in rules["replace"]]
    if rules.get("matchOutput"):
        table["match_output"] = [{k: r[k] for k in ("pattern", "message", "unless") if k in r}
                                 for r in rules["matchOutput"]]
    if rules.get("truncateLineAt"):
        table["truncate_lines_at"] = rules["truncateLineAt"]
    limits = {"headLines": "head_lines", "tailLines": "tail_lines", "maxLines": "max_lines"}
    if rules.get("maxLines"):
        for src, dst in limits.items():
            if src in rules:
                table[dst] = rules[src]
        table["max_lines"] = rules["maxLines"]
        notes.append(_warn(where, fid, "line limits have different semantics in TOML (head/tail with "
                                       "'... (N lines omitted)' / '... (N lines truncated)'): re-run the tests"))
    elif "headLines" in rules or "tailLines" in rules:
        notes.append(_warn(where, fid, "headLines/tailLines dropped: without maxLines they never apply",
                           level="info"))
    if rules.get("onEmpty"):
        table["on_empty"] = rules["onEmpty"]
    for key in ("collapsePatterns", "deduplicate"):
        if rules.get(key):
            notes.append(_warn(where, fid, f"rules.{key} dropped (no TOML equivalent)"))
    for key in ("errorPatterns", "summaryPatterns"):
        if preserve.get(key):
            notes.append(_warn(where, fid, f"preserve.{key} dropped (no TOML equivalent)"))
    tests = []
    for t in obj.get("tests", []):
        if "command" in t:
            notes.append(_warn(where, fid, f"test '{t['name']}': command dropped (OmniRoute rejects it in TOML)",
                               level="info"))
        tests.append(TomlTest(t["name"], t["input"], t["expected"]))
    return table, tests, notes


def export_toml(files: list[str | os.PathLike[str]], output: str | os.PathLike[str], *,
                with_trust: bool = False, profile: str = "omniroute") -> ExportResult:
    target = _target(output, "filters.toml")
    tables: dict[str, dict] = {}
    tests: dict[str, list[TomlTest]] = {}
    notes: list[Diagnostic] = []

    def add(name: str, table: dict, filter_tests: list[TomlTest]) -> None:
        if name in tables:
            raise ExportError(f"filter id '{name}' appears twice; a TOML document can define it once")
        tables[name], tests[name] = table, filter_tests

    for read in _read_all([Path(f) for f in files], profile):
        notes += [d for d in read.diagnostics if d.level != "error"]
        if read.toml is not None:  # TOML stays TOML: nothing is lost
            for name, table in read.toml.tables.items():
                add(name, dict(table), read.toml.tests[name])
            continue
        for obj in read.objects or []:
            table, filter_tests, found = filter_object_to_toml(normalise_filter_object(obj), str(read.path))
            add(obj["id"], table, filter_tests)
            notes += found
    if not tables:
        raise ExportError("no filters to export")
    text = dump_rtk_toml(tables, tests, header_comment="RTK TOML v1, exported by Rulewright")
    from engine.rtk.toml_io import TomlFilterError

    try:
        parse_rtk_toml(text, run_tests=False)  # refuse to write a document OmniRoute would reject
    except TomlFilterError as exc:
        raise ExportError(f"the TOML document would be rejected by OmniRoute: {exc}") from None
    atomic_write_text(target, text)
    result = ExportResult(str(target), "rtk-toml-v1", list(tables), notes)
    _check_written(result, target, profile)
    if with_trust:
        result.trust = _trust(target, result)
    return result


# ---------------------------------------------------------------- global TOML install (§6.4)

@dataclass
class InstallResult:
    installed_path: str  # relative to DATA_DIR, as OmniRoute reports it
    absolute_path: str
    backup_created: bool
    parse: Any  # TomlParseResult

    def to_dict(self) -> dict:
        return {**self.parse.to_dict(), "installedPath": self.installed_path, "backupCreated": self.backup_created,
                "absolutePath": self.absolute_path}


class InstallError(Exception):
    """``installGlobalRtkTomlV1`` refusal; ``str()`` is the reference's message."""


def install_global_toml(content: str, data_dir: str | os.PathLike[str], *, overwrite: bool = False,
                        profile: str = "omniroute") -> InstallResult:
    """OmniRoute's ``installGlobalRtkTomlV1``: validate, then write ``DATA_DIR/rtk/filters.toml``
    privately (folder 0700, file 0600), backing up a replaced file as ``filters.toml.bak``."""
    import shutil
    import uuid

    from engine.rtk.toml_io import TESTS_FAILED, TomlFilterError

    try:
        parsed = parse_rtk_toml(content, profile=profile)
    except TomlFilterError as exc:
        raise InstallError(str(exc)) from None
    if not parsed.passed:
        raise InstallError(TESTS_FAILED)
    folder = Path(data_dir) / "rtk"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    target = folder / "filters.toml"
    backup_created = False
    if target.exists():
        if not overwrite:
            raise InstallError("filters.toml already exists; confirm overwrite to replace it")
        backup = folder / "filters.toml.bak"
        shutil.copyfile(target, backup)
        os.chmod(backup, 0o600)
        backup_created = True
    tmp = folder / f"filters.toml.{os.getpid()}.{uuid.uuid4()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(content.encode("utf-8", "replace"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    os.chmod(target, 0o600)
    return InstallResult("rtk/filters.toml", str(target), backup_created, parsed)
