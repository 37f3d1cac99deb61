"""View-models of the tests, trust, repair, grammar and params panels — plain data, no Qt.

The panels in ``app/panel_*.py`` are thin: they collect what the user typed, hand it to a
function here (in a worker thread), and draw what comes back. Everything that decides *what*
to show — which files hold tests, how a JSON pane failed to parse, which splice accepts an
actual output, what exactly a trust confirmation promises, how a selection of filters is
exported — lives here so it is testable without a display.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.diagnostics import Diagnostic
from engine.fsutil import read_input_bytes
from engine.workspace import jsonedit, jsontree
from engine.workspace.diffrows import DiffRow, side_by_side
from engine.workspace.kinds import FileKind, classify

FILTER_KINDS = (FileKind.RTK_FILTER, FileKind.RTK_FILTERS, FileKind.RTK_TOML)


class Cancelled(Exception):
    """A long run was cancelled between two units of work."""


# ============================================================================ tests runner

@dataclass
class TestRow:
    """One inline test of one filter, as the tests tree shows it."""

    file: str
    filter_id: str
    test_name: str
    pointer: str | None  # JSON pointer of the test object in its file (None for TOML)
    passed: bool
    expected: str
    actual: str
    diff: str
    command: str | None
    savings_percent: float
    activation: dict | None  # ActivationCheck.to_dict() or None when the test has no command
    quirk: dict | None = None  # QuirkEffect.to_dict(): a reference quirk changed the result (ids, strict answer)

    @property
    def activation_ok(self) -> bool | None:
        return None if self.activation is None else bool(self.activation.get("passed"))

    @property
    def can_accept(self) -> bool:
        """Accepting the actual output edits ``expected`` in place: JSON files only."""
        return self.pointer is not None and not self.passed

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.file, self.filter_id, self.test_name)


@dataclass
class FileTests:
    path: str
    format: str  # omniroute-json | rtk-toml-v1
    rows: list[TestRow] = field(default_factory=list)
    without_tests: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def failed(self) -> int:
        return sum(1 for r in self.rows if not r.passed)


@dataclass
class TestRunResult:
    files: list[FileTests]
    diagnostics: list[Diagnostic]
    cancelled: bool = False
    seconds: float = 0.0

    @property
    def rows(self) -> list[TestRow]:
        return [r for f in self.files for r in f.rows]

    @property
    def passed(self) -> int:
        return sum(1 for r in self.rows if r.passed)

    @property
    def failed(self) -> int:
        return sum(1 for r in self.rows if not r.passed)

    @property
    def activation_failures(self) -> int:
        return sum(1 for r in self.rows if r.activation_ok is False)

    def summary(self) -> str:
        total = len(self.rows)
        if self.cancelled:
            return f"cancelled after {total} test(s): ✓ {self.passed} ✗ {self.failed}"
        if not total:
            return f"no inline tests in {len(self.files)} filter file(s)"
        text = f"✓ {self.passed} ✗ {self.failed} in {len(self.files)} file(s)"
        if self.activation_failures:
            text += f" · {self.activation_failures} activation warning(s)"
        errors = sum(1 for f in self.files for d in f.diagnostics if d.level == "error")
        if errors:
            text += f" · {errors} file error(s)"
        return text


def filter_files_of(root: Path, entries: list[tuple[Path, FileKind]] | None = None) -> list[Path]:
    """The workspace's RTK filter files (JSON filters, filter arrays, TOML), sorted by path.

    ``entries`` are (path, kind) pairs from a workspace scan; without them the folder is walked.
    """
    if entries is None:
        from engine.workspace.scan import scan_workspace

        entries = [(f.path, f.kind) for f in scan_workspace(root).files]
    return sorted(p for p, kind in entries if kind in FILTER_KINDS or (p.suffix == ".toml" and _is_rtk_toml(p)))


def _is_rtk_toml(path: Path) -> bool:
    """A TOML file the name-based classification missed, recognised by rtk's ``[filters.`` tables."""
    try:
        return "[filters." in read_input_bytes(path).decode("utf-8", "replace")
    except OSError:
        return False


def is_filter_file(path: Path) -> bool:
    """Whether ``path`` (on disk) is an RTK filter file the tests runner would read."""
    if path.suffix == ".toml":
        return classify_path(path) in FILTER_KINDS or _is_rtk_toml(path)
    return path.suffix == ".json" and classify_path(path) in FILTER_KINDS


def _source_of(path: Path) -> str:
    """Selection precedence: ``.rtk`` files are project filters; other workspace files stand in
    for built-ins (they are what gets shipped or exported)."""
    return "project" if path.parent.name == ".rtk" else "builtin"


def _read_with_buffer(path: Path, buffer: str | None, profile: str):
    """``read_filter_file`` for ``path``; an unsaved buffer is read from a private copy."""
    from engine.rtk.sources import read_filter_file

    if buffer is None:
        return read_filter_file(path, profile=profile, source=_source_of(path))
    with tempfile.TemporaryDirectory(prefix="rulewright-tests-") as tmp:
        copy = Path(tmp) / path.name
        copy.write_text(buffer, encoding="utf-8", newline="")
        read = read_filter_file(copy, profile=profile, source=_source_of(path))
    shown = str(path)
    from dataclasses import replace

    read.path = path
    read.filters = [replace(f, path=shown) for f in read.filters]
    read.diagnostics = [replace(d, path=shown) for d in read.diagnostics]
    return read


def builtin_pool(exclude: list[Path], profile: str = "omniroute") -> list:
    """Rulewright's bundled filters (``filters/``) that are not among ``exclude``: they compete
    with the workspace's filters when a test's command is matched (the activation check)."""
    from engine.paths import builtin_filters_dir
    from engine.rtk.sources import filter_files_in, read_filter_file

    folder = builtin_filters_dir()
    if not folder.is_dir():
        return []
    skip = {p.resolve() for p in exclude}
    return [f for path in filter_files_in([folder]) if path.resolve() not in skip
            for f in read_filter_file(path, profile=profile, source="builtin").filters]


def run_workspace_tests(files: list[Path], *, buffers: dict[Path, str] | None = None, profile: str = "omniroute",
                        progress: Callable[[int, int, str], None] | None = None,
                        cancel: threading.Event | None = None, with_builtins: bool = False) -> TestRunResult:
    """Run the verify gate over every file (its own tests), activation checked against all files.

    The activation pool is every filter of ``files`` (unsaved buffers included, ``.rtk`` files
    whether trusted or not: the runner is for authoring), as ``rulewright verify FILES`` does;
    ``with_builtins`` adds the bundled built-ins, which then compete for each test's command.
    ``progress(done, total, label)`` is called before each file and at the end; ``cancel`` is
    checked between files (a file's tests are bounded by the regex timeouts).
    """
    from engine.rtk.verify import verify_filters

    start = time.perf_counter()
    buffers = buffers or {}
    total = len(files) * 2
    reads = []
    for i, path in enumerate(files):
        if cancel is not None and cancel.is_set():
            return TestRunResult([], [], True, time.perf_counter() - start)
        if progress:
            progress(i, total, f"reading {path.name}")
        reads.append(_read_with_buffer(path, buffers.get(path), profile))
    pool = [f for read in reads for f in read.filters]
    if with_builtins:
        pool += builtin_pool(files, profile)
    out: list[FileTests] = []
    notes: list[Diagnostic] = []
    cancelled = False
    for i, read in enumerate(reads):
        if cancel is not None and cancel.is_set():
            cancelled = True
            break
        if progress:
            progress(len(files) + i, total, f"testing {read.path.name}")
        file_tests = FileTests(str(read.path), read.format, diagnostics=list(read.diagnostics))
        if read.filters:
            result = verify_filters(read.filters, profile=profile, selection_pool=pool,
                                    should_stop=cancel.is_set if cancel is not None else None)
            file_tests.without_tests = list(result.filters_without_tests)
            for o in result.outcomes:
                test = next((t for f in read.filters if f.id == o.filter_id for t in f.tests
                             if t.name == o.test_name and t.pointer == o.pointer), None)
                file_tests.rows.append(TestRow(
                    str(read.path), o.filter_id, o.test_name,
                    o.pointer if read.format == "omniroute-json" else None, o.passed, o.expected, o.actual,
                    o.diff, test.command if test else None, o.savings_percent,
                    o.activation.to_dict() if o.activation is not None else None,
                    o.quirk.to_dict() if o.quirk is not None else None))
            notes += result.diagnostics
        out.append(file_tests)
    if progress:
        progress(total, total, "done")
    return TestRunResult(out, notes, cancelled, time.perf_counter() - start)


def accept_actual_splice(text: str, row: TestRow) -> jsonedit.Splice:
    """The edit that makes ``row.actual`` the test's ``expected`` (only that value changes)."""
    if row.pointer is None:
        raise jsonedit.EditError("only JSON filter files can be edited in place; edit the TOML test by hand")
    parsed = jsontree.parse(text)
    if not parsed.ok:
        raise jsonedit.EditError("the file is not valid JSON right now; fix it first")
    test = jsontree.resolve(parsed.root, row.pointer)
    if test is None or not isinstance(test.value, dict) or test.value.get("name") != row.test_name:
        raise jsonedit.EditError(f"test '{row.test_name}' is no longer at {row.pointer}; run the tests again")
    return jsonedit.set_value(text, parsed, row.pointer + "/expected", row.actual, jsonedit.Style.detect(text))


def new_test_splice(text: str, filter_pointer: str, test: dict[str, Any]) -> jsonedit.Splice:
    """Append ``test`` to the filter's ``tests[]`` (creating the array when the filter has none)."""
    parsed = jsontree.parse(text)
    if not parsed.ok:
        raise jsonedit.EditError("the file is not valid JSON right now; fix it first")
    style = jsonedit.Style.detect(text)
    node = jsontree.resolve(parsed.root, filter_pointer)
    if node is None or not isinstance(node.value, dict):
        raise jsonedit.EditError(f"no filter object at {filter_pointer or '/'}")
    tests = node.value.get("tests")
    if isinstance(tests, list):
        return jsonedit.insert_item(text, parsed, filter_pointer + "/tests", len(tests), test, style)
    if tests is not None:
        raise jsonedit.EditError("the filter's tests is not an array")
    return jsonedit.add_member(text, parsed, filter_pointer, "tests", [test], style)


def filter_pointers(value: Any) -> dict[str, str]:
    """filter id -> JSON pointer of its object in a filter file (single object or array)."""
    if isinstance(value, dict):
        return {value["id"]: ""} if isinstance(value.get("id"), str) else {}
    if isinstance(value, list):
        return {v["id"]: f"/{i}" for i, v in enumerate(value) if isinstance(v, dict) and isinstance(v.get("id"), str)}
    return {}


def preview_test(filter_obj: dict[str, Any], name: str, command: str, input_text: str,
                 profile: str = "omniroute") -> dict[str, Any]:
    """A new test from a preview sample: its expected output is what the filter produces now."""
    from engine.rtk.model import parse_filter
    from engine.rtk.verify import run_filter_stage, strip_trailing_newlines

    flt, found = parse_filter(filter_obj, profile=profile)
    if flt is None:
        errors = "; ".join(d.message for d in found if d.level == "error") or "invalid filter"
        raise ValueError(f"the filter does not load: {errors}")
    expected = strip_trailing_newlines(run_filter_stage(flt, input_text, profile))
    test: dict[str, Any] = {"name": name}
    if command.strip():
        test["command"] = command.strip()
    test.update({"input": input_text, "expected": expected})
    return test


def unique_test_name(filter_obj: dict[str, Any], base: str = "preview sample") -> str:
    taken = {t.get("name") for t in filter_obj.get("tests") or [] if isinstance(t, dict)}
    if base not in taken:
        return base
    n = 2
    while f"{base} {n}" in taken:
        n += 1
    return f"{base} {n}"


# ============================================================================ trust & export

@dataclass
class TrustFileView:
    path: str
    format: str
    exists: bool
    verdict: str  # trusted | untrusted | changed | missing
    reason: str
    stored: str | None
    computed: str | None  # the hash the chosen profile compares
    filter_ids: list[str]
    risk_text: str
    high_risks: int
    diagnostics: list[Diagnostic]
    snapshot: Any = None  # engine.rtk.trust.FileSnapshot: the one read everything here comes from
    since_trust: Any = None  # engine.rtk.trust_diff.TrustDiff (what changed since the stored trust)

    @property
    def short_hash(self) -> str:
        return (self.computed or "")[:4] + "…" if self.computed else "—"


@dataclass
class TrustOverview:
    project: str
    trust_path: str
    files: list[TrustFileView]
    env_override: bool

    @property
    def present(self) -> list[TrustFileView]:
        return [f for f in self.files if f.exists]


def trust_overview(project: Path, *, profile: str = "omniroute", environ: dict[str, str] | None = None) -> TrustOverview:
    """Verdict, hash, filters and risk review of the project's ``.rtk/filters.{json,toml}``.

    The verdict is what OmniRoute decides from ``trust.json`` alone (the environment override is
    reported separately: the panel is about what the file says, not the shell it runs in).
    """
    from engine.rtk.hashing import trust_hash_bytes
    from engine.rtk.risk import risk_summary
    from engine.rtk.sources import read_filter_file
    from engine.rtk.trust import TRUST_FILE, env_trust_requested, snapshot_file
    from engine.rtk.trust_diff import diff_since_trust

    rtk = project / ".rtk"
    views: list[TrustFileView] = []
    for name in ("filters.json", "filters.toml"):
        path = rtk / name
        fmt = "rtk-toml-v1" if name.endswith(".toml") else "omniroute-json"
        if not path.is_file():
            views.append(TrustFileView(str(path), fmt, False, "missing", "no file", None, None, [], "", 0, []))
            continue
        try:
            snap = snapshot_file(path)  # one read: verdict, review, comparison and the hash to write
        except OSError as exc:
            views.append(TrustFileView(str(path), fmt, True, "untrusted", "unreadable", None, None, [], "", 0,
                                       [Diagnostic(f"cannot read: {exc.strerror or exc}", "error", "io", str(path),
                                                   source="trust")]))
            continue
        since = diff_since_trust(snap, profile)
        decision_notes = _decision_notes(snap, profile)
        read = read_filter_file(path, profile=profile, source="project", data=snap.data)
        computed = since.computed or trust_hash_bytes(snap.data, profile).sha256
        reason = decision_notes[0]
        risk = risk_summary(read.text, read.filters, is_toml=fmt == "rtk-toml-v1")
        views.append(TrustFileView(str(path), fmt, True, since.verdict, reason, since.stored,
                                   computed, [f.id for f in read.filters], risk.format(), len(risk.high),
                                   decision_notes[1] + [d for d in read.diagnostics if d.level == "error"],
                                   snap, since))
    return TrustOverview(str(project), str(rtk / TRUST_FILE), views,
                         env_trust_requested(environ if environ is not None else os.environ))


def _decision_notes(snap, profile: str) -> tuple[str, list[Diagnostic]]:
    from engine.rtk.trust import decide_trust

    decision = decide_trust(snap.path, data=snap.data, environ={}, profile=profile)
    return decision.reason, list(decision.diagnostics)


MAX_CONFIRM_LINES = 14


def since_trust_lines(f: TrustFileView) -> list[str]:
    """What changed since the last trust of one file, in the words the CLI uses."""
    from engine.rtk.trust_diff import compare_contents

    since = f.since_trust
    if since is None or f.snapshot is None:
        return []
    if since.verdict == "trusted":
        return [f"{Path(f.path).name}: unchanged since it was trusted"]
    if since.comparison is not None:
        return [f"{Path(f.path).name}: {since.message}", *since.comparison.format()]
    head = since.message if since.verdict == "changed" else "never trusted before: every filter is new"
    comparison = compare_contents(f.path, None, f.snapshot.data)
    return [f"{Path(f.path).name}: {head}", *comparison.format()]


def trust_confirmation(view: TrustOverview) -> tuple[str, list]:
    """Exactly what "Trust" will record, as a question with the comparison against the last trust,
    and the snapshots (the bytes reviewed) whose hashes it writes."""
    from engine.rtk.trust import key_for, trust_entries

    snapshots = [f.snapshot for f in view.present if f.snapshot is not None]
    if not snapshots:
        raise ValueError("there is no .rtk/filters.json or .rtk/filters.toml to trust")
    entries = trust_entries(snapshots)  # raises TrustWriteError for non-UTF-8 bytes (VT-Q1)
    parts = []
    for f in view.present:
        key = key_for(f.path)
        count = len(f.filter_ids)
        parts.append(f"{count} filter{'s' if count != 1 else ''} in {Path(f.path).name} (hash "
                     f"{entries[key][:4]}…, {key} = {entries[key]})")
    lines = [f"Trust {' and '.join(parts)}?", ""]
    changes = [line for f in view.present for line in since_trust_lines(f)]
    if len(changes) > MAX_CONFIRM_LINES:
        changes = [*changes[:MAX_CONFIRM_LINES], f"… {len(changes) - MAX_CONFIRM_LINES} more line(s): see " '"What changed since trust" in the Trust panel']
    lines += ["Compared with the last trust:", *changes, "",
              f"Yes records these hashes in {view.trust_path}; if a file changed since this review, nothing is "
              "written."]
    return "\n".join(lines), snapshots


@dataclass
class ExportCandidate:
    file: str
    format: str
    filter_id: str
    index: int  # position of the filter in its file
    problem: str | None = None  # a failing test or a test command that selects another filter


def _test_problems(filters: list) -> dict[str, str]:
    """filter id -> its first test problem (failing, or its command selects another filter)."""
    from engine.rtk.verify import verify_filters

    out: dict[str, str] = {}
    for o in verify_filters(filters, selection_pool=filters, check_activation=True).outcomes:
        if o.filter_id in out:
            continue
        if not o.passed:
            out[o.filter_id] = f"test '{o.test_name}' fails"
        elif o.activation is not None and not o.activation.passed:
            out[o.filter_id] = (f"test '{o.test_name}': command {o.activation.command!r} selects "
                                + (f"'{o.activation.selected_id}'" if o.activation.selected_id else "no filter"))
    return out


def export_candidates(files: list[Path], profile: str = "omniroute") -> tuple[list[ExportCandidate], list[Diagnostic]]:
    """Every filter of the chosen files, in file order, with the files' errors."""
    from engine.rtk.sources import read_filter_file

    out: list[ExportCandidate] = []
    problems: list[Diagnostic] = []
    for path in files:
        read = read_filter_file(path, profile=profile)
        problems += [d for d in read.diagnostics if d.level == "error"]
        failing = _test_problems(read.filters)
        out += [ExportCandidate(str(path), read.format, f.id, i, failing.get(f.id)) for i, f in enumerate(read.filters)]
    return out, problems


def export_selection(chosen: list[ExportCandidate], all_candidates: list[ExportCandidate], output: Path, *,
                     fmt: str, with_trust: bool = False, profile: str = "omniroute", replace: bool = False,
                     allow_failing: bool = False):
    """Plan and write in one step (``plan_selection`` then ``execute_export``)."""
    from engine.rtk.export import execute_export

    plan = plan_selection(chosen, all_candidates, output, fmt=fmt, profile=profile, replace=replace)
    return execute_export(plan, with_trust=with_trust, allow_failing=allow_failing, profile=profile)


def plan_selection(chosen: list[ExportCandidate], all_candidates: list[ExportCandidate], output: Path, *,
                   fmt: str, profile: str = "omniroute", replace: bool = False):
    """What exporting the chosen filters to ``output`` will add, replace, keep and remove; whole
    files go in as they are (lossless), partial ones as objects.

    Returns ``engine.rtk.export_plan.ExportPlan``; raises ``ExportError``.
    """
    from engine.rtk.export import ExportError, collect_json_objects, plan_export, render_filters_json

    if not chosen:
        raise ExportError("no filters selected")
    by_file: dict[str, set[str]] = {}
    for c in chosen:
        by_file.setdefault(c.file, set()).add(c.filter_id)
    whole, partial = [], []
    for file, ids in by_file.items():
        everything = {c.filter_id for c in all_candidates if c.file == file}
        (whole if ids >= everything else partial).append(file)
    with tempfile.TemporaryDirectory(prefix="rulewright-export-") as tmp:
        inputs: list[str] = list(whole)
        for n, file in enumerate(partial):
            objects, _notes = collect_json_objects([Path(file)], profile)
            keep = [o for o in objects if o.get("id") in by_file[file]]
            part = Path(tmp) / f"{n:03d}-{Path(file).stem}.json"
            part.write_text(render_filters_json(keep), encoding="utf-8")
            inputs.append(str(part))
        order = {f: i for i, f in enumerate(by_file)}
        inputs.sort(key=lambda p: order.get(p, len(order)))
        return plan_export(inputs, output, toml=fmt == "toml", replace=replace, profile=profile)


# ============================================================================ JSON panes

@dataclass(frozen=True)
class PaneError:
    pane: str
    message: str
    line: int
    column: int

    def format(self) -> str:
        return f"{self.pane}:{self.line}:{self.column}: {self.message}"


def parse_pane(text: str, pane: str, *, empty: Any = None) -> tuple[Any, PaneError | None]:
    """Parse a JSON pane; an empty pane is ``empty``; errors carry a 1-based line and column."""
    if not text.strip():
        return empty, None
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, PaneError(pane, exc.msg, exc.lineno, exc.colno)


def pretty(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


# ============================================================================ repair playground

# pi's seven built-in tools: the parameter schemas the presets are meant for (pi-coding-agent).
PRESET_SCHEMAS: dict[str, dict[str, Any]] = {
    "read": {"type": "object", "required": ["path"], "properties": {
        "path": {"type": "string", "description": "Path to the file to read (relative or absolute)"},
        "offset": {"type": "number", "description": "Line number to start reading from (1-indexed)"},
        "limit": {"type": "number", "description": "Maximum number of lines to read"}}},
    "bash": {"type": "object", "required": ["command"], "properties": {
        "command": {"type": "string", "description": "Bash command to execute"},
        "timeout": {"type": "number", "description": "Timeout in seconds (optional)"}}},
    "edit": {"type": "object", "required": ["path", "edits"], "properties": {
        "path": {"type": "string", "description": "Path to the file to edit"},
        "edits": {"type": "array", "items": {"type": "object", "required": ["oldText", "newText"], "properties": {
            "oldText": {"type": "string", "description": "Exact text to find and replace"},
            "newText": {"type": "string", "description": "New text to replace it with"}}}}}},
    "write": {"type": "object", "required": ["path", "content"], "properties": {
        "path": {"type": "string", "description": "Path to the file to write"},
        "content": {"type": "string", "description": "Content to write to the file"}}},
    "grep": {"type": "object", "required": ["pattern"], "properties": {
        "pattern": {"type": "string"}, "path": {"type": "string"}, "glob": {"type": "string"},
        "ignoreCase": {"type": "boolean"}, "literal": {"type": "boolean"}, "context": {"type": "number"},
        "limit": {"type": "number"}}},
    "find": {"type": "object", "required": ["pattern"], "properties": {
        "pattern": {"type": "string", "description": "Glob pattern to match files"},
        "path": {"type": "string"}, "limit": {"type": "number"}}},
    "ls": {"type": "object", "properties": {
        "path": {"type": "string", "description": "Directory to list"}, "limit": {"type": "number"}}},
}


@dataclass
class RepairSample:
    name: str
    title: str
    description: str
    schema: Any
    args: Any
    options: dict[str, Any]


def load_repair_samples(folder: Path) -> list[RepairSample]:
    """The ready samples (``resources/samples/repair/*.json``), sorted by title; bad files skipped."""
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(read_input_bytes(path))
        except (OSError, ValueError, RecursionError):
            continue
        if isinstance(data, dict) and "schema" in data and "args" in data:
            out.append(RepairSample(path.stem, str(data.get("title") or path.stem), str(data.get("description") or ""),
                                    data["schema"], data["args"], dict(data.get("options") or {})))
    return sorted(out, key=lambda s: s.title.lower())


@dataclass
class RepairRequest:
    schema_text: str
    args_text: str
    config_text: str = ""
    policy: str = ""  # "" = the config's (else adaptive)
    model_id: str = ""
    preset: str = ""  # "" or one of PRESET_SCHEMAS
    tool_name: str = ""
    raw_args: bool = False  # the arguments pane is the raw string the model sent
    profile: str = "pi-repair-layer"


@dataclass
class RepairView:
    errors: list[PaneError]
    result: dict[str, Any] | None = None
    threw: bool = False
    returned: Any = None
    error_message: str | None = None
    raw_pretty: str = ""
    final_pretty: str = ""
    diff: list[DiffRow] = field(default_factory=list)
    changes: list[dict[str, str]] = field(default_factory=list)  # each change + its rule summary
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors and self.result is not None


def run_repair_view(req: RepairRequest) -> RepairView:
    """Run the pipeline on the three panes and derive what the playground shows."""
    from engine.repair import RULES, UnrepairableToolInputError, adapt_result, run_repair
    from engine.repair.jsdata import js_values, to_json_data

    schema, e1 = parse_pane(req.schema_text, "schema")
    options, e2 = parse_pane(req.config_text, "config", empty={})
    if req.raw_args:
        raw, e3 = req.args_text, None
    else:
        raw, e3 = parse_pane(req.args_text, "arguments")
        if e3 is None and not req.args_text.strip():
            e3 = PaneError("arguments", "empty: type the arguments a model sent (or tick 'raw string')", 1, 1)
    errors = [e for e in (e1, e2, e3) if e is not None]
    if e1 is None and not req.schema_text.strip():
        errors.insert(0, PaneError("schema", "empty: paste the tool's parameter JSON Schema or pick a preset", 1, 1))
    if e2 is None and not isinstance(options, dict):
        errors.append(PaneError("config", "the config must be a JSON object", 1, 1))
    if errors:
        return RepairView(errors)
    options = dict(options)
    if req.policy:
        options["policy"] = req.policy
    if req.model_id.strip():
        options["modelId"] = req.model_id.strip()
    if req.preset:
        options["builtinTool"] = req.preset
    if req.tool_name.strip():
        options["toolName"] = req.tool_name.strip()
    raw = js_values(raw, exact_ints=req.profile == "strict")
    try:
        result = run_repair(schema, raw, options, profile=req.profile)
    except ValueError as exc:
        return RepairView([PaneError("config", str(exc), 1, 1)])
    view = RepairView([], result.to_dict(), options=options)
    try:
        view.returned = to_json_data(adapt_result(result, raw, unrepairable=options.get("unrepairable", "throw")))
    except UnrepairableToolInputError as exc:
        view.threw, view.error_message = True, exc.message
    view.raw_pretty = pretty(to_json_data(raw))
    view.final_pretty = pretty(view.result["args"])
    view.diff = side_by_side(view.raw_pretty, view.final_pretty)
    for change in view.result["changes"]:
        info = RULES.get(change["ruleId"])
        view.changes.append({**change, "summary": info.summary if info else ""})
    return view


# ============================================================================ leaked grammar

GRAMMAR_POLICIES = ("conservative", "adaptive", "recover")
GRAMMAR_MODES = ("", "off", "observe", "strip", "recover")  # "" = the policy's mode
PI_TOOLS = ("read", "bash", "edit", "write", "grep", "find", "ls")


@dataclass
class GrammarRequest:
    text: str
    model_id: str = ""
    policy: str = "adaptive"
    mode: str = ""
    allowed_tools: tuple[str, ...] = ()
    active_tools: tuple[str, ...] = PI_TOOLS
    unknown_text: str = "preserve"
    stop_reason: str = "stop"
    profile: str = "pi-repair-layer"
    now_ms: int | None = None


@dataclass(frozen=True)
class Highlight:
    start: int  # UTF-16 offsets in the text
    end: int
    kind: str  # promoted | stripped | kept
    label: str


@dataclass
class GrammarView:
    record: dict[str, Any]
    highlights: list[Highlight]
    final_text: str
    verdict: str


def run_grammar_view(req: GrammarRequest) -> GrammarView:
    """The ``message_end`` decision for one pasted message, with highlight spans for the text."""
    from engine.grammar import HookState, message_end, migrate

    stored: dict[str, Any] = {"policyProfile": req.policy, "unknownGrammarText": req.unknown_text,
                              "grammarAllowedTools": list(req.allowed_tools)}
    if req.mode:
        stored["grammarRecovery"] = req.mode
    now = req.now_ms if req.now_ms is not None else int(time.time() * 1000)
    state = HookState(migrate(stored), req.model_id.strip() or None, list(req.active_tools), now,
                      req.profile == "strict")
    message: dict[str, Any] = {"role": "assistant", "content": [{"type": "text", "text": req.text}]}
    if req.stop_reason:
        message["stopReason"] = req.stop_reason
    record = message_end(message, state)
    highlights = []
    for cand in record.get("candidates", []):
        if cand.get("part") != 0:
            continue
        kind = "promoted" if cand.get("promoted") else "stripped" if cand.get("stripped") else "kept"
        what = "dangling markers" if cand.get("stripOnly") else f"{cand.get('name')}()"
        highlights.append(Highlight(cand["span"][0], cand["span"][1], kind,
                                    f"{cand.get('grammar')}: {what} — {kind}"
                                    + (f" ({cand['reason']})" if cand.get("reason") not in (None, "", kind) else "")))
    final_text = record.get("strippedText")
    if final_text is None:
        final_text = req.text
    return GrammarView(record, highlights, final_text, grammar_verdict(record))


def grammar_verdict(record: dict[str, Any]) -> str:
    """One line: what happened to the message and, when nothing was promoted, why."""
    if record.get("skippedBy"):
        return f"untouched: {record['skippedBy']}"
    if record.get("promoted"):
        names = ", ".join(c["name"] for c in record.get("promotedCalls", []))
        return f"promoted {len(record.get('promotedCalls', []))} call(s): {names}"
    reasons = ", ".join(record.get("reasonsNotPromoted") or []) or "—"
    if record.get("changed"):
        return f"stripped {record.get('strippedRanges', 0)} range(s); not promoted: {reasons}"
    if record.get("observed"):
        return f"observed only; not promoted: {reasons}"
    return f"nothing to do: {reasons}"


# ============================================================================ params playground

@dataclass
class ParamsTemplate:
    name: str
    payload: Any


def load_params_templates(folder: Path) -> list[ParamsTemplate]:
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(read_input_bytes(path))
        except (OSError, ValueError, RecursionError):
            continue
        if isinstance(data, dict):
            data.pop("$schema", None)
            out.append(ParamsTemplate(path.stem, data))
    return out


@dataclass
class ParamsView:
    errors: list[PaneError]
    report: dict[str, Any] | None = None
    schema_findings: list[dict[str, Any]] = field(default_factory=list)  # with line/column in the pane
    feature_rows: list[dict[str, Any]] = field(default_factory=list)
    plugin_rows: list[dict[str, Any]] = field(default_factory=list)
    imported: Any = None  # engine.params.request_import.ImportResult when the pane held a request body

    @property
    def ok(self) -> bool:
        return self.report is not None


def run_params_view(payload_text: str, profile: str = "cherry-studio") -> ParamsView:
    """Build the report and flatten its ``explain`` into the features table and plugin list."""
    from engine.params import ParamsError, build_params_report
    from engine.params.request_import import detect_format, import_request

    payload, error = parse_pane(payload_text, "payload")
    if error is not None:
        return ParamsView([error])
    if payload is None:
        return ParamsView([PaneError("payload", "empty: pick a template or paste a payload", 1, 1)])
    imported = None
    if detect_format(payload) is not None:  # a pasted provider request: map it to the payload first
        imported = import_request(payload)
        payload = imported.payload
    try:
        report = build_params_report(payload, profile=profile)
    except ParamsError as exc:
        line, column = _pointer_position(payload_text, getattr(exc, "pointer", None)) if imported is None else (1, 1)
        return ParamsView([PaneError("payload", str(exc), line, column)], imported=imported)
    view = ParamsView([], report, imported=imported)
    if profile != "strict" and imported is None:  # strict reports them itself, as diagnostics of the report
        from engine.schemas import validate_against

        for finding in validate_against("params-payload", payload, code_prefix="schema"):
            line, column = _pointer_position(payload_text, finding.pointer or "")
            view.schema_findings.append({
                "message": f"{finding.message} (the reference schema would reject this; the pipeline uses it "
                           "as given)", "level": "warning", "code": finding.code, "pointer": finding.pointer,
                "line": line, "column": column})
    plugin_order = report.get("plugins", [])
    for feature in report.get("explain", {}).get("features", []):
        view.feature_rows.append({"name": feature["name"], "applied": feature["applied"], "why": feature.get("why", ""),
                                  "warning": feature.get("warning", ""),
                                  "plugins": [p["name"] for p in feature.get("plugins", [])]})
        for plugin in feature.get("plugins", []):
            if feature["applied"]:
                view.plugin_rows.append({**plugin, "feature": feature["name"]})
    view.plugin_rows.sort(key=lambda p: plugin_order.index(p["name"]) if p["name"] in plugin_order else len(plugin_order))
    return view


def _pointer_position(text: str, pointer: str | None) -> tuple[int, int]:
    if not pointer:
        return 1, 1
    parsed = jsontree.parse(text)
    node, _rest = jsontree.deepest(parsed.root, pointer) if parsed.ok else (None, "")
    if node is None:
        return 1, 1
    return jsontree.LineIndex(text).position(node.start)


def classify_path(path: Path) -> FileKind:
    """Kind of a file on disk (used to offer 'add test' only on filter files)."""
    try:
        value = json.loads(read_input_bytes(path).decode("utf-8").lstrip("\ufeff"))
        return classify(path, value, True)
    except (OSError, ValueError, RecursionError):
        return classify(path, None, False)
