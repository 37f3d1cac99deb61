"""Every module of ``engine`` and ``app`` imports; a missing dependency is one loud line, exit 2."""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import app
import engine
from engine import paths
from engine.cli import main

REPO = Path(__file__).resolve().parents[2]
BROKEN_PACK = ('{"language": "en", "category": "filler", "rules": [{"name": "broken", "pattern": "(unclosed", '
               '"replacement": "", "context": "all", "category": "filler"}]}')


def _modules(package) -> list[str]:
    found = [info.name for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return [name for name in found if not name.endswith(".__main__")]  # __main__ runs the CLI


@pytest.mark.parametrize("name", _modules(engine) + _modules(app))
def test_every_module_imports(name):
    importlib.import_module(name)


def test_the_walk_found_the_packages():
    names = set(_modules(engine) + _modules(app))
    assert {"engine.cli.validate", "engine.jsregex.parser", "engine.paths", "app.mainwindow"} <= names


BLOCKER = '''
import sys
from importlib.abc import MetaPathFinder

class _Blocked(MetaPathFinder):
    """Make one declared dependency unimportable, as a broken installation would."""
    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] == {name!r}:
            raise ModuleNotFoundError(f"No module named {{fullname!r}}", name=fullname)
        return None

sys.meta_path.insert(0, _Blocked())
'''


@pytest.mark.parametrize(("blocked", "argv", "stdin"), [
    ("regex", ["validate", "{pack}"], ""),                  # the pattern check needs it
    ("jsonschema", ["validate", "{pack}"], ""),             # the schema check needs it
    ("ahocorasick_rs", ["compress"], "Hello there, I would really like to say this.\n"),
    ("regex", ["validate", "--jsonl"], '{{"path": "{pack}"}}\n'),  # batch mode: not an {"error"} answer
])
def test_an_unimportable_dependency_is_one_line_and_exit_2(tmp_path, blocked, argv, stdin):
    pack = tmp_path / "pack.json"
    pack.write_text(BROKEN_PACK, encoding="utf-8")
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER.format(name=blocked), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(REPO)]), "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-m", "engine", *(a.format(pack=pack) for a in argv)],
                          input=stdin.format(pack=pack), capture_output=True, text=True, env=env, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.splitlines() == [
        f"rulewright: broken installation: cannot import {blocked} — reinstall rulewright"], done.stderr
    assert "Traceback" not in done.stdout and '"error"' not in done.stdout


def test_missing_built_in_data_is_a_broken_installation(monkeypatch, capsys, tmp_path):
    monkeypatch.delenv("RULEWRIGHT_HOME", raising=False)
    monkeypatch.setattr(paths, "_packaged_root", lambda: None)
    monkeypatch.setattr(paths, "_checkout_root", lambda: None)
    with pytest.raises(paths.BrokenInstallation):
        paths.builtin_rules_dir()
    prose = tmp_path / "prose.txt"
    prose.write_text("Hello there, I would really like to say this.", encoding="utf-8")
    assert main(["compress", str(prose)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "rulewright: broken installation: cannot import the built-in rules, filters and resources "
        "(engine/_data) — reinstall rulewright"]


def test_the_checkout_is_found_in_an_editable_install():
    # the wheel carries engine/_data; a checkout reads its top-level folders
    root = paths.project_root()
    assert (root / "rules").is_dir() and (root / "filters").is_dir() and (root / "resources" / "schemas").is_dir()


def test_a_missing_system_library_is_named(capsys, monkeypatch):
    import engine.cli.gui as gui

    def launcher():
        raise ImportError("libEGL.so.1: cannot open shared object file: No such file or directory",
                          name="PySide6.QtGui")

    monkeypatch.setattr(gui, "_gui_launcher", launcher)
    assert main(["gui"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "rulewright: cannot import PySide6.QtGui: libEGL.so.1: cannot open shared object file: No such file or "
        "directory — install that system library (./dev ide installs Qt's)"]
