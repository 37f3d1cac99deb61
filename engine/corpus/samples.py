"""A corpus as a stream of samples, read one file (or one JSONL line) at a time.

A corpus is any mix of:

* folders, walked in name order (hidden entries skipped);
* JSONL files (``.jsonl``/``.ndjson``): one chat request body per line (OpenAI Chat,
  Responses, Anthropic Messages), or ``{"text": ...}`` for prose, or
  ``{"command": ..., "output": ...}`` for a command output;
* JSON files (``.json``): one chat body, or an array of them;
* any other file: a command output when a sidecar ``<stem>.cmd`` names its command (as the
  example workspace does) or when its first line is ``$ command``; prose otherwise.

Memory stays bounded whatever the corpus size: files are read one at a time, JSONL line by line,
and every read is capped by the same limit as every other input (``engine.fsutil``). What cannot
be read becomes a ``CorpusProblem`` in the stream, located ``path:line:col``, never an exception.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.corpus.bodies import body_format, to_messages
from engine.fsutil import (
    InputRefused,
    iter_bounded_lines,
    max_input_bytes,
    open_input_stream,
    read_input_bytes,
)

JSONL_SUFFIXES = (".jsonl", ".ndjson")
SIDECAR_SUFFIX = ".cmd"


@dataclass(frozen=True)
class Sample:
    """One unit of traffic: prose, a chat body (as ``{"messages": [...]}``) or a command output."""

    id: str
    kind: str  # "prose" | "chat" | "output"
    text: str = ""
    body: dict[str, Any] | None = None
    command: str | None = None
    format: str = "text"  # the chat body's wire format, or "text"


@dataclass(frozen=True)
class CorpusProblem:
    """A file or line that could not be read as a sample; the run goes on without it."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: error: {self.message}"


Item = Sample | CorpusProblem


def iter_corpus(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Item]:
    """Every sample of every path, in a stable order (so two runs number samples alike)."""
    for path in paths:
        root = Path(path)
        if root.is_dir():
            for entry in _walk(root):
                if isinstance(entry, CorpusProblem):
                    yield entry
                else:
                    yield from _file_items(entry)
        elif root.exists():
            yield from _file_items(root)
        else:
            yield CorpusProblem(f"{root}:1:1", "no such file or folder")


def _walk(root: Path) -> Iterator[Path | CorpusProblem]:
    try:
        entries = sorted(root.iterdir(), key=lambda p: p.name)
    except OSError as exc:
        yield CorpusProblem(f"{root}:1:1", f"cannot list the folder: {exc.strerror or exc}")
        return
    # stems of files that a sidecar ``<stem>.cmd`` can belong to (``deploy.log`` -> ``deploy``)
    partners = {e.name.rsplit(".", 1)[0] for e in entries if "." in e.name and not e.name.endswith(SIDECAR_SUFFIX)}
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if entry.is_dir() and not entry.is_symlink():
            yield from _walk(entry)
        elif entry.name.endswith(SIDECAR_SUFFIX) and entry.name[: -len(SIDECAR_SUFFIX)] in partners:
            continue  # a sidecar: read with its output file
        else:
            yield entry


def _file_items(file: Path) -> Iterator[Item]:
    name = file.name.lower()
    if name.endswith(JSONL_SUFFIXES):
        yield from _jsonl_items(file)
        return
    try:
        data = read_input_bytes(file)
    except OSError as exc:
        yield CorpusProblem(f"{file}:1:1", exc.strerror or str(exc))
        return
    if b"\0" in data[:8192]:
        yield CorpusProblem(f"{file}:1:1", "binary file skipped")
        return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        yield CorpusProblem(f"{file}:1:{exc.start + 1}", "not UTF-8 text")
        return
    if name.endswith(".json"):
        yield from _json_items(file, text)
        return
    yield _text_sample(file, text)


def sidecar_command(path: str | os.PathLike[str]) -> str | None:
    """The command stored beside an output sample: the first line of ``<stem>.cmd``, without
    a leading ``$ `` prompt; None when there is no such file or it says nothing."""
    p = Path(path)
    sidecar = p.with_suffix(SIDECAR_SUFFIX)
    if sidecar == p:
        return None
    try:
        text = read_input_bytes(sidecar).decode("utf-8", "replace").strip()
    except OSError:
        return None
    return (text.splitlines()[0].removeprefix("$ ").strip() or None) if text else None


def _text_sample(file: Path, text: str) -> Sample:
    command = sidecar_command(file)
    if command is not None:
        return Sample(str(file), "output", text=text, command=command)
    if text.startswith("$ "):
        first, _, rest = text.partition("\n")
        return Sample(str(file), "output", text=rest, command=first[2:].strip() or None)
    return Sample(str(file), "prose", text=text)


def _json_items(file: Path, text: str) -> Iterator[Item]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        yield CorpusProblem(f"{file}:{exc.lineno}:{exc.colno}", f"not JSON: {exc.msg}")
        return
    except RecursionError:
        yield CorpusProblem(f"{file}:1:1", "JSON nested too deeply")
        return
    values = value if isinstance(value, list) else [value]
    for i, item in enumerate(values):
        yield _record_item(item, f"{file}" if len(values) == 1 and not isinstance(value, list) else f"{file}#{i}",
                           f"{file}:1:1")


def _jsonl_items(file: Path) -> Iterator[Item]:
    limit = max_input_bytes()
    try:
        handle = open_input_stream(file)
    except OSError as exc:
        yield CorpusProblem(f"{file}:1:1", exc.strerror or str(exc))
        return
    with handle:
        for number, raw in enumerate(iter_bounded_lines(handle, max_bytes=limit), start=1):
            if isinstance(raw, InputRefused):
                yield CorpusProblem(f"{file}:{number}:1", f"line longer than {limit} bytes skipped")
                continue
            if not raw.strip():
                continue
            where = f"{file}:{number}"
            try:
                value = json.loads(raw)
            except UnicodeDecodeError as exc:
                yield CorpusProblem(f"{where}:{exc.start + 1}", "not UTF-8 text")
                continue
            except json.JSONDecodeError as exc:
                yield CorpusProblem(f"{where}:{exc.colno}", f"not JSON: {exc.msg}")
                continue
            except (RecursionError, ValueError) as exc:
                yield CorpusProblem(f"{where}:1", f"unreadable JSON: {str(exc)[:200]}")
                continue
            yield _record_item(value, where, f"{where}:1")


def _record_item(value: Any, sample_id: str, where: str) -> Item:
    """A JSON record: a chat body, ``{"text": ...}`` prose, or ``{"command", "output"}``."""
    if isinstance(value, dict):
        if isinstance(value.get("output"), str):
            command = value.get("command")
            return Sample(sample_id, "output", text=value["output"], command=command if isinstance(command, str) else None)
        if isinstance(value.get("text"), str) and body_format(value) is None:
            return Sample(sample_id, "prose", text=value["text"])
        body = to_messages(value)
        if body is not None:
            return Sample(sample_id, "chat", body=body, format=body_format(value) or "openai-chat")
    return CorpusProblem(where, "not a chat body (messages or input), {\"text\"} or {\"command\", \"output\"}")
