"""A helper process for heavy checks: requests and answers as length-prefixed pickles on stdio.

The IDE validates whole workspaces (jsonschema plus the engines' own checks over thousands of
rules) in this process instead of a thread: in a thread, that work's garbage collections pause
the GUI thread too. Only functions of the ``engine`` package can be called. Run with
``python -m engine.workspace.worker`` (the desktop bundle starts it as
``rulewright --rulewright-worker``).
"""

from __future__ import annotations

import importlib
import os
import pickle
import sys
from collections.abc import Callable
from typing import IO, Any, BinaryIO

HEADER = 8


def write_message(out: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(len(data).to_bytes(HEADER, "big") + data)
    out.flush()


def read_message(inp: IO[bytes]) -> Any:
    """The next message, or raises EOFError when the other side has gone."""
    header = inp.read(HEADER)
    if len(header) < HEADER:
        raise EOFError
    size = int.from_bytes(header, "big")
    data = inp.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def resolve(name: str) -> Callable[..., Any]:
    module_name, _, qualname = name.partition(":")
    if not (module_name == "engine" or module_name.startswith("engine.")):
        raise PermissionError(f"the worker only runs engine functions, not {name}")
    target: object = importlib.import_module(module_name)
    for part in qualname.split("."):
        target = getattr(target, part)
    if not callable(target):
        raise TypeError(f"{name} is not a function")
    return target


def ping() -> int:
    """A no-op job: starting the helper early keeps its start-up out of the first real request."""
    return os.getpid()


def serve(inp: BinaryIO | None = None, out: BinaryIO | None = None) -> int:
    inp = inp or sys.stdin.buffer
    out = out or sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the answer stream
    while True:
        try:
            name, args = read_message(inp)
        except EOFError:
            return 0
        try:
            answer = (True, resolve(name)(*args))
        except Exception as exc:  # reported to the caller; the worker keeps serving
            answer = (False, f"{type(exc).__name__}: {exc}")
        write_message(out, answer)


if __name__ == "__main__":
    sys.exit(serve())
