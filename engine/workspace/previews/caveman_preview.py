"""The Caveman preview's view-model: the compressed text, a word diff with the rule that caused
each change, protected regions, per-rule and per-category savings, and the quirks in plain words."""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from engine.workspace.previews.caveman_packs import PackOverride, pack_source, without_unfinished_rules
from engine.workspace.previews.marks import Note, Span
from engine.workspace.previews.word_diff import DiffOp, word_diff

if TYPE_CHECKING:
    from engine.caveman import CompressResult, Explanation, PackSource

ROLES = ("user", "system", "assistant")
INTENSITIES = ("lite", "full", "ultra")


@dataclass
class CavemanRequest:
    text: str
    language: str = "en"
    intensity: str = "full"
    role: str = "user"
    profile: str = "omniroute"
    pack_root: str | None = None  # folder of <language>/<category>.json packs
    override: PackOverride | None = None
    only_rule: str | None = None  # "this rule only": run that rule alone
    timeout_ms: int = 250


@dataclass
class RuleHit:
    """One rule of the run as the preview lists it."""

    name: str
    category: str
    source: str
    matches: int
    changed: bool
    attempted: bool
    skipped: str  # "", "prefilter", "timeout", …
    saved_tokens: int
    spans: list[tuple[int, int]]  # UTF-16 spans in the input
    timeout_ms: int | None = None
    status: str = ""  # one short phrase for the list

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class CavemanPreview:
    input: str
    output: str
    language: str
    intensity: str
    role: str
    profile: str
    only_rule: str | None
    tokens_before: int
    tokens_after: int
    diff: list[DiffOp]
    input_spans: list[Span]
    output_spans: list[Span]
    protected: list[Span]
    rules: list[RuleHit]
    categories: list[tuple[str, int]]  # (category, tokens saved)
    notes: list[Note]
    sent_uncompressed: bool
    languages: list[str]
    error: str = ""
    seconds: float = 0.0
    # the first result of a large text: output, tokens, protected regions and the verdict only;
    # the explanation (rules with their matches, word diff, quirks) follows (run_caveman_preview)
    partial: bool = False

    @property
    def saved_tokens(self) -> int:
        return self.tokens_before - self.tokens_after

    @property
    def savings_percent(self) -> float:
        return 100.0 * self.saved_tokens / self.tokens_before if self.tokens_before else 0.0

    def summary(self) -> str:
        sign = "−" if self.saved_tokens >= 0 else "+"
        return (f"tokens {self.tokens_before} → {self.tokens_after} "
                f"({sign}{abs(self.savings_percent):.0f}%)")

    def rules_line(self) -> str:
        """How many rules changed the text; when none did and the output still differs, that
        the cleanup did (a capital or a space changed under "0 of 3 rules" read as a bug)."""
        fired = sum(1 for h in self.rules if h.changed)
        line = f"{fired} of {len(self.rules)} rules changed the text"
        if not fired and not self.sent_uncompressed and self.output != self.input:
            line += " (the cleanup did: spacing, capitals, punctuation)"
        return line

    def rule_spans(self, name: str) -> list[tuple[int, int]]:
        hit = next((r for r in self.rules if r.name == name), None)
        return list(hit.spans) if hit else []


def _quirk_text(code: str, message: str) -> str:
    from engine.caveman.quirks import QUIRKS

    title = QUIRKS.get(code)
    return f"{message} ({code}: {title})" if title else message


@dataclass(frozen=True)
class Verdict:
    """What the notes read of a plain compress run (an ``Explanation`` carries the same fields)."""

    gated: str
    fallback_applied: bool
    validation_errors: list[str]
    validation_warnings: list[str]
    diagnostics: list[dict[str, Any]]
    rules: Sequence[object]
    language: str
    intensity: str
    role: str


def caveman_notes(ex: Explanation | Verdict, profile: str) -> tuple[list[Note], bool]:
    """Plain-words notes for an explanation, and whether OmniRoute sends the text unchanged."""
    notes: list[Note] = []
    reference = "OmniRoute" if profile == "omniroute" else "The strict profile"
    uncompressed = False
    if ex.gated == "timeout":
        uncompressed = True
        cause = next((d["message"] for d in ex.diagnostics if d.get("code") == "CAV-timeout"
                      and not (d.get("data") or {}).get("rule")), "a protected-region pattern timed out")
        notes.append(Note("CAV-timeout", "error", f"{reference} will send this message uncompressed because {cause}"))
    elif ex.gated in ("empty", "short"):
        uncompressed = True
        notes.append(Note("CAV-gate", "info", f"{reference} will send this message uncompressed because it is "
                          f"{'empty' if ex.gated == 'empty' else 'shorter than minMessageLength'}"))
    if ex.fallback_applied or ex.validation_errors:
        uncompressed = True
        why = "; ".join(" ".join(e.split()) for e in ex.validation_errors[:3]) or "its validation failed"
        culprits = [d["code"] for d in ex.diagnostics if d.get("code") in ("CAV-Q1", "CAV-Q13")]
        blame = f" (quirk {', '.join(culprits)}; see below)" if culprits else ""
        notes.append(Note("CAV-fallback", "error", f"{reference} will send this message uncompressed because the "
                          f"compressed text failed validation: {why}{blame}"))
    for d in ex.diagnostics:
        code = d.get("code") or ""
        data = d.get("data") or {}
        if code == "CAV-timeout":
            if data.get("rule"):
                notes.append(Note(code, "error", d["message"], data["rule"]))
            continue
        if code.startswith("CAV-Q"):
            notes.append(Note(code, d.get("level", "info"), _quirk_text(code, d["message"]), data.get("rule")))
        elif d.get("level") in ("warning", "error"):
            notes.append(Note(code or "CAV", d["level"], d["message"], data.get("rule")))
    for w in ex.validation_warnings:
        notes.append(Note("CAV-validation", "warning", f"validation warning: {w}"))
    if not ex.rules and not uncompressed and not any(n.code == "CAV-Q3" for n in notes):
        notes.append(Note("CAV-rules", "info", f"no {ex.language} rules apply at {ex.intensity} for the {ex.role} role"))
    return notes, uncompressed


def _timeout_ms(notes: Iterable[Note], rule: str, default: int) -> int:
    for n in notes:
        if n.code == "CAV-timeout" and n.rule == rule:
            m = re.search(r"after (\d+) ms", n.text)
            if m:
                return int(m.group(1))
    return default


class PreviewCancelled(Exception):
    """Raised by a progress callback to stop an explanation that is no longer wanted."""


STAGED_MIN = 50_000  # texts at least this long get a first result before their explanation


def _broken_pack(req: CavemanRequest, exc: Exception, started: float) -> CavemanPreview:
    from engine.caveman import estimate_tokens

    tokens = estimate_tokens(req.text)
    return CavemanPreview(req.text, req.text, req.language, req.intensity, req.role, req.profile,
                          req.only_rule, tokens, tokens, [], [], [], [], [], [], [],
                          True, [], error=str(exc), seconds=time.perf_counter() - started)


def _explain_config(req: CavemanRequest) -> dict[str, Any]:
    """The configuration ``explain`` builds for one ``req.role`` message (the first result must
    compress exactly as the explanation will)."""
    return {"enabled": True, "minMessageLength": 0, "compressRoles": [req.role], "intensity": req.intensity,
            "language": req.language}


def request_body_of(text: str) -> dict[str, Any] | None:
    """The pasted text as a whole request body (chat ``messages``, Responses ``input`` or Kiro
    ``conversationState``), or ``None`` for prose."""
    stripped = text.lstrip()
    if not stripped.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("messages"), list) or isinstance(value.get("conversationState"), dict) \
            or isinstance(value.get("input"), list | str):
        return value
    return None


def run_caveman_body(req: CavemanRequest, body: dict[str, Any]) -> CavemanPreview:
    """A pasted request body through OmniRoute's body adapter and ``cavemanCompress`` (``caveman.md``
    §2.3): the rewritten body, the adapter's quirks and the rules that fired (no per-match view)."""
    from engine.bodies import adapt_body
    from engine.caveman import Compressor, PackError

    started = time.perf_counter()
    try:
        source = pack_source(req.pack_root, req.override)
        languages = source.languages()
        adapted = adapt_body(body, profile=req.profile)
        compressor = Compressor(source, _explain_config(req), profile=req.profile, only_rule=req.only_rule,
                                timeout=req.timeout_ms / 1000 if req.timeout_ms else None)
        result = compressor.compress_body(adapted.body)
    except (PackError, OSError) as exc:
        return _broken_pack(req, exc, started)
    out_body = adapted.restore(result.body) if adapted.adapted else result.body
    output = json.dumps(out_body, ensure_ascii=False, indent=2 if "\n" in req.text.strip() else None)
    exposed = len(adapted.body.get("messages") or []) if isinstance(adapted.body, dict) else 0
    shape = {"responses": "OpenAI Responses", "kiro": "Kiro", "chat": "chat"}.get(adapted.shape, "")
    notes = [Note("body", "info", f"{shape} request body: {exposed} message(s) for Caveman (role "
                  f"{req.role!r} is compressed)" if shape else "no messages in this body: it is sent as it is")]
    notes.extend(Note(d.code or "CAV", d.level, d.message) for d in [*adapted.diagnostics, *result.diagnostics])
    stats = result.stats
    hits = [RuleHit(name, "", "", 0, True, True, "", 0, [], status="fired in the body")
            for name in stats.get("rulesApplied", [])]
    diff = word_diff(req.text, output)
    return CavemanPreview(req.text, output, req.language, req.intensity, req.role, req.profile, req.only_rule,
                          stats["originalTokens"], stats["compressedTokens"], diff, *_attribute(diff, []), [], hits,
                          [], notes, bool(stats.get("fallbackApplied")), languages,
                          seconds=time.perf_counter() - started)


R = TypeVar("R")


def _run_text(req: CavemanRequest, run: Callable[[PackSource], R],
              shape: Callable[[R, list[str], float], CavemanPreview]) -> CavemanPreview:
    """The frame both text runs share: a pasted request body goes to ``run_caveman_body``; else
    ``run(source)`` goes over the packs, a broken pack (the loader's message) is shown in place of
    a result, and ``shape(result, languages, started)`` reshapes the engine's answer for drawing."""
    from engine.caveman import PackError

    body = request_body_of(req.text)
    if body is not None:
        return run_caveman_body(req, body)
    started = time.perf_counter()
    try:
        source = pack_source(req.pack_root, req.override)
        languages = source.languages()
        result = run(source)
    except (PackError, OSError) as exc:
        return _broken_pack(req, exc, started)
    return shape(result, languages, started)


def run_caveman_output(req: CavemanRequest) -> CavemanPreview:
    """The first result for a large text: the plain compress path (no per-match recording, no
    quirk diagnosis, no word diff), so a 1 MB paste shows its output, tokens, protected regions
    and whether it would be sent uncompressed at once; ``partial`` is set, and the explanation
    (``run_caveman_preview``) follows."""
    return _run_output(req)


def run_caveman_output_lean(req: CavemanRequest) -> tuple[CavemanPreview, bool]:
    """``run_caveman_output`` for a helper process to send back: without the text it was given,
    and without the output when that is the same text (sent uncompressed), which the second item
    says; the caller puts them back (``restore_lean``). A megabyte each way less to pickle."""
    preview = _run_output(req)
    same = preview.output == req.text
    preview.input = ""
    if same:
        preview.output = ""
    return preview, same


def restore_lean(req: CavemanRequest, lean: tuple[CavemanPreview, bool]) -> CavemanPreview:
    preview, same = lean
    preview.input = req.text
    if same:
        preview.output = req.text
    return preview


WARM_UNITS = 160_000  # the first stage's warm-up text is repeated to this length (see ``warm_up``)


def warm_up(req: CavemanRequest) -> float:
    """Run ``req`` through both stages and forget the result: a helper process pays its one-time
    costs (imports, the packs read, their patterns translated and compiled, the case tables
    built) before the first real text arrives. The first stage runs on the text repeated to
    ``WARM_UNITS``: past what a pattern must meet before its calls run untimed, and long enough
    for the costs of its full scans to be measured and its twins chosen, which a large paste
    otherwise pays for (its first result, 1 MB, in-process: agent sessions 161–177 → 145–159 ms,
    prose 115–123 → 95–105, for ~50 ms more of the helper's time). Returns the seconds it took."""
    started = time.perf_counter()
    reps = max(1, -(-WARM_UNITS // max(1, len(req.text))))
    run_caveman_output(dataclasses.replace(req, text=req.text * reps))
    run_caveman_preview(req)
    return time.perf_counter() - started


def _run_output(req: CavemanRequest) -> CavemanPreview:
    from engine.caveman import Compressor

    def compress(source: PackSource) -> CompressResult:
        compressor = Compressor(source, _explain_config(req), profile=req.profile, only_rule=req.only_rule,
                                timeout=req.timeout_ms / 1000 if req.timeout_ms else None, diagnose=False)
        return compressor.compress_body({"messages": [{"role": req.role, "content": req.text}]})

    return _run_text(req, compress, lambda result, languages, started: _first_result(req, result, languages, started))


def _first_result(req: CavemanRequest, result: CompressResult, languages: list[str], started: float) -> CavemanPreview:
    """``run_caveman_output``'s drawing: output, tokens, protected regions and the verdict."""
    from engine.caveman import estimate_tokens

    output = result.body["messages"][0]["content"]
    part = result.parts[0] if result.parts else None
    blocks = part.extraction.blocks if part is not None and part.extraction is not None else []
    tips: dict[str, str] = {}  # one string per kind (a helper process pickles each once)
    protected = [Span(b.start, b.end, "protected", tips.get(b.kind) or tips.setdefault(
        b.kind, f"protected {b.kind}: left as written"), label=b.kind) for b in blocks]
    verdict = Verdict(
        gated=part.gated if part is not None else "short", fallback_applied=bool(result.stats.get("fallbackApplied")),
        validation_errors=list(result.stats.get("validationErrors", [])),
        validation_warnings=list(result.stats.get("validationWarnings", [])),
        diagnostics=[d.to_dict() for d in result.diagnostics], rules=part.selection.rules if part and part.selection
        else [], language=part.language if part is not None else req.language, intensity=req.intensity, role=req.role)
    notes, uncompressed = caveman_notes(verdict, req.profile)
    return CavemanPreview(req.text, output, verdict.language, req.intensity, req.role, req.profile, req.only_rule,
                          estimate_tokens(req.text), estimate_tokens(output), [], [], [], protected, [], [], notes,
                          uncompressed, languages, seconds=time.perf_counter() - started, partial=True)


def run_caveman_preview(req: CavemanRequest, progress: Callable[[float, str], None] | None = None,
                        rules_ready: Callable[[CavemanPreview], None] | None = None) -> CavemanPreview:
    """Explain ``req.text`` with the pack(s) and reshape the explanation for drawing.
    ``progress(fraction, stage)`` follows the run (raise ``PreviewCancelled`` in it to stop);
    ``rules_ready(preview)`` gets the rules with their matches, the savings and the notes as soon
    as they are known, before the word diff (a ``partial`` preview without it): on a large text
    the diff and its attribution take more than half of the run."""
    from engine.caveman import explain

    def run(source: PackSource) -> Explanation:
        return explain(req.text, source, {"language": req.language, "intensity": req.intensity},
                       only_rule=req.only_rule, role=req.role, profile=req.profile,
                       timeout=req.timeout_ms / 1000 if req.timeout_ms else None,
                       progress=None if progress is None else (lambda f, stage: progress(0.6 * f, stage)))

    return _run_text(req, run, lambda ex, languages, started: _explained(req, ex, languages, started, progress,
                                                                         rules_ready))


def _explained(req: CavemanRequest, ex: Explanation, languages: list[str], started: float,
               progress: Callable[[float, str], None] | None,
               rules_ready: Callable[[CavemanPreview], None] | None = None) -> CavemanPreview:
    """``run_caveman_preview``'s drawing: rules with their matches, the word diff and the notes."""
    from engine.caveman import estimate_tokens

    notes, uncompressed = caveman_notes(ex, req.profile)
    if req.override is not None:
        try:
            unfinished = without_unfinished_rules(json.loads(req.override.text))[1]
        except json.JSONDecodeError:
            unfinished = []
        notes[:0] = [Note("CAV-pattern", "warning", f"rule {name} has no pattern yet: left out of the preview",
                          name) for name in unfinished]
    protected = [Span(r.start, r.end, "protected", f"protected {r.kind}: left as written", label=r.kind)
                 for r in ex.protected]
    hits: list[RuleHit] = []
    category_saved: dict[str, int] = {}
    timeout_default = req.timeout_ms
    for r in ex.rules:
        spans = [(m.input_start, m.input_end) for m in r.matches
                 if m.input_start is not None and m.input_end is not None]
        saved = estimate_tokens(r.before) - estimate_tokens(r.after) if r.changed else 0
        hit = RuleHit(r.name, r.category, r.source, len(r.matches), r.changed, r.attempted, r.skipped, saved, spans)
        if r.skipped == "timeout":
            hit.timeout_ms = _timeout_ms(notes, r.name, timeout_default)
            hit.status = f"timed out after {hit.timeout_ms} ms"
        elif r.skipped == "prefilter":
            hit.status = "skipped by the keyword prefilter" + (" (CAV-Q4)" if r.matches or r.changed else "")
        elif r.skipped:
            hit.status = f"skipped ({r.skipped})"
        elif r.matches:
            hit.status = f"{len(r.matches)} match{'es' if len(r.matches) != 1 else ''}"
        else:
            hit.status = "no match"
        hits.append(hit)
        if saved:
            category_saved[r.category] = category_saved.get(r.category, 0) + saved
    categories = sorted(category_saved.items(), key=lambda kv: -kv[1])
    if rules_ready is not None:
        rules_ready(CavemanPreview(
            ex.input, ex.output, ex.language, ex.intensity, ex.role, ex.profile, req.only_rule, ex.tokens_before,
            ex.tokens_after, [], [], [], protected, list(hits), list(categories), list(notes), uncompressed,
            languages, seconds=time.perf_counter() - started, partial=True))
    diff = word_diff(ex.input, ex.output, None if progress is None else (lambda f, stage: progress(0.6 + 0.38 * f, stage)))
    if progress is not None:
        progress(0.98, "attributing changes")
    input_spans, output_spans = _attribute(diff, hits)
    return CavemanPreview(
        ex.input, ex.output, ex.language, ex.intensity, ex.role, ex.profile, req.only_rule, ex.tokens_before,
        ex.tokens_after, diff, input_spans, output_spans, protected, hits, categories, notes, uncompressed,
        languages, seconds=time.perf_counter() - started)


def _attribute(diff: list[DiffOp], hits: list[RuleHit]) -> tuple[list[Span], list[Span]]:
    """Diff spans for both sides, each with the rules whose matches overlap the change."""
    import bisect
    from itertools import compress

    marks: list[tuple[int, int, str]] = sorted(
        (s, e, h.name) for h in hits if h.changed for s, e in h.spans)
    starts = [m[0] for m in marks]
    ends = [m[1] for m in marks]
    rule_of = [m[2] for m in marks]
    longest = max((e - s for s, e, _name in marks), default=0)

    def overlapping(lo: int, hi: int, a: int) -> list[str]:
        """Names of ``marks[lo:hi]`` (all starting before the change ends) that reach ``a``, in
        order, once each; the per-mark test runs in C (a 1 MB diff has tens of thousands of
        changes, each looking at up to 64 marks)."""
        return list(dict.fromkeys(compress(rule_of[lo:hi], map(a.__le__, ends[lo:hi])))) if hi > lo else []

    def rules_for(a: int, b: int) -> list[str]:
        limit = max(b, a + 1)
        hi = bisect.bisect_right(starts, limit)
        before = bisect.bisect_left(starts, limit, 0, hi)  # marks that start before ``limit``
        reach = bisect.bisect_left(starts, a - longest, 0, before)  # none before this one reaches ``a``
        found = overlapping(max(hi - 64, reach), before, a)  # matches are short; look back a little
        if not found:  # far-reaching match: every mark that starts late enough to reach ``a``
            found = overlapping(reach, before, a)
        return found

    left: list[Span] = []
    right: list[Span] = []
    for op in diff:
        if op.kind == "equal":
            continue
        names = rules_for(op.a_start, op.a_end)
        by = f"by {', '.join(names)}" if names else "by cleanup (spacing, capitals, punctuation)"
        rule = names[0] if names else None
        if op.kind in ("delete", "replace"):
            left.append(Span(op.a_start, op.a_end, "removed", f"removed {by}", rule))
        if op.kind in ("insert", "replace"):
            right.append(Span(op.b_start, op.b_end, "inserted", f"{'replaced' if op.kind == 'replace' else 'inserted'} "
                              f"{by}", rule))
        elif op.kind == "delete":
            right.append(Span(op.b_start, op.b_start, "removed", f"text removed here {by}", rule))
    return left, right
