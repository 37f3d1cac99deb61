"""The extension's grammar settings and their migration (spec §6.1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

GRAMMAR_MODES = ("off", "observe", "strip", "recover")
PROFILES = ("conservative", "adaptive", "recover")
PROFILE_MODE = {"conservative": "observe", "adaptive": "strip", "recover": "recover"}
UNKNOWN_TEXT = ("preserve", "strip")


@dataclass(frozen=True)
class GrammarSettings:
    mode: str = "strip"
    profile: str = "adaptive"
    unknown_grammar_text: str = "preserve"
    allowed_tools: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode, "profile": self.profile, "unknownGrammarText": self.unknown_grammar_text,
            "grammarAllowedTools": list(self.allowed_tools),
        }


def migrate(stored: object) -> GrammarSettings:
    """Settings as the extension reads ``settings.json``; anything invalid falls back."""
    if not isinstance(stored, dict):
        return GrammarSettings()
    mode = stored.get("grammarRecovery")
    profile = stored.get("policyProfile")
    if profile not in PROFILES:
        profile = "recover" if mode == "recover" else "adaptive"
    if mode not in GRAMMAR_MODES:
        mode = PROFILE_MODE[profile]
    allowed = stored.get("grammarAllowedTools")
    if not (isinstance(allowed, list) and all(isinstance(t, str) for t in allowed)):
        allowed = []
    unknown = stored.get("unknownGrammarText")
    if unknown not in UNKNOWN_TEXT:
        unknown = "preserve"
    return GrammarSettings(mode, profile, unknown, tuple(allowed))


def settings_file_from_request(request: dict[str, Any]) -> object:
    """What ``settings.json`` holds for a conformance scenario (spec §10.1); None = no usable file.

    Any JSON value: ``migrate`` reads only an object and falls back to defaults for the rest.
    """
    if request.get("settingsFile") in ("missing", "corrupt"):
        return None
    if request.get("settings") is not None:  # `settings ?? <the request's own keys>`
        return request["settings"]
    stored: dict[str, Any] = {}
    if "policy" in request:
        stored["policyProfile"] = request["policy"]
    if "grammarMode" in request:
        stored["grammarRecovery"] = request["grammarMode"]
    if "unknownGrammarText" in request:
        stored["unknownGrammarText"] = request["unknownGrammarText"]
    elif "unknownToolText" in request:
        stored["unknownGrammarText"] = request["unknownToolText"]
    if "allowedTools" in request:
        stored["grammarAllowedTools"] = request["allowedTools"]
    return stored
