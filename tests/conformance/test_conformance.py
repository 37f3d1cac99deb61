"""Every conformance case of a suite, in-process; a failing case fails the suite with its diff.

One test per suite (``-k caveman``): ~10,700 cases as separate tests would cost more in pytest
bookkeeping than in the engine. The failure message lists every failing case: its id, the
runner's verdict, and a unified diff of the compared fields, expected against ours.
"""

from __future__ import annotations

import difflib
import importlib
import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.cli import COMMANDS
from engine.cli.batch import respond

from .conftest import conformance_dir

SUITES = ("jsregex", "trust", "caveman", "rtk-filter", "rtk-engine", "rtk-sources", "repair", "repair-text",
          "grammar", "params")
SHOWN = 50  # failing cases spelled out in full; the rest are counted


@contextmanager
def environment(values: dict):
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update({k: str(v) for k, v in values.items()})
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def diff(runner, suite, case: dict, got) -> str:
    """Expected vs ours for the fields the suite compares, as a unified diff of pretty JSON."""
    expected = case.get("expected")
    if not isinstance(expected, dict) or not isinstance(got, dict):
        return ""
    compared = getattr(suite, "FIELDS", None)
    fields = [f for f in expected if compared is None or f in compared]
    want = {f: runner.strip_undefined(expected[f]) for f in fields}
    have = {f: runner.strip_undefined(got.get(f, "<missing>")) for f in fields}
    lines = difflib.unified_diff(json.dumps(want, indent=1, ensure_ascii=False, sort_keys=True).splitlines(),
                                 json.dumps(have, indent=1, ensure_ascii=False, sort_keys=True).splitlines(),
                                 "expected", "rulewright", lineterm="", n=2)
    return "\n".join(lines)


@pytest.mark.slow
@pytest.mark.conformance
@pytest.mark.parametrize("name", SUITES)
def test_suite(runner, name):
    suite = runner.SUITES[name]
    path = conformance_dir() / "cases" / suite.file
    if not path.exists():
        pytest.skip(f"no {suite.file} in {path.parent}")
    handler = importlib.import_module(COMMANDS[suite.command][0]).handle_request
    cases = runner.load_cases(path, [], [], None)
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix=f"conf-{name}-") as tmp:
        for case in cases:
            request = json.loads(json.dumps(suite.request(case, Path(tmp)), ensure_ascii=True))
            with environment(suite.env(case)):
                response = respond(handler, json.dumps(request, ensure_ascii=True))
            got = json.loads(json.dumps(response, ensure_ascii=True))  # what `--jsonl` would print
            why = suite.compare(case, got)
            if why is not None:
                failures.append(f"✗ {case['id']}: {why}\n{diff(runner, suite, case, got)}".rstrip())
    if failures:
        shown = "\n\n".join(failures[:SHOWN])
        more = f"\n\n… and {len(failures) - SHOWN} more" if len(failures) > SHOWN else ""
        pytest.fail(f"{name}: {len(failures)} of {len(cases)} cases failed\n\n{shown}{more}", pytrace=False)
