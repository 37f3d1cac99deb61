"""The RTK preview's view-model: the filtered output, which filter was chosen and why, the lines
each stage kept or dropped (the funnel), surviving error and summary lines, and notes."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import memo
from engine.diagnostics import Diagnostic
from engine.jsontree import Utf16Offsets
from engine.rtk.empty_patterns import describe, without_empty_patterns
from engine.rtk.memo import RunMemo
from engine.workspace.competing import project_filters
from engine.workspace.previews.marks import Note, Span
from engine.workspace.previews.samples import Sample, sample_for_filters

if TYPE_CHECKING:
    from engine.rtk.model import RtkFilter
    from engine.rtk.trace import LineEvent, Trace

RTK_INTENSITIES = ("minimal", "standard", "aggressive")


@dataclass
class FilterBuffer:
    """An open (possibly unsaved) filter file: its path (for the format) and its text."""

    path: str
    text: str
    selected_id: str | None = None


@dataclass
class RtkRequest:
    output: str
    command: str = ""
    profile: str = "omniroute"
    intensity: str = "minimal"
    builtin_dir: str | None = None
    project_dir: str | None = None
    active: FilterBuffer | None = None
    scope: str = "engine"  # engine: every filter competes | filter: run the active filter alone
    options: dict[str, Any] = field(default_factory=dict)  # opt-in RtkConfig keys (renderers, code strip, grouping)
    # the workspace's other filter files (outside .rtk/): they compete as the open one does, so
    # opening a file never changes which filter the preview picks; an unsaved one by its buffer
    workspace_files: tuple[str, ...] = ()
    unsaved: tuple[FilterBuffer, ...] = ()


@dataclass
class StageRow:
    name: str
    lines_in: int
    lines_out: int
    counts: dict[str, int]
    markers: list[str]
    note: str
    events: list[LineEvent]  # line, action, text, pattern, pointer, after
    events_truncated: bool = False

    @property
    def dropped(self) -> int:
        return max(0, self.lines_in - self.lines_out)


@dataclass
class RtkPreview:
    output: str
    text: str
    detected_type: str
    confidence: float
    detected_command: str
    matched_patterns: list[str]
    filter_id: str | None
    filter_label: str
    why: str  # plain words: scope, criterion, pattern
    stages: list[StageRow]
    tokens_before: int
    tokens_after: int
    lines_before: int
    lines_after: int
    highlights: list[Span]  # error / summary lines that survived, in ``text``
    notes: list[Note]
    document_read: bool = False
    error: str = ""
    seconds: float = 0.0
    filter_ids: list[str] = field(default_factory=list)

    @property
    def savings_percent(self) -> float:
        return 100.0 * (self.tokens_before - self.tokens_after) / self.tokens_before if self.tokens_before else 0.0

    def funnel(self) -> list[tuple[str, int]]:
        """(label, lines) from the input through every stage: the funnel chart's steps."""
        steps = [("input", self.lines_before)]
        for s in self.stages:
            steps.append((s.name, s.lines_out))
        if not self.stages or steps[-1][1] != self.lines_after:
            steps.append(("output", self.lines_after))
        return steps

    def summary(self) -> str:
        saved = self.tokens_before - self.tokens_after
        sign = "−" if saved >= 0 else "+"
        return (f"lines {self.lines_before} → {self.lines_after} · tokens {self.tokens_before} → "
                f"{self.tokens_after} ({sign}{abs(self.savings_percent):.0f}%)")


def parse_filter_buffer(buf: FilterBuffer, profile: str) -> tuple[list[RtkFilter], list[Diagnostic]]:
    """Filters of an unsaved buffer (JSON or rtk TOML), as the loader would read the file."""
    from engine.rtk.model import parse_filter_file

    if buf.path.endswith(".toml"):
        from engine.rtk.toml_io import TomlFilterError, parse_rtk_toml

        try:
            result = parse_rtk_toml(buf.text, run_tests=False, profile=profile)
        except TomlFilterError as exc:
            return [], [Diagnostic(str(exc), "error", "RTK-TOML", buf.path, source="rtk")]
        from dataclasses import replace

        return [replace(f, source="project", path=buf.path) for f in result.filters], []
    try:
        value = json.loads(buf.text)
    except json.JSONDecodeError as exc:
        return [], [Diagnostic(f"the open file is not valid JSON: {exc.msg}", "error", "json-syntax", buf.path,
                               exc.lineno, exc.colno, source="json")]
    # rows the author added and has not typed yet are left out: an empty drop pattern would
    # drop every line (the validator flags them: RTK-empty-pattern)
    value, skipped = without_empty_patterns(value)
    filters, found = parse_filter_file(value, profile=profile, source="project", path=buf.path)
    return filters, [*found, *(Diagnostic(f"{p}: {describe(p)} — left out of the preview until it has one",
                                          "info", "RTK-empty-pattern", buf.path, pointer=p, source="preview")
                               for p in skipped)]


@dataclass(frozen=True)
class OwnTest:
    """An open filter's own inline test, as the sample to preview it on when no workspace output
    is one it is chosen for (a filter reopened later showed another command's output: "not
    chosen"). ``key`` tells it apart from a sample's path in the preview's sample box."""

    filter_id: str
    name: str
    input: str
    command: str

    @property
    def label(self) -> str:
        return f"{self.filter_id} › {self.name} (its test)"

    @property
    def key(self) -> str:
        return f"test:{self.filter_id}:{self.name}"


def own_test(filters: Sequence[RtkFilter], selected: str | None = None) -> OwnTest | None:
    """The first inline test with an input of the selected filter, else of the file's filters
    in order (what the preview turns to when no workspace sample fits)."""
    ordered = sorted(filters, key=lambda f: f.id != selected) if selected else list(filters)
    for f in ordered:
        for test in f.tests:
            if test.input:
                return OwnTest(f.id, test.name, test.input, test.command or "")
    return None


def sample_to_follow(buffer: FilterBuffer, samples: Sequence[Sample], shown: str | None,
                     profile: str = "omniroute") -> str | OwnTest | None:
    """What the RTK preview turns to when ``buffer`` (an open filter file) comes to the front:
    None when the sample ``shown`` (a path, or an ``OwnTest.key``) is one its filters are chosen
    for already, else ``sample_for_filters``'s path, else the file's own first test
    (``own_test``). Parsing and choosing for a 2 MB, 2,200-filter file takes over a second: the
    IDE asks a helper process."""
    filters = parse_filter_buffer(buffer, profile)[0]
    current = [s for s in samples if s.path == shown]
    if current and sample_for_filters(current, filters, profile=profile) is not None:
        return None
    pick = sample_for_filters([s for s in samples if s.path != shown], filters, profile=profile)
    if pick is not None:
        return pick.path
    test = own_test(filters, buffer.selected_id)
    return None if test is None or test.key == shown else test


_CRITERIA_WORDS = {
    "toml-command": "its TOML match_command matched the command",
    "outputTypes": "it handles the detected output type",
    "commands": "its command pattern matched the command",
    "patterns": "its output pattern matched the output",
    "generic-fallback": "no filter matched, so the generic-output filter was used",
}


def _why(selection: dict[str, Any] | None, filter_label: str, where: str = "") -> str:
    if not selection:
        return ""
    if selection.get("filterId") is None:
        return selection.get("note") or "no filter was chosen"
    parts = [f"{filter_label} ({selection.get('scope') or 'builtin'} scope{', ' + where if where else ''})"]
    crit = selection.get("criterion")
    if crit:
        words = _CRITERIA_WORDS.get(crit, crit)
        if selection.get("pattern"):
            words += f": /{selection['pattern']}/"
        parts.append(f"chosen because {words}")
    if selection.get("note"):
        parts.append(selection["note"])
    return " — ".join(parts)


def _file_of(flt: RtkFilter | None, workspace: str | None) -> str:
    """Where a chosen filter is written: its path in the workspace (``.rtk/filters.json`` and
    ``filters/x.json`` both rank in project scope), or a bundled file's name."""
    if flt is None or not flt.path:
        return ""
    if workspace:
        try:
            return Path(_real(flt.path)).relative_to(_real(workspace)).as_posix()
        except (ValueError, OSError):
            pass
    return Path(flt.path).name


def _stage_rows(trace: Trace) -> list[StageRow]:
    rows: list[StageRow] = []
    for stage in [*trace.stages, *trace.steps]:
        counts: dict[str, int] = {}
        for ev in stage.events:
            counts[ev.action] = counts.get(ev.action, 0) + 1
        rows.append(StageRow(stage.stage, stage.lines_in, stage.lines_out, counts, list(stage.markers), stage.note,
                             list(stage.events), stage.events_truncated))
    return rows


def _line_spans(text: str) -> list[tuple[int, int, str]]:
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, pos + len(line), line))
        pos += len(line) + 1
    return out


def _highlights(text: str, flt: RtkFilter | None) -> list[Span]:
    """Error lines (the engine's own priority pattern) and summary lines (the filter's priority
    patterns) that reached the final text."""
    from engine.jsregex import RegexTimeout
    from engine.rtk.engine import DEFAULT_PRIORITY
    from engine.rtk.linescan import LineScanner
    from engine.rtk.patterns import compile_list

    lines = _line_spans(text)
    u16 = Utf16Offsets(text)
    kinds: dict[int, tuple[str, str]] = {}
    for i, (_s, _e, line) in enumerate(lines):
        if DEFAULT_PRIORITY.search(line):
            kinds[i] = ("error", "error line: kept by the engine's priority pattern")
    if flt is not None and flt.priority_patterns:
        patterns, _bad = compile_list(flt.priority_patterns, "i")
        scanner = LineScanner([ln for _s, _e, ln in lines])
        for p in patterns:
            try:
                for i in scanner.hits(p):
                    kinds.setdefault(i, ("summary", f"summary line: matches the filter's priority pattern /{p.source}/"))
            except RegexTimeout:
                continue
    return [Span(u16(lines[i][0]), u16(lines[i][1]), kind, tip) for i, (kind, tip) in sorted(kinds.items())]


def _rtk_notes(diags: Iterable[Diagnostic | dict[str, Any]]) -> list[Note]:
    from engine.rtk.quirks import QUIRKS

    notes = []
    for d in diags:
        data = d if isinstance(d, dict) else d.to_dict()
        code = data.get("code") or ""
        level = data.get("level", "info")
        message = data.get("message", "")
        if code in QUIRKS:
            message = f"{message} ({code}: {QUIRKS[code]})"
        if "TIMEOUT" in code.upper() or "timed out" in message or "ran out of time" in message:
            level = "error"
        notes.append(Note(code or "RTK", level, message))
    return notes


def _buffer_notes(found: Iterable[Diagnostic]) -> list[Note]:
    """Errors of the open filter file, one per schema issue (the reference's zod dump is long),
    and the empty patterns the preview left out."""
    notes = []
    for d in found:
        if d.code == "RTK-empty-pattern":
            notes.append(Note(d.code, "warning", f"open filter file: {d.message}"))
            continue
        if d.level != "error":
            continue
        issues = (d.data or {}).get("issues")
        if issues:
            notes.extend(Note(d.code or "RTK", "error", f"open filter file: {i.get('pointer') or '/'}: {i['message']}")
                         for i in issues)
        else:
            notes.append(Note(d.code or "RTK", "error", f"open filter file: {d.message}"))
    return notes


def _builtin_filters(folder: str | None, profile: str) -> tuple[list[RtkFilter], list[Diagnostic]]:
    if not folder or not Path(folder).is_dir():
        return [], []
    from engine.rtk.builtin import load_builtin

    return load_builtin(folder, profile)


@memo.lru(maxsize=1024)
def _real(path: str) -> str:
    """``path`` resolved, once per path (each costs a syscall per component, and the bundled
    filters' ~100 paths are compared on every run)."""
    return str(Path(path).resolve())


def _competitors(req: RtkRequest) -> tuple[list[RtkFilter], list[Diagnostic]]:
    """Every filter that competes beside the open file's, each file's filters once and from its
    freshest copy: the open buffer, then an unsaved one, then the file as saved; the project's
    ``.rtk`` files and the bundled ones only where no such copy came first (the open file may be
    one of them, and a workspace may be the bundled library's own folder). With the project
    files' errors, which the preview notes."""
    from engine.workspace.competing import file_filters

    taken = {_real(req.active.path)} if req.active is not None else set()
    buffers = {_real(b.path): b for b in req.unsaved}
    found: list[RtkFilter] = []
    for path in req.workspace_files:
        real = _real(path)
        if real in taken:
            continue
        taken.add(real)
        buffer = buffers.get(real)
        found.extend(parse_filter_buffer(buffer, req.profile)[0] if buffer is not None
                     else file_filters(path, req.profile))
    project, problems = project_filters(req.project_dir, req.profile)
    builtin = _builtin_filters(req.builtin_dir, req.profile)[0]  # (their load problems are the validator's)
    found.extend(f for f in (*project, *builtin) if not f.path or _real(f.path) not in taken)
    return found, problems


_RTK_MEMO = RunMemo()
memo.register(f"{__name__}._RTK_MEMO", _RTK_MEMO.clear, _RTK_MEMO.__len__)


def run_rtk_preview(req: RtkRequest) -> RtkPreview:
    """Run the RTK engine (or one filter alone) with a trace and reshape it for drawing."""
    from engine.rtk.dedup import split_lines
    from engine.rtk.engine import RtkConfig, process_rtk_text
    from engine.rtk.memo import using_memo
    from engine.rtk.select import sort_filters
    from engine.rtk.stages import apply_line_filter
    from engine.rtk.tokens import estimate_tokens
    from engine.rtk.trace import Trace

    started = time.perf_counter()
    notes: list[Note] = []
    active: list[RtkFilter] = []
    if req.active is not None:
        active, found = parse_filter_buffer(req.active, req.profile)
        notes.extend(_buffer_notes(found))
    lines_before = len(split_lines(req.output)) if req.output else 0
    tokens_before = estimate_tokens(req.output)
    trace = Trace()
    if req.scope == "filter":
        selected = req.active.selected_id if req.active is not None else None
        chosen = next((f for f in active if f.id == selected), active[0]) if active else None
        if chosen is None:
            return RtkPreview(req.output, req.output, "", 0.0, "", [], None, "", "", [], tokens_before, tokens_before,
                              lines_before, lines_before, [], notes, error="no filter in the open file to run alone",
                              seconds=time.perf_counter() - started, filter_ids=[f.id for f in active])
        alone = apply_line_filter(req.output, chosen, profile=req.profile, trace=trace)
        notes.extend(_rtk_notes(alone.diagnostics))
        text = alone.text
        return RtkPreview(
            req.output, text, "", 0.0, req.command, [], chosen.id, chosen.name or chosen.id,
            f"{chosen.name or chosen.id}: run alone (this filter only — no detection, no engine dedup or final cap)",
            _stage_rows(trace), tokens_before, estimate_tokens(text), lines_before,
            len(split_lines(text)) if text else 0, _highlights(text, chosen), notes,
            seconds=time.perf_counter() - started, filter_ids=[f.id for f in active])
    others, project_diags = _competitors(req)
    filters = sort_filters([*active, *others], profile=req.profile)
    notes.extend(_rtk_notes(d for d in project_diags))
    config = RtkConfig.from_dict({"enabled": True, "intensity": req.intensity, **req.options})
    with using_memo(_RTK_MEMO):  # reruns on the same output reuse detection and the filter-choice searches
        result = process_rtk_text(req.output, req.command or None, config, filters, profile=req.profile,
                                  trace=trace)
    notes.extend(_rtk_notes(result.diagnostics))
    det = result.detection
    flt = result.filter
    label = (flt.name or flt.id) if flt else ""
    selection = trace.selection.to_dict() if trace.selection else None
    why = "document read: OmniRoute passes it through (no filter, no final cap)" if result.document_read \
        else _why(selection, label, _file_of(flt, req.project_dir))
    return RtkPreview(
        req.output, result.text, det.type, det.confidence, det.command or "", list(det.matched_patterns),
        flt.id if flt else None, label, why, _stage_rows(trace), result.original_tokens, result.compressed_tokens,
        lines_before, len(split_lines(result.text)) if result.text else 0, _highlights(result.text, flt), notes,
        document_read=result.document_read, seconds=time.perf_counter() - started,
        filter_ids=[f.id for f in active])
