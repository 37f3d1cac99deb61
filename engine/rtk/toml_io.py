"""RTK TOML v1 — read (OmniRoute's ``parseRtkTomlV1``) and write (export).

Reading follows the reference's validation order and public messages (verify-trust §6.3): size
limit, TOML syntax (positions mapped to where smol-toml, the reference parser, reports them), the
zod schema (first issue only), then document rules and per-filter regex checks. The parsed
filters become OmniRoute filter definitions (``sourceFormat: "rtk-toml-v1"``, priority 50,
category derived from the name and ``match_command``), and the inline ``[[tests.<name>]]`` run
through the filter stage as a parse-time gate (§2).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Final, Literal, NotRequired, Required, TypedDict

from engine.diagnostics import Diagnostic
from engine.jsvalues import JsonObject, utf16_len, utf16_to_py_index
from engine.rtk import zodlike as z
from engine.rtk.hashing import text_sha256
from engine.rtk.model import FilterTest, MatchOutputRule, ReplaceRule, RtkFilter, Source, is_redos_prone

if TYPE_CHECKING:
    from engine.jsregex import JSMatch, JSRegExp

SIZE_LIMIT = 1048576
FORMAT: Final = "rtk-toml-v1"
TOML_PRIORITY = 50
NO_TESTS_WARNING = "Filter '{id}' has no inline tests and should be reviewed before installation"
STDERR_WARNING = ("Filter '{id}': filter_stderr is accepted as a no-op because OmniRoute receives "
                  "already-captured tool output")
TESTS_FAILED = "one or more inline tests failed"

# Category words, tried in this order; the first category with a whole-word hit wins (§6.2).
CATEGORY_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("git", ("git", "gh")),
    ("test", ("test", "jest", "vitest", "pytest", "cargo test", "go test", "rspec", "playwright")),
    ("build", ("build", "tsc", "eslint", "ruff", "clippy", "gradle", "make", "next", "vite", "webpack")),
    ("docker", ("docker", "kubectl", "podman", "compose")),
    ("package", ("npm", "pnpm", "yarn", "bun", "pip", "poetry", "uv", "bundle", "composer")),
    ("infra", ("terraform", "tofu", "ansible", "helm", "pulumi")),
    ("cloud", ("aws", "gcloud", "az", "cloudflare")),
    ("shell", ("ls", "find", "grep", "rg", "df", "du", "ps", "systemctl", "ssh", "rsync")),
)
# Our own fixed word lists (not user patterns), matched with ASCII \b as the reference does.
_CATEGORY_RES = tuple((cat, re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b", re.ASCII))
                      for cat, words in CATEGORY_WORDS)

# Regex fields in the order the reference checks them, with their public names.
REGEX_FIELDS = ("match_command", "strip_lines_matching", "keep_lines_matching", "replace.pattern",
                "match_output.pattern", "match_output.unless")


def _fold(ch: str) -> str:
    other = ch.swapcase() if ch.isascii() and ch.isalpha() else ch
    return f"[{ch}{other}]" if other != ch else ch


def _escape_end(pattern: str, i: int) -> int:
    """Index just past the escape starting at ``pattern[i] == "\\"``."""
    nxt = pattern[i + 1: i + 2]
    if nxt in ("p", "P", "k") or (nxt == "u" and pattern[i + 2: i + 3] == "{"):
        close = pattern.find("}" if nxt != "k" else ">", i)
        return len(pattern) if close < 0 else close + 1
    if nxt == "x":
        return i + 4
    if nxt == "u":
        return i + 6
    if nxt == "c":
        return i + 3
    return i + 2


def _fold_class(body: str) -> str:
    out, i = [], 0
    while i < len(body):
        if body[i] == "\\":
            end = _escape_end(body, i)
            out.append(body[i:end])
            i = end
            continue
        if i + 2 < len(body) and body[i + 1] == "-" and body[i + 2] != "\\":
            lo, hi = body[i], body[i + 2]
            out.append(f"{lo}-{hi}")
            if lo.isascii() and hi.isascii() and lo.isalpha() and hi.isalpha() and lo.islower() == hi.islower():
                out.append(f"{lo.swapcase()}-{hi.swapcase()}")
            i += 3
            continue
        ch = body[i]
        out.append(ch + (ch.swapcase() if ch.isascii() and ch.isalpha() else ""))
        i += 1
    return "".join(out)


def translate_inline_ignore_case(pattern: str) -> str | None:
    """rtk's leading ``(?i)`` (Rust syntax) as a JavaScript pattern that ignores ASCII case by
    itself (``[aA]`` for letters, both ranges in classes) — VT-Q12's strict fix. ``None`` when the
    pattern has no leading ``(?i)``."""
    if not pattern.startswith("(?i)"):
        return None
    rest, out, i = pattern[4:], [], 0
    while i < len(rest):
        ch = rest[i]
        if ch == "\\":
            end = _escape_end(rest, i)
            out.append(rest[i:end])
            i = end
        elif ch == "[":
            j = i + 1
            if rest[j: j + 1] == "^":
                j += 1
            if rest[j: j + 1] == "]":
                j += 1
            while j < len(rest) and rest[j] != "]":
                j = _escape_end(rest, j) if rest[j] == "\\" else j + 1
            head = "[^" if rest[i + 1: i + 2] == "^" else "["
            out.append(head + _fold_class(rest[i + len(head): j]) + "]")
            i = j + 1
        elif ch == "(" and rest[i + 1: i + 2] == "?":
            if rest[i + 2: i + 4] in ("<=", "<!") or rest[i + 2: i + 3] in (":", "=", "!"):
                end = i + (4 if rest[i + 2] == "<" else 3)
            else:  # (?<name>
                close = rest.find(">", i)
                end = len(rest) if close < 0 else close + 1
            out.append(rest[i:end])
            i = end
        elif ch == "{":
            close = rest.find("}", i)
            end = len(rest) if close < 0 else close + 1
            out.append(rest[i:end])
            i = end
        else:
            out.append(_fold(ch))
            i += 1
    return "".join(out)


class TomlFilterError(ValueError):
    """``parseRtkTomlV1`` failure: ``str()`` is the reference's public message.

    ``line``/``column`` (1-based, UTF-16) locate syntax errors; ``path`` is the zod issue path.
    """

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None,
                 path: tuple[str | int, ...] | None = None, filter_name: str | None = None, field_name: str | None = None,
                 hint: str | None = None, detail: str | None = None, pattern: str | None = None,
                 pattern_offset: int | None = None):
        super().__init__(message)
        self.line, self.column, self.path = line, column, path
        self.filter_name, self.field_name = filter_name, field_name
        self.hint = hint  # our explanation (e.g. a quirk), never part of the reference's message
        self.detail = detail  # what exactly is wrong (a bad regex: which one and V8's reason)
        # a bad regex, and the UTF-16 offset in it of what is wrong: error_position points there
        self.pattern, self.pattern_offset = pattern, pattern_offset

    def explained(self) -> str:
        """The reference's message, then ours: the detail and the hint, each in parentheses."""
        return str(self) + "".join(f" ({extra})" for extra in (self.detail, self.hint) if extra)


# ---------------------------------------------------------------- schema (zod 4 texts)

class _Literal(z.Schema):
    def __init__(self, value: int) -> None:
        self.value = value

    def run(self, value: object) -> tuple[object, list[z.Issue]]:
        if isinstance(value, int | float) and not isinstance(value, bool) and value == self.value:
            return self.value, []
        return value, [z.Issue({"code": "invalid_value", "values": [self.value]}, [],
                               f"Invalid input: expected {self.value}")]


class _Record(z.Schema):
    def __init__(self, item: z.Schema) -> None:
        self.item = item

    def run(self, value: object) -> tuple[object, list[z.Issue]]:
        if not isinstance(value, dict):
            return value, [z.Issue({"expected": "record", "code": "invalid_type"}, [],
                                   f"Invalid input: expected record, received {z.parsed_type(value)}")]
        out: dict[object, object] = {}
        issues: list[z.Issue] = []
        for key, element in value.items():
            parsed, element_issues = self.item.run(element)
            for issue in element_issues:
                issue.path.insert(0, key)
            issues.extend(element_issues)
            out[key] = parsed
        return out, issues


def _opt(schema: z.Schema) -> z.Schema:
    return z.Optional(schema)


_NON_NEG = z.Int(minimum=0)
FILTER_SCHEMA = z.Obj([
    ("description", _opt(z.Str())),
    ("match_command", z.Str(min_length=1)),
    ("strip_ansi", _opt(z.Bool())),
    ("filter_stderr", _opt(z.Bool())),
    ("strip_lines_matching", _opt(z.Arr(z.Str()))),
    ("keep_lines_matching", _opt(z.Arr(z.Str()))),
    ("replace", _opt(z.Arr(z.Obj([("pattern", z.Str(min_length=1)), ("replacement", z.Str())])))),
    ("match_output", _opt(z.Arr(z.Obj([("pattern", z.Str(min_length=1)), ("message", z.Str()),
                                         ("unless", _opt(z.Str(min_length=1)))])))),
    ("truncate_lines_at", _opt(_NON_NEG)),
    ("head_lines", _opt(_NON_NEG)),
    ("tail_lines", _opt(_NON_NEG)),
    ("max_lines", _opt(_NON_NEG)),
    ("on_empty", _opt(z.Str())),
])
TEST_SCHEMA = z.Obj([("name", z.Str(min_length=1)), ("input", z.Str()), ("expected", z.Str())])
DOCUMENT_SCHEMA = z.Obj([
    ("schema_version", _Literal(1)),
    ("filters", z.Default(_Record(FILTER_SCHEMA), {})),
    ("tests", z.Default(_Record(z.Arr(TEST_SCHEMA)), {})),
])


# ---------------------------------------------------------------- result types

class ReplaceEntry(TypedDict):
    pattern: str
    replacement: str


class MatchOutputEntry(TypedDict):
    pattern: str
    message: str
    unless: NotRequired[str]


class FilterTable(TypedDict, total=False):
    """One ``[filters.ID]`` table once ``FILTER_SCHEMA`` accepted it: the keys as written."""

    description: str
    match_command: Required[str]
    strip_ansi: bool
    filter_stderr: bool
    strip_lines_matching: list[str]
    keep_lines_matching: list[str]
    replace: list[ReplaceEntry]
    match_output: list[MatchOutputEntry]
    truncate_lines_at: int
    head_lines: int
    tail_lines: int
    max_lines: int
    on_empty: str


class TestEntry(TypedDict):
    """One ``[[tests.ID]]`` entry once ``TEST_SCHEMA`` accepted it."""

    name: str
    input: str
    expected: str


@dataclass
class TomlTest:
    name: str
    input: str
    expected: str


@dataclass
class TomlTestOutcome:
    filter_id: str
    test_name: str
    passed: bool
    actual: str
    expected: str

    def to_dict(self) -> JsonObject:
        return {"filterId": self.filter_id, "testName": self.test_name, "passed": self.passed,
                "actual": self.actual, "expected": self.expected}


@dataclass
class TomlParseResult:
    """What ``parseRtkTomlV1`` returns (``filters`` carry their tests; source set by the loader)."""

    schema_version: int
    sha256: str
    filters: list[RtkFilter]
    tables: dict[str, FilterTable]  # the validated TOML tables by name, as written
    tests: dict[str, list[TomlTest]]
    outcomes: list[TomlTestOutcome] = field(default_factory=list)
    filters_without_tests: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[Diagnostic] = field(default_factory=list)  # ours (quirks), not the reference's warnings

    @property
    def passed(self) -> bool:
        return all(o.passed for o in self.outcomes)

    def to_dict(self) -> JsonObject:
        return {"schemaVersion": self.schema_version, "sha256": self.sha256,
                "filters": [f.to_dict() for f in self.filters],
                "outcomes": [o.to_dict() for o in self.outcomes],
                "filtersWithoutTests": list(self.filters_without_tests), "warnings": list(self.warnings),
                "passed": self.passed}


# ---------------------------------------------------------------- syntax

_LOCATION = re.compile(r"^(?P<msg>.*) \((?:at line (?P<line>\d+), column (?P<col>\d+)|at end of document)\)$",
                       re.DOTALL)


def _smol_location(content: str, ptr: int) -> tuple[int, int]:
    """smol-toml's (line, column) for a pointer: lines split on CRLF/LF/CR, UTF-16 columns."""
    lines = re.split(r"\r\n|\n|\r", content[:ptr])
    return len(lines), utf16_len(lines[-1]) + 1


def _tomllib_pointer(content: str, message: str) -> tuple[str, int]:
    """(tomllib's message, the code-point offset it points at)."""
    m = _LOCATION.match(message)
    if not m:
        return message, len(content)
    if m.group("line") is None:
        return m.group("msg"), len(content)
    line, col = int(m.group("line")), int(m.group("col"))
    start = 0
    for _ in range(line - 1):
        nl = content.find("\n", start)
        if nl < 0:
            break
        start = nl + 1
    return m.group("msg"), min(len(content), start + col - 1)


def _line_start(content: str, ptr: int) -> int:
    return max(content.rfind("\n", 0, ptr), content.rfind("\r", 0, ptr)) + 1


def syntax_error_location(content: str, message: str) -> tuple[int, int]:
    """Map a ``tomllib`` error to the position smol-toml gives up at (best effort, §6.3).

    smol-toml reports an unterminated table header at the start of its key, a redefinition at the
    start of the offending statement, and unfinished values at the end of the document; for the
    other errors both parsers stop at the same character.
    """
    text, ptr = _tomllib_pointer(content, message)
    if text.startswith("Expected ']") and "table" in text:
        start = _line_start(content, ptr)
        header = content[start:ptr]
        offset = len(header) - len(header.lstrip(" \t"))
        ptr = start + offset + (2 if header.lstrip(" \t").startswith("[[") else 1)
    elif text.startswith(("Cannot overwrite", "Cannot declare", "Cannot mutate")):
        if ptr >= len(content):
            body = content.rstrip("\r\n \t")
            ptr = len(body)
        start = _line_start(content, ptr)
        line = content[start:]
        ptr = start + len(line) - len(line.lstrip(" \t"))
    return _smol_location(content, ptr)


def load_toml(content: str) -> dict[str, object]:
    """TOML text → dict, or ``TomlFilterError`` with the reference's syntax message."""
    try:
        return tomllib.loads(content)
    except tomllib.TOMLDecodeError as exc:
        line, column = syntax_error_location(content, str(exc))
        raise TomlFilterError(f"invalid TOML syntax (line {line}, column {column})",
                              line=line, column=column) from None


# ---------------------------------------------------------------- parse + validate

def _first_issue_message(issues: list[z.Issue]) -> tuple[str, tuple[str | int, ...]]:
    """The reference's message, and the path of the offending key (an unknown key's own name)."""
    issue = issues[0]
    where = ".".join(str(p) for p in issue.path) or "document"
    keys = issue.fields.get("keys") if issue.fields.get("code") == "unrecognized_keys" else None
    path = tuple(issue.path) + ((keys[0],) if keys else ())
    return f"{where}: {issue.message}", path


def error_position(text: str, exc: TomlFilterError) -> tuple[int, int]:
    """Where an error of ``parse_rtk_toml`` is, at the offending key when there is one — the one
    answer ``validate``, ``verify`` and the IDE give (1-based line, UTF-16 column)."""
    from engine.diagnostics import position

    if exc.line is not None:
        return exc.line, exc.column or 1
    if exc.pattern is not None and exc.pattern_offset is not None and exc.filter_name is not None:
        at = _pattern_character(text, exc.filter_name, exc.pattern, exc.pattern_offset)
        if at is not None:
            return position(text, at)
    path: list[str | int] = list(exc.path or ())
    if not path and exc.filter_name is not None:
        path = ["filters", exc.filter_name, *([exc.field_name.split(".")[0]] if exc.field_name else [])]
    index = _find_path(text, path)
    return position(text, index) if index is not None else (1, 1)


# one-line basic and literal strings, and multi-line literal ones: the strings whose characters
# map to the file's simply (a multi-line basic string's line-ending backslash folds lines away;
# a bad regex there is reported at its key)
_STRING_TOKEN = re.compile(r"'''.*?'''|\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'", re.S)


def _pattern_character(text: str, filter_name: str, pattern: str, offset: int) -> int | None:
    """Where in ``text`` the string holding ``pattern`` (the first such string from the
    filter's table on) writes the pattern's character at UTF-16 ``offset``; None if not found."""
    header = _header(text, "filters", filter_name)
    for token in _STRING_TOKEN.finditer(text, header[0] if header else 0):
        raw = token.group(0)
        try:
            value = tomllib.loads("v = " + raw)["v"]
        except tomllib.TOMLDecodeError:
            continue
        if value != pattern:
            continue
        if raw.startswith("'" * 3):
            lead = 3 + (2 if raw[3:5] == "\r\n" else 1 if raw[3:4] == "\n" else 0)
            return token.start() + lead + utf16_to_py_index(pattern, offset)
        return token.start() + _raw_index(raw, offset)
    return None


def _raw_index(raw: str, offset: int) -> int:
    """Index in a one-line string token (quotes included) of its value's UTF-16 ``offset``:
    a literal string's characters are its value's; a basic string's escapes each write one."""
    if raw.startswith("'"):
        return 1 + utf16_to_py_index(raw[1:-1], offset)
    from engine.jsondoc import escaped_char_span

    return escaped_char_span(raw, 1, len(raw) - 1, offset)[0]


def _key_line(text: str, key: str, start: int, end: int) -> int | None:
    quoted = re.escape(key)
    found = re.compile(rf'^[ \t]*(?:{quoted}|"{quoted}"|\'{quoted}\')[ \t]*=', re.M).search(text, start, end)
    return None if found is None else found.start() + len(found.group(0)) - len(found.group(0).lstrip())


def _header(text: str, kind: str, name: str, nth: int = 0) -> tuple[int, int] | None:
    """(start of the nth ``[kind.name]`` / ``[[kind.name]]`` header, end of its body)."""
    quoted = re.escape(name)
    pattern = re.compile(rf'^[ \t]*\[\[?[ \t]*{kind}[ \t]*\.[ \t]*(?:{quoted}|"{quoted}"|\'{quoted}\')[ \t]*\]\]?',
                          re.M)
    matches = list(pattern.finditer(text))
    if len(matches) <= nth:
        return None
    start = matches[nth].start() + len(matches[nth].group(0)) - len(matches[nth].group(0).lstrip())
    following = re.compile(r"^[ \t]*\[", re.M).search(text, matches[nth].end())
    return start, following.start() if following else len(text)


def _find_path(text: str, path: list[str | int]) -> int | None:
    if not path:
        return None
    first = _re_first_table(text)
    if path[0] in ("filters", "tests") and len(path) >= 2:
        nth = path[2] if path[0] == "tests" and len(path) >= 3 and isinstance(path[2], int) else 0
        found = _header(text, path[0], str(path[1]), nth)
        if found is None:
            return None
        rest = path[3:] if path[0] == "tests" else path[2:]
        if rest and isinstance(rest[0], str):
            key = _key_line(text, rest[0], found[0], found[1])
            if key is not None:
                return key
        return found[0]
    return _key_line(text, str(path[0]), 0, first)  # a top-level key (schema_version, an unknown one)


def _re_first_table(text: str) -> int:
    found = re.compile(r"^[ \t]*\[", re.M).search(text)
    return found.start() if found else len(text)


def _regexes(table: FilterTable) -> list[tuple[str, str]]:
    """(field name, pattern) in the order the reference validates them."""
    out = [("match_command", table["match_command"])]
    out += [("strip_lines_matching", p) for p in table.get("strip_lines_matching", [])]
    out += [("keep_lines_matching", p) for p in table.get("keep_lines_matching", [])]
    out += [("replace.pattern", r["pattern"]) for r in table.get("replace", [])]
    for rule in table.get("match_output", []):
        out.append(("match_output.pattern", rule["pattern"]))
        if "unless" in rule:
            out.append(("match_output.unless", rule["unless"]))
    return out


def _translate_ignore_case(name: str, table: FilterTable, notes: list[Diagnostic]) -> FilterTable:
    """strict (VT-Q12): rewrite rtk's leading ``(?i)`` so the pattern means the same in JavaScript."""

    def fix(value: str, where: str) -> str:
        translated = translate_inline_ignore_case(value)
        if translated is None:
            return value
        notes.append(Diagnostic(f"filter '{name}': {where} {value!r} uses rtk's (?i); translated to {translated!r}",
                                "info", "VT-Q12", source="toml"))
        return translated

    def fix_rule(rule: MatchOutputEntry) -> MatchOutputEntry:
        fixed: MatchOutputEntry = {**rule, "pattern": fix(rule["pattern"], "match_output.pattern")}
        if "unless" in rule:
            fixed["unless"] = fix(rule["unless"], "match_output.unless")
        return fixed

    out = table.copy()
    out["match_command"] = fix(table["match_command"], "match_command")
    keys: tuple[Literal["strip_lines_matching", "keep_lines_matching"], ...] = (
        "strip_lines_matching", "keep_lines_matching")
    for key in keys:
        if key in table:
            out[key] = [fix(p, key) for p in table[key]]
    if "replace" in table:
        out["replace"] = [{**r, "pattern": fix(r["pattern"], "replace.pattern")} for r in table["replace"]]
    if "match_output" in table:
        out["match_output"] = [fix_rule(r) for r in table["match_output"]]
    return out


def derive_category(name: str, match_command: str) -> str:
    subject = f"{name} {match_command}".lower()
    for category, pattern in _CATEGORY_RES:
        if pattern.search(subject):
            return category
    return "generic"


def to_filter(name: str, table: FilterTable, tests: list[TomlTest], *, source: Source = "builtin",
              path: str | None = None) -> RtkFilter:
    """The OmniRoute filter definition of one TOML filter (rtk.md §1.3, verify-trust §6.2)."""
    return RtkFilter(
        id=name, name=name, description=table.get("description", ""),
        category=derive_category(name, table["match_command"]), priority=TOML_PRIORITY,
        command_patterns=(table["match_command"],),
        strip_patterns=tuple(table.get("strip_lines_matching", ())),
        keep_patterns=tuple(table.get("keep_lines_matching", ())),
        strip_ansi=bool(table.get("strip_ansi", False)),
        replace=tuple(ReplaceRule(r["pattern"], r["replacement"]) for r in table.get("replace", ())),
        match_output=tuple(MatchOutputRule(r["pattern"], r["message"], r.get("unless"))
                           for r in table.get("match_output", ())),
        truncate_line_at=table.get("truncate_lines_at", 0), on_empty=table.get("on_empty", ""),
        filter_stderr=False,  # accepted as a no-op (warning)
        deduplicate=False, max_lines=table.get("max_lines", 0), preserve_head=0, preserve_tail=0,
        tests=tuple(FilterTest(t.name, t.input, t.expected) for t in tests),
        source=source, source_format=FORMAT, path=path, shape="toml",
        rtk_toml_head_lines=table.get("head_lines"), rtk_toml_tail_lines=table.get("tail_lines"),
        rtk_toml_max_lines=table.get("max_lines"),
    )


def parse_rtk_toml(content: str, *, run_tests: bool = True, profile: str = "omniroute") -> TomlParseResult:
    """``parseRtkTomlV1(content)``: raises ``TomlFilterError`` with the reference's public message.

    ``profile`` only changes how the inline tests run (``strict``: the fixed stage semantics)."""
    if len(content.encode("utf-8", "surrogatepass")) > SIZE_LIMIT:
        raise TomlFilterError(f"file exceeds the {SIZE_LIMIT}-byte limit")
    raw = load_toml(content)
    document, issues = DOCUMENT_SCHEMA.run(raw)
    if issues:
        message, path = _first_issue_message(issues)
        raise TomlFilterError(message, path=path)
    tables: dict[str, FilterTable] = document.get("filters", {})
    tests_raw: dict[str, list[TestEntry]] = document.get("tests", {})
    if not tables:
        raise TomlFilterError("document contains no filters")
    for name in tests_raw:
        if name not in tables:
            raise TomlFilterError(f"tests reference unknown filter '{name}'", filter_name=name)
    notes: list[Diagnostic] = []
    if profile == "strict":
        tables = {name: _translate_ignore_case(name, table, notes) for name, table in tables.items()}
    for name, table in tables.items():
        _check_filter(name, table)

    result = TomlParseResult(
        schema_version=1, sha256=text_sha256(content),
        filters=[], tables=tables,
        tests={name: [TomlTest(t["name"], t["input"], t["expected"]) for t in tests_raw.get(name, [])]
               for name in tables},
    )
    result.notes = notes
    result.filters = [to_filter(name, table, result.tests[name]) for name, table in tables.items()]
    for name in tables:
        if not result.tests[name]:
            result.filters_without_tests.append(name)
            result.warnings.append(NO_TESTS_WARNING.format(id=name))
        if tables[name].get("filter_stderr"):
            result.warnings.append(STDERR_WARNING.format(id=name))
    if run_tests:
        result.outcomes = run_inline_tests(result, profile)
    return result


def _check_filter(name: str, table: FilterTable) -> None:
    from engine.jsregex import JSSyntaxError, compile_js

    if table.get("strip_lines_matching") and table.get("keep_lines_matching"):
        raise TomlFilterError(f"filter '{name}' cannot combine strip_lines_matching with keep_lines_matching",
                              filter_name=name)
    for field_name, pattern in _regexes(table):
        if is_redos_prone(pattern):
            raise TomlFilterError(f"filter '{name}' has an unsafe regex in {field_name}",
                                  filter_name=name, field_name=field_name)
        try:
            compile_js(pattern, "")
        except JSSyntaxError as exc:
            hint = ("rtk's (?i) inline flag is Rust syntax, not JavaScript (VT-Q12); the strict profile "
                    "translates it" if pattern.startswith("(?i)") else None)
            raise TomlFilterError(f"filter '{name}' has an invalid regex in {field_name}",
                                  filter_name=name, field_name=field_name, hint=hint,
                                  detail=f"{_shown(pattern)}: {exc.reason or exc}", pattern=pattern,
                                  pattern_offset=exc.offset) from None


def _shown(pattern: str, limit: int = 60) -> str:
    """A pattern quoted for a message, cut when long."""
    return repr(pattern if len(pattern) <= limit else pattern[:limit] + "…")


def run_inline_tests(result: TomlParseResult, profile: str = "omniroute") -> list[TomlTestOutcome]:
    """The parse-time gate (§2): each test through the filter stage, trailing ``\\n`` ignored."""
    from engine.rtk.inline_test import run_filter_stage, strip_trailing_newlines

    by_id = {f.id: f for f in result.filters}
    outcomes = []
    for name, tests in result.tests.items():
        for test in tests:
            text = run_filter_stage(by_id[name], test.input, profile)
            actual, expected = strip_trailing_newlines(text), strip_trailing_newlines(test.expected)
            outcomes.append(TomlTestOutcome(name, test.name, actual == expected, actual, expected))
    return outcomes


# ---------------------------------------------------------------- writing

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def toml_key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else basic_string(name)


def basic_string(text: str) -> str:
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif _CONTROL.match(ch) or ch == "\r":
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def pattern_string(text: str) -> str:
    """Regexes read best as literal strings (no doubled backslashes) when TOML allows it."""
    if "'" not in text and "\n" not in text and "\r" not in text and not _CONTROL.search(text):
        return f"'{text}'"
    return basic_string(text)


def multiline_string(text: str) -> str:
    """A sample text: ``\"\"\"`` block when it has line breaks (TOML drops the first newline after
    the opening quotes, so one is always written there)."""
    if "\n" not in text:
        return basic_string(text)
    body = []
    quotes = 0
    for ch in text:
        if ch == '"':
            quotes += 1
            body.append('\\"' if quotes == 3 else '"')
            if quotes == 3:
                quotes = 0
            continue
        quotes = 0
        if ch == "\\":
            body.append("\\\\")
        elif ch in "\n\t":
            body.append(ch)
        elif ch == "\r":
            body.append("\\r")
        elif _CONTROL.match(ch):
            body.append(f"\\u{ord(ch):04X}")
        else:
            body.append(ch)
    joined = "".join(body)
    if joined.endswith('"'):
        joined = joined[:-1] + '\\"'
    return '"""\n' + joined + '"""'


def _value(key: str, value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return pattern_string(value) if key in ("match_command", "pattern", "unless") else basic_string(value)
    if isinstance(value, list):
        if all(isinstance(v, str) for v in value):
            return "[" + ", ".join(pattern_string(v) for v in value) + "]"
        rows = ["  { " + ", ".join(f"{k} = {_value(k, v)}" for k, v in item.items()) + " }," for item in value]
        return "[\n" + "\n".join(rows) + "\n]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


TABLE_KEY_ORDER = tuple(k for k, _ in FILTER_SCHEMA.shape)


def dump_rtk_toml(tables: Mapping[str, FilterTable], tests: dict[str, list[TomlTest]] | None = None,
                  header_comment: str | None = None) -> str:
    """Write an RTK TOML v1 document: each filter's table followed by its tests."""
    tests = tests or {}
    lines: list[str] = []
    if header_comment:
        lines += [f"# {line}".rstrip() for line in header_comment.splitlines()]
    lines.append("schema_version = 1")
    return "\n".join(lines) + "\n" + "".join("\n" + render_filter(name, table, tests.get(name, []))
                                            for name, table in tables.items())


def render_filter(name: str, table: FilterTable, tests: list[TomlTest]) -> str:
    """One filter's ``[filters.ID]`` table followed by its ``[[tests.ID]]`` entries (ends with a newline)."""
    lines = [f"[filters.{toml_key(name)}]"]
    written: Mapping[str, object] = table
    for key in TABLE_KEY_ORDER:
        if key in written:
            lines.append(f"{key} = {_value(key, written[key])}")
    for test in tests:
        lines += ["", f"[[tests.{toml_key(name)}]]", f"name = {basic_string(test.name)}",
                  f"input = {multiline_string(test.input)}",
                  f"expected = {multiline_string(test.expected)}"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the rtk view (§6.5)
#
# The same TOML filter as rtk v0.38 runs it (``toml_filter.rs`` ``apply_filter``): lines from
# ``str::lines()``, case-sensitive regexes with ``^``/``$`` at text boundaries, Rust replacement
# syntax, ``truncate`` to exactly ``...`` for N <= 3, head/tail/max markers, ``on_empty``. Regexes
# still run on the JavaScript layer: Rust-only syntax other than a leading inline-flag group is
# not translated, and Unicode classes (``\d``, ``\w``, ``\b``) stay ASCII — the view says so.

_RUST_WS = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
           "\u2028\u2029\u202f\u205f\u3000"
_RTK_ANSI = re.compile(r"\x1b\[[0-9;]*[a-zA-Z]")  # rtk's utils::strip_ansi (our fixed pattern)
_RUST_FLAGS = re.compile(r"^\(\?([imsxU-]+)\)")
_RUST_UNSUPPORTED = re.compile(r"\(\?<?[=!]|\\[1-9]|\\k<")


class RtkRegexError(ValueError):
    """rtk would not compile this pattern (the whole filter is skipped there)."""


def rust_regex(pattern: str, extra_flags: str = "") -> JSRegExp:
    """A JavaScript regex behaving like rtk's ``Regex::new(pattern)`` as far as the JS layer allows
    (``extra_flags="g"`` for ``replace_all``)."""
    from engine.jsregex import JSSyntaxError, compile_js

    if _RUST_UNSUPPORTED.search(pattern):
        raise RtkRegexError(f"{pattern!r}: look-around and backreferences are not supported by Rust's regex crate")
    flags = ""
    m = _RUST_FLAGS.match(pattern)
    if m:
        on = m.group(1).split("-")[0]
        if set(on) - set("ims"):
            raise RtkRegexError(f"{pattern!r}: inline flags {on!r} cannot be reproduced here")
        flags, pattern = "".join(sorted(set(on))), pattern[m.end():]
    pattern = pattern.replace("(?P<", "(?<")  # Rust's older named-group spelling
    try:
        return compile_js(pattern, "".join(sorted(set(flags + extra_flags))))
    except JSSyntaxError as exc:
        raise RtkRegexError(f"{pattern!r}: {exc}") from None


def expand_rust_replacement(template: str, match: JSMatch) -> str:
    """``regex::Captures::expand``: ``$name`` takes the longest ``[_0-9A-Za-z]+``, ``${name}``,
    ``$$``; unknown or unmatched groups give ``""``."""
    out, i = [], 0
    while i < len(template):
        ch = template[i]
        if ch != "$":
            out.append(ch)
            i += 1
            continue
        if template[i + 1: i + 2] == "$":
            out.append("$")
            i += 2
            continue
        if template[i + 1: i + 2] == "{":
            close = template.find("}", i + 2)
            if close < 0:
                out.append("$")
                i += 1
                continue
            name, i = template[i + 2: close], close + 1
        else:
            m = re.match(r"[_0-9A-Za-z]+", template[i + 1:])
            if not m:
                out.append("$")
                i += 1
                continue
            name, i = m.group(0), i + 1 + m.end()
        if name.isdigit():
            index = int(name)
            value = match.match if index == 0 else (match.groups[index - 1] if index <= len(match.groups) else None)
        else:
            value = match.named.get(name)
        out.append(value or "")
    return "".join(out)


def rust_truncate(line: str, max_len: int) -> str:
    if len(line) <= max_len:
        return line
    return "..." if max_len < 3 else line[: max_len - 3] + "..."


def apply_rtk_semantics(table: FilterTable, text: str) -> str:
    """rtk v0.38's ``apply_filter`` for one validated TOML table (raises ``RtkRegexError``)."""
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    if table.get("strip_ansi"):
        lines = [_RTK_ANSI.sub("", line) for line in lines]
    for rule in table.get("replace", []):
        rx = rust_regex(rule["pattern"], "g")
        expand = partial(expand_rust_replacement, rule["replacement"])
        lines = [rx.replace(line, expand) for line in lines]
    outputs = table.get("match_output", [])
    if outputs:
        blob = "\n".join(lines)
        for output in outputs:
            if rust_regex(output["pattern"]).search(blob) is None:
                continue
            if "unless" in output and rust_regex(output["unless"]).search(blob) is not None:
                continue
            return output["message"]
    strip = [rust_regex(p) for p in table.get("strip_lines_matching", [])]
    keep = [rust_regex(p) for p in table.get("keep_lines_matching", [])]
    if strip:
        lines = [line for line in lines if not any(rx.search(line) for rx in strip)]
    elif keep:
        lines = [line for line in lines if any(rx.search(line) for rx in keep)]
    if "truncate_lines_at" in table:
        lines = [rust_truncate(line, table["truncate_lines_at"]) for line in lines]
    head, tail, total = table.get("head_lines"), table.get("tail_lines"), len(lines)
    if head is not None and tail is not None:
        if total > head + tail:
            lines = [*lines[:head], f"... ({total - head - tail} lines omitted)", *lines[total - tail:]]
    elif head is not None:
        if total > head:
            lines = [*lines[:head], f"... ({total - head} lines omitted)"]
    elif tail is not None and total > tail:
        lines = [f"... ({total - tail} lines omitted)", *lines[total - tail:]]
    if "max_lines" in table and len(lines) > table["max_lines"]:
        dropped = len(lines) - table["max_lines"]
        lines = [*lines[: table["max_lines"]], f"... ({dropped} lines truncated)"]
    result = "\n".join(lines)
    if not result.strip(_RUST_WS) and "on_empty" in table:
        return table["on_empty"]
    return result


@dataclass
class SemanticsComparison:
    """One inline test under OmniRoute's and rtk's semantics."""

    filter_id: str
    test_name: str
    omniroute: str
    rtk: str | None  # None when rtk would skip the filter
    omniroute_passed: bool
    rtk_passed: bool
    note: str = ""

    @property
    def differs(self) -> bool:
        return self.omniroute != self.rtk

    def to_dict(self) -> JsonObject:
        return {"filterId": self.filter_id, "testName": self.test_name, "omniroute": self.omniroute, "rtk": self.rtk,
                "omniroutePassed": self.omniroute_passed, "rtkPassed": self.rtk_passed, "differs": self.differs,
                "note": self.note}


def compare_semantics(result: TomlParseResult, profile: str = "omniroute") -> list[SemanticsComparison]:
    """Every inline test under both tools' semantics (§6.4: shown after an export)."""
    from engine.rtk.inline_test import run_filter_stage, strip_trailing_newlines

    by_id = {f.id: f for f in result.filters}
    out = []
    for name, tests in result.tests.items():
        for test in tests:
            expected = strip_trailing_newlines(test.expected)
            omni = strip_trailing_newlines(run_filter_stage(by_id[name], test.input, profile))
            try:
                rtk: str | None = strip_trailing_newlines(apply_rtk_semantics(result.tables[name], test.input))
                note = ""
            except RtkRegexError as exc:
                rtk, note = None, f"rtk skips this filter: {exc}"
            out.append(SemanticsComparison(name, test.name, omni, rtk, omni == expected, rtk == expected, note))
    return out
