"""The tests panel's view-model: run every filter file's inline tests (the verify gate, with the
activation check), and the JSON edits that accept an actual output or add a test from a preview."""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import jsonedit, jsontree
from engine.diagnostics import Diagnostic

if TYPE_CHECKING:
    from engine.rtk.model import RtkFilter
    from engine.rtk.sources import FilterFile

if TYPE_CHECKING:
    from engine.rtk.model import Source


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
    activation: dict[str, Any] | None  # ActivationCheck.to_dict() or None when the test has no command
    quirk: dict[str, Any] | None = None  # QuirkEffect.to_dict(): a reference quirk changed the result (ids, strict answer)

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


def _source_of(path: Path) -> Source:
    """Selection precedence: ``.rtk`` files are project filters; other workspace files stand in
    for built-ins (they are what gets shipped or exported)."""
    return "project" if path.parent.name == ".rtk" else "builtin"


def _read_with_buffer(path: Path, buffer: str | None, profile: str) -> FilterFile:
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


def builtin_pool(exclude: list[Path], profile: str = "omniroute") -> list[RtkFilter]:
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
    pool = _pool(reads, files, profile, with_builtins)
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


@dataclass(frozen=True)
class ActivationPreview:
    """What a new test's activation check will say, before the test is added: ``passes`` is
    None when there is nothing to check (no command, or the filter does not load)."""

    passes: bool | None
    message: str


def _pool(reads: list[FilterFile], files: list[Path], profile: str, with_builtins: bool) -> list[RtkFilter]:
    """A run's activation pool: every filter of the files read, and the bundled ones when asked."""
    pool = [f for read in reads for f in read.filters]
    if with_builtins:
        pool += builtin_pool(files, profile)
    return pool


@dataclass(frozen=True)
class ActivationPool:
    """What a new test's activation is checked against: the next run's pool (sorted) and the
    filters of the file the test goes into. Read once for the Add test dialog, which checks
    again on every change of its fields."""

    filters: list[RtkFilter]
    own: list[RtkFilter]
    profile: str


def activation_pool(files: list[Path], path: Path, *, buffers: dict[Path, str] | None = None,
                    profile: str = "omniroute", with_builtins: bool = False) -> ActivationPool:
    """The pool ``run_workspace_tests`` over ``files`` (``path`` among them) will use, with the
    unsaved ``buffers`` (the file's own included)."""
    from engine.fsutil import same_file
    from engine.rtk.select import sort_filters

    buffers = buffers or {}
    files = list(files) if any(same_file(f, path) for f in files) else [*files, path]
    reads = [_read_with_buffer(f, buffers.get(f), profile) for f in files]
    own = [f for read in reads if same_file(read.path, path) for f in read.filters]
    return ActivationPool(sort_filters(_pool(reads, files, profile, with_builtins), profile=profile), own, profile)


def preview_activation(pool: ActivationPool, filter_id: str, command: str, sample: str) -> ActivationPreview:
    """The activation check a test of ``filter_id`` for ``command`` on ``sample`` will get in the
    next run, so the Add test dialog can say before the test is written that another filter
    would be selected, rather than the run reporting a failure after it."""
    from engine.rtk.verify import activation_check, describe_selection, short_path

    command = command.strip()
    if not command:
        return ActivationPreview(None, "No command: the test checks the output only (no activation check).")
    own = next((f for f in pool.own if f.id == filter_id), None)
    if own is None:
        return ActivationPreview(None, f"The filter {filter_id!r} does not load now: its activation is not checked.")
    check = activation_check(own, command, sample, pool.filters, pool.profile)
    if check.passed:
        return ActivationPreview(True, f"✔ For {command!r} this filter is selected (criterion: "
                                       f"{check.criterion or 'match'}): "
                                       "the activation check will pass.")
    chosen = describe_selection(check, own, with_file=True)
    why = f" (criterion: {check.criterion})" if check.criterion and check.selected_id is not None else ""
    this = f"the {filter_id!r} of {short_path(own.path)}" if check.selected_id == filter_id and own.path \
        else repr(filter_id)  # (two filters of one id: which is which)
    return ActivationPreview(False, f"✗ For {command!r} {chosen} is selected{why}, not {this}: the test "
                                    "would fail its activation check (VT-Q5). Fix the command or the filter's "
                                    "match first, or leave the command empty.")


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


def preview_test(filter_obj: dict[str, Any], name: str, command: str, input_text: str,
                 profile: str = "omniroute") -> dict[str, Any]:
    """A new test from a preview sample: its expected output is what the filter produces now."""
    from engine.rtk.inline_test import run_filter_stage, strip_trailing_newlines
    from engine.rtk.model import parse_filter

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
