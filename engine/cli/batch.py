"""The ``--jsonl`` batch contract, written once for every command.

One JSON request per stdin line, exactly one JSON response per stdout line, in order. A request
that fails yields ``{"error": ...}`` and the batch goes on. Lone surrogates survive both ways:
``json`` reads ``\\udXXX`` escapes into lone surrogates and writes them back with
``ensure_ascii=True``.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable
from typing import Any

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def respond(handler: Handler, line: str) -> dict[str, Any]:
    """Answer one request line; raises only for a broken installation (ImportError)."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"request is not JSON: {exc}"}
    if not isinstance(request, dict):
        return {"error": "request must be a JSON object"}
    try:
        response = handler(request)
    except ImportError:
        raise  # a broken installation ends the batch (exit 2): no answer is better than a wrong one
    except (ValueError, KeyError, TypeError, LookupError, OSError) as exc:
        # the request was wrong: say what, in words (no Python class names)
        return {"error": str(exc).strip("'\"") or type(exc).__name__}
    except Exception as exc:  # a bug: one bad request must still not end the batch
        detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return {"error": f"internal error: {detail}"}
    return response if isinstance(response, dict) else {"result": response}


def run_jsonl(handler: Handler, stdin=None, stdout=None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for raw in stdin:
        line = raw.strip()
        if not line:
            continue
        response = respond(handler, line)
        try:
            text = json.dumps(response, ensure_ascii=True)
        except (TypeError, ValueError) as exc:
            text = json.dumps({"error": f"response not serialisable: {exc}"})
        stdout.write(text + "\n")
        stdout.flush()
    return 0
