"""No code path turns a missing module into a clean result, and no test skips for one.

An ``except ImportError`` in ``engine``/``app``/``bench`` must re-raise (or raise its own error);
``pytest.importorskip`` may only name an optional extra, never our own packages or a core
dependency of the ``rulewright`` distribution.
"""

from __future__ import annotations

import ast
import re
from importlib.metadata import packages_distributions, requires
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# files that may go on without a module, and why: only optional extras, said in their output
OPTIONAL_EXTRAS = {"bench/bench_eval.py": "Dask is the `cluster` extra; the bench prints that it skipped it"}


def _core_import_names() -> set[str]:
    """Top-level import names of rulewright's own packages and its core (non-extra) dependencies."""
    core = {re.split(r"[ <>=!~;\[]", req, maxsplit=1)[0].lower().replace("_", "-")
            for req in requires("rulewright") or [] if "extra ==" not in req}
    names = {"engine", "app"}
    for module, dists in packages_distributions().items():
        if any(d.lower().replace("_", "-") in core for d in dists):
            names.add(module)
    return names


def _sources(*folders: str):
    for folder in folders:
        yield from sorted((REPO / folder).rglob("*.py"))


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = [caught] if not isinstance(caught, ast.Tuple) else list(caught.elts)
    return any(isinstance(n, ast.Name) and n.id in ("ImportError", "ModuleNotFoundError") for n in names)


@pytest.mark.parametrize("path", list(_sources("engine", "app", "bench")), ids=lambda p: str(p.relative_to(REPO)))
def test_import_errors_are_never_swallowed(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler) and _catches_import_error(node):
            loud = any(isinstance(n, ast.Raise) or (isinstance(n, ast.Call) and getattr(n.func, "id", None)
                                                    == "broken_installation")  # engine.cli.main's one line
                       for stmt in node.body for n in ast.walk(stmt))
            where = str(path.relative_to(REPO))
            assert loud or where in OPTIONAL_EXTRAS, f"{where}:{node.lineno}: an ImportError is caught and not raised again"


def test_tests_never_skip_for_our_own_modules_or_a_core_dependency():
    core = _core_import_names()
    assert {"engine", "app", "regex", "jsonschema", "PySide6"} <= core
    found = []
    for path in _sources("tests"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "importorskip" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and str(node.args[0].value).split(".")[0] in core):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: importorskip({node.args[0].value!r})")
    assert not found, "\n".join(found)
