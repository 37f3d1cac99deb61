"""An RTK TOML v1 document cut into the text spans of its filters, so a merge rewrites only the
filters it changes and every other byte (comments, spacing, key order) stays as it was.

Which text belongs to which filter:

* the **preamble** is everything up to the end of the last root key/value (``schema_version``,
  the comments before it and any on its line); it is kept verbatim;
* a **table span** runs from the end of the previous key/value (or table header) through its own
  header and body, so the blank lines and comments *between* two tables belong to the table that
  follows them (a section title above a filter travels with that filter);
* a filter owns every table under ``filters.ID`` (its ``[filters.ID]`` table and sub-tables such as
  ``[[filters.ID.replace]]``) and every ``[[tests.ID]]`` entry, wherever they stand;
* the **epilogue** — comments and blank lines after the last key/value — stays at the end of the
  file; new filters go before it, in export order.

A replaced filter keeps the blank lines and comments above its first ``filters.ID`` header and
gets its new table and tests there; comments inside its old body and above its other tables go with
the old text (the export plan lists the filter as replaced). A removed filter's spans go whole,
comments above them included. ``export_plan`` checks that the result loads as exactly the merged
filters before it is used. Documents this
cannot cut safely (``[filters]``/``[tests]`` parent tables, filters defined by dotted keys or inline
tables at the root, text that does not scan) raise ``SpanError`` saying why; callers rewrite the
whole file then, and say so.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

ROOT_NAMES = ("filters", "tests")


class SpanError(ValueError):
    """The document cannot be cut into filter spans safely (the message says why)."""


@dataclass
class Span:
    owner: str  # the filter id
    kind: str  # "filter" (a table under filters.ID) | "tests" (a [[tests.ID]] entry)
    start: int  # where its leading comments/blank lines begin
    header: int  # where its header begins
    end: int


@dataclass
class SpanDoc:
    text: str
    preamble_end: int
    spans: list[Span]
    epilogue_start: int

    def owners(self) -> list[str]:
        """Filter ids in the order their first ``filters.ID`` table appears."""
        seen: list[str] = []
        for s in self.spans:
            if s.kind == "filter" and s.owner not in seen:
                seen.append(s.owner)
        return seen

    def span_text(self, span: Span) -> str:
        return self.text[span.start:span.end]


# ---------------------------------------------------------------- scanning

def _skip_string(text: str, i: int) -> int:
    """``i`` at an opening quote; returns the index after the closing one."""
    n = len(text)
    quote = text[i]
    if text.startswith(quote * 3, i):
        k = i + 3
        while k < n:
            if quote == '"' and text[k] == "\\":
                k += 2
                continue
            if text.startswith(quote * 3, k):
                k += 3
                extra = 0
                while k < n and text[k] == quote and extra < 2:  # """a"""" ends with a quote inside
                    k += 1
                    extra += 1
                return k
            k += 1
        raise SpanError("a multi-line string is not closed")
    k = i + 1
    while k < n and text[k] != "\n":
        if quote == '"' and text[k] == "\\":
            k += 2
            continue
        if text[k] == quote:
            return k + 1
        k += 1
    raise SpanError("a string is not closed on its line")


def _statement_end(text: str, i: int) -> int:
    """End (after the newline) of the key/value or header starting at ``i``; brackets and braces
    may carry it over several lines, strings are skipped whole."""
    n, depth = len(text), 0
    while i < n:
        c = text[i]
        if c in "\"'":
            i = _skip_string(text, i)
            continue
        if c == "#":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        elif c == "\n" and depth <= 0:
            return i + 1
        i += 1
    return n


def _items(text: str) -> list[tuple[str, int, int]]:
    """``(kind, start, end)`` per line or statement: ``trivia`` (blank/comment), ``header``, ``kv``."""
    out, i, n = [], 0, len(text)
    while i < n:
        j = i
        while j < n and text[j] in " \t\r":
            j += 1
        if j >= n or text[j] in "\n#":
            end = text.find("\n", j)
            end = n if end < 0 else end + 1
            out.append(("trivia", i, end))
        else:
            end = _statement_end(text, j)
            out.append(("header" if text[j] == "[" else "kv", i, end))
        i = end
    return out


def _header_path(source: str) -> list[str]:
    try:
        node = tomllib.loads(source if source.endswith("\n") else source + "\n")
    except tomllib.TOMLDecodeError as exc:
        raise SpanError(f"cannot read the table header {source.strip()!r} ({exc})") from None
    path: list[str] = []
    while True:
        if isinstance(node, list):
            node = node[-1]
        if not isinstance(node, dict) or len(node) != 1:
            return path
        key = next(iter(node))
        path.append(key)
        node = node[key]


def split(text: str) -> SpanDoc:
    """Cut ``text`` into preamble, filter spans and epilogue (module docstring)."""
    spans: list[Span] = []
    preamble_end: int | None = None
    trivia_from: int | None = None
    for kind, start, end in _items(text):
        if kind == "trivia":
            if trivia_from is None:
                trivia_from = start
            continue
        if kind == "kv" and not spans:
            try:
                keys = tomllib.loads(text[start:end] if text[start:end].endswith("\n") else text[start:end] + "\n")
            except tomllib.TOMLDecodeError as exc:
                raise SpanError(f"cannot read the root key at offset {start} ({exc})") from None
            if any(k in ROOT_NAMES for k in keys):
                raise SpanError("filters or tests are defined by dotted keys or inline tables at the top level")
        if kind == "header":
            path = _header_path(text[start:end])
            if len(path) < 2 or path[0] not in ROOT_NAMES:
                raise SpanError(f"the table [{'.'.join(path)}] is not a [filters.ID] or [[tests.ID]] table")
            if path[0] == "tests" and len(path) != 2:
                raise SpanError(f"the table [{'.'.join(path)}] is nested inside a test")
            split_at = trivia_from if trivia_from is not None else start
            if spans:
                spans[-1].end = split_at
            else:
                preamble_end = split_at
            spans.append(Span(path[1], "filter" if path[0] == "filters" else "tests", split_at, start, end))
        trivia_from = None
    tail = trivia_from if trivia_from is not None else len(text)
    if spans:
        spans[-1].end = tail
    else:
        preamble_end = tail
    return SpanDoc(text, preamble_end or 0, spans, tail)


# ---------------------------------------------------------------- splicing

def _newline_of(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def _ends_line(parts: list[str], nl: str = "\n") -> None:
    if parts and parts[-1] and not parts[-1].endswith("\n"):
        parts.append(nl)


def splice(text: str, rendered: dict[str, str], *, drop: frozenset[str] | set[str] = frozenset(),
           order: list[str] | None = None) -> str:
    """The document with ``rendered`` filters (id → new TOML of its table and tests) put in place
    of the filters of the same id or appended, ``drop`` ids removed, everything else verbatim.

    ``order`` (the ids the result holds, in order) moves whole filters; without it every filter
    stays where it is and new ones follow the last table."""
    doc = split(text)
    nl = _newline_of(text)
    fresh = {fid: body.replace("\n", nl) if nl != "\n" else body for fid, body in rendered.items()}
    present = doc.owners()
    for s in doc.spans:
        if s.owner not in present:
            raise SpanError(f"tests of '{s.owner}' come without a [filters.{s.owner}] table")

    def filter_text(fid: str) -> str:
        """One existing filter: its spans verbatim, or its first table's comments + the new text."""
        parts: list[str] = []
        main = next(s for s in doc.spans if s.owner == fid and s.kind == "filter")
        for s in doc.spans:
            if s.owner != fid:
                continue
            if fid in fresh:
                if s is main:
                    parts.append(text[s.start:s.header] + fresh[fid])
            else:
                _ends_line(parts, nl)
                parts.append(doc.span_text(s))
        return "".join(parts)

    out = [text[:doc.preamble_end]]
    if order is None:
        done: set[str] = set()
        for s in doc.spans:
            if s.owner in drop:
                continue
            if s.owner in fresh:
                if s.owner not in done:
                    done.add(s.owner)
                    _ends_line(out, nl)
                    out.append(filter_text(s.owner))
                continue
            _ends_line(out, nl)
            out.append(doc.span_text(s))
        new_ids = [fid for fid in fresh if fid not in present]
    else:
        for fid in order:
            if fid in present:
                _ends_line(out, nl)
                out.append(filter_text(fid))
        new_ids = [fid for fid in order if fid not in present]
    for fid in new_ids:
        _ends_line(out, nl)
        out.append(nl + fresh[fid])
    epilogue = text[doc.epilogue_start:]
    if epilogue:
        _ends_line(out, nl)
        out.append(epilogue)
    return "".join(out)
