"""The ``--jsonl`` batch contract, written once for every command.

One JSON request per stdin line, exactly one JSON response per stdout line, in order. A request
that fails yields ``{"error": ...}`` and the batch goes on — whatever the line holds: bytes that
are not UTF-8, a line over the input limit (``RULEWRIGHT_MAX_FILE_MB``, skipped in bounded
pieces, never held whole), nesting deeper than Python's parser goes, integers too long for
Python's int-string limit (read as doubles, as JSON.parse does). Lone surrogates survive both
ways: ``json`` reads ``\\udXXX`` escapes into lone surrogates and writes them back with
``ensure_ascii=True``.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable, Iterator
from typing import Any, TextIO

Handler = Callable[[dict[str, Any]], dict[str, Any]]

ERROR_CHARS = 2000  # an error never echoes a multi-megabyte pattern or value whole


def clip(text: str, limit: int = ERROR_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more characters)"


def _parse_request(line: str) -> tuple[Any, str | None]:
    """The request, read as JSON.parse reads it (a 5,000-digit integer is a double), or why not."""
    from engine.jsondoc import loads_js

    try:
        return loads_js(line), None
    except json.JSONDecodeError as exc:
        return None, f"request is not JSON: {exc}"


def respond(handler: Handler, line: str) -> dict[str, Any]:
    """Answer one request line; raises only for a broken installation (ImportError)."""
    request, problem = _parse_request(line)
    if problem is not None:
        return {"error": clip(problem)}
    if not isinstance(request, dict):
        return {"error": "request must be a JSON object"}
    try:
        response = handler(request)
    except ImportError:
        raise  # a broken installation ends the batch (exit 2): no answer is better than a wrong one
    except (ValueError, KeyError, TypeError, LookupError, OSError, ArithmeticError) as exc:
        # the request was wrong: say what, in words (no Python class names)
        return {"error": clip(_words(exc))}
    except RecursionError:
        return {"error": "request is nested too deeply to process"}
    except Exception as exc:  # a bug: one bad request must still not end the batch
        detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return {"error": clip(f"internal error: {detail}")}
    return response if isinstance(response, dict) else {"result": response}


def _words(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return str(exc).strip("'\"") or type(exc).__name__


def _lines(stdin: TextIO) -> Iterator[tuple[str | None, str | None]]:
    """(request text, None) or (None, why the line cannot be read) for each input line."""
    from engine.fsutil import InputRefused, iter_bounded_lines, max_input_bytes

    buffer = getattr(stdin, "buffer", None)
    if buffer is not None:
        for number, raw in enumerate(iter_bounded_lines(buffer), 1):
            if isinstance(raw, InputRefused):
                yield None, f"line {number}: {raw.strerror}"
                continue
            try:
                yield raw.decode("utf-8"), None
            except UnicodeDecodeError as exc:
                yield None, (f"line {number}: not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset "
                             f"{exc.start}); requests are UTF-8 JSON")
        return
    # a text stream (tests, embedding): the same limit, counted in characters
    limit = max_input_bytes()
    number = 0
    while True:
        text = stdin.readline(limit + 1)
        if not text:
            return
        number += 1
        if len(text) > limit and not text.endswith("\n"):
            while text and not text.endswith("\n"):
                text = stdin.readline(1 << 20)
            yield None, f"line {number}: longer than the input limit of {limit} bytes (set RULEWRIGHT_MAX_FILE_MB)"
            continue
        yield text, None


def _dumps_line(response: dict[str, Any]) -> str:
    """One answer line; ±Infinity/NaN become null, as JSON.stringify writes them (never invalid JSON)."""
    from engine.cli.common import finite_json

    try:
        return json.dumps(response, ensure_ascii=True, allow_nan=False)
    except ValueError:
        return json.dumps(finite_json(response), ensure_ascii=True, allow_nan=False)


JSON_WHITESPACE = " \t\r\n"  # what JSON (and so the batch contract) counts as blank; str.strip() strips more


def run_jsonl(handler: Handler, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for raw, problem in _lines(stdin):
        if problem is not None:
            response: dict[str, Any] = {"error": problem}
        else:
            assert raw is not None  # (_lines gives a request text or a reason, never neither)
            line = raw.strip(JSON_WHITESPACE)  # a line of U+00A0 is not blank: JSON.parse refuses it
            if not line:
                continue
            response = respond(handler, line)
        try:
            text = _dumps_line(response)
        except (TypeError, ValueError, RecursionError) as exc:
            text = json.dumps({"error": clip(f"response not serialisable: {exc}")})
        stdout.write(text + "\n")
        stdout.flush()
    return 0
