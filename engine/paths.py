"""Where the bundled data lives (resources, built-in rules and filters) and the user's own folders.

In the repository ``resources/``, ``rules/`` and ``filters/`` are top-level folders. The wheel
and the desktop bundle carry them as package data of ``engine`` (``engine/_data/<name>``, copied
there at build time by ``setup.py``; the bundle maps them the same way), read through
``importlib.resources`` so an installed wheel, a zip and the PyInstaller bundle all work. An
editable install has no ``engine/_data``: it reads the folders of its own checkout. When neither
is there the installation is broken and we say so instead of running without built-ins.
``RULEWRIGHT_HOME`` overrides the root (a folder holding the three).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

from engine import memo

DATA_FOLDERS = ("resources", "rules", "filters")
PACKAGED = "_data"  # inside the engine package


class BrokenInstallation(ImportError):
    """The package's own data is missing: like a missing module, reinstalling is the fix."""


def _extract(node: Traversable, target: Path) -> None:
    """Copy a resource tree that is not on the file system (a ``Traversable`` in a zip) to ``target``."""
    if node.is_dir():
        target.mkdir(parents=True, exist_ok=True)
        for child in node.iterdir():
            _extract(child, target / child.name)
    else:
        target.write_bytes(node.read_bytes())


@memo.lru(maxsize=None)
def _packaged_root() -> Path | None:
    """``engine/_data`` as a real folder, or ``None`` when this is a source checkout."""
    from importlib import resources  # here, not at import: `rulewright --version` stays fast

    packaged = resources.files("engine") / PACKAGED
    if not packaged.is_dir():
        return None
    if isinstance(packaged, Path):
        return packaged
    import atexit
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="rulewright-data-"))  # imported from a zip
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    _extract(packaged, folder)
    return folder


def _checkout_root() -> Path | None:
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and all((root / name).is_dir() for name in DATA_FOLDERS):
        return root
    return None


def project_root() -> Path:
    """The folder holding ``resources/``, ``rules/`` and ``filters/``."""
    env = os.environ.get("RULEWRIGHT_HOME")
    if env:
        return Path(env)
    root = _packaged_root() or _checkout_root()
    if root is None:
        raise BrokenInstallation("built-in rules, filters and resources are missing (no engine/_data)",
                                 name="the built-in rules, filters and resources (engine/_data)")
    return root


def resources_dir() -> Path:
    return project_root() / "resources"


def schemas_dir() -> Path:
    return resources_dir() / "schemas"


def builtin_rules_dir() -> Path:
    return project_root() / "rules"


def builtin_languages() -> list[str]:
    """The languages the bundled Caveman packs are written for (``rules/<language>/*.json``)."""
    root = builtin_rules_dir()
    if not root.is_dir():
        return []
    return sorted(d.name for d in root.iterdir() if d.is_dir() and any(d.glob("*.json")))


def builtin_filters_dir() -> Path:
    return project_root() / "filters"


def example_workspace_dir() -> Path:
    return resources_dir() / "example-workspace"


APP_NAME = "rulewright"


def config_dir() -> Path:
    """The user's config folder (preferences); ``RULEWRIGHT_CONFIG_DIR`` overrides it."""
    env = os.environ.get("RULEWRIGHT_CONFIG_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """The user's data folder (recovery journal, trust snapshots, the example workspace);
    ``RULEWRIGHT_DATA_DIR`` overrides it."""
    env = os.environ.get("RULEWRIGHT_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
