"""Build hook: the wheel carries the top-level ``rules/``, ``filters/`` and ``resources/`` folders.

They stay top-level in the repository; at build time they are copied into the ``engine`` package
as ``engine/_data/<name>`` (read by ``engine.paths`` through ``importlib.resources``). An editable
install skips the copy: ``engine.paths`` reads the checkout's own folders instead. Everything
else about the build is declared in ``pyproject.toml``.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
DATA_FOLDERS = ("resources", "rules", "filters")  # engine.paths.DATA_FOLDERS
IGNORED = shutil.ignore_patterns("__pycache__", "*.py[cod]")  # dot folders stay: the example has .rtk/


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "engine" / "_data"
        shutil.rmtree(target, ignore_errors=True)  # no stale files from an earlier in-tree build
        for name in DATA_FOLDERS:
            shutil.copytree(ROOT / name, target / name, ignore=IGNORED)


setup(cmdclass={"build_py": BuildWithData})
