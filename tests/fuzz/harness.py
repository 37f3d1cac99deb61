"""Run one ``rulewright`` command in-process with captured standard streams, and judge it.

In-process (``engine.cli.main``) rather than a subprocess: a fuzz budget of a minute buys a few
thousand runs instead of a few hundred. A run that raises out of ``main`` is exactly what a user
would see as a traceback, so it is recorded with the traceback text. A run that takes longer than
``HANG_SECONDS`` is interrupted (SIGALRM) and recorded as a hang.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import traceback
from contextlib import contextmanager
from dataclasses import dataclass

HANG_SECONDS = 20.0


class Hang(BaseException):
    """Raised by the alarm inside a run that overran its time (BaseException: not caught as a bug)."""


@dataclass
class Outcome:
    argv: list[str]
    code: int | None
    out: str
    err: str
    crash: str | None = None  # the traceback, when main raised

    def problems(self, *, json_out: bool = False) -> list[str]:
        """What breaks the contract: a traceback, an exit code outside {0, 1, 2}, bad JSON output."""
        found = []
        if self.crash:
            found.append(f"traceback: {self.crash.strip().splitlines()[-1]}")
        if "Traceback (most recent call last)" in self.err:
            found.append("traceback printed on stderr")
        if self.code not in (0, 1, 2):
            found.append(f"exit code {self.code}")
        if json_out and self.code in (0, 1) and self.out.strip():
            try:
                json.loads(self.out, parse_constant=_not_json)
            except ValueError as exc:
                found.append(f"--json output is not JSON: {exc}")
        if "--jsonl" in self.argv:
            for line in self.out.splitlines():
                try:
                    value = json.loads(line, parse_constant=_not_json)
                except ValueError as exc:
                    found.append(f"--jsonl line is not JSON: {exc}")
                    break
                if isinstance(value, dict) and "internal error" in str(value.get("error", "")):
                    found.append(f"--jsonl internal error: {str(value['error'])[:200]}")
                    break
        return found


def _not_json(name: str):
    raise ValueError(f"{name} is not JSON")


@contextmanager
def _env(changes: dict[str, str] | None):
    old = {k: os.environ.get(k) for k in changes or {}}
    os.environ.update(changes or {})
    try:
        yield
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


class _Keep(io.BytesIO):
    """A capture buffer that outlives its text wrapper (a dropped wrapper closes what it wraps)."""

    def close(self) -> None:
        pass


def _on_alarm(_signum, _frame):
    raise Hang()


def run_cli(argv: list[str], stdin: bytes = b"", env: dict[str, str] | None = None,
            hang_seconds: float = HANG_SECONDS) -> Outcome:
    """``rulewright ARGV`` in this process, standard streams captured (UTF-8, as PYTHONIOENCODING=utf-8)."""
    from engine.cli import main

    out_bytes, err_bytes = _Keep(), _Keep()
    streams = (sys.stdin, sys.stdout, sys.stderr)
    sys.stdin = io.TextIOWrapper(_Keep(stdin), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out_bytes, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err_bytes, encoding="utf-8", write_through=True)
    crash = None
    code: int | None = None
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, hang_seconds)
    try:
        with _env(env):
            code = main(list(argv))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except Hang:
        crash = f"hang: more than {hang_seconds:.0f} s"
    except Exception:  # exactly what the user would see as a traceback
        crash = traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        sys.stdin, sys.stdout, sys.stderr = streams
    return Outcome(list(argv), code, out_bytes.getvalue().decode("utf-8", "replace"),
                   err_bytes.getvalue().decode("utf-8", "replace"), crash)
