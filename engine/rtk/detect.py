"""Command-type detection (``rtk.md`` §2): which command produced this output, and how sure we are.

The 51 detectors are written here from the spec's plain-language descriptions, not copied from
the reference. They are *our* patterns, so they use Python's ``re`` with JavaScript's character
classes spelled out: JS ``\\s`` (``_WS``), JS line starts (after LF, CR, U+2028, U+2029), ASCII
``\\b``/``\\w``/``\\d`` and ASCII-only case folding (``re.ASCII``).

Each content pattern may carry a *needle*: a literal the pattern cannot match without. Checking
``needle in text`` first (a C-speed scan) keeps detection linear and cheap on large outputs; the
longer and the rarer its characters, the faster the scan rules an absent one out.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine.jsvalues import js_trim
from engine.rtk.heads import line_heads

# JavaScript's \s (WhiteSpace + LineTerminator), its complement, a non-break character, and a
# JS multiline line start.
_WS = r"[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
_NWS = r"[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
_NB = r"[^\n\r\u2028\u2029]"
_LS = r"(?<![^\n\r\u2028\u2029])"
_PATH = r"[A-Za-z0-9_./\-]"


def _at_some_line_start(text: str, prefix: str, match: Callable[[str, int], Any]) -> bool:
    """Whether ``match`` succeeds at a line start where ``prefix`` begins (LF-only text): the
    literal is found at C speed and the pattern is tried only there."""
    if text.startswith(prefix) and match(text, 0):
        return True
    needle = "\n" + prefix
    index = text.find(needle)
    while index >= 0:
        if match(text, index + 1):
            return True
        index = text.find(needle, index + 1)
    return False


_LITERAL_ESCAPES = set(".*+?()[]{}|^$\\/-")


def line_prefixes_of(source: str) -> tuple[str, ...]:
    """The literals a ``{LS}…`` source starts with: one, or one per branch of a leading group of
    plain literal alternatives such as ``(?:ok|FAIL)``; empty when there is none."""
    if not source.startswith("{LS}"):
        return ()
    group = re.match(r"\{LS\}\(\?:([^()\[\]\\{}.*+?^$]+)\)", source)
    if group and "|" in group.group(1):
        following = source[group.end():group.end() + 2]
        if following[:1] in ("*", "+", "?") or (following[:1] == "{" and following[1:].isdigit()):
            return ()  # the group is quantified
        return tuple(group.group(1).split("|"))
    prefix = line_prefix_of(source)
    return (prefix,) if prefix else ()


def line_prefix_of(source: str) -> str:
    """The literal a ``{LS}…`` source starts with (empty when there is none)."""
    if not source.startswith("{LS}"):
        return ""
    out: list[str] = []
    i = len("{LS}")
    while i < len(source):
        ch = source[i]
        if ch == "\\" and i + 1 < len(source) and source[i + 1] in _LITERAL_ESCAPES:
            out.append(source[i + 1])
            i += 2
            continue
        if source.startswith("\\u", i) and re.fullmatch(r"[0-9a-fA-F]{4}", source[i + 2:i + 6]):
            out.append(chr(int(source[i + 2:i + 6], 16)))
            i += 6
            continue
        if ch in ".^$*+?()[]{}|\\":
            quantified = ch in "*+?" or (ch == "{" and i + 1 < len(source) and source[i + 1].isdigit())
            if quantified and out:
                out.pop()
            break
        out.append(ch)
        i += 1
    return "".join(out)


def _expand(source: str) -> str:
    return (source.replace("{WS}", _WS).replace("{NWS}", _NWS).replace("{NB}", _NB)
            .replace("{LS}", _LS).replace("{PATH}", _PATH))


@dataclass(frozen=True)
class Subject:
    """An output prepared once for all content patterns.

    Case-sensitive literals are looked for in the text itself; case-insensitive ones in
    ``lowered``, the ASCII-lower-cased UTF-8 bytes (exactly the case folding of these patterns),
    made on first use. ``heads`` holds the first two characters of every line, so a pattern
    that needs a literal at a line start is ruled out without scanning."""

    text: str
    simple_breaks: bool  # no CR, U+2028 or U+2029: JS line starts are exactly Python's ``^`` (re.M)
    ascii: bool
    heads: frozenset[str]

    @classmethod
    def of(cls, text: str, lines: list[str] | None = None) -> Subject:
        simple = "\r" not in text and "\u2028" not in text and "\u2029" not in text
        heads: frozenset[str] = frozenset()
        if simple:
            if lines is None:
                lines = text.split("\n")
            heads = line_heads(lines)
        return cls(text, simple, text.isascii(), heads)

    @cached_property
    def lowered(self) -> bytes:
        """Made on first use: an output whose detection needs no case-insensitive literal
        (most outputs that come with their command) never pays for it."""
        return self.text.encode("utf-8", "surrogatepass").lower()

    @cached_property
    def lowered_text(self) -> str:
        return self.lowered.decode("ascii")


@dataclass(frozen=True)
class ContentPattern:
    """One content signal: a yes/no test of the whole output, with cheap ways to say no.

    ``exact`` spells JS line starts as a lookbehind; ``fast`` uses ``^`` with ``re.M`` and runs
    when the output has no CR/U+2028/U+2029. For an ASCII output, a case-insensitive pattern
    runs lower-cased on the lower-cased text (ASCII folding is then exact). ``needle`` is a
    literal every match contains; ``line_prefix`` one every match starts with, at a line start."""

    id: str
    exact: Callable[[str], Any]
    fast: Callable[[str], Any] | None = None
    fast_lower: Callable[[str], Any] | None = None
    needle: str | bytes | None = None  # str: looked for in the text; bytes (lower-cased): in ``lowered``
    needle_ci: bool = False
    line_prefixes: tuple[str, ...] = ()  # literals one of which every match starts with, at a line start
    fast_match: Callable[[str, int], Any] | None = None

    def cost(self, subject: Subject) -> float:
        """What testing this signal on ``subject`` roughly costs, in scans of the text: nothing
        for a line-start literal no line head has (else a search plus a match per line starting
        with it); a needle search is faster the longer the needle (the scan skips ahead by up to
        its length); a regex scan costs the most."""
        if self.line_prefixes and subject.simple_breaks and self.fast_match is not None:
            if not any(p[:2] in subject.heads for p in self.line_prefixes):
                return 0.0
            return 1.5
        if self.needle is not None:
            return 0.5 + 4 / len(self.needle)
        return 3.0

    def test(self, subject: Subject) -> bool:
        fast_match = self.fast_match
        prefixes = self.line_prefixes if subject.simple_breaks and fast_match is not None else ()
        if prefixes:
            prefixes = tuple(p for p in prefixes if p[:2] in subject.heads)
            if not prefixes:
                return False
        needle = self.needle
        if needle is not None:
            # a bytes needle is the lower-cased one (needle_ci), looked for in the lower-cased bytes
            if needle not in subject.lowered if isinstance(needle, bytes) else needle not in subject.text:
                return False
        if prefixes and fast_match is not None:  # (prefixes are only taken when fast_match is set)
            return any(_at_some_line_start(subject.text, p, fast_match) for p in prefixes)
        if subject.simple_breaks:
            if self.fast_lower is not None and subject.ascii:
                return self.fast_lower(subject.lowered_text) is not None
            if self.fast is not None:
                return self.fast(subject.text) is not None
        return bool(self.exact(subject.text))


@dataclass(frozen=True)
class Detector:
    type: str
    category: str
    commands: tuple[tuple[str, Callable[[str], Any]], ...]
    contents: tuple[ContentPattern, ...]


@dataclass
class Detection:
    """``{type, command, confidence, category, matchedPatterns}`` of the reference."""

    type: str
    command: str | None
    confidence: float
    category: str
    matched_patterns: list[str] = field(default_factory=list)
    command_source: str = "none"  # "given", "prompt"/"output" (found on the first lines) or "none"
    # The first one and two characters of every line of the output, when its only line breaks are
    # LF (else None): the filter stage's line scanner reuses them for the same lines.
    line_heads: frozenset[str] | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "command": self.command, "confidence": self.confidence,
                "category": self.category, "matchedPatterns": list(self.matched_patterns),
                "commandSource": self.command_source}


class _Lazy:
    """A pattern compiled on first use: most detector patterns are never run on a given output
    (ruled out by a needle or a line head, or pruned), and compiling all of them at import would
    cost more than a whole small CLI run."""

    __slots__ = ("_compiled", "_flags", "_method", "_source")

    def __init__(self, source: str, flags: int, method: str) -> None:
        self._source, self._flags, self._method = source, flags, method
        self._compiled: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        if self._compiled is None:
            self._compiled = getattr(re.compile(self._source, self._flags), self._method)
        return self._compiled(*args)


class _CommandPattern(_Lazy):
    """A command pattern (``re.match``, ASCII case folding) that first checks the literal every
    command it matches starts with: a run checks every detector's command patterns against one
    command, and this keeps a small CLI run from compiling all of them."""

    __slots__ = ("_heads",)

    def __init__(self, source: str, heads: tuple[str, ...]) -> None:
        super().__init__(_expand(source), re.ASCII | re.IGNORECASE, "match")
        self._heads = heads

    def __call__(self, text: str) -> Any:
        if self._heads and not any(text[:len(head)].lower() == head for head in self._heads):
            return None  # the pattern would need one of these ASCII literals right here
        return super().__call__(text)


def command_heads(source: str) -> tuple[str, ...]:
    """Lower-cased literals, one of which starts every text the command ``source`` matches from
    its start (``git{WS}+status`` → ``git``; ``(?:npm|pnpm){WS}…`` → both); empty when unknown."""
    group = re.match(r"\(\?:([A-Za-z0-9_|-]+)\)", source)
    if group:
        alternatives = group.group(1).split("|")
        if _quantified(source, group.end()) or not all(alternatives):
            return ()
        return tuple(a.lower() for a in alternatives)
    head = re.match(r"[A-Za-z0-9_-]+", source)
    if head is None:
        return ()
    text = head.group()
    if _quantified(source, head.end()):
        text = text[:-1]  # the last character is quantified and may be absent
    return (text.lower(),) if text else ()


def _quantified(source: str, i: int) -> bool:
    """A quantifier that allows zero repetitions follows at ``i`` (``{WS}`` is a placeholder)."""
    return source[i:i + 1] in ("*", "?") or (source[i:i + 1] == "{" and source[i + 1:i + 2].isdigit())


def _cmd(source: str) -> _Lazy:
    return _CommandPattern(source, command_heads(source))


def _content(det_id: str, index: int, source: str, needle: str | None = None, *,
             any_case: bool = False) -> ContentPattern:
    flags = re.ASCII | (re.IGNORECASE if any_case else 0)
    exact = _Lazy(_expand(source), flags, "search")
    fast_source = _expand(source.replace("{LS}", "^"))
    fast: Callable[[str], Any] = _Lazy(fast_source, flags | re.MULTILINE, "search")
    if source.startswith("{LS}") and "{LS}" not in source[4:]:
        # On LF-only text a line start is the text start or just after "\n": searching for the
        # literal "\n" first lets the engine skip from line to line instead of testing ^ everywhere.
        rest = _expand(source[4:])
        fast = _line_start_search(_Lazy(rest, flags, "match"), _Lazy("\n(?:" + rest + ")", flags, "search"))
    # Our any-case sources only use lower-case escapes (\d, \b, \t, \u…), so lowering is safe.
    fast_lower = _Lazy(fast_source.lower(), re.ASCII | re.MULTILINE, "search") if any_case else None
    prefixes = () if any_case else line_prefixes_of(source)
    fast_match = _Lazy(fast_source, flags | re.MULTILINE, "match") if prefixes else None
    if needle and any_case:
        needle = needle.lower()
    # (a needle without letters is found as it is: no lower-cased copy of the text needed)
    needle_ci = any_case and needle is not None and needle != "" and needle != needle.upper()
    literal = (needle.encode("utf-8") if needle_ci else needle) if needle else None
    return ContentPattern(f"{det_id}:content:{index}", exact, fast, fast_lower, literal, needle_ci, prefixes,
                          fast_match)


def _line_start_search(at_start: Callable[..., Any], after_newline: Callable[..., Any]) -> Callable[[str], Any]:
    return lambda text: at_start(text, 0) or after_newline(text)


def _json_like(text: str) -> bool:
    """json-output: first non-whitespace is ``[``/``{`` and the last (another one) is ``]``/``}``."""
    body = js_trim(text)
    return len(body) >= 2 and body[0] in "[{" and body[-1] in "]}"


# (type, category, command patterns, content patterns as (source, needle, any_case))
_SPEC: list[tuple[str, str, list[str], list[tuple[str, str | None, bool]]]] = [
    ("git-status", "git", [r"git{WS}+status\b"], [
        (r"{LS}On branch ", "On branch ", False),
        (r"{LS}(?:Changes not staged|Changes to be committed)", "Changes ", False),
        (r"{LS}Untracked files:", "Untracked files:", False)]),
    ("git-branch", "git", [r"git{WS}+branch\b", r"git{WS}+checkout\b", r"git{WS}+switch\b"], [
        (r"{LS}\*{WS}+{NWS}", "*", False),
        (r"Switched to (?:branch|a new branch)", "switched to ", True),
        (r"Already on ['\"][^'\"]+['\"]", "already on ", True)]),
    ("git-diff", "git", [r"git{WS}+diff\b", r"git{WS}+show\b"], [
        (r"{LS}diff --git ", "diff --git ", False),
        (r"{LS}@@{WS}+-\d+,\d+{WS}+\+\d+,\d+{WS}+@@", "@@", False)]),
    ("git-log", "git", [r"git{WS}+log\b"], [
        (r"{LS}commit [0-9a-f]{7}", "commit ", False),
        (r"{LS}Author: ", "Author: ", False)]),
    ("make", "build", [r"make\b"], [
        (r"{LS}make\[\d+\]: (?:Entering|Leaving) directory", "make[", False),
        (r"make: \*\*\* ", "make: *** ", False)]),
    ("gradle", "build", [r"(?:gradle|gradlew|\./gradlew)\b"], [
        (r"{LS}> Task :", "> Task :", False),
        (r"{LS}BUILD (?:SUCCESSFUL|FAILED)\b", "BUILD ", False)]),
    ("dotnet", "build", [r"dotnet{WS}+(?:build|test|run|restore|publish|pack|msbuild)\b", r"dotnet\b"], [
        (r"{LS}Build (?:succeeded|FAILED)\b", "Build ", False),
        (r"\b(?:error|warning) CS\d+\b", " CS", False)]),
    ("terraform-plan", "infra", [r"terraform{WS}+plan\b"], [
        (r"Terraform will perform the following actions:", "Terraform will perform", False),
        (r"Plan: \d+ to add", " to add", True)]),
    ("tofu-plan", "infra", [r"(?:tofu|opentofu){WS}+plan\b"], [
        (r"OpenTofu will perform the following actions:", "OpenTofu will perform", False),
        (r"Plan: \d+ to add", " to add", True)]),
    ("systemctl-status", "infra", [r"systemctl{WS}+status\b"], [
        (r"{LS}{WS}*Loaded:{WS}+", "Loaded:", False),
        (r"{LS}{WS}*Active:{WS}+", "Active:", False),
        (r"{LS}\u25cf{WS}+{NWS}+\.service", "\u25cf", False)]),
    ("test-vitest", "test", [r"vitest\b", r"npm{WS}+(?:run{WS}+)?test:vitest\b"], [
        (r"\bvitest\b", "vitest", True),
        (r"{LS} \u2713 ", " \u2713 ", False),
        (r"{LS} \u276f ", " \u276f ", False),
        (r"Test Files{WS}+\d+{WS}+(?:passed|failed)", "test files", True)]),
    ("test-jest", "test", [r"jest\b", r"npm{WS}+(?:run{WS}+)?test\b"], [
        (r"Test Suites:{WS}+\d", "test suites:", True),
        (r"Tests:{WS}+\d", "tests:", True),
        (r"{LS}PASS{WS}", "PASS", False),
        (r"{LS}FAIL{WS}", "FAIL", False)]),
    ("test-pytest", "test", [r"pytest\b", r"python{WS}+-m{WS}+pytest\b"], [
        (r"=+{WS}+(?:\d+{WS}+)?(?:passed|failed|error)", "=", True),
        (r"{LS}E{WS}", "E", False),
        (r"{LS}FAILED ", "FAILED ", False)]),
    ("test-cargo", "test", [r"cargo{WS}+test\b", r"cargo{WS}+nextest\b"], [
        (r"{LS}running \d+ test", "running ", False),
        (r"{LS}test{WS}+[A-Za-z0-9_:.\-]+{WS}+\.\.\.{WS}+(?:ok|FAILED|ignored)", "...", False),
        (r"test result:{WS}+(?:ok|FAILED)", "test result:", True)]),
    ("test-go", "test", [r"go{WS}+test\b"], [
        (r"{LS}(?:ok|FAIL){WS}+{PATH}+{WS}+[0-9.]+s", None, False),
        (r"{LS}--- FAIL: ", "--- FAIL: ", False),
        (r"{LS}panic: ", "panic: ", False)]),
    ("build-typescript", "build", [r"tsc\b", r"npm{WS}+run{WS}+typecheck\b"], [
        (r"TS\d{4}:", "TS", False),
        (r"error TS\d{4}", "error ts", True)]),
    ("build-eslint", "build", [r"eslint\b", r"npm{WS}+run{WS}+lint\b"], [
        (r"{WS}+\d+:\d+{WS}+(?:error|warning){WS}+", ":", False),
        (r"\u2716{WS}+\d+{WS}+problem", "\u2716", False)]),
    ("build-webpack", "build", [r"webpack\b", r"npx{WS}+webpack\b", r"npm{WS}+run{WS}+build:webpack\b"], [
        (r"webpack{WS}+\d", "webpack", True),
        (r"compiled successfully|compiled with \d+ error", "compiled ", True),
        (r"asset {NB}+\.js", "asset ", True)]),
    ("build-vite", "build", [r"vite{WS}+build\b", r"npm{WS}+run{WS}+build\b", r"pnpm{WS}+build\b"], [
        (r"vite v[0-9.]+", "vite v", True),
        (r"\u2713 built in", "\u2713 built in", True),
        (r"transforming \(\d+\)", "transforming (", True)]),
    ("biome", "build", [r"biome\b", r"npx{WS}+biome\b"], [
        (r"lint/[A-Za-z0-9/.\-]+", "lint/", False),
        (r"Checked \d+ files? in", "checked ", True)]),
    ("prettier", "build", [r"prettier\b", r"npx{WS}+prettier\b"], [
        (r"{LS}Checking formatting\.\.\.", "Checking formatting...", False),
        (r"Code style issues found", "code style issues found", True)]),
    ("turbo", "build", [r"turbo\b", r"npx{WS}+turbo\b"], [
        (r"{LS}\u2022 Packages in scope:", "\u2022 Packages in scope:", False),
        (r"{LS}Tasks:{WS}+\d+{WS}+successful", "Tasks:", False)]),
    ("nx", "build", [r"nx\b", r"npx{WS}+nx\b"], [
        (r"{LS}NX{WS}", "NX", False),
        (r"{LS}> nx run ", "> nx run ", False)]),
    ("playwright", "test", [r"playwright{WS}+test\b", r"npx{WS}+playwright{WS}+test\b"], [
        (r"Running \d+ tests? using \d+ worker", " worker", True),
        (r"{LS}{WS}+\d+ failed", " failed", False)]),
    ("npm-install", "package", [r"(?:npm|pnpm|yarn){WS}+(?:install|add|update)\b"], [
        (r"added \d+ packages", " packages", True),
        (r"packages are looking for funding", "packages are looking for funding", True),
        (r"audited \d+ packages", " packages", True)]),
    ("npm-audit", "package", [r"(?:npm|pnpm|yarn){WS}+audit\b"], [
        (r"found \d+ vulnerabilities", " vulnerabilities", True),
        (r"\b(?:low|moderate|high|critical)\b", None, True)]),
    ("ruff", "build", [r"ruff\b", r"uv{WS}+run{WS}+ruff\b"], [
        (r"{LS}{PATH}+\.py:\d+:\d+:{WS}+[A-Z]\d+", ".py:", False),
        (r"Found \d+ errors?\.", "found ", True)]),
    ("mypy", "build", [r"mypy\b", r"python{WS}+-m{WS}+mypy\b"], [
        (r"{LS}{PATH}+\.py:\d+:{WS}+error:", ".py:", False),
        (r"Found \d+ errors? in \d+ file", "found ", True)]),
    ("pip", "package", [r"pip{WS}+(?:install|download|uninstall)\b", r"python{WS}+-m{WS}+pip\b"], [
        (r"{LS}Collecting ", "Collecting ", False),
        (r"{LS}Successfully installed ", "Successfully installed ", False)]),
    ("uv-sync", "package", [r"uv{WS}+sync\b", r"uv{WS}+pip{WS}+install\b"], [
        (r"{LS}Resolved \d+ package", "Resolved ", False),
        (r"{LS}Installed \d+ package", "Installed ", False)]),
    ("poetry-install", "package", [r"poetry{WS}+install\b"], [
        (r"{LS}Installing dependencies from lock file", "Installing dependencies from lock file", False),
        (r"{LS}Package operations:", "Package operations:", False)]),
    ("golangci-lint", "build", [r"golangci-lint\b"], [
        (r"{LS}{PATH}+\.go:\d+:\d+:", ".go:", False),
        (r"{LS}\d+ issues?:", " issue", False)]),
    ("bundle-install", "package", [r"bundle{WS}+install\b"], [
        (r"{LS}Fetching gem metadata from ", "Fetching gem metadata from ", False),
        (r"{LS}Bundle complete!", "Bundle complete!", False)]),
    ("rubocop", "build", [r"rubocop\b", r"bundle{WS}+exec{WS}+rubocop\b"], [
        (r"{LS}Inspecting \d+ files", "Inspecting ", False),
        (r"{LS}{PATH}+\.rb:\d+:\d+:{WS}+[A-Z]:", ".rb:", False)]),
    ("docker-ps", "docker", [r"docker{WS}+ps\b"], [
        (r"{LS}CONTAINER ID{WS}+IMAGE{WS}+COMMAND", "CONTAINER ID", False)]),
    ("docker-logs", "docker", [r"docker{WS}+logs\b", r"docker{WS}+compose{WS}+logs\b"], [
        (r"{LS}\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}", "T", False),
        (r"\b(?:ERROR|WARN|INFO)\b", None, False),
        (r"{LS}Attaching to ", "Attaching to ", False)]),
    ("aws", "cloud", [r"aws\b"], [
        (r"An error occurred \([A-Za-z0-9]+\) when calling", "An error occurred (", False),
        (r"{LS}(?:upload|download): ", "load: ", False)]),
    ("gcloud", "cloud", [r"gcloud\b"], [
        (r"{LS}ERROR: \(gcloud\.", "ERROR: (gcloud.", False),
        (r"{LS}Updated property \[", "Updated property [", False)]),
    ("ssh", "cloud", [r"ssh\b"], [
        (r"Permission denied \(", "Permission denied (", False),
        (r"Host key verification failed", "Host key verification failed", False),
        (r"Connection timed out", "Connection timed out", False)]),
    ("rsync", "cloud", [r"rsync\b"], [
        (r"{LS}sending incremental file list", "sending incremental file list", False),
        (r"{LS}rsync error:", "rsync error:", False)]),
    ("curl", "cloud", [r"curl\b"], [
        (r"curl: \(\d+\)", "curl: (", False),
        (r"{LS}HTTP/\d(?:\.\d)? \d{3}", "HTTP/", False)]),
    ("wget", "cloud", [r"wget\b"], [
        (r"{LS}--\d{4}-\d{2}-\d{2}", "--", False),
        (r"{LS}ERROR \d{3}:", "ERROR ", False)]),
    ("json-output", "generic", [r"jq\b", r"cat{WS}+{NB}*\.json\b"], []),  # content: _json_like
    ("shell-ls", "shell", [r"ls\b"], [
        (r"{LS}total \d+", "total ", False),
        (r"{LS}{NWS}+{WS}+{NWS}+{WS}+\d+{WS}+\w+{WS}+\d{1,2}{WS}+", None, False)]),
    ("shell-find", "shell", [r"find\b"], [
        (r"{LS}(?:[./]|[A-Za-z0-9_.\-]+/){NB}", None, False)]),
    ("shell-grep", "shell", [r"(?:grep|rg|ag)\b"], [
        (r"{LS}{PATH}+\.(?:ts|tsx|js|jsx|py|go|rs|java|rb|md|json|yml|yaml|txt):\d*:", ":", False),
        (r"{LS}{PATH}+/{PATH}+:\d*:", ":", False)]),
    ("shell-ps", "shell", [r"ps\b"], [
        (r"{LS}(?:USER{WS}+PID|{WS}*PID{WS}+)", "PID", False)]),
    ("shell-df", "shell", [r"df\b"], [
        (r"{LS}Filesystem{WS}+{NB}*Use%", "Filesystem", False)]),
    ("shell-du", "shell", [r"du\b"], [
        (r"{LS}\d+(?:\.\d+)?[KMGTP]?{WS}+{NWS}", None, False)]),
    ("error-stacktrace", "generic", [], [
        (r"Traceback \(most recent call last\):", "Traceback (most recent call last):", False),
        (r"{LS}{WS}+at{WS}+{NWS}+{WS}+\({NB}+:\d+:\d+\)", "at", False),
        (r"{LS}panic: ", "panic: ", False),
        (r"{LS}thread '[^']+' panicked at", "' panicked at", False)]),
    ("generic-error", "generic", [], [
        (r"Error:", "Error:", False),
        (r"Exception:", "Exception:", False),
        (r"Traceback \(most recent call last\):", "Traceback (most recent call last):", False)]),
]


def _build() -> tuple[Detector, ...]:
    detectors = []
    for det_type, category, commands, contents in _SPEC:
        compiled_commands = tuple((f"{det_type}:command:{i}", _cmd(src)) for i, src in enumerate(commands))
        compiled_contents = [_content(det_type, i, src, needle, any_case=ci)
                             for i, (src, needle, ci) in enumerate(contents)]
        if det_type == "json-output":
            compiled_contents.append(ContentPattern("json-output:content:0", _json_like))
        detectors.append(Detector(det_type, category, compiled_commands, tuple(compiled_contents)))
    return tuple(detectors)


DETECTORS: tuple[Detector, ...] = _build()
DETECTOR_TYPES: tuple[str, ...] = tuple(d.type for d in DETECTORS)

# The 53 command prefixes recognised on the first lines of an output (rtk.md §2.1).
COMMAND_PREFIXES = (
    "git", "make", "gradle", "gradlew", "dotnet", "terraform", "tofu", "opentofu", "systemctl",
    "npm", "pnpm", "yarn", "vitest", "jest", "pytest", "python", "go", "cargo", "tsc", "eslint",
    "webpack", "vite", "biome", "prettier", "turbo", "nx", "playwright", "ruff", "mypy", "pip",
    "uv", "poetry", "golangci-lint", "bundle", "rubocop", "kubectl", "composer", "gh", "docker",
    "aws", "gcloud", "ssh", "rsync", "curl", "wget", "ls", "find", "grep", "rg", "ag", "ps", "df",
    "du",
)
_PREFIX = re.compile("(?:" + "|".join(re.escape(p) for p in COMMAND_PREFIXES) + r")\b", re.ASCII)
_PROMPT = re.compile(r"\$" + _WS + "+")
_LINE_SPLIT = re.compile(r"\r?\n")


def last_command_segment(command: str) -> str:
    """The last ``&&`` / ``||`` / ``;`` segment of a shell command line, quoting as the reference
    scans it (no backslash escapes; ``$(`` opened inside double quotes stays open)."""
    if not command:
        return command
    units = command
    segments: list[str] = []
    start = 0
    in_single = in_double = in_backtick = False
    depth = 0
    split = False
    i = 0
    n = len(units)
    while i < n:
        ch = units[i]
        nxt = units[i + 1] if i + 1 < n else ""
        if in_single:
            if ch == "'":
                in_single = False
        elif in_backtick:
            if ch == "`":
                in_backtick = False
        elif in_double:
            if ch == '"':
                in_double = False
            elif ch == "$" and nxt == "(":
                depth += 1
                i += 1
        elif depth > 0:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
        elif ch == "'":
            in_single = True
        elif ch == '"':
            in_double = True
        elif ch == "`":
            in_backtick = True
        elif ch == "$" and nxt == "(":
            depth += 1
            i += 1
        elif ch == "(":
            depth += 1
        elif (ch == "&" and nxt == "&") or (ch == "|" and nxt == "|"):
            segments.append(units[start:i])
            split = True
            i += 2
            start = i
            continue
        elif ch == ";":
            segments.append(units[start:i])
            split = True
            start = i + 1
        i += 1
    if not split:
        return command
    segments.append(units[start:])
    for segment in reversed(segments):
        trimmed = js_trim(segment)
        if trimmed:
            return trimmed
    return command


def _confidence(base: float, signals: int) -> float:
    """``min(1, base + 0.25 × signals)`` (the reference's arithmetic), as an int when whole."""
    confidence = min(1, base + 0.25 * signals)
    return int(confidence) if confidence == int(confidence) else confidence


@dataclass
class _Candidate:
    """A detector being scored: its confidence lies between what the signals found so far give
    and what it would give if every untested one matched (``upper``)."""

    order: int
    detector: Detector
    command_hit: str | None
    base: float
    pending: list[ContentPattern]
    hits: set[str] = field(default_factory=set)

    @property
    def upper(self) -> float:
        return _confidence(self.base, len(self.hits) + len(self.pending))

    @property
    def possible(self) -> bool:
        """It can still be reported: a command match, or a content signal found or untested."""
        return self.command_hit is not None or bool(self.hits) or bool(self.pending)


def _first_lines(text: str, count: int) -> str:
    """The text up to its ``count``-th line break (splitting the whole text, even with a limit,
    would copy all the rest of a large output)."""
    end = -1
    for _ in range(count):
        end = text.find("\n", end + 1)
        if end < 0:
            return text
    return text[:end - 1] if end and text[end - 1] == "\r" else text[:end]  # (a CRLF break goes whole)


def find_command(text: str, command: str | None, *, profile: str = "omniroute") -> tuple[str | None, str]:
    """``(detectedCommand, where)``: the given command (``given``), else one found on the first
    4 lines, behind a ``$ `` prompt (``prompt``) or not (``output``), else ``(None, "none")``.

    RTK-Q14: the reference accepts any of those lines that starts with a known tool name, so
    prose like ``make sure…`` counts; ``strict`` only accepts a line behind a ``$ `` prompt.
    """
    if command is not None and js_trim(command):
        segment = last_command_segment(js_trim(command))
        return (segment or None), "given"
    head = _LINE_SPLIT.split(_first_lines(text, 4))[:4]
    for raw in head:
        line = js_trim(raw)
        prompt = _PROMPT.match(line)
        if profile == "strict" and prompt is None:
            continue
        if prompt:
            line = line[prompt.end():]
        if not line:
            continue
        if _PREFIX.match(line):
            segment = last_command_segment(last_command_segment(line))
            return (segment or None), "prompt" if prompt else "output"
    return None, "none"


def detect_command_type(text: str, command: str | None = None, *, profile: str = "omniroute",
                        lines: list[str] | None = None) -> Detection:
    """``detectCommandType(text, command?)``: the best-scoring detector, or ``unknown``.

    The answer is exactly the reference's (the highest confidence, the earlier detector on a
    tie), found best-first so that most signals are never tested: the detector whose upper bound
    is highest (earliest on a tie) has its cheapest untested signal tested, until that detector
    is fully known — then nothing else can beat it. A signal that is absent costs a scan of the
    whole output, so proving a low scorer cannot win is where the time goes; starting from the
    likely winners means each other detector needs only enough misses to fall below it."""
    detected, where = find_command(text, command, profile=profile)
    subject = Subject.of(text, lines)
    heads = subject.heads if subject.simple_breaks else None
    queue: list[tuple[float, int]] = []
    candidates: list[_Candidate] = []
    for order, detector in enumerate(DETECTORS):
        hit = None
        if detected:
            hit = next((pid for pid, match in detector.commands if match(detected)), None)
        pending = sorted(detector.contents, key=lambda pattern: pattern.cost(subject))
        candidate = _Candidate(order, detector, hit, 0.55 if hit else 0, pending)
        candidates.append(candidate)
        if candidate.possible:
            heapq.heappush(queue, (-candidate.upper, order))
    while queue:
        negated, order = heapq.heappop(queue)
        candidate = candidates[order]
        if -negated != candidate.upper or not candidate.possible:
            continue  # a stale entry: the candidate was re-queued with its lower bound
        if not candidate.pending:
            detector = candidate.detector
            content = [p.id for p in detector.contents if p.id in candidate.hits]
            matched = ([candidate.command_hit] if candidate.command_hit else []) + content
            return Detection(detector.type, detected, _confidence(candidate.base, len(content)),
                             detector.category, matched, where, heads)
        pattern = candidate.pending.pop(0)
        if pattern.test(subject):
            candidate.hits.add(pattern.id)
        if candidate.possible:
            heapq.heappush(queue, (-candidate.upper, order))
    return Detection("unknown", detected, 0.35 if detected else 0.1, "generic", [], where, heads)
