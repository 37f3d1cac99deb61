"""Run the real ``rulewright`` command in a subprocess, the way users and CI jobs do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
FILTERS = REPO / "filters"


@dataclass
class Run:
    code: int
    out: str
    err: str

    def json(self):
        return json.loads(self.out)


def rulewright(*args: str, stdin: str | bytes | int | None = "", cwd: str | os.PathLike | None = None,
               env: dict[str, str] | None = None, timeout: float = 60) -> Run:
    """``rulewright ARGS``; ``stdin`` text/bytes is piped, an int is used as the stdin fd."""
    full_env = {**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}
    kwargs: dict = {"capture_output": True, "cwd": cwd, "env": full_env, "timeout": timeout}
    if isinstance(stdin, int):
        kwargs["stdin"] = stdin
    else:
        kwargs["input"] = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    proc = subprocess.run([sys.executable, "-m", "engine", *map(str, args)], **kwargs)
    return Run(proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))


