"""View-models of the live previews: what the Caveman and RTK preview panels draw, Qt-free.

The engines compute every explanation (``engine.caveman.explain``, ``engine.rtk`` traces); this
module only reshapes them for drawing: a word-level diff between input and output, shaded spans
(protected regions, rule matches) with the rule that caused each change, per-rule and
per-category savings, per-stage line counts for the RTK funnel, and quirk diagnostics rephrased
as plain sentences. Every offset here is UTF-16 (what Qt's text positions count, IDE-Q2).

The preview functions are pure: plain data in (a request), plain data out, so the panels can run
them in a worker thread and tests can run them without Qt.
"""

from __future__ import annotations

import difflib
import json
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import Any

from engine import memo
from engine.diagnostics import Diagnostic
from engine.jsvalues import utf16_len
from engine.rtk.empty_patterns import describe, without_empty_patterns
from engine.rtk.memo import RunMemo

# ---------------------------------------------------------------- UTF-16 offsets

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class Utf16Offsets:
    """Python index → UTF-16 offset for one text, O(1) per lookup after one pass.

    Only astral characters (two UTF-16 units) shift offsets, so texts without any map 1:1.
    """

    def __init__(self, text: str) -> None:
        self._astral = [m.start() for m in _ASTRAL.finditer(text)]

    def __call__(self, index: int) -> int:
        if not self._astral:
            return index
        import bisect

        return index + bisect.bisect_left(self._astral, index)


# ---------------------------------------------------------------- word diff

_TOKEN = re.compile(r"\w+\s*|[^\w\s]\s*|\s+")  # a word keeps its trailing blanks
PAIR_BUDGET = 250_000  # tokens(a) × tokens(b) above which a block is not diffed word by word


@dataclass(frozen=True)
class DiffOp:
    """One run of the diff: ``equal``, ``delete``, ``insert`` or ``replace``; UTF-16 spans."""

    kind: str
    a_start: int
    a_end: int
    b_start: int
    b_end: int


def _tokens(text: str, base: int) -> tuple[list[str], list[int]]:
    """The tokens of ``text`` and their starts (plus the end). Every character is a word, blank
    or other character, so the tokens tile the text and each start is the sum of the lengths
    before it."""
    words = _TOKEN.findall(text)
    return words, list(accumulate(map(len, words), initial=base))


def _word_ops(a: str, b: str, a_base: int, b_base: int, out: list[tuple[str, int, int, int, int]]) -> None:
    """Word-level ops of ``a`` against ``b`` (Python indices offset by the bases)."""
    ta, sa = _tokens(a, a_base)
    tb, sb = _tokens(b, b_base)
    if len(ta) * len(tb) > PAIR_BUDGET:
        out.append(("replace", a_base, a_base + len(a), b_base, b_base + len(b)))
        return
    matcher = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        out.append((tag, sa[i1], sa[i2], sb[j1], sb[j2]))


_SEGMENT_END = re.compile(r"[.!?;:]+[ \t]+|\n+")


def _segments(text: str) -> tuple[list[str], list[int]]:
    """Sentence-like pieces (each keeps its closing punctuation and spacing) and their starts."""
    pieces, starts, pos = [], [], 0
    for m in _SEGMENT_END.finditer(text):
        pieces.append(text[pos:m.end()])
        starts.append(pos)
        pos = m.end()
    if pos < len(text) or not pieces:
        pieces.append(text[pos:])
        starts.append(pos)
    starts.append(len(text))
    return pieces, starts


_WORD = re.compile(r"\w+")
MIN_SIMILARITY = 0.25


LOOKAHEAD = 4  # segments a rule run may drop or add in a row before the alignment gives up


def _align(a_seg: list[str], b_seg: list[str]) -> list[tuple[int | None, int | None]]:
    """Pair the segments of two blocks in order: compressed text keeps the order and mostly one
    sentence per sentence, so a walk that pairs similar segments (shared words) and looks a few
    segments ahead for dropped or added ones is enough, in linear time."""
    n, m = len(a_seg), len(b_seg)
    wa = [set(_WORD.findall(x.lower())) for x in a_seg]
    wb = [set(_WORD.findall(y.lower())) for y in b_seg]

    def sim(i: int, j: int) -> float:
        if not wa[i] or not wb[j]:
            return 1.0 if a_seg[i].strip() == b_seg[j].strip() else 0.0
        return len(wa[i] & wb[j]) / len(wa[i] | wb[j])

    steps = sorted(((di, dj) for di in range(LOOKAHEAD + 1) for dj in range(LOOKAHEAD + 1)
                    if 0 < di + dj <= LOOKAHEAD), key=lambda d: (d[0] + d[1], d))
    out: list[tuple[int | None, int | None]] = []
    i = j = 0
    while i < n and j < m:
        if sim(i, j) < MIN_SIMILARITY:
            skip = next(((di, dj) for di, dj in steps
                         if i + di < n and j + dj < m and sim(i + di, j + dj) >= MIN_SIMILARITY), None)
            if skip is not None:
                out.extend((i + k, None) for k in range(skip[0]))
                out.extend((None, j + k) for k in range(skip[1]))
                i, j = i + skip[0], j + skip[1]
        out.append((i, j))  # similar, or nothing better nearby: diff them word by word
        i, j = i + 1, j + 1
    out.extend((k, None) for k in range(i, n))
    out.extend((None, k) for k in range(j, m))
    return out


def word_diff(a: str, b: str, progress: Callable[[float, str], None] | None = None) -> list[DiffOp]:
    """A readable word-level diff of ``a`` → ``b``.

    Sentence-like segments are aligned first (few, distinctive tokens); each changed block of
    segments is then diffed word by word, segment against segment when both sides have as many
    (the usual case: rules rewrite within sentences), else as one block. A flat word diff of a
    10 KB text takes seconds in ``difflib``; this takes milliseconds. ``progress(fraction,
    stage)`` is called along the way (it may raise to cancel).
    """
    if a == b:  # (a part that fell back: nothing to align)
        return [DiffOp("equal", 0, utf16_len(a), 0, utf16_len(b))] if a else []
    a_seg, a_off = _segments(a)
    b_seg, b_off = _segments(b)
    raw: list[tuple[str, int, int, int, int]] = []
    prev_i = prev_j = -1  # last aligned segment of the block (for where gaps sit)
    matcher = difflib.SequenceMatcher(None, a_seg, b_seg, autojunk=False)
    opcodes = matcher.get_opcodes()
    step = max(1, len(opcodes) // 50)
    for k, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if progress is not None and k % step == 0:
            progress(k / len(opcodes), "word diff")
        if tag in ("equal", "delete", "insert"):
            raw.append((tag, a_off[i1], a_off[i2], b_off[j1], b_off[j2]))
        elif i2 - i1 == j2 - j1:
            for k in range(i2 - i1):
                _word_ops(a_seg[i1 + k], b_seg[j1 + k], a_off[i1 + k], b_off[j1 + k], raw)
        else:
            for i, j in _align(a_seg[i1:i2], b_seg[j1:j2]):
                if i is None:
                    raw.append(("insert", a_off[i1 + prev_i + 1], a_off[i1 + prev_i + 1],
                                b_off[j1 + j], b_off[j1 + j + 1]))
                    prev_j = j
                elif j is None:
                    raw.append(("delete", a_off[i1 + i], a_off[i1 + i + 1], b_off[j1 + prev_j + 1],
                                b_off[j1 + prev_j + 1]))
                    prev_i = i
                else:
                    _word_ops(a_seg[i1 + i], b_seg[j1 + j], a_off[i1 + i], b_off[j1 + j], raw)
                    prev_i, prev_j = i, j
            prev_i = prev_j = -1
    ua, ub = Utf16Offsets(a), Utf16Offsets(b)
    ops: list[DiffOp] = []
    for tag, a1, a2, b1, b2 in raw:
        if a1 == a2 and b1 == b2:
            continue
        op = DiffOp(tag, ua(a1), ua(a2), ub(b1), ub(b2))
        last = ops[-1] if ops else None
        if last is not None and last.kind == tag and last.a_end == op.a_start and last.b_end == op.b_start:
            ops[-1] = DiffOp(tag, last.a_start, op.a_end, last.b_start, op.b_end)
        else:
            ops.append(op)
    return ops


# ---------------------------------------------------------------- spans

@dataclass
class Span:
    """A shaded range of a text view: ``kind`` picks the colour, ``tip`` is the hover text."""

    start: int
    end: int
    kind: str  # removed | inserted | changed | protected | match | error | summary | dropped
    tip: str = ""
    rule: str | None = None  # the rule (Caveman) or pattern (RTK) this span is about
    label: str = ""  # protected-region kind, stage name…

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "kind": self.kind, "tip": self.tip, "rule": self.rule,
                "label": self.label}


def span_at(spans: Sequence[Span], pos: int) -> list[Span]:
    """Spans that cover UTF-16 position ``pos`` (an empty span covers its own position)."""
    return [s for s in spans if s.start <= pos < s.end or (s.start == s.end == pos)]


# ---------------------------------------------------------------- Caveman

ROLES = ("user", "system", "assistant")
INTENSITIES = ("lite", "full", "ultra")
PROFILES = ("omniroute", "strict")


@dataclass
class PackOverride:
    """An open (possibly unsaved) pack buffer that replaces ``<language>/<base>.json`` on disk."""

    language: str
    base: str
    text: str


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
class Note:
    """A quirk or problem in plain words, with the code that names it."""

    code: str
    level: str
    text: str
    rule: str | None = None


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

    def rule_spans(self, name: str) -> list[tuple[int, int]]:
        hit = next((r for r in self.rules if r.name == name), None)
        return list(hit.spans) if hit else []


def without_unfinished_rules(pack: Any) -> tuple[Any, list[str]]:
    """A pack without the rules whose pattern is still empty (a rule just added), and their names.

    OmniRoute refuses a whole pack with an empty pattern; the preview runs the rest of the open
    pack instead, and says which rules it left out (the validator flags them where they are).
    """
    if not isinstance(pack, dict) or not isinstance(pack.get("rules"), list):
        return pack, []
    rules = pack["rules"]
    unfinished = [r for r in rules if isinstance(r, dict) and r.get("pattern") == ""]
    if not unfinished:
        return pack, []
    names = [r.get("name") if isinstance(r.get("name"), str) else "(unnamed)" for r in unfinished]
    return {**pack, "rules": [r for r in rules if not (isinstance(r, dict) and r.get("pattern") == "")]}, names


def pack_source(root: str | None, override: PackOverride | None):
    """The packs the preview runs: ``root`` on disk with the open buffer in place of its file."""
    from engine.caveman import PackSource
    from engine.caveman.packs import PackError

    source = _packs_on_disk(root) if root else PackSource()
    if override is not None:
        try:
            obj: Any = without_unfinished_rules(json.loads(override.text))[0]
        except json.JSONDecodeError as exc:
            obj = PackError(f"{override.language}/{override.base}.json (unsaved): {exc.msg} at line {exc.lineno}")
        files = list(source.files.get(override.language, []))
        for i, (base, _old) in enumerate(files):
            if base == override.base:
                files[i] = (override.base, obj)
                break
        else:
            from engine.jsvalues import js_sort_key

            files.append((override.base, obj))
            files.sort(key=lambda entry: js_sort_key(entry[0] + ".json"))
        source.files[override.language] = files
    return source


MAX_DISK_PACKS = 8
_DISK_PACKS: memo.MemoDict[str, tuple[tuple, Any]] = memo.MemoDict(  # root → (state of its files, PackSource)
    f"{__name__}._DISK_PACKS", MAX_DISK_PACKS)


def _packs_on_disk(root: str):
    """``PackSource.from_dir(root)``, read again only when a pack file under ``root`` was added,
    removed or rewritten (the preview runs at each keystroke; reading and parsing the 40 files
    of our built-in packs cost ~2.4 ms of its ~20). Returns a source of its own: the files
    lists are copies (an override replaces entries), the parsed packs are shared (only read)."""
    from engine.caveman import PackSource

    state = _pack_files_state(root)
    cached = _DISK_PACKS.get(root)
    if cached is None or cached[0] != state:
        cached = _DISK_PACKS[root] = (state, PackSource.from_dir(root))
    loaded = cached[1]
    return PackSource(files={lang: list(entries) for lang, entries in loaded.files.items()}, origin=loaded.origin)


def _pack_files_state(root: str) -> tuple:
    """(language folder, file name, inode, mtime, size) of every ``*.json`` under ``root``: an
    atomic save (a new inode) or any rewrite changes it."""
    import os

    out: list[tuple[str, str, int, int, int]] = []
    try:
        languages = [entry for entry in os.scandir(root) if entry.is_dir()]
    except OSError:
        return ()
    for lang in languages:
        out.append((lang.name, "", 0, 0, 0))  # (a language folder counts even while it is empty)
        try:
            entries = list(os.scandir(lang.path))
        except OSError:
            out.append((lang.name, "", -1, -1, -1))  # (unreadable: from_dir decides what it is)
            continue
        for entry in entries:
            if entry.name.endswith(".json"):
                try:
                    st = entry.stat()
                except OSError:
                    st = None
                out.append((lang.name, entry.name, st.st_ino, st.st_mtime_ns, st.st_size) if st
                           else (lang.name, entry.name, -1, -1, -1))
    return tuple(sorted(out))


def _quirk_text(code: str, message: str) -> str:
    from engine.caveman.quirks import QUIRKS

    title = QUIRKS.get(code)
    return f"{message} ({code}: {title})" if title else message


def caveman_notes(ex: Any, profile: str) -> tuple[list[Note], bool]:
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


def run_caveman_output(req: CavemanRequest) -> CavemanPreview:
    """The first result for a large text: the plain compress path (no per-match recording, no
    quirk diagnosis, no word diff), so a 1 MB paste shows its output, tokens, protected regions
    and whether it would be sent uncompressed at once; ``partial`` is set, and the explanation
    (``run_caveman_preview``) follows."""
    from types import SimpleNamespace

    from engine.caveman import Compressor, PackError, estimate_tokens

    body = request_body_of(req.text)
    if body is not None:
        return run_caveman_body(req, body)
    started = time.perf_counter()
    try:
        source = pack_source(req.pack_root, req.override)
        languages = source.languages()
        compressor = Compressor(source, _explain_config(req), profile=req.profile, only_rule=req.only_rule,
                                timeout=req.timeout_ms / 1000 if req.timeout_ms else None, diagnose=False)
        result = compressor.compress_body({"messages": [{"role": req.role, "content": req.text}]})
    except (PackError, OSError) as exc:
        return _broken_pack(req, exc, started)
    output = result.body["messages"][0]["content"]
    part = result.parts[0] if result.parts else None
    blocks = part.extraction.blocks if part is not None and part.extraction is not None else []
    protected = [Span(b.start, b.end, "protected", f"protected {b.kind}: left as written", label=b.kind)
                 for b in blocks]
    verdict = SimpleNamespace(
        gated=part.gated if part is not None else "short", fallback_applied=bool(result.stats.get("fallbackApplied")),
        validation_errors=list(result.stats.get("validationErrors", [])),
        validation_warnings=list(result.stats.get("validationWarnings", [])),
        diagnostics=[d.to_dict() for d in result.diagnostics], rules=part.selection.rules if part and part.selection
        else [], language=part.language if part is not None else req.language, intensity=req.intensity, role=req.role)
    notes, uncompressed = caveman_notes(verdict, req.profile)
    return CavemanPreview(req.text, output, verdict.language, req.intensity, req.role, req.profile, req.only_rule,
                          estimate_tokens(req.text), estimate_tokens(output), [], [], [], protected, [], [], notes,
                          uncompressed, languages, seconds=time.perf_counter() - started, partial=True)


def run_caveman_preview(req: CavemanRequest, progress: Callable[[float, str], None] | None = None) -> CavemanPreview:
    """Explain ``req.text`` with the pack(s) and reshape the explanation for drawing.
    ``progress(fraction, stage)`` follows the run (raise ``PreviewCancelled`` in it to stop)."""
    from engine.caveman import PackError, estimate_tokens, explain

    body = request_body_of(req.text)
    if body is not None:
        return run_caveman_body(req, body)
    started = time.perf_counter()
    try:
        source = pack_source(req.pack_root, req.override)
        languages = source.languages()
        ex = explain(req.text, source, {"language": req.language, "intensity": req.intensity},
                     only_rule=req.only_rule, role=req.role, profile=req.profile,
                     timeout=req.timeout_ms / 1000 if req.timeout_ms else None,
                     progress=None if progress is None else (lambda f, stage: progress(0.6 * f, stage)))
    except (PackError, OSError) as exc:  # a broken pack: the loader's message, shown in place of a result
        return _broken_pack(req, exc, started)
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
    diff = word_diff(ex.input, ex.output, None if progress is None else (lambda f, stage: progress(0.6 + 0.38 * f, stage)))
    if progress is not None:
        progress(0.98, "attributing changes")
    input_spans, output_spans = _attribute(diff, hits)
    return CavemanPreview(
        ex.input, ex.output, ex.language, ex.intensity, ex.role, ex.profile, req.only_rule, ex.tokens_before,
        ex.tokens_after, diff, input_spans, output_spans, protected, hits,
        sorted(category_saved.items(), key=lambda kv: -kv[1]), notes, uncompressed, languages,
        seconds=time.perf_counter() - started)


def _attribute(diff: list[DiffOp], hits: list[RuleHit]) -> tuple[list[Span], list[Span]]:
    """Diff spans for both sides, each with the rules whose matches overlap the change."""
    import bisect

    marks: list[tuple[int, int, str]] = sorted(
        (s, e, h.name) for h in hits if h.changed for s, e in h.spans)
    starts = [m[0] for m in marks]
    longest = max((e - s for s, e, _name in marks), default=0)

    def rules_for(a: int, b: int) -> list[str]:
        found: list[str] = []
        limit = max(b, a + 1)
        hi = bisect.bisect_right(starts, limit)
        for s, e, name in marks[max(0, hi - 64):hi]:  # matches are short; look back a little
            if s < limit and e >= a and name not in found:
                found.append(name)
        if not found:  # far-reaching match: every mark that starts late enough to reach ``a``
            lo = bisect.bisect_left(starts, a - longest)
            found = list(dict.fromkeys(name for s, e, name in marks[lo:hi] if s < limit and e >= a))
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


# ---------------------------------------------------------------- samples

SAMPLE_SUFFIXES = (".txt", ".md")
OUTPUT_SUFFIXES = (".txt", ".log", ".out")


@dataclass(frozen=True)
class Sample:
    name: str
    path: str
    origin: str  # "workspace" | "built-in"
    language: str = ""


def workspace_samples_dir(workspace: str | Path) -> Path:
    """Where the Caveman preview saves named samples of a workspace."""
    return Path(workspace) / "samples" / "caveman"


def caveman_samples(workspace: str | Path | None, builtin_rules: str | Path | None,
                    pack_roots: Sequence[str | Path] = ()) -> list[Sample]:
    """Named Caveman samples: the workspace's own, those beside its packs, then the built-in ones."""
    out: list[Sample] = []
    seen: set[Path] = set()

    def add(path: Path, origin: str, language: str = "") -> None:
        resolved = path.resolve()
        if resolved in seen or not path.is_file():
            return
        seen.add(resolved)
        label = f"{language}/{path.stem}" if language else path.stem
        out.append(Sample(label, str(path), origin, language))

    if workspace is not None:
        folder = workspace_samples_dir(workspace)
        if folder.is_dir():
            for p in sorted(folder.iterdir()):
                if p.suffix in SAMPLE_SUFFIXES:
                    add(p, "workspace")
    for root, origin in [*((Path(r), "workspace") for r in pack_roots),
                         *([(Path(builtin_rules), "built-in")] if builtin_rules else [])]:
        if not root.is_dir():
            continue
        for lang_dir in sorted(p for p in root.iterdir() if p.is_dir()):
            samples = lang_dir / "samples"
            if samples.is_dir():
                for p in sorted(samples.iterdir()):
                    if p.suffix in SAMPLE_SUFFIXES:
                        add(p, origin, lang_dir.name)
    return out


def output_samples(workspace: str | Path | None) -> list[Sample]:
    """Command outputs kept in a workspace's ``samples/`` folder (for the RTK preview)."""
    out: list[Sample] = []
    if workspace is None:
        return out
    folder = Path(workspace) / "samples"
    if folder.is_dir():
        for p in sorted(folder.rglob("*")):
            if p.is_file() and p.suffix in OUTPUT_SUFFIXES and "caveman" not in p.relative_to(folder).parts:
                out.append(Sample(str(p.relative_to(folder)), str(p), "workspace"))
    return out


def sample_file_name(name: str) -> str:
    """A safe file name for a sample the user names (letters, digits, ``-_.``; ``.txt`` added)."""
    stem = re.sub(r"[^\w.-]+", "-", name.strip()).strip(".-") or "sample"
    return stem if stem.endswith(".txt") else f"{stem}.txt"


def command_hint(path: str | Path) -> str:
    """A command stored beside an output sample (``engine.corpus.samples.sidecar_command``), or ""."""
    from engine.corpus.samples import sidecar_command

    return sidecar_command(path) or ""


# ---------------------------------------------------------------- RTK

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


@dataclass
class StageRow:
    name: str
    lines_in: int
    lines_out: int
    counts: dict[str, int]
    markers: list[str]
    note: str
    events: list[Any]  # engine.rtk.trace.LineEvent (line, action, text, pattern, pointer, after)
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


def parse_filter_buffer(buf: FilterBuffer, profile: str) -> tuple[list, list[Diagnostic]]:
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


_CRITERIA_WORDS = {
    "toml-command": "its TOML match_command matched the command",
    "outputTypes": "it handles the detected output type",
    "commands": "its command pattern matched the command",
    "patterns": "its output pattern matched the output",
    "generic-fallback": "no filter matched, so the generic-output filter was used",
}


def _why(selection: dict[str, Any] | None, filter_label: str) -> str:
    if not selection:
        return ""
    if selection.get("filterId") is None:
        return selection.get("note") or "no filter was chosen"
    parts = [f"{filter_label} ({selection.get('scope') or 'builtin'} scope)"]
    crit = selection.get("criterion")
    if crit:
        words = _CRITERIA_WORDS.get(crit, crit)
        if selection.get("pattern"):
            words += f": /{selection['pattern']}/"
        parts.append(f"chosen because {words}")
    if selection.get("note"):
        parts.append(selection["note"])
    return " — ".join(parts)


def _stage_rows(trace: Any) -> list[StageRow]:
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


def _highlights(text: str, flt: Any) -> list[Span]:
    """Error lines (the engine's own priority pattern) and summary lines (the filter's priority
    patterns) that reached the final text."""
    from engine.jsregex import RegexTimeout
    from engine.rtk.engine import DEFAULT_PRIORITY
    from engine.rtk.patterns import LineScanner, compile_list

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


def _rtk_notes(diags: Iterable[Any]) -> list[Note]:
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


def _builtin_filters(folder: str | None, profile: str) -> tuple[list, list]:
    if not folder or not Path(folder).is_dir():
        return [], []
    from engine.rtk.builtin import load_builtin

    return load_builtin(folder, profile)


def _project_filters(project: str | None, profile: str) -> tuple[list, list[Diagnostic]]:
    """Project filters (``.rtk/filters.json|toml``) for the preview, trusted or not: an author
    previews their own filters; trust gates what OmniRoute loads, and the trust panel shows it."""
    if not project:
        return [], []
    from engine.rtk.sources import filter_files_in, read_filter_file

    rtk = Path(project) / ".rtk"
    found, diags = [], []
    if rtk.is_dir():
        for path in filter_files_in([rtk]):
            ff = read_filter_file(path, profile=profile, source="project")
            found.extend(ff.filters)
            diags.extend(d for d in ff.diagnostics if d.level == "error")
    return found, diags


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
    active: list = []
    if req.active is not None:
        active, found = parse_filter_buffer(req.active, req.profile)
        notes.extend(_buffer_notes(found))
    lines_before = len(split_lines(req.output)) if req.output else 0
    tokens_before = estimate_tokens(req.output)
    trace = Trace()
    if req.scope == "filter":
        chosen = None
        if active:
            chosen = next((f for f in active if f.id == req.active.selected_id), active[0])
        if chosen is None:
            return RtkPreview(req.output, req.output, "", 0.0, "", [], None, "", "", [], tokens_before, tokens_before,
                              lines_before, lines_before, [], notes, error="no filter in the open file to run alone",
                              seconds=time.perf_counter() - started, filter_ids=[f.id for f in active])
        result = apply_line_filter(req.output, chosen, profile=req.profile, trace=trace)
        notes.extend(_rtk_notes(result.diagnostics))
        text = result.text
        return RtkPreview(
            req.output, text, "", 0.0, req.command, [], chosen.id, chosen.name or chosen.id,
            f"{chosen.name or chosen.id}: run alone (this filter only — no detection, no engine dedup or final cap)",
            _stage_rows(trace), tokens_before, estimate_tokens(text), lines_before,
            len(split_lines(text)) if text else 0, _highlights(text, chosen), notes,
            seconds=time.perf_counter() - started, filter_ids=[f.id for f in active])
    builtin, builtin_diags = _builtin_filters(req.builtin_dir, req.profile)
    project, project_diags = _project_filters(req.project_dir, req.profile)
    active_paths = {str(Path(req.active.path).resolve())} if req.active is not None else set()
    others = [f for f in [*project, *builtin]
              if not active_paths or not f.path or str(Path(f.path).resolve()) not in active_paths]
    filters = sort_filters([*active, *others], profile=req.profile)
    notes.extend(_rtk_notes(d for d in project_diags))
    del builtin_diags  # load problems of built-ins are the validator's to report
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
        else _why(selection, label)
    return RtkPreview(
        req.output, result.text, det.type, det.confidence, det.command or "", list(det.matched_patterns),
        flt.id if flt else None, label, why, _stage_rows(trace), result.original_tokens, result.compressed_tokens,
        lines_before, len(split_lines(result.text)) if result.text else 0, _highlights(result.text, flt), notes,
        document_read=result.document_read, seconds=time.perf_counter() - started,
        filter_ids=[f.id for f in active])
