"""What an export will do to its target, decided before anything is written.

``plan_json`` / ``plan_toml`` compute the new file text and say, filter by filter, what is
added, replaced, kept unchanged, kept as it was (not exported) and removed, plus which exported
filters fail their tests or are not selected by their test commands. Merging (the default onto
an existing file) splices the JSON text: filters that are kept or unchanged keep their exact
bytes (key order, formatting), a replaced filter is rewritten in place, new ones are appended;
TOML is cut into per-filter spans the same way (``engine.rtk.toml_spans``).
``execute`` writes the planned text only if the target still holds the bytes it was planned on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.diagnostics import Diagnostic
from engine.jsvalues import JsonObject, json_stringify

if TYPE_CHECKING:
    from engine.rtk.model import FilterObject
    from engine.rtk.toml_io import FilterTable, TomlTest

# A top-level value of a JSON filter file with its [start, end) span in the text.
Element = tuple[Any, int, int]

TRUSTABLE_NAMES = ("filters.json", "filters.toml")


class PlanError(Exception):
    """The export cannot be planned (the target is not a filter file and would be lost)."""


@dataclass
class Failing:
    filter_id: str
    reason: str

    def to_dict(self) -> JsonObject:
        return {"filterId": self.filter_id, "reason": self.reason}


@dataclass
class ExportPlan:
    target: Path
    format: str  # omniroute-json | rtk-toml-v1
    mode: str  # create | merge | replace
    text: str
    existing: bytes | None  # the target's bytes the plan was made on (None: no file)
    exported: list[str]  # ids written from the chosen files, in order
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # in the target, not exported, kept as they are
    removed: list[str] = field(default_factory=list)
    failing: list[Failing] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)
    rewrite_reason: str = ""  # TOML only: why the existing file is rewritten whole (its comments lost)

    @property
    def file_count(self) -> int:
        """How many filters the written file holds."""
        return len(self.kept) + len(self.exported)

    def lines(self) -> list[str]:
        """The plan in words, as the CLI prints it and the IDE shows it."""
        out = [f"{self.target}: " + {"create": "new file", "merge": "merge into the existing file",
                                      "replace": "REPLACE the existing file"}[self.mode]]
        for label, ids in (("add", self.added), ("replace", self.replaced), ("unchanged", self.unchanged),
                           ("keep (not exported)", self.kept), ("REMOVE", self.removed)):
            if ids:
                out.append(f"  {label}: {', '.join(ids)}")
        for f in self.failing:
            out.append(f"  failing: {f.filter_id} — {f.reason}")
        if self.rewrite_reason:
            out.append(f"  REWRITE: the whole file in Rulewright's layout, its comments and formatting lost "
                       f"({self.rewrite_reason})")
        return out

    def to_dict(self) -> JsonObject:
        return {"target": str(self.target), "format": self.format, "mode": self.mode, "added": list(self.added),
                "replaced": list(self.replaced), "unchanged": list(self.unchanged), "kept": list(self.kept),
                "removed": list(self.removed), "failing": [f.to_dict() for f in self.failing],
                "rewriteReason": self.rewrite_reason or None}


# ---------------------------------------------------------------- reading the target

def read_target(target: Path) -> bytes | None:
    from engine.fsutil import read_input_bytes

    try:
        return read_input_bytes(target)
    except FileNotFoundError:
        return None


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def json_elements(text: str) -> tuple[str, list[Element]]:
    """``("array" | "object", [(value, start, end)])``: each top-level filter with its exact span."""
    decoder = json.JSONDecoder()
    i = _skip_ws(text, 1 if text.startswith("\ufeff") else 0)
    if text[i:i + 1] == "{":
        value, end = decoder.raw_decode(text, i)
        if _skip_ws(text, end) != len(text):
            raise ValueError("text after the JSON value")
        return "object", [(value, i, end)]
    if text[i:i + 1] != "[":
        raise ValueError("not a JSON array or object")
    out: list[Element] = []
    i = _skip_ws(text, i + 1)
    if text[i:i + 1] == "]":
        i += 1
    else:
        while True:
            value, end = decoder.raw_decode(text, i)
            out.append((value, i, end))
            i = _skip_ws(text, end)
            if text[i:i + 1] == ",":
                i = _skip_ws(text, i + 1)
                continue
            if text[i:i + 1] != "]":
                raise ValueError("expected ',' or ']'")
            i += 1
            break
    if _skip_ws(text, i) != len(text):
        raise ValueError("text after the JSON array")
    return "array", out


def _id_of(value: object) -> str:
    if isinstance(value, dict):
        fid = value.get("id")
        if isinstance(fid, str):
            return fid
    return "(no id)"


def _indented(obj: FilterObject, indent: str) -> str:
    return (json_stringify(obj, 2) or "{}").replace("\n", "\n" + indent)


# ---------------------------------------------------------------- JSON

def plan_json(objects: list[FilterObject], target: Path, *, replace: bool = False) -> ExportPlan:
    """Where ``objects`` (normalised exported filters) go in ``target``; see the module docstring."""
    existing = read_target(target)
    ids = [o["id"] for o in objects]
    if existing is None:
        plan = ExportPlan(target, "omniroute-json", "create", _render(objects), None, ids, added=list(ids))
        return plan
    text = existing.decode("utf-8", "replace")
    try:
        shape, elements = json_elements(text)
    except (ValueError, RecursionError) as exc:
        if not replace:
            raise PlanError(f"{target} exists and is not a JSON filter file ({exc}); nothing was written. "
                            "Choose another output, or replace it as a whole (--replace)") from None
        plan = ExportPlan(target, "omniroute-json", "replace", _render(objects), existing, ids, added=list(ids),
                          removed=["(the whole current content, which is not a filter list)"])
        return plan
    first_by_id: dict[str, FilterObject] = {}
    for o in objects:
        first_by_id.setdefault(o["id"], o)
    if replace:
        return _replace_json(objects, target, existing, text, elements)
    return _merge_json(objects, first_by_id, target, existing, text, shape, elements)


def _render(objects: list[FilterObject]) -> str:
    return (json_stringify(objects, 2) or "[]") + "\n"


def _replace_json(objects: list[FilterObject], target: Path, existing: bytes, text: str,
                  elements: list[Element]) -> ExportPlan:
    old_by_id: dict[str, Element] = {}
    for value, start, end in elements:
        old_by_id.setdefault(_id_of(value), (value, start, end))
    parts: list[str] = []
    plan = ExportPlan(target, "omniroute-json", "replace", "", existing, [o["id"] for o in objects])
    for o in objects:
        old = old_by_id.get(o["id"])
        if old is not None and old[0] == o:
            parts.append(text[old[1]:old[2]])
            plan.unchanged.append(o["id"])
        else:
            parts.append(_indented(o, "  "))
            (plan.replaced if old is not None else plan.added).append(o["id"])
    exported = set(plan.exported)
    plan.removed = [_id_of(v) for v, _, _ in elements if _id_of(v) not in exported]
    plan.text = "[\n" + ",\n".join("  " + p for p in parts) + "\n]\n" if parts else "[]\n"
    return plan


def _merge_json(objects: list[FilterObject], first_by_id: dict[str, FilterObject], target: Path, existing: bytes,
                text: str, shape: str, elements: list[Element]) -> ExportPlan:
    plan = ExportPlan(target, "omniroute-json", "merge", "", existing, [o["id"] for o in objects])
    placed: set[str] = set()
    edits: list[tuple[int, int, str]] = []  # (start, end, new text) on the existing text
    survivors: list[int] = []  # indexes of elements still in the file
    for n, (value, start, end) in enumerate(elements):
        fid = _id_of(value)
        new = first_by_id.get(fid)
        if new is None:
            plan.kept.append(fid)
            survivors.append(n)
            continue
        if fid in placed:  # a later copy of a replaced id: the export defines that id once
            plan.removed.append(f"{fid} (a second copy)")
            edits.append(_deletion(text, elements, n))
            continue
        placed.add(fid)
        survivors.append(n)
        if value == new:
            plan.unchanged.append(fid)
        else:
            plan.replaced.append(fid)
            edits.append((start, end, _indented(new, _indent_at(text, start))))
    # appended: every exported object except the first of an id that took an existing filter's place
    appended = [o for o in objects if not (o["id"] in placed and o is first_by_id[o["id"]])]
    plan.added = [o["id"] for o in appended]
    if not survivors:  # nothing left to keep byte for byte: write the exported filters afresh
        plan.text = _render(objects)
        return plan
    if shape == "object":  # one filter object becomes an array holding it and the new ones
        value, start, end = elements[0]
        body = text[start:end] if not edits else edits[0][2]
        items = [body, *(_indented(o, "  ") for o in appended)]
        plan.text = "[\n" + ",\n".join("  " + i for i in items) + "\n]\n"
        return plan
    if appended:
        last = elements[survivors[-1]]
        indent = _indent_at(text, last[1])
        edits.append((last[2], last[2], "".join(f",\n{indent}{_indented(o, indent)}" for o in appended)))
    out: list[str] = []
    pos = 0
    for start, end, new_text in sorted(edits, key=lambda e: (e[0], e[1])):
        out.append(text[pos:start])
        out.append(new_text)
        pos = end
    out.append(text[pos:])
    plan.text = "".join(out)
    return plan


def _indent_at(text: str, start: int) -> str:
    line_start = text.rfind("\n", 0, start) + 1
    prefix = text[line_start:start]
    return prefix if prefix.strip() == "" else "  "


def _deletion(text: str, elements: list[Element], n: int) -> tuple[int, int, str]:
    """Remove element ``n`` with one separator: from the previous element's end (or up to the next
    element's start when it is the first)."""
    _, start, end = elements[n]
    if n > 0:
        return elements[n - 1][2], end, ""
    if n + 1 < len(elements):
        return start, elements[n + 1][1], ""
    return start, end, ""


# ---------------------------------------------------------------- TOML

def plan_toml(tables: dict[str, FilterTable], tests: dict[str, list[TomlTest]], target: Path, *, replace: bool = False,
              header: str | None = None) -> ExportPlan:
    """TOML tables merged by name into ``target``: unchanged and kept filters keep their text
    (``engine.rtk.toml_spans``); only when the file cannot be cut safely is it rewritten whole."""
    from engine.rtk.toml_io import TomlFilterError, dump_rtk_toml, parse_rtk_toml

    existing = read_target(target)
    names = list(tables)
    if existing is None:
        plan = ExportPlan(target, "rtk-toml-v1", "create", dump_rtk_toml(tables, tests, header_comment=header),
                          None, names, added=list(names))
        return plan
    text = existing.decode("utf-8", "replace")
    try:
        old = parse_rtk_toml(text, run_tests=False)
    except TomlFilterError as exc:
        if not replace:
            raise PlanError(f"{target} exists and is not an RTK TOML filter file ({exc}); nothing was written. "
                            "Choose another output, or replace it as a whole (--replace)") from None
        return ExportPlan(target, "rtk-toml-v1", "replace", dump_rtk_toml(tables, tests, header_comment=header),
                          existing, names, added=list(names),
                          removed=["(the whole current content, which is not an RTK TOML filter file)"])
    plan = ExportPlan(target, "rtk-toml-v1", "replace" if replace else "merge", "", existing, names)
    merged_tables: dict[str, FilterTable] = {}
    merged_tests: dict[str, list[TomlTest]] = {}
    if not replace:
        for name, table in old.tables.items():
            merged_tables[name], merged_tests[name] = table, old.tests.get(name, [])
    for name in names:
        if name in old.tables:
            same = old.tables[name] == tables[name] and old.tests.get(name, []) == tests.get(name, [])
            (plan.unchanged if same else plan.replaced).append(name)
        else:
            plan.added.append(name)
        merged_tables[name], merged_tests[name] = tables[name], tests.get(name, [])
    if replace:
        plan.removed = [n for n in old.tables if n not in tables]
    else:
        plan.kept = [n for n in old.tables if n not in tables]
    spliced, why = _splice_toml(text, plan, tables, tests, merged_tables, merged_tests)
    if spliced is not None:
        plan.text = spliced
        return plan
    plan.text = dump_rtk_toml(merged_tables, merged_tests, header_comment=header)
    if text != plan.text:
        plan.rewrite_reason = why
        plan.notes.append(Diagnostic(f"the TOML file is rewritten in Rulewright's layout, so its comments and "
                                     f"formatting are not kept: {why}", "warning", "RTK-EXPORT",
                                     path=str(target), source="export"))
    return plan


def _splice_toml(text: str, plan: ExportPlan, tables: dict[str, FilterTable], tests: dict[str, list[TomlTest]],
                 merged_tables: dict[str, FilterTable], merged_tests: dict[str, list[TomlTest]]
                 ) -> tuple[str | None, str]:
    """The merged document cut from the existing text, checked to load as exactly the merged set;
    ``(None, why)`` when that cannot be done safely."""
    from engine.rtk.toml_io import TomlFilterError, parse_rtk_toml, render_filter
    from engine.rtk.toml_spans import SpanError, splice

    rendered = {n: render_filter(n, tables[n], tests.get(n, [])) for n in (*plan.replaced, *plan.added)}
    try:
        out = splice(text, rendered, drop=set(plan.removed),
                     order=list(merged_tables) if plan.mode == "replace" else None)
    except SpanError as exc:
        return None, f"{exc}"
    try:
        back = parse_rtk_toml(out, run_tests=False)
    except TomlFilterError as exc:
        return None, f"the spliced document does not load ({exc})"
    if (list(back.tables) != list(merged_tables) or back.tables != merged_tables
            or any(back.tests.get(n, []) != merged_tests[n] for n in merged_tables)):
        return None, "the spliced document does not load as the merged filters"
    return out, ""


# ---------------------------------------------------------------- tests of what is exported

def check_exported(plan: ExportPlan, profile: str = "omniroute") -> None:
    """Fill ``plan.failing``: exported filters whose tests fail, or whose test commands select
    another filter of the resulting file (or none)."""
    from engine.rtk.sources import read_filter_file
    from engine.rtk.verify import verify_filters

    read = read_filter_file(plan.target, profile=profile, source="project",
                            data=plan.text.encode("utf-8", "surrogatepass"), run_toml_tests=False)
    exported = set(plan.exported)
    chosen = [f for f in read.filters if f.id in exported]
    result = verify_filters(chosen, profile=profile, selection_pool=read.filters, check_activation=True)
    seen: set[tuple[str, str]] = set()
    for o in result.outcomes:
        reasons = []
        if not o.passed:
            reasons.append(f"test '{o.test_name}' fails")
        if o.activation is not None and not o.activation.passed:
            other = o.activation.selected_id
            reasons.append(f"test '{o.test_name}': command {o.activation.command!r} selects "
                           + (f"'{other}'" if other else "no filter") + " instead")
        for reason in reasons:
            if (o.filter_id, reason) not in seen:
                seen.add((o.filter_id, reason))
                plan.failing.append(Failing(o.filter_id, reason))


def trust_target_problem(target: Path) -> str | None:
    """Why ``--with-trust`` must not record a hash for ``target`` (None when it may)."""
    if target.parent.name != ".rtk" or target.name not in TRUSTABLE_NAMES:
        return (f"--with-trust records the hash of a project's .rtk/filters.json or .rtk/filters.toml; {target} is "
                "neither, and trusting it would overwrite the trusted hash of the project's own filter file")
    return None


def trust_lost(plan: ExportPlan, with_trust: bool) -> str | None:
    """What writing ``plan`` without trusting the result does to trust, when it undoes it: the
    target is a project's trusted filter file (by its hash in ``.rtk/trust.json``) and the plan
    changes its bytes, so OmniRoute stops applying it until it is trusted again. None otherwise."""
    from engine.rtk.trust import decide_trust

    target = plan.target
    if with_trust or plan.existing is None or trust_target_problem(target) is not None:
        return None
    if plan.text.encode("utf-8", "surrogatepass") == plan.existing:
        return None
    if decide_trust(target, environ={}, data=plan.existing).verdict != "trusted":
        return None
    return (f"{target.name} was trusted: with this export, .rtk/trust.json no longer holds its hash, and "
            "OmniRoute does not apply the project's filters until they are trusted again (an export with trust "
            "records the new hash in the same step)")


def unchanged_since_plan(plan: ExportPlan) -> bool:
    try:
        now = read_target(plan.target)
    except OSError:
        return False
    return now == plan.existing

