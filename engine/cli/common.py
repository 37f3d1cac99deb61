"""Helpers the command modules share: argument order and reading the one input text.

``allow_intermixed`` lets positionals and options come in any order (``rulewright regex PAT
--flags g FILE``, ``rulewright validate a.json --json b.json``): plain argparse binds every
optional positional at the first positional it meets and then calls later ones "unrecognized".

``read_input`` reads a FILE or ``-`` (standard input) the same way for every command: missing
file, folder, oversized, binary and invalid UTF-8 input all become located diagnostics, and an
interactive terminal on standard input is refused instead of waiting silently.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
STDIN_NAME = "<stdin>"


class _IntermixedParser(argparse.ArgumentParser):
    """An ArgumentParser whose ``parse_known_args`` accepts positionals between options."""

    _intermixing = False

    def parse_known_args(  # type: ignore[override]  # (typeshed overloads on the namespace type; one shape here)
            self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None,
    ) -> tuple[argparse.Namespace, list[str]]:
        # parse_known_intermixed_args calls back into parse_known_args; and it mishandles "--"
        # (Python 3.11), which a user writes precisely to pass a PATTERN such as "-[0-9]+": parse plainly then
        if self._intermixing:
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            if args is not None and "--" in args:
                parsed, extras = super().parse_known_args(args, namespace)
            else:
                parsed, extras = self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False
        if extras:
            # said here, with this command's usage and name, rather than by the top-level parser
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def allow_intermixed(parser: argparse.ArgumentParser) -> None:
    """Let this (sub)parser take its positionals anywhere among its options."""
    if type(parser) is argparse.ArgumentParser:
        parser.__class__ = _IntermixedParser


def usage_error(command: str, message: str) -> int:
    print(f"rulewright {command}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def read_input(name: str | None, command: str) -> tuple[str | None, str, int]:
    """Read FILE or standard input (``-`` or None) as UTF-8 text.

    Returns ``(text, shown_name, exit_code)``. ``text`` is None when nothing usable was read;
    the reasons are already printed as ``path:line:col: error: ...``. Invalid UTF-8 still
    yields the replaced text (what OmniRoute would see) with exit code 1 so callers can go on
    and still fail.
    """
    from engine.jsondoc import decode_text, read_text_file, refusal_diagnostic

    if name in (None, "-"):
        stdin = sys.stdin
        if stdin is None or _is_terminal(stdin):
            usage_error(command, "no input: give a FILE, or pipe text to standard input")
            return None, STDIN_NAME, EXIT_USAGE
        shown = STDIN_NAME
        try:
            data = read_stdin_bytes(stdin, shown)
        except OSError as exc:
            print(refusal_diagnostic(exc, shown).format(), file=sys.stderr)
            return None, shown, EXIT_PROBLEMS
        text, problems = decode_text(data, shown)
    else:
        shown = name
        text, problems = read_text_file(name)
    for diagnostic in problems:
        print(diagnostic.format(), file=sys.stderr)
    failed = any(d.level == "error" for d in problems)
    return text, shown, EXIT_PROBLEMS if failed else EXIT_OK


def read_stdin_bytes(stdin: TextIO, shown: str = STDIN_NAME) -> bytes:
    """Standard input's bytes, at most the input limit (endless input is refused, not swallowed)."""
    from engine.fsutil import read_stream_bytes

    if hasattr(stdin, "buffer"):
        return read_stream_bytes(stdin.buffer, shown)
    # a text stream (tests, embedding): bounded the same way, in characters
    from engine.fsutil import max_input_bytes, too_large

    limit = max_input_bytes()
    text = stdin.read(limit + 1)
    if len(text) > limit:
        raise too_large(shown, limit)
    return text.encode("utf-8", "surrogateescape")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def terminal_bar(total: int | Callable[[], int], desc: str, *, unit: str = "B", delay: float = 0.0,
                 leave: bool = True) -> Any:
    """A progress bar on standard error (rate and time left), or None where that is no
    terminal: a pipe or a CI log gets no bar (``total``: a callable is asked only for a bar).
    ``delay``: seconds before it is drawn at all (a quick run draws none); ``leave``: keep it on
    screen when done."""
    if not _is_terminal(sys.stderr):
        return None
    from tqdm import tqdm

    return tqdm(total=total() if callable(total) else total, unit=unit, unit_scale=True, file=sys.stderr, desc=desc, dynamic_ncols=True,
                delay=delay, leave=leave)


FieldCheck = tuple[tuple[type, ...] | Callable[[Any], bool], str]


def request_problem(request: Mapping[str, Any], fields: Mapping[str, FieldCheck]) -> str | None:
    """The first present key (in ``fields`` order) whose value has the wrong JSON type, said in
    words, so a ``--jsonl`` request gets an answer instead of a Python error deep inside.

    Each key maps to the accepted Python types (``bool`` counts only where listed: JSON ``true``
    is not a number) or to a test of the value, and the words that name what was expected.
    """
    for key, (accepts, words) in fields.items():
        if key not in request:
            continue
        value = request[key]
        if callable(accepts):
            ok = accepts(value)
        else:
            ok = isinstance(value, accepts) and not (isinstance(value, bool) and bool not in accepts)
        if not ok:
            return f"{json.dumps(key)} must be {words}"
    return None


def dumps_json(value: object, *, indent: int | None = None) -> str:
    """JSON text for stdout: non-ASCII kept readable, lone surrogates escaped as ``\\udXXX``.

    JavaScript strings (chat bodies, arguments, regex input) may hold lone surrogates; UTF-8
    cannot encode them, so ``ensure_ascii=False`` output would crash the write. Escaping them is
    what well-formed ``JSON.stringify`` does, and the result is still valid JSON.
    """
    try:
        text = json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)
    except ValueError:  # ±Infinity / NaN (a 1e308 context window × 10): JSON.stringify writes null
        text = json.dumps(finite_json(value), ensure_ascii=False, indent=indent, allow_nan=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def finite_json(value: object) -> object:
    """``value`` with non-finite floats as None (JSON.stringify's null)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: finite_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite_json(v) for v in value]
    return value


def printable(text: str) -> str:
    """Plain text for stdout: a lone surrogate (not encodable as UTF-8) becomes U+FFFD."""
    return _LONE_SURROGATE.sub("\ufffd", text)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
