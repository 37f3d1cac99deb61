"""Rule selection (§6) and application with JavaScript semantics (§7, §8).

Each rule is compiled once per run (so a ``y``-without-``g`` rule keeps its ``lastIndex``
across parts, as the reference's cached RegExp objects do, JSR-Q8) and evaluated through
``engine.jsregex`` under a timeout; a rule that times out is skipped with a diagnostic and
the text stays whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import is_

from engine import memo
from engine.caveman.fast import FastRegex, LiteralIndex, index_literals
from engine.caveman.packs import INTENSITIES, Rule, normalize_key
from engine.diagnostics import Diagnostic
from engine.jsregex import JSMatch, RegexTimeout, get_default_timeout
from engine.jsregex.template import expand_template
from engine.jsvalues import from_utf16_units, js_trim, utf16_len

_RANK = {name: i for i, name in enumerate(INTENSITIES)}


def intensity_rank(intensity: object) -> int:
    """lite 0, full 1, ultra 2; anything else counts as full."""
    return _RANK.get(intensity, 1) if isinstance(intensity, str) else 1


def filter_rules(rules: list[Rule], context: str, intensity: str) -> list[Rule]:
    rank = intensity_rank(intensity)
    return [r for r in rules if (r.context == "all" or r.context == context)
            and intensity_rank(r.min_intensity) <= rank]


@dataclass
class Selection:
    rules: list[Rule]
    from_fallback: bool = False  # the reference would use its English list here (CAV-Q3)
    fallback_available: bool = True


def select_rules(file_rules: list[Rule], fallback: list[Rule] | None, context: str, intensity: str,
                 *, profile: str) -> Selection:
    """``getRulesForContext``: the language's rules, else the English fallback list (CAV-Q3)."""
    chosen = filter_rules(file_rules, context, intensity)
    if chosen:
        return Selection(chosen)
    if profile == "strict":
        return Selection([], from_fallback=False)
    if fallback is None:
        return Selection([], from_fallback=True, fallback_available=False)
    return Selection(filter_rules(fallback, context, intensity), from_fallback=True)


# ---------------------------------------------------------------- JS replacement templates

# ``expand_template`` (GetSubstitution on a JSMatch) lives in engine.jsregex.template; imported above.


# ---------------------------------------------------------------- running rules

@dataclass
class MatchRecord:
    start: int  # UTF-16, in the text the rule ran on
    end: int
    match: str
    replacement: str

    def to_dict(self) -> dict[str, object]:
        return {"start": self.start, "end": self.end, "match": self.match, "replacement": self.replacement}


@dataclass
class RuleRun:
    """What one rule did to one text."""

    rule: Rule
    before: str
    after: str
    attempted: bool = True
    skipped: str = ""  # why not attempted: "prefilter", "skipRules", "timeout"
    matches: list[MatchRecord] = field(default_factory=list)
    q5_literal: bool = False  # a replacementMap miss inserted a $-template verbatim (CAV-Q5)

    @property
    def changed(self) -> bool:
        return self.after != self.before


class RuleRunner:
    """Compiled rules of one run, applied with the reference's semantics."""

    def __init__(self, *, profile: str = "omniroute", timeout: float | None = None, keep_units: bool = False) -> None:
        self.profile = profile
        self.timeout = timeout  # per regex call; None: engine.jsregex's default, scaled by text size
        # results as UTF-16 units (FastRegex.replace): a chain of rules on a text with astral
        # characters converts it once, not at every rule; the caller converts the end back
        self.keep_units = keep_units
        # id(rule) → (rule, regex): the entry keeps its rule alive, so the address cannot be
        # reused by another rule while the entry exists (checked with ``is`` all the same). Not
        # keyed by the pattern alone: a sticky rule's lastIndex belongs to its rule object.
        self._compiled: dict[int, tuple[Rule, FastRegex]] = {}
        self._index: LiteralIndex | None = None
        self._shared: tuple[list[Rule], list[FastRegex], LiteralIndex] | None = None  # (share_index's last)

    MAX_COMPILED = 4096  # a long-lived runner fed rules made on the fly starts over past this

    def regexp(self, rule: Rule) -> FastRegex:
        entry = self._compiled.get(id(rule))
        if entry is not None and entry[0] is rule:
            return entry[1]
        if len(self._compiled) >= self.MAX_COMPILED:
            self._compiled.clear()
        rx = shared_regexp(rule.pattern, rule.flags)
        self._compiled[id(rule)] = (rule, rx)
        return rx

    def share_index(self, rules: list[Rule]) -> LiteralIndex:
        """Let these rules' regexes share one ``LiteralIndex`` (which anchor literals the current
        text lacks), so a rule whose literals are all absent is skipped without scanning.
        Returns the index."""
        shared = self._shared
        if shared is not None and len(shared[0]) == len(rules) and all(map(is_, shared[0], rules)):
            for rx in shared[1]:  # (a runner of other rules may have pointed a shared regex elsewhere)
                rx.index = shared[2]
            return shared[2]
        regexps = []
        for rule in rules:
            try:
                regexps.append(self.regexp(rule))
            except Exception:  # an invalid pattern is reported where the rule runs
                continue
        literals = index_literals([rx.plan for rx in regexps],
                                  [rx.required for rx in regexps if rx.required and rx.rx.translation.ignore_case])
        if self._index is None or self._index.literals != literals:
            self._index = _literal_index(literals)
        for rx in regexps:
            rx.index = self._index
        # (the same list again — every part of a body — costs the check above, not ~80 µs)
        self._shared = (list(rules), regexps, self._index)
        return self._index

    def fresh(self, rule: Rule) -> FastRegex:
        return FastRegex(rule.pattern, rule.flags)

    def budget(self, text: str) -> float | None:
        return budget_for(text, self.timeout)

    def _replacer(self, rule: Rule, rx: FastRegex, subject: str, run: RuleRun | None
                  ) -> str | Callable[[JSMatch], str]:
        mapping = rule.replacement_map
        if mapping is None:
            if run is None:
                return rule.replacement or ""
            template = rule.replacement or ""

            def plain(m: JSMatch) -> str:
                out = expand_template(template, m, subject, rx)
                run.matches.append(MatchRecord(m.index, m.index + utf16_len(m.match), m.match, out))
                return out
            return plain

        strict = self.profile == "strict"

        def mapped(m: JSMatch) -> str:
            s = m.match if m.match.isascii() else from_utf16_units(m.match)  # (a units subject)
            if rule.map_mode == "fallback":
                key = js_trim(s).lower()
                out = mapping.get(key, "" if rule.miss == "empty" else s)
            else:
                key = normalize_key(s)
                if key in mapping:
                    out = mapping[key]
                elif rule.replacement is not None:
                    out = rule.replacement
                    if "$" in out:
                        expanded = expand_template(out, m, subject, rx)
                        if expanded != out:
                            if strict:
                                out = expanded  # fix of CAV-Q5
                            elif run is not None:
                                run.q5_literal = True
                else:
                    out = s
            if run is not None:
                run.matches.append(MatchRecord(m.index, m.index + utf16_len(s), s, out))
            return out
        return mapped

    @staticmethod
    def _mapped_text(rule: Rule) -> Callable[[str], str]:
        """The replacement of a ``replacementMap`` rule as a function of the matched text alone:
        ``_replacer``'s result when nothing is recorded and no ``$``-template can be expanded
        (the caller checks), without building a JSMatch per match."""
        mapping = rule.replacement_map or {}  # (only replacementMap rules get here)
        if rule.map_mode == "fallback":
            miss_empty = rule.miss == "empty"

            def fallback(s: str) -> str:
                return mapping.get(js_trim(s).lower(), "" if miss_empty else s)
            return fallback
        replacement = rule.replacement

        def pack(s: str) -> str:
            key = normalize_key(s)
            if key in mapping:
                return mapping[key]
            return s if replacement is None else replacement
        return pack

    @classmethod
    def values_of(cls, rule: Rule) -> Callable[[list[int], list[str]], list[str]]:
        """The replacement of a rule without ``$``-templates as a function of its matches (their
        offsets, unread, and texts), all at once (``engine.caveman.joined`` replaces every match
        of many parts in one call)."""
        if rule.replacement_map is None:
            constant = rule.replacement or ""
            return lambda _at, matched: [constant] * len(matched)
        mapped = cls._mapped_text(rule)
        return lambda _at, matched: list(map(mapped, matched))

    def _recorder(self, rule: Rule, run: RuleRun) -> Callable[[int, str], str]:
        """The replacement of a rule without $-templates as a function of a match's offset and
        text, recording each match in ``run`` (what ``_replacer`` records, without a JSMatch)."""
        if rule.replacement_map is None:
            template = rule.replacement or ""

            def constant(start: int, s: str) -> str:
                run.matches.append(MatchRecord(start, start + utf16_len(s), s, template))
                return template
            return constant
        mapped = self._mapped_text(rule)

        def looked_up(start: int, s: str) -> str:
            out = mapped(s)
            run.matches.append(MatchRecord(start, start + utf16_len(s), s, out))
            return out
        return looked_up

    def apply(self, rule: Rule, text: str, *, record: bool = False, rx: FastRegex | None = None) -> RuleRun:
        """Run ``rule`` on ``text``. Raises ``RegexTimeout`` (the caller skips the rule)."""
        rx = rx or self.regexp(rule)
        run = RuleRun(rule, text, text)
        # whether a replacement may expand a $-template (then each match needs its groups)
        templated = rule.replacement is not None and "$" in rule.replacement \
            and (rule.replacement_map is None or rule.map_mode == "pack")
        needs_run = record or (rule.replacement_map is not None and templated)
        if record and not templated:
            run.after = rx.replace_spans(text, self._recorder(rule, run), self.budget(text))
        elif rule.replacement_map is not None and not needs_run:
            run.after = rx.replace_matched(text, self._mapped_text(rule), self.budget(text),
                                           keep_units=self.keep_units)
        else:
            run.after = rx.replace(text, self._replacer(rule, rx, text, run if needs_run else None),
                                   self.budget(text), keep_units=self.keep_units)
        return run

    def would_change(self, rule: Rule, text: str, rx: FastRegex | None = None) -> bool:
        """Dry run: would this rule change ``text``? On ``rx``, the rule's own regex, where it keeps
        no state between calls (not sticky: its memos of this text serve the run), else on fresh
        ones (no shared lastIndex touched)."""
        probe = rx if rx is not None and not rx.sticky else self.fresh(rule)
        if probe.search(text, self.budget(text)) is None and not probe.sticky:
            return False
        return self.apply(rule, text, rx=probe if probe is rx else self.fresh(rule)).changed


def shared_regexp(pattern: str, flags: str) -> FastRegex:
    """The compiled form of a rule pattern, shared by every run of the process (a pack's
    patterns are compiled once, not per request) — except for sticky patterns, whose
    ``lastIndex`` belongs to one run (JSR-Q8). Without ``y`` a regex keeps no state between
    calls that changes a result (``replace`` with ``g`` resets ``lastIndex``; without ``g``
    it ignores it); FastRegex's own memos are keyed by the text they were made for."""
    return FastRegex(pattern, flags) if "y" in flags else _stateless_regexp(pattern, flags)


@memo.lru(maxsize=memo.PATTERN_MEMO_SIZE)
def _stateless_regexp(pattern: str, flags: str) -> FastRegex:
    return FastRegex(pattern, flags)


@memo.lru(maxsize=16)
def _literal_index(literals: frozenset[str]) -> LiteralIndex:
    """One index per literal set (a pack's rule list), reused across runs."""
    return LiteralIndex(literals)


SCALE_UNITS = 262_144  # the budget grows linearly beyond this many characters


def budget_for(text: str, base: float | None = None) -> float | None:
    """Per-call regex budget: ``base`` (default: engine.jsregex's, 250 ms), scaled up linearly
    for large texts so that only super-linear (catastrophic) patterns time out, not big inputs."""
    base = get_default_timeout() if base is None else base
    return None if base is None else base * max(1.0, len(text) / SCALE_UNITS)


def timeout_diagnostic(rule: Rule, exc: RegexTimeout, where: str) -> Diagnostic:
    """The rule that ran out of time, and whose time: its own call's, or the body's total budget."""
    total = getattr(exc, "total", None)
    if total:
        message = f"rule {rule.name} was stopped on {where}: {total}; skipped, the text is kept"
    else:
        ms = round((exc.timeout or 0) * 1000)
        message = f"rule {rule.name} timed out after {ms} ms on {where}; skipped (it would stall OmniRoute)"
    return Diagnostic(message, "error", "CAV-timeout", source="caveman", data={"rule": rule.name, "source": rule.source})
