"""Protected regions: set code, math, links, paths… aside behind placeholders, then restore.

Spec §3. Kinds run in a fixed order over the *current* text (earlier placeholders included); a
match is wrapped only when it is non-empty and does not contain a placeholder, so kinds never
nest. Patterns here are our own JavaScript sources for the regions the spec describes, run
through ``engine.jsregex`` so that ``\\b``, ``\\s`` and UTF-16 counting behave as in V8.

The placeholder seed is deterministic and never collides with the input (CAV-Q9: always
contains a hex letter, so ``const_case`` can never re-wrap part of a placeholder).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import accumulate, compress, repeat
from typing import NamedTuple

from engine import memo
from engine.caveman.apply import budget_for
from engine.caveman.fast import (
    FastRegex,
    back_run_candidates,
    digit_run_candidates,
    line_lead_candidates,
    path_candidates,
    union_candidates,
)
from engine.caveman.fences import contains, fence_spans, frontmatter_end
from engine.caveman.standins import StandIns, stand_ins_of_text
from engine.jsregex import compile_js
from engine.jsvalues import from_utf16_units, to_utf16_units, utf16_len

MARKER = "\x00OMNI_CAVEMAN"

# Default CavemanConfig.preservePatterns (spec §1.1), compiled with "g" (CAV-Q17: no "m").
DEFAULT_PRESERVE_PATTERNS: tuple[str, ...] = (
    r"```[\s\S]*?```",
    r"`[^`\n]+`",
    r"\b(https?://\S+)",
    r"(?:^|\s)(\.{0,2}/[\w./\-]+)",
    r"^\s*(Error|TypeError|RangeError|SyntaxError|ReferenceError):",
    r"^\s+at\s",
)


def _custom_candidates(source: str, flags: str) -> Callable[[str], list[int] | None] | None:
    """Candidate finders for the default preserve patterns whose plan is every line start or
    every unit near a ``/`` (see ``fast.literals``); None for any other pattern."""
    multiline = "m" in flags
    if source == DEFAULT_PRESERVE_PATTERNS[3]:  # (?:^|\s)(\.{0,2}/…)
        paths = path_candidates(drive=False)
        if not multiline:
            return paths
        # with m, ^ also holds after a line terminator (a blank: the \s branch one unit earlier
        # matches first, but the line start is kept as a candidate all the same)
        return union_candidates(paths, line_lead_candidates("./", blanks=False))
    if not multiline:
        return None  # (^ only at 0: the plan tries the text start alone)
    if source == DEFAULT_PRESERVE_PATTERNS[4]:
        return line_lead_candidates("ETRS", blanks=True)
    if source == DEFAULT_PRESERVE_PATTERNS[5]:
        return line_lead_candidates("a", blanks=True)
    return None


def preserve_regex(source: str, flags: str) -> FastRegex:
    """A ``preservePatterns`` entry as a ``FastRegex`` (raises ``JSSyntaxError``), with its own
    candidate finder when it is one of the defaults."""
    return FastRegex(source, flags, extra=_custom_candidates(source, flags))


@dataclass(frozen=True)
class Kind:
    """One pattern-based protected kind: JS source, flags and literals it cannot match without."""

    name: str
    source: str
    flags: str = "g"
    needs: tuple[str, ...] = ()  # every one of these substrings must occur
    needs_any: tuple[str, ...] = ()  # at least one of these must occur
    back: tuple[str, str, bool] | None = None  # (literal, run characters, skip blanks): see fast.literals
    back_follow: str | None = None  # what must follow the literal of ``back`` (None: anything)
    digit_runs: bool = False  # candidates from "<digits>.<digit>" (see fast.literals)
    line_lead: tuple[str, bool] | None = None  # (leads, blanks): see fast.literals.line_lead_candidates
    drive_paths: bool | None = None  # a path pattern (with drive letters?): see fast.literals.path_candidates
    # no match can start at a placeholder's first letter: see ``_off_placeholders``
    not_at_placeholders: bool = False

    def compile(self, seed: str = "") -> FastRegex:
        """The kind's regex; with ``seed`` (of the extraction it runs in), one that does not try
        the starts of that extraction's placeholders when ``not_at_placeholders``."""
        seed = seed if self.not_at_placeholders and _SEED_STOPS_RUNS.search(seed) else ""
        key = (self.source, self.flags, seed)
        rx = _KIND_CACHE.get(key)
        if rx is None:
            extra: Callable[[str], list[int] | None] | None = digit_run_candidates if self.digit_runs else None
            if self.back is not None:
                literal, run_chars, skip_ws = self.back
                follow = frozenset(self.back_follow) if self.back_follow is not None else None
                extra = back_run_candidates(literal, frozenset(run_chars), skip_ws=skip_ws, follow=follow)
            elif self.line_lead is not None:
                extra = line_lead_candidates(self.line_lead[0], blanks=self.line_lead[1])
            elif self.drive_paths is not None:
                extra = path_candidates(drive=self.drive_paths)
            if seed and extra is not None:
                extra = _off_placeholders(extra, seed)
            rx = _KIND_CACHE[key] = FastRegex(self.source, self.flags, extra=extra)
        return rx


# A placeholder is ``\x00OMNI_CAVEMAN_<seed>_<n>\x00``; every seed ``choose_seed`` makes holds a
# lowercase hex letter (CAV-Q9).
_SEED_STOPS_RUNS = re.compile("[a-z]")


def _off_placeholders(extra: Callable[[str], list[int] | None], seed: str) -> Callable[[str], list[int] | None]:
    """``extra``'s candidates without the first letter of each placeholder of ``seed``.

    For ``const_case`` (``\\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\\b``) that letter is a candidate (a
    boundary, then a run of capitals before ``_``) at every placeholder the kinds before it made
    (~6,000 per MB of the conformance-derived text: nearly all its candidates), and never a
    match: from ``OMNI`` on, the runs and the ``_`` between them are word characters up to the
    seed's lowercase letter, which no run takes, so no ``\\b`` closes a match before it. The
    text holds ``seed`` only inside this extraction's placeholders (it is absent from the input)."""
    lead = placeholder_text(seed, "")[1:-1]  # "OMNI_CAVEMAN_<seed>_": the seed alone makes it ours

    def find(text: str) -> list[int] | None:
        found = extra(text)
        if not found:
            return found
        at = text.startswith  # (a test per candidate: cheaper than listing the placeholders)
        return [p for p in found if not at(lead, p)]

    return find


_IDENT = r"[A-Za-z_$][A-Za-z0-9_$]*"
_IDENT_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$"
_IDENT_START = _IDENT_CHARS.translate(str.maketrans("", "", "0123456789"))

# Kinds 3–21 of spec §3.1 (1 frontmatter and 2 fenced code are line scans below).
PATTERN_KINDS: tuple[Kind, ...] = (
    Kind("math_block", r"\$\$[\s\S]*?\$\$", needs=("$$",)),
    Kind("math_block", r"\\\[[\s\S]*?\\\]", needs=("\\[", "\\]")),
    Kind("math_inline", r"(?<!\$)\$(?![\s$0-9])(?:\\.|[^$\n\\]){1,160}?(?<!\s)\$(?!\$)", needs=("$",)),
    Kind("latex_block", r"\\begin\{[A-Za-z*]+\}[\s\S]*?\\end\{[A-Za-z*]+\}", needs=("\\begin{", "\\end{")),
    Kind("markdown_heading", r"^#{1,6}\s+.+$", "gm", needs=("#",), line_lead=("#", False)),
    Kind("markdown_table", r"^\s*\|.*\|\s*$", "gm", needs=("|",), line_lead=("|", True)),
    Kind("markdown_table", r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$", "gm", needs=("---", "|"),
         line_lead=("|:-", True)),
    Kind("typst_directive", r"^\s*#(?:set|show|let|import|include)\b.+$", "gm", needs=("#",),
         line_lead=("#", True)),
    Kind("inline_code", r"`[^`\n]+`", needs=("`",)),
    Kind("markdown_link", r"\[[^\]\n]+\]\([^) \n]+(?:\s+\"[^\"]*\")?\)", needs=("](",)),
    Kind("url", r"\bhttps?:\/\/[^\s)\]\"'>]+", "gi", needs=("://",)),
    Kind("const_case", r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", needs=("_",),
         back=("_", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", False), not_at_placeholders=True),
    Kind("env_var", r"\bprocess\.env\.[A-Za-z_][A-Za-z0-9_]*\b", needs=("process.env.",)),
    Kind("env_var", r"\$[A-Z_][A-Z0-9_]*\b", needs=("$",)),
    Kind("version", r"\b\d+(?:\.\d+){1,3}(?:[-+][A-Za-z0-9.-]+)?\b", needs=(".",), digit_runs=True),
    Kind("dotted_identifier", rf"\b{_IDENT}(?:\.{_IDENT})+\(\)?", needs=(".", "("),
         back=("(", _IDENT_CHARS + ".", False)),
    Kind("function_call", rf"\b{_IDENT}\s*\([^()\n]*\)", needs=("(", ")"), back=("(", _IDENT_CHARS, True)),
    Kind("file_path", r"(?:^|\s)(?:\.{0,2}\/[A-Za-z0-9_@./-]+|[A-Za-z]:\\[A-Za-z0-9_./-]+)", needs_any=("/", ":\\"),
         drive_paths=True),
    Kind("error_message",
         r"\b(?:TypeError|ReferenceError|SyntaxError|RangeError|URIError|EvalError|Error|Exception):[^\n]+",
         needs=(":",)),
)

# strict fixes: CAV-Q10 (matching \begin/\end names) and CAV-Q12 (dotted names without "(").
STRICT_OVERRIDES: dict[tuple[str, str], Kind] = {
    ("latex_block", PATTERN_KINDS[3].source): Kind(
        "latex_block", r"\\begin\{([A-Za-z*]+)\}[\s\S]*?\\end\{\1\}", needs=("\\begin{", "\\end{")),
    ("dotted_identifier", PATTERN_KINDS[15].source): Kind(
        "dotted_identifier", rf"\b{_IDENT}(?:\.{_IDENT})+(?:\(\)?)?", needs=(".",),
        # a match starts in the identifier run before its first dot, which an identifier follows
        back=(".", _IDENT_CHARS, False), back_follow=_IDENT_START),
}

_LATEX_NAMES = re.compile(r"\\begin\{([A-Za-z*]+)\}[\s\S]*\\end\{([A-Za-z*]+)\}\Z")


@dataclass(slots=True)
class Block:
    """A protected region: its placeholder, content and UTF-16 span in the original part."""

    n: int
    kind: str
    content: str
    placeholder: str
    start: int = -1
    end: int = -1

    def to_dict(self) -> dict[str, object]:
        return {"n": self.n, "kind": self.kind, "start": self.start, "end": self.end, "content": self.content}


@dataclass
class Extraction:
    original: str
    _text: str  # the part with placeholders: ``text``
    blocks: list[Block] = field(default_factory=list)
    seed: str = ""
    notes: list[tuple[str, str, Block | None]] = field(default_factory=list)  # (quirk id, message, block)
    # ``text`` as UTF-16 units on the ASCII stand-ins extraction ran on, when it did: where they
    # are exact for the rules too, the rules start from it (no second conversion and scan)
    ascii_view: tuple[StandIns, str] | None = None
    # the same of ``original``, when extraction's pattern kinds started from it (no frontmatter
    # or fenced block before them): CAV-Q17's check of the original reads it
    ascii_original: tuple[StandIns, str] | None = None
    _deferred: tuple[StandIns, str] | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The part with placeholders. After a run on stand-ins it is made from their units when
        first asked for: the rules start from those units, and a part's text is rarely needed
        besides (2.4 ms per MB of mixed prose to turn them back)."""
        if self._deferred is not None:
            stand, units = self._deferred
            self._text, self._deferred = stand.string(units), None
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._text, self._deferred = value, None

    def defer_text(self, stand: StandIns, units: str) -> None:
        """``text`` is ``units`` on ``stand``, turned back when asked for."""
        self._deferred = (stand, units)

    @property
    def placeholder_re(self) -> re.Pattern[str]:
        return placeholder_pattern(self.seed)


def choose_seed(text: str) -> str:
    """16 lowercase hex digits with at least one letter (CAV-Q9), absent from ``text``."""
    counter = 0
    while True:
        seed = _seed(counter)
        if seed not in text:
            return seed
        counter += 1


@memo.lru(maxsize=64)
def _seed(counter: int) -> str:
    """The ``counter``-th candidate seed (the same for every part: a digest each was ~4 µs of
    every short message)."""
    import hashlib  # (here: ~2.5 ms of every CLI start, for one digest a part)

    seed = hashlib.sha256(f"rulewright-caveman-{counter}".encode()).hexdigest()[:16]
    return seed if any(c in "abcdef" for c in seed) else "a" + seed[1:]


def placeholder_pattern(seed: str) -> re.Pattern[str]:
    return re.compile("\x00OMNI_CAVEMAN_" + re.escape(seed) + r"_([0-9]+)\x00")


class _Extractor:
    def __init__(self, original: str, seed: str) -> None:
        self.ex = Extraction(original, original, seed=seed)
        self.pool: list[str] = []  # the pooled units still in the text, in order (``StandIns``)
        self._lead = placeholder_text(seed, "")[:-1]  # (thousands of blocks per MB: the seed's part once)

    def add(self, kind: str, content: str) -> str:
        blocks = self.ex.blocks
        n = len(blocks)
        placeholder = f"{self._lead}{n}\x00"
        blocks.append(Block(n, kind, content, placeholder))
        return placeholder

    def add_all(self, kind: str, contents: list[str]) -> list[str]:
        """``[self.add(kind, c) for c in contents]`` in one go."""
        blocks = self.ex.blocks
        numbers = range(len(blocks), len(blocks) + len(contents))
        lead = self._lead
        placeholders = [f"{lead}{n}\x00" for n in numbers]
        blocks.extend(map(Block, numbers, repeat(kind), contents, placeholders))
        return placeholders

    def frontmatter(self, *, strict: bool) -> None:
        text = self.ex.text
        if text.startswith("---\n---") and not strict:
            self.ex.notes.append(("CAV-Q16", "the empty frontmatter '---\\n---' is not closed by its own "
                                  "second line (OmniRoute searches from offset 4)", None))
        end = frontmatter_end(text, search_from=3 if strict else 4)
        if end > 0:
            self.ex.text = self.add("frontmatter", text[:end]) + text[end:]

    def fenced_code(self, spans: list[tuple[int, int]] | None = None) -> None:
        """Kind 2 (``spans``: the text's fence spans, where they were found already)."""
        text = self.ex.text
        spans = fence_spans(text) if spans is None else spans
        if not spans:
            return
        out: list[str] = []
        last = 0
        for start, end in spans:
            out.append(text[last:start])
            out.append(self.add("fenced_code", text[start:end]))
            last = end
        out.append(text[last:])
        self.ex.text = "".join(out)

    def pattern(self, kind: str, rx: FastRegex, timeout: float | None, stand: StandIns | None = None) -> None:
        if stand is not None and stand.pool_mark:
            self._pattern_pooled(kind, rx, timeout, stand)
            return

        def wrap(s: str) -> str:
            if not s or MARKER in s:
                return s
            return self.add(kind, s if stand is None else stand.real(s))

        def wrap_all(matched: list[str]) -> list[str]:
            if not _all_wrappable(matched):
                return list(map(wrap, matched))
            return self.add_all(kind, matched if stand is None else stand.real_all(matched))

        # (the text stays UTF-16 units from kind to kind: see ``extract``)
        self.ex.text = rx.replace_all_matched(self.ex.text, wrap_all, budget_for(self.ex.text, timeout),
                                              keep_units=True)

    def _pattern_pooled(self, kind: str, rx: FastRegex, timeout: float | None, stand: StandIns) -> None:
        """``pattern`` on a text with pooled stand-ins: a wrapped region takes its share of the
        pool (the pooled marks before it, counted as the matches come left to right, say where
        its share starts), and the pool keeps the rest."""
        text, mark, pool = self.ex.text, stand.pool_mark, self.pool
        taken: list[tuple[int, int]] = []
        cursor = [0, 0]  # a text position, and the pooled marks before it

        def wrap(offset: int, s: str) -> str:
            if not s or MARKER in s:
                return s
            count = s.count(mark)
            if not count:
                return self.add(kind, stand.real(s))
            before = cursor[1] + text.count(mark, cursor[0], offset)
            cursor[0], cursor[1] = offset + len(s), before + count
            taken.append((before, before + count))
            return self.add(kind, stand.take(s, pool[before:before + count]))

        def wrap_all(offsets: list[int], matched: list[str]) -> list[str]:
            # (as ``pattern``'s: one call for the kind's regions; ``wrap`` for each one holding
            # a pooled mark, in order, which counts the marks before it)
            if not _all_wrappable(matched):
                return list(map(wrap, offsets, matched))
            contents = list(stand.real_all(matched))
            counts = list(map(str.count, matched, repeat(mark)))
            for k in compress(range(len(matched)), counts):
                offset, s, count = offsets[k], matched[k], counts[k]
                before = cursor[1] + text.count(mark, cursor[0], offset)
                cursor[0], cursor[1] = offset + len(s), before + count
                taken.append((before, before + count))
                contents[k] = stand.take(s, pool[before:before + count])
            return self.add_all(kind, contents)

        self.ex.text = rx.replace_all_spans(text, wrap_all, budget_for(text, timeout))
        if taken:
            kept, last = [], 0
            for start, end in taken:
                kept.append(pool[last:start])
                last = end
            kept.append(pool[last:])
            self.pool = [unit for part in kept for unit in part]


def _all_wrappable(matched: list[str]) -> bool:
    """Whether every matched region gets a block (``wrap`` leaves an empty match, or one holding
    a placeholder, as it is): tested on their join, which a separator that no placeholder
    holds cannot make a placeholder across."""
    return all(matched) and MARKER not in "\x01".join(matched)


def _applies(kind: Kind, text: str) -> bool:
    if kind.needs and not all(contains(text, s) for s in kind.needs):
        return False
    return not (kind.needs_any and not any(contains(text, s) for s in kind.needs_any))


# built-in kinds are global and stateless
_KIND_CACHE: memo.MemoDict[tuple[str, str, str], FastRegex] = memo.MemoDict(f"{__name__}._KIND_CACHE", 256)


def extract(text: str, custom: list[FastRegex], *, profile: str = "omniroute", seed: str | None = None,
            timeout: float | None = None, use_stand_ins: bool = True) -> Extraction:
    """Replace every protected region of ``text`` by a placeholder, in the spec's kind order.

    Raises ``RegexTimeout`` if a region pattern exceeds its budget (the caller keeps the part)."""
    job = Extracting(text, ExtractionPlan.of(profile, custom), seed=seed, use_stand_ins=use_stand_ins)
    for step in job.steps:
        job.run_alone(step, timeout)
    return job.finish()


class PatternStep(NamedTuple):
    """One pattern of extraction after its line scans: a kind, or a ``preservePatterns`` entry."""

    name: str
    kind: Kind | None  # (None: ``custom``)
    custom: FastRegex | None


@dataclass(frozen=True)
class ExtractionPlan:
    """What every part's extraction of one run runs: the kinds of the profile, then the
    ``preservePatterns`` (made once for many parts: a list per part was ~8 µs of each)."""

    strict: bool
    steps: tuple[PatternStep, ...]
    patterns: tuple[tuple[str, str], ...]  # (source, flags) of each step, for the stand-ins

    @staticmethod
    def of(profile: str, custom: list[FastRegex]) -> ExtractionPlan:
        strict = profile == "strict"
        kinds = [STRICT_OVERRIDES.get((kind.name, kind.source), kind) if strict else kind for kind in PATTERN_KINDS]
        steps = [PatternStep(kind.name, kind, None) for kind in kinds] + [PatternStep("custom", None, rx)
                                                                         for rx in custom]
        patterns = [(k.source, k.flags) for k in kinds] + [(rx.rx.source, rx.rx.flags) for rx in custom]
        return ExtractionPlan(strict, tuple(steps), tuple(patterns))


class Extracting:
    """One part's extraction under way: the line scans done at construction, then each of
    ``steps`` (``run_alone``, or ``take`` with what a run over many parts found), then
    ``finish``. ``engine.caveman.joined_extraction`` runs the steps of many parts at once."""

    def __init__(self, text: str, plan: ExtractionPlan, *, seed: str | None = None, use_stand_ins: bool = True,
                 fences: list[tuple[int, int]] | None = None) -> None:
        """``fences``: ``fence_spans(text)``, where it was found already (of many parts at once)."""
        self.strict = plan.strict
        self.steps = plan.steps
        x = self._x = _Extractor(text, seed or choose_seed(text))
        x.frontmatter(strict=plan.strict)
        x.fenced_code(fences if x.ex.text is text else None)  # (a frontmatter block taken: scan what is left)
        # the pattern kinds see (and give back) the UTF-16 units of the text, the subject their
        # regexes match anyway: one conversion each way for a text with astral characters, and
        # none for any other, where every kind that wrapped a region turned its result back into a
        # string (an encode and a decode of the whole text: ~10% of a CLI run on 4 MB)
        self._as_string = as_string = x.ex.text
        # and, where that is exact, on ASCII stand-ins for its few distinct non-ASCII units, as the
        # rules do (engine.caveman.standins): each wrapped region gets its own units back
        found = stand_ins_of_text(as_string, plan.patterns, pool=True) if use_stand_ins else None
        self.stand: StandIns | None = None
        if found is not None:
            self.stand, start = found
            x.pool = list(self.stand.pool)
            if as_string is text and not self.stand.pool_mark:  # (a pooled original: no piece of it turns back alone)
                x.ex.ascii_original = found
        else:
            start = to_utf16_units(as_string)
        self._start = x.ex.text = start

    @property
    def text(self) -> str:
        """The part's UTF-16 units (on its stand-ins, if any) with the placeholders so far."""
        return self._x.ex.text

    @property
    def seed(self) -> str:
        return self._x.ex.seed

    @property
    def block_count(self) -> int:
        return len(self._x.ex.blocks)

    @property
    def pooled(self) -> bool:
        """Whether a wrapped region takes a share of pooled stand-ins (then only ``run_alone``)."""
        return self.stand is not None and bool(self.stand.pool_mark)

    def regex(self, step: PatternStep) -> FastRegex:
        if step.kind is not None:
            return step.kind.compile(self.seed)
        assert step.custom is not None  # (a step is a kind or a preserve pattern)
        return step.custom

    def skips(self, step: PatternStep, text: str | None = None) -> bool:
        """Whether ``step`` does not run on the part (a kind whose literals it lacks), or on ``text``."""
        return step.kind is not None and not _applies(step.kind, self.text if text is None else text)

    def run_alone(self, step: PatternStep, timeout: float | None) -> None:
        """``step`` on this part alone."""
        if self.skips(step):
            return
        rx = self.regex(step)
        if rx.misses(self.text):
            return  # (a short text it has no match in)
        before = len(self._x.ex.blocks)
        self._x.pattern(step.name, rx, timeout, self.stand)
        rx.forget()  # (its memos are of a text no later kind sees: each kind holding one was 20 copies)
        self._noted(step, before)

    @staticmethod
    def wraps(matched: str) -> bool:
        """Whether a match becomes a block (one holding a placeholder, or empty, stays text)."""
        return bool(matched) and MARKER not in matched

    def placeholder(self, n: int) -> str:
        return f"{self._x._lead}{n}\x00"

    def take(self, step: PatternStep, text: str, wrapped: list[str]) -> None:
        """``step``'s result found elsewhere: the part's text after it, and the matches it
        wrapped, in order (their placeholders are ``placeholder(n)`` from the block count on)."""
        before = len(self._x.ex.blocks)
        self._x.add_all(step.name, wrapped if self.stand is None else self.stand.real_all(wrapped))
        self._x.ex.text = text
        self._noted(step, before)

    def _noted(self, step: PatternStep, before: int) -> None:
        if step.name == "latex_block" and not self.strict:
            for block in self._x.ex.blocks[before:]:
                names = _LATEX_NAMES.match(block.content)
                if names and names.group(1) != names.group(2):
                    self._x.ex.notes.append(("CAV-Q10", f"\\begin{{{names.group(1)}}} was closed by "
                                             f"\\end{{{names.group(2)}}} and protected as one region", block))

    def finish(self) -> Extraction:
        """The extraction, every step done."""
        x, stand = self._x, self.stand
        if stand is not None and stand.pool_mark:
            stand = replace(stand, pool=tuple(x.pool))  # (what the wrapped regions left)
        units = x.ex.text
        if units is self._start:  # (nothing wrapped: the text as it was, pairs of lone surrogates unjoined)
            x.ex.text = self._as_string
        elif stand is None:
            x.ex.text = from_utf16_units(units)
        else:
            x.ex.defer_text(stand, units)
        if stand is not None:
            x.ex.ascii_view = (stand, units)
        _locate(x.ex, units)
        return x.ex


def _locate(ex: Extraction, units: str | None = None) -> None:
    """Fill each block's UTF-16 span in the original part (blocks never nest), in one pass.

    ``units``: ``ex.text`` as UTF-16 units, one character each (ASCII stand-ins allowed), when
    the caller has it: the lengths between placeholders are then offsets already, and only a
    block with non-ASCII content needs its units counted (a regex scan of the original for
    astral characters, and a bisection per block, was a sixth of extracting mixed prose)."""
    if not ex.blocks:
        return
    if units is None:
        units = to_utf16_units(ex.text)
    by_number = {str(b.n): b for b in ex.blocks}
    # (a split rather than a loop over match objects: ~5,000 blocks per MB of agent sessions)
    parts = ex.placeholder_re.split(units)  # text, number, text, number, …, text
    wrapper = len(placeholder_text(ex.seed, ""))
    pos = len(parts[0])  # UTF-16 offset in the original
    for k in range(1, len(parts), 2):
        number = parts[k]
        block = by_number.get(number)
        if block is None:  # (not a placeholder of this extraction: text like any other)
            pos += wrapper + len(number) + len(parts[k + 1])
            continue
        content = block.content
        end = pos + (len(content) if content.isascii() else utf16_len(content))
        block.start, block.end = pos, end
        pos = end + len(parts[k + 1])


def placeholder_text(seed: str, number: str) -> str:
    """The placeholder of block ``number`` (its digits) under ``seed``."""
    return f"\x00OMNI_CAVEMAN_{seed}_{number}\x00"


def restore(text: str, ex: Extraction) -> str:
    """Put every block back in one pass (same result as the reference's per-block global replace,
    since block contents never contain a placeholder and the seed never occurs in the input)."""
    if not ex.blocks:
        return text
    contents = [b.content for b in ex.blocks]

    def put(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return contents[n] if n < len(contents) else m.group(0)

    return ex.placeholder_re.sub(put, text)


class Restored(NamedTuple):
    """A text with its blocks put back: ``restore``'s result, where each block content it put back
    stands (Python indices, in order) and which block each is (its number)."""

    text: str
    spans: list[tuple[int, int]]
    numbers: list[int]


def restore_with_spans(text: str, ex: Extraction, contents: list[str] | None = None) -> Restored:
    """``restore(text, ex)`` and the (start, end) Python indices of the block contents it put
    back, in order (for ``cleanup.cleanup_restored``), with their block numbers (validation
    knows what those blocks hold is there): the ``segments`` joined. From one split
    of the text at its placeholders, the lengths summed in C: 3.4–3.6 ms per MB of mixed prose
    and agent sessions, where building the ``segments`` and walking them took 4.6–5.0.
    ``contents``: the blocks' contents to put back, when ``text`` is a view on stand-ins (theirs)."""
    if not ex.blocks:
        return Restored(text, [], [])
    if contents is None:
        contents = [b.content for b in ex.blocks]
    count = len(contents)
    parts = ex.placeholder_re.split(text)  # text, number, text, number, …, text
    numbers = list(map(int, parts[1::2]))
    foreign = bool(numbers) and max(numbers) >= count  # (not a placeholder of this extraction: kept as text)
    if foreign:
        parts[1::2] = [contents[n] if n < count else placeholder_text(ex.seed, digits)
                       for n, digits in zip(numbers, parts[1::2])]
    else:
        parts[1::2] = map(contents.__getitem__, numbers)
    ends = list(accumulate(map(len, parts)))  # a block ends at its odd index, starts where the text before ends
    spans = list(zip(ends[0::2], ends[1::2]))
    if foreign:
        spans = [span for span, n in zip(spans, numbers) if n < count]
        numbers = [n for n in numbers if n < count]
    return Restored("".join(parts), spans, numbers)


def segments(text: str, ex: Extraction) -> list[tuple[str, bool]]:
    """``text`` (with placeholders) restored as ``(piece, protected)`` pairs: what
    ``cleanup.cleanup_segments`` cleans (the tests' account of why the pieces that
    ``restore_with_spans`` puts together need no cleaning of their own)."""
    out: list[tuple[str, bool]] = []
    contents = [b.content for b in ex.blocks]
    count = len(contents)
    parts = ex.placeholder_re.split(text)  # text, number, text, number, …, text
    pending = [parts[0]]  # the unprotected text since the last block put back
    for k in range(1, len(parts), 2):
        n = int(parts[k])
        if n >= count:  # (not a placeholder of this extraction: kept as text)
            pending += [placeholder_text(ex.seed, parts[k]), parts[k + 1]]
            continue
        piece = pending[0] if len(pending) == 1 else "".join(pending)
        if piece:
            out.append((piece, False))
        out.append((contents[n], True))
        pending = [parts[k + 1]]
    piece = pending[0] if len(pending) == 1 else "".join(pending)
    if piece:
        out.append((piece, False))
    return out


# ---------------------------------------------------------------- structure check (§3.3): with no
# user preserve patterns, a part holding none of these structural tokens (fences, links, headings,
# paths, constants, calls, error names…) is compressed without extracting protected regions

_STRUCTURE_PREFILTER = re.compile(r"[`~\[\]|$#\\/:_()0-9]")
_STRUCTURE_SOURCE = "|".join((
    r"```", r"~~~", r"`", r"https?:\/\/",
    r"\[[^\]\n]{1,1000}\]\([^)\[ \t\n]{1,2000}(?:\s+\"[^\"]*\")?\)",
    r"^#{1,6}\s",
    r"^[ \t]*\|(?:[^|\n]{0,1000}\|){1,100}[ \t]*$",
    r"\$\$", r"\\\[", r"\\begin\{",
    r"^\s*#(?:set|show|let|import|include)\b",
    r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b",
    r"\bprocess\.env\.[A-Za-z_]",
    r"\$[A-Z_][A-Z0-9_]*\b",
    r"\b\d+(?:\.\d+){1,3}",
    rf"\b{_IDENT}(?:\.{_IDENT})+\(",
    rf"\b{_IDENT}[ \t]*\([^()\n]{{0,1000}}\)",
    r"(?:^|\s)(?:\.{0,2}\/[A-Za-z0-9_@./-]+|[A-Za-z]:\\)",
    r"\b(?:TypeError|ReferenceError|SyntaxError|RangeError|URIError|EvalError|Error|Exception):",
))


def has_structure(text: str) -> bool:
    """The reference's structure check: does this part look like it holds protectable regions?"""
    if not _STRUCTURE_PREFILTER.search(text):
        return False
    return compile_js(_STRUCTURE_SOURCE, "im").search(text) is not None
