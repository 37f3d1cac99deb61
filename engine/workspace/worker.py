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
from typing import Any, BinaryIO

HEADER = 8


def write_message(out: BinaryIO, value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(len(data).to_bytes(HEADER, "big") + data)
    out.flush()


def read_message(inp: BinaryIO) -> Any:
    """The next message, or raises EOFError when the other side has gone."""
    header = inp.read(HEADER)
    if len(header) < HEADER:
        raise EOFError
    size = int.from_bytes(header, "big")
    data = inp.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def resolve(name: str):
    module_name, _, qualname = name.partition(":")
    if not (module_name == "engine" or module_name.startswith("engine.")):
        raise PermissionError(f"the worker only runs engine functions, not {name}")
    target: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        target = getattr(target, part)
    return target


def ping() -> int:
    """A no-op job: starting the helper early keeps its start-up out of the first real request."""
    return os.getpid()


HELPER_NICENESS = 10


def yield_cpu_to_the_gui() -> None:
    """Run this helper at a lower CPU priority than the IDE that started it.

    The helpers validate and preview multi-megabyte files for seconds; on a 2-core machine the
    GUI process then waited for a core too (a wall-clock stall with little CPU used). At nice 10
    the scheduler lets the GUI thread run as soon as it wakes; an idle GUI leaves the helper the
    whole core.
    """
    try:
        os.nice(HELPER_NICENESS)
    except (AttributeError, OSError):  # no nice() on this platform: run at normal priority
        pass


def serve(inp: BinaryIO | None = None, out: BinaryIO | None = None) -> int:
    if inp is None and out is None:  # the helper process itself (not a test serving pipes)
        yield_cpu_to_the_gui()
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
