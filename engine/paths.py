"""Where the bundled data lives: resources, built-in rules and filters.

The engine runs from a source checkout (editable install) or from a desktop bundle; both keep
``resources/``, ``rules/`` and ``filters/`` beside the ``engine`` package. ``RULEWRIGHT_HOME``
overrides the root (used by the bundle launcher and by tests).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def project_root() -> Path:
    env = os.environ.get("RULEWRIGHT_HOME")
    if env:
        return Path(env)
    frozen = getattr(sys, "_MEIPASS", None)  # PyInstaller one-folder bundle
    if frozen:
        return Path(frozen)
    return Path(__file__).resolve().parent.parent


def resources_dir() -> Path:
    return project_root() / "resources"


def schemas_dir() -> Path:
    return resources_dir() / "schemas"


def builtin_rules_dir() -> Path:
    return project_root() / "rules"


def builtin_filters_dir() -> Path:
    return project_root() / "filters"


def example_workspace_dir() -> Path:
    return resources_dir() / "example-workspace"
