"""The PyInstaller bundle builds, starts offscreen and opens the (bundled) example workspace.

PyInstaller comes with the ``package`` extra, which ``./dev`` installs (so CI runs this): a missing
PyInstaller fails here instead of skipping.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

# building takes 1.5-2 minutes on the busy 2-core machine: more than the suite's 120 s per test
pytestmark = [pytest.mark.slow, pytest.mark.gui, pytest.mark.timeout(1200)]
ROOT = Path(__file__).resolve().parents[3]


def test_bundle_starts_offscreen_on_the_example_workspace(tmp_path):
    import PyInstaller  # noqa: F401  (the `package` extra: ./dev installs it)

    build = subprocess.run([str(ROOT / "packaging" / "build.sh"), os.environ.get("RULEWRIGHT_PYTHON", "")
                            or str(ROOT / ".venv" / "bin" / "python")],
                           capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stderr[-2000:]
    exe = ROOT / "dist" / "rulewright" / "rulewright"
    assert exe.is_file() and (ROOT / "dist" / "rulewright" / "rulewright.desktop").is_file()
    png = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", RULEWRIGHT_CONFIG_DIR=str(tmp_path / "config"),
               RULEWRIGHT_DATA_DIR=str(tmp_path / "data"))
    env.pop("RULEWRIGHT_HOME", None)
    run = subprocess.run([str(exe), "gui", "--screenshot", str(png), "--size", "1200x800"],
                         capture_output=True, text=True, timeout=180, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "example-workspace" in run.stdout
    assert f"workspace {ROOT / 'dist' / 'rulewright'}" in run.stdout  # the bundle's own data, not the checkout's
    bundled_example = ROOT / "resources" / "example-workspace"
    if bundled_example.is_dir() and any(bundled_example.rglob("*.json")):
        assert " 0 files" not in run.stdout
    from PySide6.QtGui import QImage

    image = QImage(str(png))
    assert (image.width(), image.height()) == (1200, 800)
    # the CLI works from the bundle too, and the validation helper answers
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=60, env=env)
    assert version.stdout.startswith("rulewright ")
    verify = subprocess.run([str(exe), "verify"], capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert verify.returncode == 0 and "tests passed" in verify.stdout, verify.stdout[-1000:] + verify.stderr[-1000:]
