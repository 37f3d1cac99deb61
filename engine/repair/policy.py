"""Repair policies (``resolveRepairPolicy``, spec §8) and model-family helpers.

Importable from ``engine.repair`` so the leaked-tool-call grammar feature can share them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

POLICY_NAMES = ("conservative", "adaptive", "recover")
DEFAULT_POLICY = "adaptive"

# Model families whose leaked tool-call grammar the pi extension promotes at message_end.
GRAMMAR_PROMOTION_FAMILIES = ("glm", "kimi", "minimax", "qwen", "mistral", "llama", "granite",
                              "olmo", "deepseek")
# Built-in preset gates (tables.ts): anchor-bleed and grammar-tokens model families.
ANCHOR_BLEED_FAMILIES = ("kimi-k2", "minimax", "glm")
GRAMMAR_TOKEN_FAMILIES = ("glm",)


@dataclass(frozen=True)
class RepairPolicy:
    """Resolved policy flags. ``None`` is the reference's ``undefined`` (unknown profile)."""

    profile: str
    allow_truncated_envelope_completion: bool | None
    allow_valid_value_transforms: bool | None
    grammar_mode: str | None
    unknown_grammar_text: str | None

    @property
    def known(self) -> bool:
        return self.profile in POLICY_NAMES

    @property
    def observes_valid_values(self) -> bool:
        """Model-gated transforms only observe (no mutation) under this policy."""
        return not self.allow_valid_value_transforms


_PROFILES = {
    "conservative": RepairPolicy("conservative", False, False, "observe", "preserve"),
    "adaptive": RepairPolicy("adaptive", True, True, "strip", "preserve"),
    "recover": RepairPolicy("recover", True, True, "recover", "preserve"),
}


def resolve_repair_policy(profile: str | None = None, overrides: dict[str, Any] | None = None,
                          *, strict: bool = False) -> RepairPolicy:
    """Spread ``overrides`` over the profile defaults, then set ``profile``.

    An unknown profile yields every flag ``None`` (falsy) — REP-Q10; ``strict`` rejects it.
    """
    name = DEFAULT_POLICY if profile is None else profile
    base = _PROFILES.get(name)
    if base is None:
        if strict:
            raise ValueError(f"unknown repair policy {name!r} (expected one of {', '.join(POLICY_NAMES)})")
        base = RepairPolicy(name, None, None, None, None)
    overrides = overrides or {}
    fields = {"grammarMode": "grammar_mode", "unknownGrammarText": "unknown_grammar_text",
              "allowTruncatedEnvelopeCompletion": "allow_truncated_envelope_completion",
              "allowValidValueTransforms": "allow_valid_value_transforms"}
    changes = {fields[k]: v for k, v in overrides.items() if k in fields}
    return replace(base, **changes, profile=name)


def policy_observes_valid_values(profile: str | None) -> bool:
    """True when model-gated value cleanups only observe under this policy (conservative)."""
    return resolve_repair_policy(profile).observes_valid_values


def grammar_mode_for(profile: str | None) -> str | None:
    """The assistant-text grammar mode a policy enables (observe / strip / recover)."""
    return resolve_repair_policy(profile).grammar_mode


def model_matches_families(model_id: str | None, families: Any) -> bool:
    """``!!modelId && families.some(re => re.test(modelId))`` — families as in :func:`compile_family`."""
    if not model_id:
        return False
    return any(compile_family(f).test(model_id) for f in families or ())


class FamilyPattern(Protocol):
    """What a model-family entry compiles to: anything with a regex-like ``test``."""

    def test(self, s: str) -> bool: ...


def compile_family(entry: object) -> FamilyPattern:
    """A model-family entry: a string (case-insensitive source), ``"/source/flags"``,
    ``{"source", "flags"}``, or an object with ``.test`` (an already compiled JSRegExp)."""
    from engine.jsregex import compile_js

    if hasattr(entry, "test"):
        tester: FamilyPattern = entry
        return tester
    if isinstance(entry, dict):
        return compile_js(str(entry.get("source", "")), str(entry.get("flags", "")))
    text = str(entry)
    if len(text) >= 2 and text.startswith("/") and text.rfind("/") > 0:
        cut = text.rfind("/")
        return compile_js(text[1:cut], text[cut + 1:])
    return compile_js(text, "i")


def model_family_of(model_id: str | None, families: tuple[str, ...] = GRAMMAR_PROMOTION_FAMILIES) -> str | None:
    """The first family name contained (case-insensitively) in ``model_id``."""
    if not model_id:
        return None
    lowered = model_id.lower()
    return next((f for f in families if f in lowered), None)
