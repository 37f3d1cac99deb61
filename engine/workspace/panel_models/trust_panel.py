"""The trust & export panel's view-model: the verdict, hash and risk review of the project's
``.rtk`` filters, exactly what "Trust" will record, and the export of a selection of filters."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.diagnostics import Diagnostic
from engine.rtk.test_status import test_problems, tests_lines

if TYPE_CHECKING:
    from engine.rtk.export import ExportResult
    from engine.rtk.export_plan import ExportPlan
    from engine.rtk.trust import FileSnapshot
    from engine.rtk.trust_diff import TrustDiff


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
    snapshot: FileSnapshot | None = None  # the one read everything here comes from
    since_trust: TrustDiff | None = None  # what changed since the stored trust
    tested: int = 0  # filters with inline tests
    test_problems: dict[str, str] | None = None  # filter id -> its first test problem (``engine.rtk.test_status``)

    def tests_lines(self) -> list[str]:
        """What the filters' own tests say about the bytes reviewed (nothing for a file not read)."""
        if not self.exists or self.snapshot is None:
            return []
        return tests_lines(Path(self.path).name, self.tested, self.test_problems or {})

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

    def test_problems(self) -> dict[Path, dict[str, str]]:
        """The test problems found for each project filter file read (``export_candidates``' ``tested``)."""
        return {Path(f.path): f.test_problems for f in self.present if f.test_problems is not None}


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
    from engine.rtk.trust_history import keep_verified_copy

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
        keep_verified_copy(snap, since.stored, since.verdict)  # (what a later edit will be compared with)
        decision_notes = _decision_notes(snap, profile)
        read = read_filter_file(path, profile=profile, source="project", data=snap.data)
        computed = since.computed or trust_hash_bytes(snap.data, profile).sha256
        reason = decision_notes[0]
        risk = risk_summary(read.text, read.filters, is_toml=fmt == "rtk-toml-v1")
        views.append(TrustFileView(str(path), fmt, True, since.verdict, reason, since.stored,
                                   computed, [f.id for f in read.filters], risk.format(), len(risk.high),
                                   decision_notes[1] + [d for d in read.diagnostics if d.level == "error"],
                                   snap, since, sum(1 for f in read.filters if f.tests),
                                   test_problems(read.filters)))
    return TrustOverview(str(project), str(rtk / TRUST_FILE), views,
                         env_trust_requested(environ if environ is not None else os.environ))


def _decision_notes(snap: FileSnapshot, profile: str) -> tuple[str, list[Diagnostic]]:
    from engine.rtk.trust import decide_trust

    decision = decide_trust(snap.path, data=snap.data, environ={}, profile=profile)
    return decision.reason, list(decision.diagnostics)


MAX_CONFIRM_LINES = 14


def since_trust_lines(f: TrustFileView) -> list[str]:
    """What changed since the last trust of one file, in the words the CLI uses."""
    return [line for line, _filter_id in since_trust_rows(f)]


def since_trust_rows(f: TrustFileView) -> list[tuple[str, str | None]]:
    """``since_trust_lines``, each with the id of the filter of the current file it heads (None
    for the others): the Trust panel links such a line to the filter."""
    from engine.rtk.trust_diff import compare_contents, untrusted_head

    since = f.since_trust
    if since is None or f.snapshot is None:
        return []
    name = Path(f.path).name
    if since.verdict == "trusted":
        return [(f"{name}: unchanged since it was trusted", None)]
    if since.comparison is not None:
        return [(f"{name}: {since.message}", None), *since.comparison.format_rows()]
    head = since.message if since.verdict == "changed" else untrusted_head(f.reason)
    comparison = compare_contents(f.path, None, f.snapshot.data)
    return [(f"{name}: {head}", None), *comparison.format_rows()]


def trust_confirmation(view: TrustOverview) -> tuple[str, list[FileSnapshot]]:
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
              "Their inline tests:", *(line for f in view.present for line in f.tests_lines()), "",
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


def export_candidates(files: list[Path], profile: str = "omniroute", *,
                      tested: dict[Path, dict[str, str]] | None = None) -> tuple[list[ExportCandidate], list[Diagnostic]]:
    """Every filter of the chosen files, in file order, with the files' errors. ``tested``: the
    test problems already known for some of the files (the trust overview ran the project
    filters' tests: not run twice)."""
    from engine.rtk.sources import read_filter_file

    out: list[ExportCandidate] = []
    problems: list[Diagnostic] = []
    known = {p.resolve(): found for p, found in (tested or {}).items()}
    for path in files:
        read = read_filter_file(path, profile=profile)
        problems += [d for d in read.diagnostics if d.level == "error"]
        failing = known.get(path.resolve())
        if failing is None:
            failing = test_problems(read.filters)
        out += [ExportCandidate(str(path), read.format, f.id, i, failing.get(f.id)) for i, f in enumerate(read.filters)]
    return out, problems


def export_selection(chosen: list[ExportCandidate], all_candidates: list[ExportCandidate], output: Path, *,
                     fmt: str, with_trust: bool = False, profile: str = "omniroute", replace: bool = False,
                     allow_failing: bool = False) -> ExportResult:
    """Plan and write in one step (``plan_selection`` then ``execute_export``)."""
    from engine.rtk.export import execute_export

    plan = plan_selection(chosen, all_candidates, output, fmt=fmt, profile=profile, replace=replace)
    return execute_export(plan, with_trust=with_trust, allow_failing=allow_failing, profile=profile)


def plan_selection(chosen: list[ExportCandidate], all_candidates: list[ExportCandidate], output: Path, *,
                   fmt: str, profile: str = "omniroute", replace: bool = False) -> ExportPlan:
    """What exporting the chosen filters to ``output`` will add, replace, keep and remove; whole
    files go in as they are (lossless), partial ones as objects.

    Raises ``ExportError``.
    """
    from engine.rtk.export import ExportError, collect_json_objects, plan_export, render_filters_json

    if not chosen:
        raise ExportError("no filters selected")
    by_file: dict[str, set[str]] = {}
    for c in chosen:
        by_file.setdefault(c.file, set()).add(c.filter_id)
    whole: list[str] = []
    partial: list[str] = []
    for file, ids in by_file.items():
        everything = {c.filter_id for c in all_candidates if c.file == file}
        (whole if ids >= everything else partial).append(file)
    with tempfile.TemporaryDirectory(prefix="rulewright-export-") as tmp:
        inputs: list[str | os.PathLike[str]] = list(whole)
        for n, file in enumerate(partial):
            objects, _notes = collect_json_objects([Path(file)], profile)
            keep = [o for o in objects if o.get("id") in by_file[file]]
            part = Path(tmp) / f"{n:03d}-{Path(file).stem}.json"
            part.write_text(render_filters_json(keep), encoding="utf-8")
            inputs.append(str(part))
        order = {f: i for i, f in enumerate(by_file)}
        inputs.sort(key=lambda p: order.get(str(p), len(order)))
        plan: ExportPlan = plan_export(inputs, output, toml=fmt == "toml", replace=replace, profile=profile)
        return plan
