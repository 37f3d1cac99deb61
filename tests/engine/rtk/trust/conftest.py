"""Small, self-made filter fixtures for the trust / sources / verify / export tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def canonical(fid: str, *, commands=("^git\\s+status\\b",), include=(), drop=(), on_empty="", priority=60,
              tests=(), output_types=(), patterns=(), category="git", **rules) -> dict:
    body = {"id": fid, "label": fid, "description": "test fixture", "category": category, "priority": priority,
            "match": {"commands": list(commands), "patterns": list(patterns), "outputTypes": list(output_types)},
            "rules": {"includePatterns": list(include), "dropPatterns": list(drop), "onEmpty": on_empty, **rules},
            "preserve": {"errorPatterns": [], "summaryPatterns": []}}
    if tests:
        body["tests"] = list(tests)
    return body


STATUS_OUTPUT = "On branch main\nChanges not staged for commit:\n  modified:   a.py\nUntracked files:\n  b.py\n"


def write_json(path: Path, value) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (json.dumps(value, indent=2) + "\n").encode()
    path.write_bytes(data)
    return data


@pytest.fixture
def builtin_dir(tmp_path) -> Path:
    """A one-filter built-in folder: keeps the branch line and modified files."""
    folder = tmp_path / "builtin"
    write_json(folder / "status.json", canonical(
        "status", output_types=["git-status"], include=["^On branch", "modified:"], priority=80,
        tests=[{"name": "keeps branch", "input": "On branch x\nnoise\n", "expected": "On branch x"}]))
    return folder


@pytest.fixture
def layout(tmp_path):
    project, data = tmp_path / "project", tmp_path / "data"
    (project / ".rtk").mkdir(parents=True)
    (data / "rtk").mkdir(parents=True)
    return project, data
