"""``CavemanConfig`` (spec §1.1) and the pipeline adapter's merge (§1.2, CAV-Q11)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.caveman.preservation import DEFAULT_PRESERVE_PATTERNS
from engine.diagnostics import Diagnostic

_KEYS = {
    "enabled": "enabled", "compressRoles": "compress_roles", "skipRules": "skip_rules",
    "minMessageLength": "min_message_length", "preservePatterns": "preserve_patterns",
    "intensity": "intensity", "language": "language", "autoDetectLanguage": "auto_detect_language",
    "enabledLanguagePacks": "enabled_language_packs",
}


@dataclass
class CavemanConfig:
    """Defaults are ``DEFAULT_CAVEMAN_CONFIG``; ``preserve_patterns=None`` means the six defaults."""

    enabled: bool = False
    compress_roles: list[str] = field(default_factory=lambda: ["user"])
    skip_rules: list[str] = field(default_factory=list)
    min_message_length: float = 50
    preserve_patterns: list[str] | None = None
    intensity: str = "lite"
    language: str | None = None
    auto_detect_language: bool = False
    enabled_language_packs: list[str] | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None = None, **overrides: Any) -> CavemanConfig:
        """Shallow merge over the defaults, accepting the reference's camelCase keys."""
        values: dict[str, Any] = {}
        for key, value in {**(data or {}), **overrides}.items():
            attr = _KEYS.get(key, key)
            if attr not in {f.name for f in fields(cls)}:
                continue  # unknown keys are ignored, as the reference's spread does
            values[attr] = value
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return {camel: getattr(self, attr) for camel, attr in _KEYS.items()}

    @property
    def uses_default_patterns(self) -> bool:
        return self.preserve_patterns is None

    def patterns(self) -> list[str]:
        return list(DEFAULT_PRESERVE_PATTERNS) if self.preserve_patterns is None else list(self.preserve_patterns)


ADAPTER_ERRORS = {
    "intensity": "intensity must be lite, full, or ultra",
    "minMessageLength": "minMessageLength must be a non-negative number",
    "enabled": "enabled must be a boolean",
}


def validate_step_config(step: dict[str, Any]) -> list[str]:
    """The adapter's own config checks, with its texts (§1.2)."""
    errors = []
    if "intensity" in step and step["intensity"] not in ("lite", "full", "ultra"):
        errors.append(ADAPTER_ERRORS["intensity"])
    if "minMessageLength" in step:
        v = step["minMessageLength"]
        if isinstance(v, bool) or not isinstance(v, int | float) or v != v or v < 0:
            errors.append(ADAPTER_ERRORS["minMessageLength"])
    if "enabled" in step and not isinstance(step["enabled"], bool):
        errors.append(ADAPTER_ERRORS["enabled"])
    return errors


def adapter_config(pipeline: dict[str, Any], step: dict[str, Any] | None = None, *,
                   profile: str = "omniroute") -> tuple[CavemanConfig, list[Diagnostic]]:
    """``cavemanEngine.apply``'s effective config: ``{enabled: true}`` (when no one set it),
    ``cavemanConfig``, the step config, the language config, then ``compressRoles``.

    CAV-Q11: the reference takes ``compressRoles`` from ``cavemanConfig`` (or ``["user"]``),
    ignoring the step config; ``strict`` uses the merged value. Both drop ``system`` unless
    ``preserveSystemPrompt === false``.
    """
    step = dict(step or {})
    caveman = dict(pipeline.get("cavemanConfig") or {})
    merged: dict[str, Any] = {}
    if "enabled" not in caveman and "enabled" not in step:
        merged["enabled"] = True
    merged.update(caveman)
    merged.update(step)
    lang = pipeline.get("languageConfig") or {}
    if lang.get("enabled"):
        merged["language"] = lang.get("defaultLanguage")
        merged["autoDetectLanguage"] = lang.get("autoDetect")
        merged["enabledLanguagePacks"] = lang.get("enabledPacks")
    diags: list[Diagnostic] = []
    if pipeline.get("preserveSystemPrompt") is not False:
        reference_roles = caveman.get("compressRoles") or ["user"]
        roles = merged.get("compressRoles", reference_roles) if profile == "strict" else reference_roles
        roles = [r for r in roles or () if r != "system"]
        if "compressRoles" in step and profile != "strict" and list(step["compressRoles"]) != list(reference_roles):
            diags.append(Diagnostic(
                f"the step's compressRoles {step['compressRoles']} were ignored; OmniRoute compresses "
                f"{[r for r in reference_roles if r != 'system']}", "warning", "CAV-Q11", source="caveman"))
        merged["compressRoles"] = roles
    return CavemanConfig.from_dict(merged), diags
