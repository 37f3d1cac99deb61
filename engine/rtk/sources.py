"""Where RTK filters come from: project, global and built-in scopes, trust, and load diagnostics.

``collect_filters`` is OmniRoute's filter loader (verify-trust §3, §5): project
``.rtk/filters.toml`` then ``.rtk/filters.json`` (each gated by trust), global
``DATA_DIR/rtk/filters.toml`` then ``filters.json``, then the built-in folder; all filters kept
(no override by id), sorted by scope, format, priority and id. Skipped files are reported with the
reference's exact texts as diagnostics whose ``source`` is the scope (``project`` | ``global`` |
``builtin``); ``reference_dict`` gives the ``{source, level, message, format, file}`` shape of the
``filter`` command. Notes about quirks use other sources so they never mix with those.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from engine.diagnostics import Diagnostic, Level
from engine.fsutil import InputRefused
from engine.jsvalues import JsonObject, from_utf16_units, js_sort_key, to_utf16_units, utf16_to_py_index
from engine.rtk.hashing import decode_like_node
from engine.rtk.snapshot import format_of, read_file_bytes
from engine.rtk.trust import decide_trust

if TYPE_CHECKING:
    from engine.jsondoc import JsonDocument
    from engine.rtk.model import FilterObject, RtkFilter, Source
    from engine.rtk.toml_io import TomlParseResult

SCOPES = ("project", "global", "builtin")
INVALID_CUSTOM = "Invalid custom RTK filter skipped: "


# ---------------------------------------------------------------- JSON.parse as V8 11 reports it

class V8JsonError(ValueError):
    """``SyntaxError`` from Node 20's ``JSON.parse``; ``position`` is the UTF-16 offset."""

    def __init__(self, message: str, position: int | None) -> None:
        super().__init__(message)
        self.position = position


_SPECIAL_SOURCES = ("[object Object]", "undefined", "Infinity", "NaN")
_WS = " \t\n\r"


def _token_kind(ch: str | None) -> str:
    if ch is None:
        return "EOS"
    if ch == '"':
        return "STRING"
    if ch == "-" or "0" <= ch <= "9":
        return "NUMBER"
    return {"t": "TRUE", "f": "FALSE", "n": "NULL", ":": "COLON", ",": "COMMA", "[": "LBRACK",
            "]": "RBRACK", "{": "LBRACE", "}": "RBRACE"}.get(ch, "WHITESPACE" if ch in _WS else "ILLEGAL")


class _V8JsonScanner:
    """Walks the text the way V8's JsonParser does, only to find where and how it fails."""

    def __init__(self, text: str) -> None:
        self.s = to_utf16_units(text)  # one character per UTF-16 unit, as V8 indexes
        self.n = len(self.s)
        self.i = 0

    # -- reporting
    def fail(self, kind: str | None = None, template: str | None = None) -> NoReturn:
        pos = self.i
        if template:
            joiner = " " if template.endswith("after JSON") else " in JSON "
            raise V8JsonError(f"{template}{joiner}at position {pos}", pos)
        ch = self.s[pos] if pos < self.n else None
        kind = kind or _token_kind(ch)
        if kind == "EOS":
            raise V8JsonError("Unexpected end of JSON input", pos)
        if kind == "NUMBER":
            raise V8JsonError(f"Unexpected number in JSON at position {pos}", pos)
        if kind == "STRING":
            raise V8JsonError(f"Unexpected string in JSON at position {pos}", pos)
        source = self.s
        if from_utf16_units(source) in _SPECIAL_SOURCES:
            raise V8JsonError(f'"{from_utf16_units(source)}" is not valid JSON', pos)
        token = from_utf16_units(ch or "")
        length = self.n
        if length < 21:  # V8 adds context from 21 units on (the spec says "> 21")
            raise V8JsonError(f"Unexpected token '{token}', \"{from_utf16_units(source)}\" is not valid JSON", pos)
        if pos < 10:
            excerpt = from_utf16_units(source[: pos + 10])
            raise V8JsonError(f"Unexpected token '{token}', \"{excerpt}\"... is not valid JSON", pos)
        if pos < length - 10:
            excerpt = from_utf16_units(source[pos - 10: pos + 10])
            raise V8JsonError(f"Unexpected token '{token}', ...\"{excerpt}\"... is not valid JSON", pos)
        excerpt = from_utf16_units(source[pos - 10:])
        raise V8JsonError(f"Unexpected token '{token}', ...\"{excerpt}\" is not valid JSON", pos)

    def fail_char(self) -> NoReturn:
        """``ReportUnexpectedCharacter(*cursor_)``."""
        ch = self.s[self.i] if self.i < self.n else None
        kind = _token_kind(ch) if ch is None or ord(ch) <= 0xFF else "ILLEGAL"
        self.fail(kind)

    # -- scanning
    def peek(self) -> str | None:
        while self.i < self.n and self.s[self.i] in _WS:
            self.i += 1
        return self.s[self.i] if self.i < self.n else None

    def expect(self, ch: str, template: str | None = None) -> None:
        if self.peek() == ch:
            self.i += 1
        elif template:
            self.fail(template=template)
        else:
            self.fail_char()

    def scan(self) -> None:
        # Iterative like V8: a stack of open containers.
        stack: list[str] = []
        while True:
            self.value(stack)
            while True:  # continuations
                if not stack:
                    if self.peek() is not None:
                        self.fail(template="Unexpected non-whitespace character after JSON")
                    return
                top = stack[-1]
                if top == "{":
                    if self.peek() == ",":
                        self.i += 1
                        self.expect('"', "Expected double-quoted property name")
                        self.string()
                        self.expect(":")  # V8 gives no specific message after the first property
                        break
                    self.expect("}", "Expected ',' or '}' after property value")
                    stack.pop()
                else:
                    if self.peek() == ",":
                        self.i += 1
                        break
                    self.expect("]", "Expected ',' or ']' after array element")
                    stack.pop()

    def value(self, stack: list[str]) -> None:
        while True:
            ch = self.peek()
            kind = _token_kind(ch)
            if kind == "LBRACE":
                self.i += 1
                if self.peek() == "}":
                    self.i += 1
                    return
                stack.append("{")
                self.expect('"', "Expected property name or '}'")
                self.string()
                self.expect(":", "Expected ':' after property name")
                continue
            if kind == "LBRACK":
                self.i += 1
                if self.peek() == "]":
                    self.i += 1
                    return
                stack.append("[")
                continue
            if kind == "STRING":
                self.i += 1
                self.string()
                return
            if kind == "NUMBER":
                self.number()
                return
            if kind in ("TRUE", "FALSE", "NULL"):
                self.literal({"TRUE": "true", "FALSE": "false", "NULL": "null"}[kind])
                return
            self.fail(kind)

    def literal(self, word: str) -> None:
        remaining = self.n - self.i
        if remaining >= len(word) and self.s[self.i: self.i + len(word)] == word:
            self.i += len(word)
            return
        self.i += 1
        for expected in word[1:]:
            if self.i >= self.n:
                break
            if self.s[self.i] != expected:
                self.fail_char()
            self.i += 1
        self.fail("EOS")

    def string(self) -> None:
        """Cursor just after the opening quote."""
        while True:
            if self.i >= self.n:
                self.fail(template="Unterminated string")
            ch = self.s[self.i]
            if ch == '"':
                self.i += 1
                return
            if ch == "\\":
                self.i += 1
                c = self.s[self.i] if self.i < self.n else None
                if c is None or ord(c) > 0xFF:
                    self.fail_char()
                if c in '"\\/bfnrt':
                    self.i += 1
                    continue
                if c == "u":
                    for _ in range(4):
                        self.i += 1
                        h = self.s[self.i] if self.i < self.n else ""
                        if not h or h not in "0123456789abcdefABCDEF":
                            self.fail(template="Bad Unicode escape")
                    self.i += 1
                    continue
                self.fail(template="Bad escaped character")
            if ord(ch) < 0x20:
                self.fail(template="Bad control character in string literal")
            self.i += 1

    def digit_at(self, i: int) -> bool:
        return i < self.n and "0" <= self.s[i] <= "9"

    def number(self) -> None:
        if self.s[self.i] == "-":
            self.i += 1
        if self.i < self.n and self.s[self.i] == "0":
            self.i += 1
            if self.digit_at(self.i):
                self.fail("NUMBER")
        else:
            if not self.digit_at(self.i):
                self.fail(template="No number after minus sign")
            while self.digit_at(self.i):
                self.i += 1
        if self.i < self.n and self.s[self.i] == ".":
            self.i += 1
            if not self.digit_at(self.i):
                self.fail(template="Unterminated fractional number")
            while self.digit_at(self.i):
                self.i += 1
        if self.i < self.n and self.s[self.i] in "eE":
            self.i += 1
            if self.i < self.n and self.s[self.i] in "+-":
                self.i += 1
            if not self.digit_at(self.i):
                self.fail(template="Exponent part is missing a number")
            while self.digit_at(self.i):
                self.i += 1


def _reject_constant(name: str) -> Any:
    raise V8JsonError(f"{name} is not valid JSON", None)


def js_json_parse(text: str) -> Any:
    """``JSON.parse(text)``: the value, or ``V8JsonError`` with Node 20's exact message."""
    from engine.jsondoc import loads_js

    _V8JsonScanner(text).scan()
    try:
        return loads_js(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:  # only nesting too deep for Python's parser gets here
        raise V8JsonError(f"{exc.msg} in JSON at position {exc.pos}", exc.pos) from None


# ---------------------------------------------------------------- loading

@dataclass(frozen=True)
class LoadOptions:
    custom_filters_enabled: bool = True
    trust_project_filters: bool = False

    @classmethod
    def from_config(cls, config: Mapping[str, Any] | None) -> LoadOptions:
        config = config or {}
        custom = config.get("customFiltersEnabled", True)
        trust = config.get("trustProjectFilters", False)
        return cls(custom if isinstance(custom, bool) else True, trust if isinstance(trust, bool) else False)


def default_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    environ = os.environ if environ is None else environ
    return Path(environ.get("DATA_DIR") or Path.home() / ".omniroute")


def custom_files(project_dir: str | os.PathLike[str] | None, data_dir: str | os.PathLike[str] | None
                 ) -> list[tuple[Source, Path]]:
    """(scope, path) of every custom filter file that exists, in collection order."""
    found: list[tuple[Source, Path]] = []
    if project_dir is not None:
        rtk = Path(project_dir) / ".rtk"
        found += [("project", rtk / "filters.toml"), ("project", rtk / "filters.json")]
    if data_dir is not None:
        rtk = Path(data_dir) / "rtk"
        found += [("global", rtk / "filters.toml"), ("global", rtk / "filters.json")]
    return [(scope, path) for scope, path in found if path.exists()]


def loader_diagnostic(scope: str, path: Path, message: str, level: Level = "warning",
                      code: str = "RTK-SOURCE") -> Diagnostic:
    return Diagnostic(message, level, code, path=str(path), source=scope, data={"format": format_of(path)})


def reference_dict(diagnostic: Diagnostic) -> JsonObject:
    """The ``filter`` command's diagnostic shape: ``{source, level, message, format?, file?}``."""
    out: JsonObject = {"source": diagnostic.source, "level": diagnostic.level, "message": diagnostic.message}
    if diagnostic.data.get("format"):
        out["format"] = diagnostic.data["format"]
    if diagnostic.path:
        out["file"] = diagnostic.path
    if diagnostic.code:
        out["code"] = diagnostic.code
    if diagnostic.line is not None:
        out["line"], out["column"] = diagnostic.line, diagnostic.column
    return out


def is_loader_diagnostic(diagnostic: Diagnostic) -> bool:
    return diagnostic.source in SCOPES


def _read_text(path: Path) -> str:
    """``readFileSync(path, "utf8")``."""
    return decode_like_node(read_file_bytes(path))


def _node_io_message(exc: OSError, path: Path) -> str:
    import errno

    code = errno.errorcode.get(exc.errno or 0, "EIO")
    return f"{code}: {(exc.strerror or 'i/o error').lower()}, open '{path}'"


def load_custom_file(scope: Source, path: Path, *, profile: str = "omniroute",
                     data: bytes | None = None) -> tuple[list[RtkFilter], list[Diagnostic]]:
    """One custom file → (filters, diagnostics); any failure skips the whole file (VT-Q8).

    ``data``: the bytes the trust decision was made on; they are what is parsed."""
    from engine.rtk.model import parse_filter_file

    fmt = format_of(path)
    try:
        text = _read_text(path) if data is None else decode_like_node(data)
    except OSError as exc:
        return [], [loader_diagnostic(scope, path, INVALID_CUSTOM + _node_io_message(exc, path))]
    if fmt == "rtk-toml-v1":
        return _load_toml(scope, path, text, profile)
    notes: list[Diagnostic] = []
    body = text
    if text.startswith("\ufeff"):
        if profile == "strict":
            body = text[1:]
        notes.append(Diagnostic(
            "the file starts with a UTF-8 byte-order mark, which JSON.parse rejects"
            + (": stripped before parsing" if profile == "strict" else ": OmniRoute skips the file"),
            "warning", "VT-Q3", path=str(path), line=1, column=1, source="rtk-sources"))
    try:
        document = js_json_parse(body)
    except V8JsonError as exc:
        diagnostic = loader_diagnostic(scope, path, INVALID_CUSTOM + str(exc))
        if exc.position is not None:
            from engine.diagnostics import position

            line, column = position(body, utf16_to_py_index(body, exc.position))
            diagnostic = diagnostic.with_location(line=line, column=column)
        return [], [diagnostic, *notes]
    filters, found = parse_filter_file(document, profile=profile, source=scope, path=str(path))
    diagnostics = list(notes)
    if any(d.pointer and d.line is None for d in found):  # hygiene notes: point at the pattern
        from engine.jsondoc import parse_json_text

        doc = parse_json_text(body, str(path))
        found = [doc.locate(d) if d.pointer and d.line is None else d for d in found]
    for diagnostic in found:
        if diagnostic.level == "error" and diagnostic.code in ("RTK-SCHEMA", "RTK-Q1", "RTK-Q3", "RTK-Q4"):
            diagnostics.append(replace(diagnostic, message=INVALID_CUSTOM + diagnostic.message, source=scope,
                                       level="warning", data={**diagnostic.data, "format": fmt}))
        else:
            diagnostics.append(diagnostic)
    return filters, diagnostics


def _load_toml(scope: Source, path: Path, text: str, profile: str) -> tuple[list[RtkFilter], list[Diagnostic]]:
    from engine.rtk.toml_io import TESTS_FAILED, TomlFilterError, parse_rtk_toml

    try:
        result = parse_rtk_toml(text, profile=profile)
    except TomlFilterError as exc:
        diagnostic = loader_diagnostic(scope, path, INVALID_CUSTOM + str(exc))
        if exc.line is not None:
            diagnostic = diagnostic.with_location(line=exc.line, column=exc.column)
        hint = [Diagnostic(exc.hint, "info", "VT-Q12", str(path), source="rtk-sources")] if exc.hint else []
        return [], [diagnostic, *hint]
    diagnostics: list[Diagnostic] = []
    if not result.passed:
        failing = [o for o in result.outcomes if not o.passed]
        if profile != "strict":
            diagnostics.append(loader_diagnostic(scope, path, INVALID_CUSTOM + TESTS_FAILED))
            diagnostics.append(Diagnostic(
                f"{len(failing)} failing inline test(s) reject every filter of the file "
                f"(first: {failing[0].filter_id} / {failing[0].test_name})", "info", "VT-Q9",
                path=str(path), source="rtk-sources"))
            return [], diagnostics
        for outcome in failing:
            diagnostics.append(loader_diagnostic(
                scope, path, f"inline test '{outcome.test_name}' of filter '{outcome.filter_id}' failed",
                level="error", code="VT-Q9"))
    diagnostics += [loader_diagnostic(scope, path, warning) for warning in result.warnings]
    diagnostics += [replace(note, path=str(path)) for note in result.notes]
    return [replace(f, source=scope, path=str(path)) for f in result.filters], diagnostics


def _load(builtin_dir: Path, project_dir: str | os.PathLike[str] | None, data_dir: Path, options: LoadOptions,
          environ: Mapping[str, str], profile: str) -> tuple[list[RtkFilter], list[Diagnostic], list[Diagnostic]]:
    """One load: (filters unsorted, reference diagnostics, notes)."""
    from engine.rtk.model import load_filter_dir

    filters: list[RtkFilter] = []
    diagnostics: list[Diagnostic] = []
    notes: list[Diagnostic] = []
    if options.custom_filters_enabled:
        for scope, path in custom_files(project_dir, data_dir):
            # one read: the bytes whose hash decides trust are the bytes parsed and applied, so a
            # file swapped between two reads can never run untrusted (issue 23, time of check/use)
            try:
                data: bytes | None = read_file_bytes(path)
            except InputRefused as refused:
                # a FIFO, device, socket, oversized file or symlink loop: say so, whatever trust
                # would have said, and never open it (the reference would hang on a FIFO)
                notes.append(Diagnostic(f"{scope} filter file {refused.strerror}", "error",
                                        refused.code, path=str(path), source="rtk-sources"))
                continue
            except OSError:
                data = None  # decide_trust says "unreadable"; load_custom_file reports the error
            if scope == "project":
                decision = decide_trust(path, trust_option=options.trust_project_filters, environ=environ,
                                        profile=profile, data=data)
                notes += decision.diagnostics
                if not decision.trusted:
                    diagnostics.append(loader_diagnostic(scope, path, decision.message or ""))
                    continue
            loaded, found = load_custom_file(scope, path, profile=profile, data=data)
            filters += loaded
            for diagnostic in found:
                (diagnostics if is_loader_diagnostic(diagnostic) else notes).append(diagnostic)
    builtin, found = load_filter_dir(builtin_dir, profile=profile, source="builtin")
    filters += builtin
    for diagnostic in found:
        if diagnostic.level == "error" and diagnostic.message.startswith("Invalid RTK filter "):
            diagnostics.append(replace(_v8_builtin_message(diagnostic), source="builtin",
                                       data={**diagnostic.data, "format": "omniroute-json"}))
        else:
            notes.append(diagnostic)
    return filters, diagnostics, notes


def _v8_builtin_message(diagnostic: Diagnostic) -> Diagnostic:
    """A built-in file that is not JSON: ``Invalid RTK filter <name>: <V8's JSON.parse message>``."""
    if not diagnostic.path or diagnostic.code != "RTK-LOAD":
        return diagnostic
    path = Path(diagnostic.path)
    try:
        js_json_parse(_read_text(path))
    except V8JsonError as exc:
        return replace(diagnostic, message=f"Invalid RTK filter {path.name}: {exc}")
    except OSError:
        pass
    return diagnostic


def collect_filters(builtin_dir: str | os.PathLike[str] | None = None,
                    project_dir: str | os.PathLike[str] | None = None,
                    data_dir: str | os.PathLike[str] | None = None,
                    config: Mapping[str, Any] | None = None,
                    environ: Mapping[str, str] | None = None,
                    profile: str = "omniroute", *, diagnostics_quirk: str = "VT-Q13"
                    ) -> tuple[list[RtkFilter], list[Diagnostic]]:
    """Every filter the engine may choose from, sorted, and the load diagnostics.

    ``data_dir`` None means ``DATA_DIR`` from ``environ`` (default ``~/.omniroute``); pass
    ``project_dir`` None for no project scope. ``config`` holds RtkConfig keys
    (``customFiltersEnabled``, ``trustProjectFilters``). Under ``omniroute`` the reported loader
    diagnostics are those of a load with default options, as OmniRoute's diagnostics API reloads
    that way (VT-Q13; the verify gate does the same, VT-Q7, hence ``diagnostics_quirk``); ``strict`` reports the diagnostics of the load actually used.
    """
    from engine.paths import builtin_filters_dir
    from engine.rtk.select import sort_filters

    environ = os.environ if environ is None else environ
    builtin = Path(builtin_dir) if builtin_dir is not None else builtin_filters_dir()
    data = Path(data_dir) if data_dir is not None else default_data_dir(environ)
    options = LoadOptions.from_config(config)
    filters, diagnostics, notes = _load(builtin, project_dir, data, options, environ, profile)
    if profile != "strict" and options != LoadOptions():
        _, default_diagnostics, _ = _load(builtin, project_dir, data, LoadOptions(), environ, profile)
        if _keys(default_diagnostics) != _keys(diagnostics):
            notes.append(Diagnostic(
                "the load diagnostics describe a load with default options (customFiltersEnabled on, "
                "project trust from trust.json only), not the options in use, as OmniRoute reports them",
                "info", diagnostics_quirk, source="rtk-sources"))
        diagnostics = default_diagnostics
    return sort_filters(filters, profile=profile), diagnostics + notes


def _keys(diagnostics: list[Diagnostic]) -> list[tuple[str | None, str, str]]:
    return [(d.source, d.level, d.message) for d in diagnostics]


# ---------------------------------------------------------------- authoring files (verify, export, trust)

@dataclass
class FilterFile:
    """One filter file read for authoring: its filters, the objects as written, and located errors."""

    path: Path
    format: str
    text: str
    filters: list[RtkFilter]
    objects: list[FilterObject] | None = None  # JSON: the filter objects as written
    toml: TomlParseResult | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(d.level == "error" for d in self.diagnostics)


def read_filter_file(path: str | os.PathLike[str], *, profile: str = "omniroute", source: Source = "builtin",
                     run_toml_tests: bool = False, data: bytes | None = None) -> FilterFile:
    """Read a ``*.json`` or ``*.toml`` filter file; every problem is a located diagnostic.

    ``data``: content already read (a trust snapshot, a git revision); the file is not read then."""
    from engine.diagnostics import position
    from engine.jsondoc import parse_json_text
    from engine.rtk.model import parse_filter_file
    from engine.rtk.toml_io import TomlFilterError, parse_rtk_toml

    file = Path(path)
    fmt = format_of(file)
    shown = str(file)
    try:
        text = _read_text(file) if data is None else decode_like_node(data)
    except OSError as exc:
        return FilterFile(file, fmt, "", [], diagnostics=[Diagnostic(
            f"cannot read file: {exc.strerror or exc}", "error", "io", shown, 1, 1, source="rtk")])
    if fmt == "rtk-toml-v1":
        try:
            result = parse_rtk_toml(text, run_tests=run_toml_tests, profile=profile)
        except TomlFilterError as exc:
            from engine.rtk.toml_io import error_position

            line, column = error_position(text, exc)  # the same place validate reports
            hint = [Diagnostic(exc.hint, "info", "VT-Q12", shown, source="rtk")] if exc.hint else []
            message = str(exc) + (f" ({exc.detail})" if exc.detail else "")  # (the hint has its own note)
            return FilterFile(file, fmt, text, [], diagnostics=[Diagnostic(
                message, "error", "RTK-TOML", shown, line, column, source="rtk"), *hint])
        filters = [replace(f, source=source, path=shown) for f in result.filters]
        warnings = [Diagnostic(w, "warning", "RTK-TOML", shown, source="rtk") for w in result.warnings]
        warnings += [replace(note, path=shown) for note in result.notes]
        return FilterFile(file, fmt, text, filters, toml=result, diagnostics=warnings)

    body = text[1:] if text.startswith("\ufeff") and profile == "strict" else text
    try:
        value = js_json_parse(body)
    except V8JsonError as exc:
        pos = utf16_to_py_index(body, exc.position) if exc.position is not None else len(body)
        line, column = position(body, pos)
        return FilterFile(file, fmt, text, [], diagnostics=[Diagnostic(
            str(exc), "error", "json-syntax", shown, line, column, source="json")])
    filters, found = parse_filter_file(value, profile=profile, source=source, path=shown)
    doc = parse_json_text(body, shown)
    located = []
    for d in found:
        issues = d.data.get("issues") if d.level == "error" else None
        if issues:  # one located diagnostic per zod issue; the reference's text stays in data
            located += [_locate_issue(doc, i, d, shown) for i in issues]
        else:
            located.append(doc.locate(d) if d.pointer is not None else d)
    objects = value if isinstance(value, list) else [value]
    return FilterFile(file, fmt, text, filters, objects=objects, diagnostics=located)


def _locate_issue(doc: JsonDocument, issue: dict[str, Any], d: Diagnostic, shown: str) -> Diagnostic:
    """One zod issue at its value — an unknown key at the key itself, where ``validate`` puts it."""
    pointer = issue["pointer"]
    diagnostic = Diagnostic(f"{pointer or '/'}: {issue['message']}", "error", d.code, shown, pointer=pointer,
                            source="rtk", data={"reference": d.message})
    if issue.get("code") == "unrecognized_keys" and '"' in issue["message"]:
        key = issue["message"].split('"')[1].replace("~", "~0").replace("/", "~1")
        located = doc.locate(diagnostic.with_location(pointer=f"{pointer}/{key}"), key=True)
        return located.with_location(pointer=pointer)
    return doc.locate(diagnostic)


def filter_files_in(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Expand folders into their ``*.json`` / ``*.toml`` files (sorted); keep files as given."""
    out: list[Path] = []
    for item in paths:
        p = Path(item)
        if p.is_dir():
            out += sorted((c for c in p.iterdir() if c.is_file() and c.suffix.lower() in (".json", ".toml")
                           and c.name != "trust.json" and not c.name.startswith(".")),
                          key=lambda c: js_sort_key(c.name))
        else:
            out.append(p)
    return out


# ---------------------------------------------------------------- caching (§3.3): OmniRoute keeps
# loaded filters per project and options, so an edited file is only re-read on refresh (VT-Q10, VT-Q13)

_Signature = tuple[tuple[str, int, int, str], ...]
_CacheKey = tuple[object, ...]


def _signature(paths: list[Path]) -> _Signature:
    """What the files look like now: (path, mtime_ns, size, sha256) for each that exists."""
    import hashlib

    from engine.fsutil import read_input_bytes

    out: list[tuple[str, int, int, str]] = []
    for path in paths:
        try:
            stat = path.stat()
            digest = hashlib.sha256(read_input_bytes(path)).hexdigest()
        except OSError:
            continue
        out.append((str(path), stat.st_mtime_ns, stat.st_size, digest))
    return tuple(out)


class FilterSourceCache:
    """OmniRoute's loaded-filter cache: keyed on (project, DATA_DIR, custom on/off, trust option,
    env-trust flag), so editing a file — even a trusted one — is invisible until a load with
    ``refresh=True`` (VT-Q10, reported when it happens). ``strict`` also keys on every custom
    file's and ``trust.json``'s mtime, size and hash, so trust is re-checked on every use.
    """

    def __init__(self, profile: str = "omniroute") -> None:
        self.profile = profile
        self._key: _CacheKey | None = None
        self._signature: _Signature = ()
        self._value: tuple[list[RtkFilter], list[Diagnostic]] | None = None

    def _watched(self, project_dir: str | os.PathLike[str] | None, data_dir: Path) -> list[Path]:
        paths = [p for _, p in custom_files(project_dir, data_dir)]
        if project_dir is not None:
            paths.append(Path(project_dir) / ".rtk" / "trust.json")
        return paths

    def load(self, builtin_dir: str | os.PathLike[str] | None = None,
             project_dir: str | os.PathLike[str] | None = None, data_dir: str | os.PathLike[str] | None = None,
             config: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None, *,
             refresh: bool = False) -> tuple[list[RtkFilter], list[Diagnostic]]:
        from engine.rtk.trust import env_trust_requested

        environ = os.environ if environ is None else environ
        data = Path(data_dir) if data_dir is not None else default_data_dir(environ)
        options = LoadOptions.from_config(config)
        key: _CacheKey = (str(builtin_dir), str(project_dir), str(data), options, env_trust_requested(environ))
        signature = _signature(self._watched(project_dir, data))
        if self.profile == "strict":
            key = (*key, signature)
        if not refresh and self._value is not None and key == self._key:
            filters, diagnostics = self._value
            if signature != self._signature:
                diagnostics = [*diagnostics, Diagnostic(
                    "project or global filter files (or trust.json) changed since they were loaded; OmniRoute "
                    "keeps applying the cached filters until a reload with refresh", "warning", "VT-Q10",
                    source="rtk-sources")]
            return list(filters), diagnostics
        value = collect_filters(builtin_dir, project_dir, data, config, environ, self.profile)
        self._key, self._signature, self._value = key, signature, value
        return list(value[0]), list(value[1])
