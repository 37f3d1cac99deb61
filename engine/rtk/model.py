"""RTK filters: the internal definition and the loaders for OmniRoute's JSON filter files.

API (plain data in, plain data out):

``RtkFilter``
    The internal filter definition (``rtk.md`` §1.3), a frozen dataclass. Pattern lists are
    tuples of JavaScript regex sources; ``pointers`` maps each pattern field name to a tuple of
    RFC 6901 pointers (same length, ``None`` when unknown) so run-time diagnostics and traces can
    point back into the file. ``source`` is ``project`` | ``global`` | ``builtin``;
    ``source_format`` is ``omniroute-json`` or ``rtk-toml-v1`` (TOML filters also carry
    ``rtk_toml_head_lines`` / ``rtk_toml_tail_lines`` / ``rtk_toml_max_lines``).
    ``ReplaceRule``, ``MatchOutputRule`` and ``FilterTest`` are its parts.

``parse_filter(obj, *, profile="omniroute", source="builtin", path=None, pointer="", check_regex=None)``
    -> ``(RtkFilter | None, list[Diagnostic])``. Validates one filter object as OmniRoute does
    (canonical shape first, then legacy; strict objects; zod 4 defaults) and maps it. A rejected
    filter returns ``None`` and one error diagnostic whose ``message`` is **exactly** the
    reference's error text (the zod issue list, or the RTK-Q1 mapping crash) — the sources loader
    prefixes it with ``Invalid custom RTK filter skipped: ``. Its code is ``RTK-SCHEMA`` (or
    ``RTK-Q1``) and ``data["issues"]`` holds the individual issues with pointers. Pattern hygiene
    (§1.4) reports every ReDoS-prone pattern (``RTK-Q2``) and, with ``check_regex`` (default:
    only under ``strict``; ``check_filter_file`` always), every invalid regex (``RTK-Q3``,
    ``RTK-Q4`` for ``unless``) as a diagnostic with ``pointer`` set. Profile ``strict`` applies
    the inner defaults (no RTK-Q1 crash), keeps prone patterns (they run under the regex timeout)
    and rejects a filter with an invalid regex. A top-level ``$schema`` key is accepted and
    ignored.

``parse_filter_file(obj, *, profile, source, path)`` -> ``(list[RtkFilter], list[Diagnostic])``
    A parsed JSON document holding one filter object or an array of them. As OmniRoute does
    (VT-Q8), the first rejected entry rejects the whole file; ``strict`` keeps the valid entries.

``check_filter_file(obj, *, profile)`` -> ``list[Diagnostic]``
    Every problem of a parsed filter document, one diagnostic per zod issue / hygiene finding,
    each with ``pointer`` set (``engine.jsondoc`` maps pointers to line:column).

``load_filter_dir(path, *, profile, source="builtin")`` -> ``(list[RtkFilter], list[Diagnostic])``
    Every ``*.json`` file of a folder of built-in filters, in file-name order (as OmniRoute reads
    them). A file that cannot be read or is rejected gives an error diagnostic
    ``Invalid RTK filter <fileName>: <message>`` and is skipped (OmniRoute aborts the whole load).

``ScopedFilter`` is not here: selection works on ``RtkFilter`` directly, its ``source`` field
being the scope.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from engine.diagnostics import Diagnostic
from engine.fsutil import read_input_text
from engine.jsvalues import js_sort_key
from engine.rtk import zodlike as z

Profile = Literal["omniroute", "strict"]
Source = Literal["project", "global", "builtin"]
SOURCE_RANK = {"project": 3, "global": 2, "builtin": 1}
FORMAT_RANK = {"rtk-toml-v1": 2, "omniroute-json": 1}
CATEGORIES = ("git", "test", "build", "shell", "docker", "package", "infra", "cloud", "generic")

# A filter object as written in a JSON filter file (export normalises and re-writes these). The
# schema checked it when the file was read, so its keys and their JSON types are the schema's;
# code that reads them generically (key order, nested rules) narrows the values it relies on.
FilterObject = dict[str, Any]

# Names of the pattern-list fields of RtkFilter, in the order diagnostics report them.
PATTERN_FIELDS = ("command_patterns", "match_patterns", "strip_patterns", "keep_patterns",
                  "collapse_patterns", "priority_patterns")


@dataclass(frozen=True)
class ReplaceRule:
    pattern: str
    replacement: str
    pointer: str | None = None


@dataclass(frozen=True)
class MatchOutputRule:
    pattern: str
    message: str
    unless: str | None = None
    pointer: str | None = None


@dataclass(frozen=True)
class FilterTest:
    name: str
    input: str
    expected: str
    command: str | None = None
    pointer: str | None = None


@dataclass(frozen=True)
class RtkFilter:
    """The internal filter definition every stage works on (``rtk.md`` §1.3)."""

    id: str
    name: str
    category: str = "generic"
    description: str = ""
    priority: int = 50
    command_types: tuple[str, ...] = ()
    command_patterns: tuple[str, ...] = ()
    match_patterns: tuple[str, ...] = ()
    strip_patterns: tuple[str, ...] = ()
    keep_patterns: tuple[str, ...] = ()
    priority_patterns: tuple[str, ...] = ()
    collapse_patterns: tuple[str, ...] = ()
    strip_ansi: bool = False
    replace: tuple[ReplaceRule, ...] = ()
    match_output: tuple[MatchOutputRule, ...] = ()
    truncate_line_at: int = 0
    on_empty: str = ""
    filter_stderr: bool = False
    deduplicate: bool = False
    max_lines: int = 0
    preserve_head: int = 20
    preserve_tail: int = 20
    tests: tuple[FilterTest, ...] = ()
    source: Source = "builtin"
    source_format: str = "omniroute-json"
    path: str | None = None
    shape: Literal["canonical", "legacy", "toml"] = "canonical"
    rtk_toml_head_lines: int | None = None
    rtk_toml_tail_lines: int | None = None
    rtk_toml_max_lines: int | None = None
    # field name -> pointers parallel to that pattern tuple (for traces and diagnostics)
    pointers: Mapping[str, tuple[str | None, ...]] = field(default_factory=dict, compare=False, hash=False)

    @property
    def is_toml(self) -> bool:
        return self.source_format == "rtk-toml-v1"

    def pointer_of(self, field_name: str, index: int) -> str | None:
        found = self.pointers.get(field_name, ())
        return found[index] if index < len(found) else None

    def to_dict(self) -> dict[str, Any]:
        """The reference's field names (camelCase), for JSON output and the IDE."""
        out: dict[str, Any] = {
            "id": self.id, "name": self.name, "description": self.description,
            "category": self.category, "priority": self.priority,
            "commandTypes": list(self.command_types), "commandPatterns": list(self.command_patterns),
            "matchPatterns": list(self.match_patterns), "stripPatterns": list(self.strip_patterns),
            "keepPatterns": list(self.keep_patterns), "priorityPatterns": list(self.priority_patterns),
            "collapsePatterns": list(self.collapse_patterns), "stripAnsi": self.strip_ansi,
            "replace": [{"pattern": r.pattern, "replacement": r.replacement} for r in self.replace],
            "matchOutput": [
                {"pattern": r.pattern, "message": r.message, **({"unless": r.unless} if r.unless is not None else {})}
                for r in self.match_output
            ],
            "truncateLineAt": self.truncate_line_at, "onEmpty": self.on_empty,
            "filterStderr": self.filter_stderr, "deduplicate": self.deduplicate,
            "maxLines": self.max_lines, "preserveHead": self.preserve_head,
            "preserveTail": self.preserve_tail,
            "tests": [{"name": t.name, "input": t.input, "expected": t.expected,
                       **({"command": t.command} if t.command is not None else {})} for t in self.tests],
            "source": self.source, "sourceFormat": self.source_format,
        }
        if self.is_toml:
            out["rtkTomlHeadLines"] = self.rtk_toml_head_lines
            out["rtkTomlTailLines"] = self.rtk_toml_tail_lines
            out["rtkTomlMaxLines"] = self.rtk_toml_max_lines
        return out


# ----------------------------------------------------------------------------- the zod schema

_PATTERNS = z.Default(z.Arr(z.Str(min_length=1)), [])
_LOOSE_PATTERNS = z.Default(z.Arr(z.Str()), [])
_NON_NEGATIVE = z.Int(minimum=0)
_REPLACE = z.Default(z.Arr(z.Obj([("pattern", z.Str(min_length=1)), ("replacement", z.Str())])), [])
_MATCH_OUTPUT = z.Default(z.Arr(z.Obj([
    ("pattern", z.Str(min_length=1)), ("message", z.Str()), ("unless", z.Optional(z.Str(min_length=1))),
])), [])
_TESTS = z.Default(z.Arr(z.Obj([
    ("name", z.Str(min_length=1)), ("input", z.Str()), ("expected", z.Str()),
    ("command", z.Optional(z.Str())),
])), [])

CANONICAL_SCHEMA = z.Obj([
    ("id", z.Str(min_length=1)),
    ("label", z.Str(min_length=1)),
    ("description", z.Default(z.Str(), "")),
    ("category", z.Enum(CATEGORIES)),
    ("priority", z.Default(z.Int(0, 100), 50)),
    ("match", z.Obj([
        ("commands", _PATTERNS), ("patterns", _PATTERNS), ("outputTypes", _PATTERNS),
    ])),
    ("rules", z.Default(z.Obj([
        ("stripAnsi", z.Default(z.Bool(), False)),
        ("replace", _REPLACE),
        ("matchOutput", _MATCH_OUTPUT),
        ("includePatterns", _LOOSE_PATTERNS),
        ("dropPatterns", _LOOSE_PATTERNS),
        ("collapsePatterns", _LOOSE_PATTERNS),
        ("deduplicate", z.Default(z.Bool(), False)),
        ("truncateLineAt", z.Default(_NON_NEGATIVE, 0)),
        ("maxLines", z.Default(_NON_NEGATIVE, 0)),
        ("headLines", z.Default(_NON_NEGATIVE, 20)),
        ("tailLines", z.Default(_NON_NEGATIVE, 20)),
        ("onEmpty", z.Default(z.Str(), "")),
        ("filterStderr", z.Default(z.Bool(), False)),
    ]), {})),
    ("preserve", z.Default(z.Obj([
        ("errorPatterns", _LOOSE_PATTERNS), ("summaryPatterns", _LOOSE_PATTERNS),
    ]), {})),
    ("tests", _TESTS),
])

LEGACY_SCHEMA = z.Obj([
    ("id", z.Str(min_length=1)),
    ("name", z.Str(min_length=1)),
    ("description", z.Default(z.Str(), "")),
    ("commandTypes", z.Arr(z.Str(min_length=1), min_items=1)),
    ("category", z.Enum(CATEGORIES)),
    ("priority", z.Default(z.Int(0, 100), 50)),
    ("stripPatterns", _LOOSE_PATTERNS),
    ("keepPatterns", _LOOSE_PATTERNS),
    ("priorityPatterns", _LOOSE_PATTERNS),
    ("collapsePatterns", _LOOSE_PATTERNS),
    ("stripAnsi", z.Default(z.Bool(), False)),
    ("replace", _REPLACE),
    ("matchOutput", _MATCH_OUTPUT),
    ("truncateLineAt", z.Default(_NON_NEGATIVE, 0)),
    ("onEmpty", z.Default(z.Str(), "")),
    ("filterStderr", z.Default(z.Bool(), False)),
    ("maxLines", z.Default(_NON_NEGATIVE, 0)),
    ("preserveHead", z.Default(_NON_NEGATIVE, 20)),
    ("preserveTail", z.Default(_NON_NEGATIVE, 20)),
    ("tests", _TESTS),
])

FILTER_SCHEMA = z.Union(CANONICAL_SCHEMA, LEGACY_SCHEMA)

# Inner defaults zod 4 does not apply to an omitted ``rules`` / ``preserve`` (RTK-Q1).
RULES_DEFAULTS: dict[str, Any] = {
    "stripAnsi": False, "replace": [], "matchOutput": [], "includePatterns": [], "dropPatterns": [],
    "collapsePatterns": [], "deduplicate": False, "truncateLineAt": 0, "maxLines": 0,
    "headLines": 20, "tailLines": 20, "onEmpty": "", "filterStderr": False,
}
PRESERVE_DEFAULTS: dict[str, Any] = {"errorPatterns": [], "summaryPatterns": []}


# ----------------------------------------------------------------------------- pattern hygiene

# rtk.md §1.4: a group without nested parentheses whose body holds `+`, `*` or `{n,}`, followed
# (after optional whitespace) by `+`, `*` or `{n,}`. Escapes and classes are not understood, on
# purpose: this is the reference's textual heuristic (RTK-Q2).
_REDOS_PRONE = re.compile(r"\((?=[^()]*(?:[+*]|\{\d+,\}))[^()]*\)\s*(?:[+*]|\{\d+,\})")


def is_redos_prone(pattern: str) -> bool:
    return _REDOS_PRONE.search(pattern) is not None


def regex_error(pattern: str, flags: str = "") -> str | None:
    """V8's ``SyntaxError`` message for ``new RegExp(pattern, flags)``, or ``None`` if it compiles."""
    from engine.rtk.patterns import compile_cached

    return compile_cached(pattern, flags)[1]


@dataclass
class _Hygiene:
    """Collects hygiene findings while one filter is mapped."""

    profile: str
    base: str
    diagnostics: list[Diagnostic]
    invalid: list[Diagnostic]
    check_regex: bool = True

    def keep(self, pattern: str, pointer: str, what: str, flags: str) -> bool:
        """Whether a pattern stays in the filter; reports why not (or why it is risky)."""
        if is_redos_prone(pattern):
            if self.profile == "strict":
                self.diagnostics.append(Diagnostic(
                    f"{what} {pattern!r} looks prone to catastrophic backtracking; kept, and run under "
                    "the regex timeout", "warning", "RTK-Q2", pointer=self.base + pointer, source="rtk"))
            else:
                self.diagnostics.append(Diagnostic(
                    f"{what} {pattern!r} was dropped by OmniRoute's ReDoS heuristic (a repeated group "
                    "whose body repeats): it does nothing", "warning", "RTK-Q2",
                    pointer=self.base + pointer, source="rtk"))
                return False
        problem = regex_error(pattern, flags) if self.check_regex else None
        if problem is not None:
            quirk = "RTK-Q4" if what == "unless" else "RTK-Q3"
            from engine.jsondoc import pattern_error_data

            at = pattern_error_data(pattern, flags)  # (where in the pattern: the column in the file)
            if self.profile == "strict":
                diagnostic = Diagnostic(f"{what} is not a valid JavaScript regex: {problem}", "error",
                                        quirk, pointer=self.base + pointer, source="rtk", data=at)
                self.invalid.append(diagnostic)
            else:
                effect = ("the rule fires as if it had no `unless`" if quirk == "RTK-Q4"
                          else "OmniRoute ignores it at run time")
                self.diagnostics.append(Diagnostic(
                    f"{what} is not a valid JavaScript regex ({problem}); {effect}", "warning", quirk,
                    pointer=self.base + pointer, source="rtk", data=at))
        return True

    def patterns(self, values: list[str], pointer: str, what: str, flags: str = "i") -> tuple[list[str], list[str]]:
        kept, pointers = [], []
        for index, pattern in enumerate(values):
            where = f"{pointer}/{index}"
            if self.keep(pattern, where, what, flags):
                kept.append(pattern)
                pointers.append(self.base + where)
        return kept, pointers


# ----------------------------------------------------------------------------- parsing


def _schema_issue_diagnostics(issues: list[z.Issue], base: str, branch_hint: int | None
                              ) -> list[dict[str, str]]:
    """Flatten issues (choosing the likelier union branch) into ``{pointer, message, code}``."""
    flat: list[dict[str, str]] = []
    for issue in issues:
        if issue.fields.get("code") == "invalid_union":
            errors = issue.fields["errors"]
            chosen = errors[branch_hint if branch_hint is not None else 0]
            for item in chosen:
                flat.append({"pointer": base + _pointer(item["path"]), "message": item["message"],
                             "code": item["code"]})
        else:
            flat.append({"pointer": base + _pointer(issue.path), "message": issue.message,
                         "code": issue.fields.get("code", "")})
    return flat


def _pointer(path: list[Any]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _likely_branch(obj: Any) -> int:
    """0 = canonical, 1 = legacy: the shape an author most likely meant (for per-field diagnostics)."""
    if isinstance(obj, dict) and not ({"label", "match", "rules", "preserve"} & obj.keys()) \
            and ({"name", "commandTypes", "stripPatterns", "keepPatterns"} & obj.keys()):
        return 1
    return 0


def parse_filter(
    obj: Any,
    *,
    profile: str = "omniroute",
    source: Source = "builtin",
    path: str | None = None,
    pointer: str = "",
    check_regex: bool | None = None,
) -> tuple[RtkFilter | None, list[Diagnostic]]:
    """Validate and map one filter object (see the module docstring).

    ``check_regex`` compiles every pattern at load time to report invalid ones (RTK-Q3/Q4).
    By default only ``strict`` does (it must reject such a filter); the reference never checks,
    the stages report a pattern they skip, and compiling hundreds of patterns up front would
    dominate a one-shot CLI run. ``check_filter_file`` always checks."""
    if isinstance(obj, dict) and "$schema" in obj:
        obj = {k: v for k, v in obj.items() if k != "$schema"}
    parsed, issues, branch = FILTER_SCHEMA.run_branches(obj)
    if issues:
        flat = _schema_issue_diagnostics(issues, pointer, _likely_branch(obj))
        return None, [Diagnostic(z.error_message(issues), "error", "RTK-SCHEMA", path=path,
                                 pointer=pointer or "", source="rtk", data={"issues": flat})]
    hygiene = _Hygiene(profile, pointer, [], [], profile == "strict" if check_regex is None else check_regex)
    if branch == 0:
        result = _map_canonical(parsed, obj, hygiene, source, path)
    else:
        result = _map_legacy(parsed, hygiene, source, path)
    if isinstance(result, Diagnostic):
        return None, [result]
    if hygiene.invalid:
        return None, hygiene.diagnostics + hygiene.invalid
    return result, hygiene.diagnostics


def _crash(message: str, what: str, pointer: str, path: str | None) -> Diagnostic:
    return Diagnostic(message, "error", "RTK-Q1", path=path, pointer=pointer, source="rtk",
                      data={"issues": [{"pointer": pointer, "message": f"`{what}` is omitted: OmniRoute's "
                                        "mapping crashes on it (write `{}` instead)", "code": "RTK-Q1"}]})


def _map_canonical(p: FilterObject, raw: FilterObject, h: _Hygiene, source: Source, path: str | None) -> RtkFilter | Diagnostic:
    rules, preserve = p["rules"], p["preserve"]
    if h.profile == "strict":
        rules = {**RULES_DEFAULTS, **rules}
        preserve = {**PRESERVE_DEFAULTS, **preserve}
    else:
        # RTK-Q1: zod 4 returns an omitted section's default `{}` without its inner defaults, and
        # the mapping then reads `rules.dropPatterns.filter` / spreads `preserve.errorPatterns`.
        if "dropPatterns" not in rules:
            return _crash("Cannot read properties of undefined (reading 'filter')", "rules", h.base, path)
        if "errorPatterns" not in preserve:
            return _crash("parsed.preserve.errorPatterns is not iterable", "preserve", h.base, path)
        rules = {**RULES_DEFAULTS, **rules}
    match = p["match"]
    commands, command_ptrs = h.patterns(match["commands"], "/match/commands", "match.commands", "im")
    patterns, pattern_ptrs = h.patterns(match["patterns"], "/match/patterns", "match.patterns", "im")
    strip, strip_ptrs = h.patterns(rules["dropPatterns"], "/rules/dropPatterns", "dropPatterns")
    keep, keep_ptrs = h.patterns(rules["includePatterns"], "/rules/includePatterns", "includePatterns")
    err, err_ptrs = h.patterns(preserve["errorPatterns"], "/preserve/errorPatterns", "errorPatterns")
    summ, summ_ptrs = h.patterns(preserve["summaryPatterns"], "/preserve/summaryPatterns", "summaryPatterns")
    collapse, collapse_ptrs = h.patterns(rules["collapsePatterns"], "/rules/collapsePatterns", "collapsePatterns")
    return RtkFilter(
        id=p["id"], name=p["label"], description=p["description"], category=p["category"],
        priority=p["priority"], command_types=tuple(match["outputTypes"]),
        command_patterns=tuple(commands), match_patterns=tuple(patterns),
        strip_patterns=tuple(strip), keep_patterns=tuple(keep),
        priority_patterns=tuple(err + summ), collapse_patterns=tuple(collapse),
        strip_ansi=rules["stripAnsi"],
        replace=_replace_rules(rules["replace"], "/rules/replace", h),
        match_output=_match_output_rules(rules["matchOutput"], "/rules/matchOutput", h),
        truncate_line_at=rules["truncateLineAt"], on_empty=rules["onEmpty"],
        filter_stderr=rules["filterStderr"], deduplicate=rules["deduplicate"],
        max_lines=rules["maxLines"], preserve_head=rules["headLines"], preserve_tail=rules["tailLines"],
        tests=_tests(p["tests"], h.base), source=source, path=path, shape="canonical",
        pointers={
            "command_patterns": tuple(command_ptrs), "match_patterns": tuple(pattern_ptrs),
            "strip_patterns": tuple(strip_ptrs), "keep_patterns": tuple(keep_ptrs),
            "priority_patterns": tuple(err_ptrs + summ_ptrs), "collapse_patterns": tuple(collapse_ptrs),
        },
    )


def _map_legacy(p: FilterObject, h: _Hygiene, source: Source, path: str | None) -> RtkFilter:
    strip, strip_ptrs = h.patterns(p["stripPatterns"], "/stripPatterns", "stripPatterns")
    keep, keep_ptrs = h.patterns(p["keepPatterns"], "/keepPatterns", "keepPatterns")
    prio, prio_ptrs = h.patterns(p["priorityPatterns"], "/priorityPatterns", "priorityPatterns")
    collapse, collapse_ptrs = h.patterns(p["collapsePatterns"], "/collapsePatterns", "collapsePatterns")
    return RtkFilter(
        id=p["id"], name=p["name"], description=p["description"], category=p["category"],
        priority=p["priority"], command_types=tuple(p["commandTypes"]),
        strip_patterns=tuple(strip), keep_patterns=tuple(keep), priority_patterns=tuple(prio),
        collapse_patterns=tuple(collapse), strip_ansi=p["stripAnsi"],
        replace=_replace_rules(p["replace"], "/replace", h),
        match_output=_match_output_rules(p["matchOutput"], "/matchOutput", h),
        truncate_line_at=p["truncateLineAt"], on_empty=p["onEmpty"], filter_stderr=p["filterStderr"],
        # Legacy files have no `deduplicate`: it is on exactly when collapse patterns survive.
        deduplicate=bool(collapse), max_lines=p["maxLines"], preserve_head=p["preserveHead"],
        preserve_tail=p["preserveTail"], tests=_tests(p["tests"], h.base), source=source, path=path,
        shape="legacy",
        pointers={
            "strip_patterns": tuple(strip_ptrs), "keep_patterns": tuple(keep_ptrs),
            "priority_patterns": tuple(prio_ptrs), "collapse_patterns": tuple(collapse_ptrs),
        },
    )


def _replace_rules(items: list[FilterObject], pointer: str, h: _Hygiene) -> tuple[ReplaceRule, ...]:
    out: list[ReplaceRule] = []
    for index, item in enumerate(items):
        where = f"{pointer}/{index}"
        if h.keep(item["pattern"], where + "/pattern", "replace.pattern", "g"):
            out.append(ReplaceRule(item["pattern"], item["replacement"], h.base + where))
    return tuple(out)


def _match_output_rules(items: list[FilterObject], pointer: str, h: _Hygiene) -> tuple[MatchOutputRule, ...]:
    out: list[MatchOutputRule] = []
    for index, item in enumerate(items):
        where = f"{pointer}/{index}"
        # Only `pattern` goes through the ReDoS heuristic; `unless` is only checked for validity.
        if not h.keep(item["pattern"], where + "/pattern", "matchOutput.pattern", "im"):
            continue
        unless = item.get("unless")
        if unless is not None and not is_redos_prone(unless) and h.check_regex:
            h.keep(unless, where + "/unless", "unless", "im")
        out.append(MatchOutputRule(item["pattern"], item["message"], unless, h.base + where))
    return tuple(out)


def _tests(items: list[FilterObject], base: str) -> tuple[FilterTest, ...]:
    return tuple(FilterTest(t["name"], t["input"], t["expected"], t.get("command"), f"{base}/tests/{i}")
                 for i, t in enumerate(items))


# ----------------------------------------------------------------------------- files


def parse_filter_file(
    obj: Any, *, profile: str = "omniroute", source: Source = "builtin", path: str | None = None,
    check_regex: bool | None = None,
) -> tuple[list[RtkFilter], list[Diagnostic]]:
    """One filter object or an array of them (see the module docstring)."""
    entries = [(obj, "")] if not isinstance(obj, list) else [(e, f"/{i}") for i, e in enumerate(obj)]
    filters: list[RtkFilter] = []
    diagnostics: list[Diagnostic] = []
    for entry, pointer in entries:
        parsed, found = parse_filter(entry, profile=profile, source=source, path=path, pointer=pointer,
                                     check_regex=check_regex)
        diagnostics.extend(found)
        if parsed is None:
            if profile != "strict":
                if filters or len(entries) > 1:
                    diagnostics.append(Diagnostic(
                        "one rejected filter skips every filter of the file", "info", "VT-Q8",
                        path=path, pointer=pointer, source="rtk"))
                return [], diagnostics
            continue
        filters.append(parsed)
    return filters, diagnostics


def check_filter_file(obj: Any, *, profile: str = "omniroute", path: str | None = None) -> list[Diagnostic]:
    """Every problem of a filter document, one pointed diagnostic each (for ``validate``)."""
    entries = [(obj, "")] if not isinstance(obj, list) else [(e, f"/{i}") for i, e in enumerate(obj)]
    out: list[Diagnostic] = []
    for entry, pointer in entries:
        _, found = parse_filter(entry, profile=profile, path=path, pointer=pointer, check_regex=True)
        for diagnostic in found:
            issues = diagnostic.data.get("issues") if diagnostic.level == "error" else None
            if issues:
                for issue in issues:
                    out.append(Diagnostic(issue["message"], "error", diagnostic.code, path=path,
                                          pointer=issue["pointer"], source="rtk",
                                          data={"zodCode": issue["code"]}))
            else:
                out.append(diagnostic)
    return out


def load_filter_dir(
    path: str | os.PathLike[str], *, profile: str = "omniroute", source: Source = "builtin",
) -> tuple[list[RtkFilter], list[Diagnostic]]:
    """Every ``*.json`` filter file of a folder, in file-name order (see the module docstring)."""
    folder = Path(path)
    filters: list[RtkFilter] = []
    diagnostics: list[Diagnostic] = []
    if not folder.is_dir():
        return [], [Diagnostic(f"filter folder not found: {folder}", "error", "RTK-LOAD", path=str(folder),
                               source=source)]
    files = sorted((p for p in folder.iterdir() if p.name.endswith(".json") and p.is_file()),
                   key=lambda p: js_sort_key(p.name))
    for file in files:
        try:
            document = json.loads(read_input_text(file))
        except (OSError, ValueError, RecursionError) as exc:  # ValueError: bad UTF-8/JSON, huge ints
            line = getattr(exc, "lineno", None)
            column = getattr(exc, "colno", None)
            message = getattr(exc, "msg", None) or str(exc)
            diagnostics.append(Diagnostic(f"Invalid RTK filter {file.name}: {message}", "error", "RTK-LOAD",
                                          path=str(file), line=line, column=column, source=source))
            continue
        loaded, found = parse_filter_file(document, profile=profile, source=source, path=str(file))
        for diagnostic in found:
            if diagnostic.level == "error" and diagnostic.code in ("RTK-SCHEMA", "RTK-Q1"):
                diagnostic = diagnostic.with_location(message=f"Invalid RTK filter {file.name}: {diagnostic.message}")
            diagnostics.append(diagnostic)
        filters.extend(loaded)
    return filters, diagnostics
