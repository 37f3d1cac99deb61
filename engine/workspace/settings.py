"""App preferences (TOML in the user's config folder, ``engine.paths.config_dir``).

Preferences are a plain dataclass so the CLI, the tests and the settings dialog share them.
``RULEWRIGHT_CONFIG_DIR`` / ``RULEWRIGHT_DATA_DIR`` override the platformdirs locations (tests
point them at a temp folder; portable installs can too).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import tomli_w

from engine.fsutil import atomic_write_text, read_input_bytes
from engine.paths import config_dir, data_dir

PROFILES = ("omniroute", "strict")
INTENSITIES = ("lite", "full", "ultra")
THEMES = ("system", "light", "dark")
MAX_RECENT = 10


def recovery_dir() -> Path:
    return data_dir() / "recovery"


@dataclass
class Settings:
    theme: str = "system"
    font_family: str = ""  # empty: the system's fixed-width font
    font_size: int = 10
    regex_timeout_ms: int = 250
    default_profile: str = "omniroute"
    intensity: str = "full"
    language: str = "en"
    recent_workspaces: list[str] = field(default_factory=list)
    last_workspace: str = ""
    open_files: list[str] = field(default_factory=list)
    tour_done: bool = False
    window_state: str = ""  # base64 of Qt's saveGeometry() + saveState(), opaque here
    corpus_paths: list[str] = field(default_factory=list)  # the Corpus panel's last corpus
    preview_in_playgrounds: bool = False  # the preview dock on a playground tab (app.preview_placement)

    @classmethod
    def path(cls) -> Path:
        return config_dir() / "settings.toml"

    @classmethod
    def load(cls) -> Settings:
        try:
            raw = tomllib.loads(read_input_bytes(cls.path()).decode("utf-8"))
        except (OSError, ValueError, RecursionError):  # ValueError: bad TOML or UTF-8
            return cls()
        return cls.from_dict(raw)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Settings:
        """Keep known keys of the right type; anything else falls back to the default."""
        out = cls()
        for f in fields(cls):
            if f.name in raw and isinstance(raw[f.name], type(getattr(out, f.name))):
                setattr(out, f.name, raw[f.name])
        out.normalize()
        return out

    def normalize(self) -> None:
        if self.theme not in THEMES:
            self.theme = "system"
        if self.default_profile not in PROFILES:
            self.default_profile = "omniroute"
        if self.intensity not in INTENSITIES:
            self.intensity = "full"
        self.regex_timeout_ms = max(10, min(self.regex_timeout_ms, 60_000))
        self.font_size = max(6, min(self.font_size, 48))
        self.recent_workspaces = [p for p in self.recent_workspaces if isinstance(p, str)][:MAX_RECENT]

    def save(self, path: Path | None = None) -> None:
        """Write the settings (to ``path``, default the config folder's ``settings.toml``)."""
        self.normalize()
        atomic_write_text(path or self.path(), tomli_w.dumps(asdict(self)))

    def remember_workspace(self, path: str | os.PathLike[str]) -> None:
        p = os.fspath(path)
        self.recent_workspaces = [p] + [r for r in self.recent_workspaces if r != p]
        self.recent_workspaces = self.recent_workspaces[:MAX_RECENT]
        self.last_workspace = p
