"""Runs the reference conformance suites in-process, one pytest test per suite.

The cases and their runner live outside the repository (``../shared/conformance``, beside the
checkout; see ``conformance_dir``). When they are absent every test here
is skipped with that reason: users who clone the repo do not have them. The runner script is the
oracle — its suites build each request and judge each response — so nothing of it is copied
here; this plugin only replaces its subprocess call with the command's ``handle_request`` through
the same batch contract (``engine.cli.batch.respond``) and JSON round trips the CLI does.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def conformance_dir() -> Path:
    """``$RULEWRIGHT_CONFORMANCE``, else ``../shared/conformance`` (``../../shared/…`` from a git
    worktree kept one folder deeper, e.g. ``wt/issue-N``)."""
    if os.environ.get("RULEWRIGHT_CONFORMANCE"):
        return Path(os.environ["RULEWRIGHT_CONFORMANCE"])
    near, far = ROOT.parent / "shared" / "conformance", ROOT.parent.parent / "shared" / "conformance"
    return near if near.is_dir() or not far.is_dir() else far


def load_runner() -> ModuleType | None:
    """The runner script as a module, or None when the conformance folder is absent."""
    script = conformance_dir() / "run"
    if not script.is_file() or not (conformance_dir() / "cases").is_dir():
        return None
    loader = importlib.machinery.SourceFileLoader("rulewright_conformance_runner", str(script))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[loader.name] = module  # its dataclass-free classes still want a home module
    loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def runner() -> ModuleType:
    module = load_runner()
    if module is None:
        pytest.skip(f"conformance cases not present at {conformance_dir()} (reference-only check)")
    return module
