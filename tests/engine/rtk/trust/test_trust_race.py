"""The trust gate under a racing writer (issue 23, items 1–2).

Another process swaps ``.rtk/filters.json`` between a trusted and an untrusted version while
filters load. The bytes hashed for the decision must be the bytes parsed and applied, so the
untrusted version never runs: every load either applies the trusted filter or skips the file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli.filter import run_engine_stage
from engine.rtk.trust import TrustWriteError, snapshot_files, write_trust

from .conftest import canonical

COMMAND = "git status"
OUTPUT = "On branch main\nnothing to commit, working tree clean\n"
MARKER = "UNTRUSTED FILTER RAN"


def _versions() -> tuple[bytes, bytes]:
    trusted = canonical("status", include=["^On branch"], priority=90)
    evil = canonical("status", priority=90)
    evil["rules"]["matchOutput"] = [{"pattern": "On branch", "message": MARKER}]
    return ((json.dumps([trusted], indent=2) + "\n").encode(), (json.dumps([evil], indent=2) + "\n").encode())


def _project(tmp_path: Path) -> tuple[Path, bytes, bytes]:
    good, evil = _versions()
    project = tmp_path / "project"
    (project / ".rtk").mkdir(parents=True)
    (project / ".rtk" / "filters.json").write_bytes(good)
    write_trust(project, remember=False)
    return project, good, evil


SWAPPER = """
import os, sys, itertools
target, good, evil, stop = sys.argv[1:5]
datas = [open(good, 'rb').read(), open(evil, 'rb').read()]
tmp = target + '.swap'
for n in itertools.count():
    if os.path.exists(stop):
        break
    with open(tmp, 'wb') as fh:
        fh.write(datas[n % 2])
    os.replace(tmp, target)
"""


@pytest.fixture
def swapping(tmp_path):
    """A separate process swapping filters.json between the trusted and the untrusted bytes."""
    project, good, evil = _project(tmp_path)
    (tmp_path / "good.json").write_bytes(good)
    (tmp_path / "evil.json").write_bytes(evil)
    stop = tmp_path / "stop"
    proc = subprocess.Popen([sys.executable, "-c", SWAPPER, str(project / ".rtk" / "filters.json"),
                             str(tmp_path / "good.json"), str(tmp_path / "evil.json"), str(stop)])
    try:
        yield project
    finally:
        stop.touch()
        proc.wait(timeout=10)


def test_untrusted_version_never_applied_in_process(swapping, tmp_path):
    builtin = tmp_path / "empty-builtin"
    builtin.mkdir()
    applied = skipped = 0
    for _ in range(400):
        response = run_engine_stage(OUTPUT, COMMAND, builtin=str(builtin), project=str(swapping),
                                    data_dir=str(tmp_path / "no-data"))
        assert MARKER not in response["text"]
        if response.get("filterId") == "status":
            applied += 1
        if any("untrusted" in d.get("message", "") or "changed after trust" in d.get("message", "")
               for d in response["diagnostics"]):
            skipped += 1
    assert applied + skipped >= 400  # each run either applied the trusted filter or skipped the file
    assert applied and skipped  # the swapper really raced both ways


@pytest.mark.slow
def test_untrusted_version_never_applied_by_the_cli_batch(swapping, tmp_path):
    builtin = tmp_path / "empty-builtin"
    builtin.mkdir()
    request = json.dumps({"output": OUTPUT, "command": COMMAND, "builtin": str(builtin), "project": str(swapping),
                          "dataDir": str(tmp_path / "no-data")})
    proc = subprocess.run([sys.executable, "-m", "engine", "filter", "--jsonl"], input=(request + "\n") * 300,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    lines = proc.stdout.splitlines()
    assert len(lines) == 300
    assert all(MARKER not in json.loads(line).get("text", "") for line in lines)
    for _ in range(15):  # and one-shot runs of `filter --project`
        one = subprocess.run([sys.executable, "-m", "engine", "filter", "--project", str(swapping), "--builtin",
                              str(builtin), "--data-dir", str(tmp_path / "no-data"), "--command", COMMAND],
                             input=OUTPUT, capture_output=True, text=True, timeout=60)
        assert MARKER not in one.stdout


def test_trust_write_refuses_content_changed_after_review(tmp_path):
    project, _good, evil = _project(tmp_path)
    path = project / ".rtk" / "filters.json"
    reviewed = snapshot_files([path])
    path.write_bytes(evil)
    with pytest.raises(TrustWriteError, match="changed after it was reviewed"):
        write_trust(project, snapshots=reviewed, remember=False)
    trust = json.loads((project / ".rtk" / "trust.json").read_text())
    assert trust["filtersSha256"] == reviewed[0].sha256  # still the old, reviewed hash: nothing written


def test_trust_write_records_the_reviewed_bytes(tmp_path):
    project, _good, evil = _project(tmp_path)
    path = project / ".rtk" / "filters.json"
    path.write_bytes(evil)
    reviewed = snapshot_files([path])
    result = write_trust(project, snapshots=reviewed, remember=False)
    assert result.entries["filtersSha256"] == reviewed[0].sha256
