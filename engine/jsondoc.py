"""JSON text with positions: parse a file, report problems at ``line:col``, locate pointers.

Neither ``json`` nor ``jsonschema`` knows where a value sits in the file. A ``JsonDocument``
keeps the text, parses it the way OmniRoute's ``JSON.parse`` would (no BOM, no NaN, last
duplicate key wins — reported), and maps RFC 6901 pointers to 1-based line and UTF-16 column
with ``json-source-map`` (computed lazily: most files are never asked).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from engine.diagnostics import Diagnostic, Level, position
from engine.fsutil import InputRefused, limit_words, max_input_bytes, read_input_bytes

if TYPE_CHECKING:
    from collections.abc import Iterable

    from engine.jsontree import LineIndex

MAX_DEPTH = 256


class _Location(Protocol):
    """A point of ``json_source_map`` (an untyped library): what ``span`` reads of it."""

    @property
    def position(self) -> int: ...


class _Entry(Protocol):
    """Where one pointer's key and value sit, as ``json_source_map.calculate`` maps them."""

    @property
    def key_start(self) -> _Location | None: ...
    @property
    def key_end(self) -> _Location: ...
    @property
    def value_start(self) -> _Location: ...
    @property
    def value_end(self) -> _Location: ...


def escape_pointer_token(token: object) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer_of(path: Iterable[object]) -> str:
    """RFC 6901 pointer for a sequence of keys/indices (``jsonschema``'s ``absolute_path``)."""
    return "".join("/" + escape_pointer_token(p) for p in path)


class _DuplicateKeys:
    """``object_pairs_hook`` that keeps JSON.parse's last-wins rule and remembers duplicates."""

    def __init__(self) -> None:
        self.found: list[str] = []

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                self.found.append(key)
            out[key] = value  # JS: the key keeps its first position, the last value wins
        return out


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _js_int(digits: str) -> int | float:
    """An integer literal as JSON.parse reads it: a long one can only be a double anyway
    (10^400 → ``inf``, as JavaScript's Infinity) — and Python's int-string limit (4,300 digits)
    and int → float overflow never reach the engines."""
    return int(digits) if len(digits.lstrip("-")) <= 300 else float(digits)


def loads_js(text: str, **kwargs: Any) -> Any:
    """``json.loads`` that reads numbers as JSON.parse does and never raises anything but
    ``json.JSONDecodeError`` (a ``ValueError`` with ``lineno``/``colno``) for bad text: a
    5,000-digit integer is a double, nesting too deep for Python's parser is an error at the
    offset where it gets too deep (found only after the parse failed: no cost on good text)."""
    kwargs.setdefault("parse_int", _js_int)
    try:
        return json.loads(text, **kwargs)
    except RecursionError:
        at = depth_exceeds(text, MAX_DEPTH) or 0
        raise json.JSONDecodeError(f"nesting deeper than {MAX_DEPTH} levels", text, at) from None


def depth_exceeds(text: str, limit: int) -> int | None:
    """Offset where bracket nesting first exceeds ``limit`` (strings skipped), else None."""
    depth = 0
    in_string = False
    escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return i
        elif ch in "]}":
            depth -= 1
    return None


@dataclass
class JsonDocument:
    text: str
    path: str | None = None
    value: Any = None
    ok: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _map: dict[str, _Entry] | None = field(default=None, repr=False)
    _lines: LineIndex | None = field(default=None, repr=False)

    def position(self, index: int) -> tuple[int, int]:
        """1-based (line, UTF-16 column) of code-point ``index``: O(log n) over a line index built
        once, so locating thousands of diagnostics stays linear in the text (issue 23 #8)."""
        if self._lines is None:
            from engine.jsontree import LineIndex

            self._lines = LineIndex(self.text)
        return self._lines.position(index)

    # -- locating ---------------------------------------------------------------------------
    def _source_map(self) -> dict[str, _Entry]:
        if self._map is None:
            import json_source_map  # only when a position is asked for: keeps CLI start-up light

            try:
                self._map = json_source_map.calculate(self.text.lstrip("\ufeff")) if self.ok else {}
            except (RecursionError, Exception):  # the map is a convenience; never fail on it
                self._map = {}
        return self._map

    def _offset_shift(self) -> int:
        return 1 if self.text.startswith("\ufeff") else 0

    def span(self, pointer: str, *, key: bool = False) -> tuple[int, int] | None:
        """Code-point (start, end) of the value (or of its key) at ``pointer``."""
        entry = self._source_map().get(pointer)
        while entry is None and pointer:
            pointer = pointer.rsplit("/", 1)[0]
            entry = self._source_map().get(pointer)
        if entry is None:
            return None
        shift = self._offset_shift()
        if key and entry.key_start is not None:
            return entry.key_start.position + shift, entry.key_end.position + shift
        return entry.value_start.position + shift, entry.value_end.position + shift

    def locate(self, diagnostic: Diagnostic, *, key: bool = False) -> Diagnostic:
        """Fill path, line and column of a diagnostic from its pointer."""
        changes: dict[str, Any] = {}
        if diagnostic.path is None and self.path is not None:
            changes["path"] = self.path
        if diagnostic.line is None:
            span = self.span(diagnostic.pointer or "", key=key or bool(diagnostic.data.get("at_key")))
            offset = diagnostic.data.get("valueOffset")
            if span is not None and isinstance(offset, int) and not key:
                span = string_char_span(self.text, span, offset) or span
            if span is not None:
                changes["line"], changes["column"] = self.position(span[0])
                changes["end_line"], changes["end_column"] = self.position(span[1])
            else:
                changes["line"], changes["column"] = 1, 1
        return diagnostic.with_location(**changes) if changes else diagnostic

    def error_at(self, index: int, message: str, code: str, level: Level = "error") -> Diagnostic:
        line, column = position(self.text, index)
        return Diagnostic(message, level, code, self.path, line, column, source="json")


def pattern_error_data(pattern: str, flags: str) -> dict[str, int]:
    """A diagnostic's ``data`` placing it, through ``JsonDocument.locate``, at the character of
    ``pattern`` (a string value) that ``new RegExp`` fails on; {} when it compiles."""
    from engine.jsregex import syntax_error

    error = syntax_error(pattern, flags)
    return {} if error is None or error.offset is None else {"valueOffset": error.offset}


def string_char_span(text: str, span: tuple[int, int], offset: int) -> tuple[int, int] | None:
    """Where, in ``text``, the string literal at ``span`` writes the character at UTF-16
    ``offset`` of its value (an escape such as ``\\[`` or ``\\u005b`` as a whole; past the
    value's end, the closing quote): a regex error's exact column in a file. None when ``span``
    is no string literal."""
    start, end = span
    if not (0 <= start < end <= len(text)) or text[start] != '"':
        return None
    at, to = escaped_char_span(text, start + 1, end - 1, offset)
    return (at, to) if at < end - 1 else (end - 1, end)


def escaped_char_span(text: str, start: int, end: int, offset: int) -> tuple[int, int]:
    """Where the body ``text[start:end]`` of a string literal writes the character at UTF-16
    ``offset`` of its value, escapes being a backslash and one character, ``\\uXXXX`` or
    ``\\UXXXXXXXX`` (JSON's strings, and TOML's basic ones); ``(end, end)`` past its end."""
    i, units = start, 0
    while i < end:
        escape = text[i] == "\\"
        step = 1 if not escape else 6 if text[i + 1:i + 2] == "u" else 10 if text[i + 1:i + 2] == "U" else 2
        if units >= offset:
            return i, min(i + step, end)
        point = int(text[i + 2:i + step], 16) if step == 10 else ord(text[i]) if not escape else 0
        units += 2 if point > 0xFFFF else 1
        i += step
    return end, end


def parse_json_text(text: str, path: str | None = None) -> JsonDocument:
    """Parse ``text`` as OmniRoute would; problems become located diagnostics, never raised."""
    doc = JsonDocument(text=text, path=path)
    body = text
    if text.startswith("\ufeff"):
        doc.diagnostics.append(doc.error_at(
            0, "file starts with a UTF-8 byte-order mark; OmniRoute's JSON.parse rejects it", "json-bom"))
        body = text[1:]
    if not body.strip():
        doc.diagnostics.append(doc.error_at(len(text), "empty file: expected a JSON value", "json-empty"))
        return doc
    too_deep = depth_exceeds(body, MAX_DEPTH)
    if too_deep is not None:
        doc.diagnostics.append(doc.error_at(
            too_deep + doc._offset_shift(), f"nesting deeper than {MAX_DEPTH} levels", "json-depth"))
        return doc
    duplicates = _DuplicateKeys()
    try:
        doc.value = loads_js(body, object_pairs_hook=duplicates, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        doc.diagnostics.append(doc.error_at(exc.pos + doc._offset_shift(), f"JSON syntax error: {exc.msg}", "json-syntax"))
        return doc
    except ValueError as exc:
        doc.diagnostics.append(doc.error_at(0, f"JSON syntax error: {exc}", "json-syntax"))
        return doc
    except RecursionError:
        doc.diagnostics.append(doc.error_at(0, "nesting too deep to parse", "json-depth"))
        return doc
    doc.ok = True
    for key in dict.fromkeys(duplicates.found):
        doc.diagnostics.extend(_locate_duplicate(doc, key))
    return doc


def _locate_duplicate(doc: JsonDocument, key: str) -> list[Diagnostic]:
    token = "/" + escape_pointer_token(key)
    pointers = [p for p in doc._source_map() if p.endswith(token)] or [token]
    return [doc.locate(Diagnostic(
        f'duplicate key "{key}": JSON.parse keeps only the last one', "warning", "json-duplicate-key",
        pointer=p, source="json", data={"at_key": True})) for p in pointers[:1]]


def read_json_file(path: str | os.PathLike[str], *, max_bytes: int | None = None) -> JsonDocument:
    """Read and parse a JSON file; every way a file can be bad becomes a diagnostic."""
    text, problems = read_text_file(path, max_bytes=max_bytes)
    if text is None:
        doc = JsonDocument(text="", path=str(path))
        doc.diagnostics.extend(problems)
        return doc
    doc = parse_json_text(text, str(path))
    doc.diagnostics[:0] = problems
    return doc


def read_text_file(path: str | os.PathLike[str], *, max_bytes: int | None = None
                   ) -> tuple[str | None, list[Diagnostic]]:
    """Read a text file as UTF-8 through the bounded reader. Returns (text or None, diagnostics)."""
    shown = str(path)
    try:
        data = read_input_bytes(path, max_bytes=max_bytes)
    except OSError as exc:
        return None, [refusal_diagnostic(exc, shown)]
    return decode_text(data, shown, max_bytes=max_bytes)


def refusal_diagnostic(exc: OSError, shown: str) -> Diagnostic:
    """A file that could not be read (missing, a FIFO, too large, a symlink loop) at ``shown:1:1``."""
    code = exc.code if isinstance(exc, InputRefused) else "io"
    message = exc.strerror or str(exc)
    if code in ("io", "symlink-loop") and not message.startswith("is a folder"):
        message = f"cannot read: {message}"
    return Diagnostic(message, "error", code, shown, 1, 1)


def decode_text(data: bytes, shown: str, *, max_bytes: int | None = None) -> tuple[str | None, list[Diagnostic]]:
    """Decode bytes read from a file or standard input as UTF-8, as ``read_text_file`` does.

    Binary data (a NUL byte) and oversized input give ``None``; invalid UTF-8 is decoded with
    U+FFFD replacements (what OmniRoute reads) and reported as an error.
    """
    limit = max_input_bytes() if max_bytes is None else max_bytes
    if len(data) > limit:
        return None, [Diagnostic(f"input is {len(data) / 1048576:.1f} MB; {limit_words(limit)}",
                                 "error", "file-too-large", shown, 1, 1)]
    nul = data.find(b"\x00")
    if nul >= 0:
        line, column = position(data[:nul].decode("utf-8", "replace"), nul)
        return None, [Diagnostic(f"binary file (NUL byte at offset {nul}); expected UTF-8 text",
                                 "error", "binary", shown, line, column)]
    problems: list[Diagnostic] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start].decode("utf-8", "replace")
        line, column = position(prefix, len(prefix))
        problems.append(Diagnostic(
            f"invalid UTF-8 (byte 0x{data[exc.start]:02x}); OmniRoute reads it with U+FFFD replacements",
            "error", "utf8", shown, line, column))
        text = data.decode("utf-8", "replace")
    return text, problems
