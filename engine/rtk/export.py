"""Exporting chosen filter files as one ``.rtk/filters.json`` (optionally trusted) or as RTK TOML v1.

Nothing is lost silently. Writing onto an existing file *merges* by default — a filter with the
same id is replaced in place, the others are kept in their order, and a kept or unchanged filter
keeps its text byte for byte — or replaces the file only when asked (``replace=True``). Every
export is first a plan (``plan_export``) that says what will be added, replaced, kept and
removed, and which exported filters fail their tests or are not selected by their test
commands; such filters are written only with ``allow_failing``. The plan is executed only if
the target still holds the bytes it was planned on.

JSON export keeps every filter and its tests, writes new filters' keys in the schema's order
with ``JSON.stringify(…, null, 2)`` formatting (stable diffs), fills an omitted
``rules``/``preserve`` with ``{}`` so OmniRoute does not crash on it (RTK-Q1), and can write
``trust.json`` in the same step from exactly the bytes written — only for a project's
``.rtk/filters.json|toml``. TOML export (§6.4) is lossy: every dropped field is reported, and the
result is re-parsed and its inline tests re-run under OmniRoute semantics.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from engine.diagnostics import Diagnostic, Level
from engine.fsutil import atomic_write_bytes
from engine.jsregex import JSSyntaxError, pattern_facts
from engine.jsvalues import JsonObject, json_stringify
from engine.rtk.model import FilterObject
from engine.rtk.sources import FilterFile, read_filter_file
from engine.rtk.toml_io import (
    FilterTable,
    MatchOutputEntry,
    TomlParseResult,
    TomlTest,
    derive_category,
    dump_rtk_toml,
    parse_rtk_toml,
)

if TYPE_CHECKING:
    import uuid

    from engine.rtk.export_plan import ExportPlan
    from engine.rtk.toml_io import SemanticsComparison, TomlTestOutcome
    from engine.rtk.trust import TrustWriteResult

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
    trust: TrustWriteResult | None = None
    plan: ExportPlan | None = None  # what was added, replaced, kept, removed
    test_outcomes: list[TomlTestOutcome] = field(default_factory=list)  # TOML: inline tests re-run after export
    semantics: list[SemanticsComparison] = field(default_factory=list)  # TOML: each test under OmniRoute vs rtk

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"path": self.path, "format": self.format, "filters": list(self.filter_ids),
               "diagnostics": [d.to_dict() for d in self.diagnostics]}
        if self.plan is not None:
            out["plan"] = self.plan.to_dict()
        if self.trust is not None:
            out["trust"] = self.trust.to_dict()
        if self.test_outcomes:
            out["testOutcomes"] = [o.to_dict() for o in self.test_outcomes]
        if self.semantics:
            out["semantics"] = [c.to_dict() for c in self.semantics]
        return out


def _ordered(obj: FilterObject, order: tuple[str, ...]) -> FilterObject:
    out = {k: obj[k] for k in order if k in obj}
    out.update({k: v for k, v in obj.items() if k not in out and k != "$schema"})
    return out


def normalise_filter_object(obj: FilterObject) -> FilterObject:
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


def toml_table_to_json(name: str, table: FilterTable, tests: list[TomlTest], where: str
                       ) -> tuple[FilterObject, list[Diagnostic]]:
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
    limit_keys: tuple[Literal["head_lines", "tail_lines", "max_lines"], ...] = ("head_lines", "tail_lines", "max_lines")
    limits = {k: table[k] for k in limit_keys if k in table}
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
    obj: FilterObject = {"id": name, "label": name, "description": table.get("description", ""),
           "category": derive_category(name, table["match_command"]), "priority": 50,
           "match": {"commands": [table["match_command"]]}, "rules": rules, "preserve": {},
           "tests": [{"name": t.name, "input": t.input, "expected": t.expected} for t in tests]}
    if not obj["tests"]:
        del obj["tests"]
    return obj, notes


def _warn(where: str, filter_id: str, message: str, level: Level = "warning") -> Diagnostic:
    return Diagnostic(f"filter '{filter_id}': {message}", level, "RTK-EXPORT", path=where, source="export")


def _read_all(files: list[Path], profile: str) -> list[FilterFile]:
    """Inputs are validated with the fixed semantics (``strict``): an omitted ``rules``/``preserve``
    is fine (export writes ``{}``), an invalid regex is not. The written file is then re-read with
    the requested profile."""
    read = [read_filter_file(f, profile="strict", run_toml_tests=False) for f in files]
    errors = [d for r in read for d in r.diagnostics if d.level == "error"]
    if errors:
        raise ExportError(f"{len(errors)} error(s) in the chosen filter files", errors)
    return read


def collect_json_objects(files: list[Path], profile: str = "omniroute"
                         ) -> tuple[list[FilterObject], list[Diagnostic]]:
    objects: list[FilterObject] = []
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


def render_filters_json(objects: list[FilterObject]) -> str:
    return (json_stringify(objects, 2) or "[]") + "\n"


def _target(output: str | os.PathLike[str], name: str) -> Path:
    out = Path(output)
    return out / name if out.is_dir() else out


def plan_export(files: Sequence[str | os.PathLike[str]], output: str | os.PathLike[str], *, toml: bool = False,
                replace: bool = False, profile: str = "omniroute") -> ExportPlan:
    """Read the chosen files and plan the write (``engine.rtk.export_plan``); nothing is written."""
    from engine.rtk.export_plan import PlanError, check_exported, plan_json, plan_toml

    try:
        if toml:
            target = _target(output, "filters.toml")
            tables, tests, notes = _collect_toml([Path(f) for f in files], profile)
            plan = plan_toml(tables, tests, target, replace=replace,
                             header="RTK TOML v1, exported by Rulewright")
        else:
            target = _target(output, "filters.json")
            objects, notes = collect_json_objects([Path(f) for f in files], profile)
            if not objects:
                raise ExportError("no filters to export")
            plan = plan_json(objects, target, replace=replace)
    except PlanError as exc:
        raise ExportError(str(exc)) from None
    plan.notes = notes + plan.notes
    check_exported(plan, profile)
    return plan


def execute_export(plan: ExportPlan, *, with_trust: bool = False, allow_failing: bool = False,
                   profile: str = "omniroute") -> ExportResult:
    """Write what ``plan`` says — refused when an exported filter fails its tests (unless
    ``allow_failing``), when ``with_trust`` names a file that is not a project's own filter file,
    or when the target changed since it was planned."""
    from engine.rtk.export_plan import trust_lost, trust_target_problem, unchanged_since_plan

    target = plan.target
    if plan.failing and not allow_failing:
        raise ExportError(f"{len(plan.failing)} exported filter test problem(s): "
                          + "; ".join(f"{f.filter_id}: {f.reason}" for f in plan.failing)
                          + " — fix them, or export anyway with --allow-failing")
    if with_trust and (problem := trust_target_problem(target)):
        raise ExportError(problem)
    if not unchanged_since_plan(plan):
        raise ExportError(f"{target} changed since the export was planned; nothing was written. Export again")
    lost = trust_lost(plan, with_trust)
    data = plan.text.encode("utf-8", "surrogatepass")
    atomic_write_bytes(target, data)
    result = ExportResult(str(target), plan.format, list(plan.exported), list(plan.notes), plan=plan)
    if lost is not None:
        result.diagnostics.append(Diagnostic(lost, "warning", "RTK-EXPORT", path=str(target), source="export"))
    _check_written(result, target, profile, data)
    if with_trust:
        from engine.rtk.trust import FileSnapshot, write_trust

        result.trust = write_trust(target.parent.parent, snapshots=[FileSnapshot(target, data)])
    return result


def export_json(files: Sequence[str | os.PathLike[str]], output: str | os.PathLike[str], *,
                with_trust: bool = False, profile: str = "omniroute", replace: bool = False,
                allow_failing: bool = False) -> ExportResult:
    """Write the chosen filters as one filters.json (array), merged into an existing file unless
    ``replace``; optionally trust exactly the bytes written."""
    plan = plan_export(files, output, replace=replace, profile=profile)
    return execute_export(plan, with_trust=with_trust, allow_failing=allow_failing, profile=profile)


def _check_written(result: ExportResult, target: Path, profile: str, data: bytes) -> None:
    """Re-read what was written (the bytes, not the file again): it must load as OmniRoute would."""
    read = read_filter_file(target, profile=profile, run_toml_tests=True, data=data)
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


# ---------------------------------------------------------------- JSON -> TOML

def combine_commands(commands: list[str]) -> str:
    """One ``match_command`` from several: ``^(?:a)|^(?:b)``, every top-level branch anchored."""
    if len(commands) == 1:
        return commands[0]
    branches = []
    for p in commands:
        if p.startswith("^") and not _alternation(p):
            branches.append(f"^(?:{p[1:]})")
        else:
            branches.append(f"^(?:{p})")
    return "|".join(branches)


def filter_object_to_toml(obj: FilterObject, where: str) -> tuple[FilterTable, list[TomlTest], list[Diagnostic]]:
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
    table: FilterTable = {"match_command": combine_commands(commands)}
    if obj.get("description"):
        table = {"description": obj["description"], **table}  # the schema's key order
    if len(commands) > 1:
        notes.append(_warn(where, fid, f"{len(commands)} command patterns combined into one alternation"))
    elif not commands[0].startswith("^") or _alternation(commands[0]):
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
        table["match_output"] = [_match_output_entry(r) for r in rules["matchOutput"]]
    if rules.get("truncateLineAt"):
        table["truncate_lines_at"] = rules["truncateLineAt"]
    limits: dict[str, Literal["head_lines", "tail_lines", "max_lines"]] = {
        "headLines": "head_lines", "tailLines": "tail_lines", "maxLines": "max_lines"}
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
    tests: list[TomlTest] = []
    for t in obj.get("tests", []):
        if "command" in t:
            notes.append(_warn(where, fid, f"test '{t['name']}': command dropped (OmniRoute rejects it in TOML)",
                               level="info"))
        tests.append(TomlTest(t["name"], t["input"], t["expected"]))
    return table, tests, notes


def _match_output_entry(rule: dict[str, Any]) -> MatchOutputEntry:
    entry: MatchOutputEntry = {"pattern": rule["pattern"], "message": rule["message"]}
    if "unless" in rule:
        entry["unless"] = rule["unless"]
    return entry


def _collect_toml(files: list[Path], profile: str) -> tuple[dict[str, FilterTable], dict[str, list[TomlTest]],
                                                           list[Diagnostic]]:
    tables: dict[str, FilterTable] = {}
    tests: dict[str, list[TomlTest]] = {}
    notes: list[Diagnostic] = []

    def add(name: str, table: FilterTable, filter_tests: list[TomlTest]) -> None:
        if name in tables:
            raise ExportError(f"filter id '{name}' appears twice; a TOML document can define it once")
        tables[name], tests[name] = table, filter_tests

    for read in _read_all(files, profile):
        notes += [d for d in read.diagnostics if d.level != "error"]
        if read.toml is not None:  # TOML stays TOML: nothing is lost
            for name, table in read.toml.tables.items():
                add(name, table.copy(), read.toml.tests[name])
            continue
        for obj in read.objects or []:
            table, filter_tests, found = filter_object_to_toml(normalise_filter_object(obj), str(read.path))
            add(obj["id"], table, filter_tests)
            notes += found
    if not tables:
        raise ExportError("no filters to export")
    from engine.rtk.toml_io import TomlFilterError

    try:
        parse_rtk_toml(dump_rtk_toml(tables, tests), run_tests=False)  # refuse a document OmniRoute would reject
    except TomlFilterError as exc:
        raise ExportError(f"the TOML document would be rejected by OmniRoute: {exc}") from None
    return tables, tests, notes


def export_toml(files: Sequence[str | os.PathLike[str]], output: str | os.PathLike[str], *,
                with_trust: bool = False, profile: str = "omniroute", replace: bool = False,
                allow_failing: bool = False) -> ExportResult:
    plan = plan_export(files, output, toml=True, replace=replace, profile=profile)
    return execute_export(plan, with_trust=with_trust, allow_failing=allow_failing, profile=profile)


# ---------------------------------------------------------------- global TOML install (§6.4): a TOML
# filter file validated, then written as the data folder's rtk/filters.toml

@dataclass
class InstallResult:
    installed_path: str  # relative to DATA_DIR, as OmniRoute reports it
    absolute_path: str
    backup_created: bool
    parse: TomlParseResult

    def to_dict(self) -> JsonObject:
        return {**self.parse.to_dict(), "installedPath": self.installed_path, "backupCreated": self.backup_created,
                "absolutePath": self.absolute_path}


class InstallError(Exception):
    """``installGlobalRtkTomlV1`` refusal; ``str()`` is the reference's message."""


def install_global_toml(content: str, data_dir: str | os.PathLike[str], *, overwrite: bool = False,
                        profile: str = "omniroute") -> InstallResult:
    """OmniRoute's ``installGlobalRtkTomlV1``: validate, then write ``DATA_DIR/rtk/filters.toml``
    privately (folder 0700, file 0600), backing up a replaced file as ``filters.toml.bak``.

    Nothing is written through a symbolic link Rulewright did not create: a linked ``rtk``
    folder, ``filters.toml`` or ``filters.toml.bak`` is refused (the reference would copy into, or
    chmod, whatever the link points at). Modes are set on our own descriptors, never by path."""
    import uuid

    from engine.rtk.toml_io import TESTS_FAILED, TomlFilterError

    try:
        parsed = parse_rtk_toml(content, profile=profile)
    except TomlFilterError as exc:
        raise InstallError(str(exc)) from None
    if not parsed.passed:
        raise InstallError(TESTS_FAILED)
    folder = Path(data_dir) / "rtk"
    target, backup = folder / "filters.toml", folder / "filters.toml.bak"
    for path in (folder, target, backup):
        if path.is_symlink():
            raise InstallError(f"{path} is a symbolic link; refusing to write through it (remove the link, or "
                               "choose another DATA_DIR)")
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    backup_created = False
    if target.exists():
        if not overwrite:
            raise InstallError("filters.toml already exists; confirm overwrite to replace it")
        from engine.fsutil import read_input_bytes

        old = read_input_bytes(target)  # bounded, regular files only (a link was refused above)
        _write_private(folder, backup, old, uuid.uuid4())
        backup_created = True
    _write_private(folder, target, content.encode("utf-8", "replace"), uuid.uuid4())
    return InstallResult("rtk/filters.toml", str(target), backup_created, parsed)


def _write_private(folder: Path, target: Path, data: bytes, token: uuid.UUID) -> None:
    """A new 0600 file (O_EXCL: never an existing file or link), renamed over ``target`` — which
    replaces a link itself, never what it points at."""
    tmp = folder / f"{target.name}.{os.getpid()}.{token}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), 0o600)  # the umask can only narrow 0600; say it anyway
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _alternation(source: str) -> bool:
    """Whether a command pattern has a ``|`` outside every group (an invalid one is taken as
    it reads: a plain sequence)."""
    try:
        return pattern_facts(source).alternation
    except JSSyntaxError:
        return False
