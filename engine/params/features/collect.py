"""``collectFromFeatures``: applies → model adapters + hook parts, each step isolated (spec §3.7)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.params.features.base import Plugin


@dataclass
class FeatureOutcome:
    name: str
    applied: bool
    reason: str
    plugins: list[Plugin] = field(default_factory=list)
    hooks: Any = None
    warning: str | None = None


def _reason(feature: object, scope: object, applied: bool) -> str:
    decide = getattr(feature, "decide", None)
    if decide is not None:
        try:
            reason: str = decide(scope).reason
            return reason
        except Exception:
            pass
    return "applies() returned " + ("true" if applied else "false") if hasattr(
        feature, "applies") else "no applies(): defaults to true"


def collect_from_features(scope: object, features: Iterable[object],
                          ) -> tuple[list[FeatureOutcome], list[Plugin], list[Any]]:
    outcomes: list[FeatureOutcome] = []
    plugins: list[Plugin] = []
    hook_parts: list[Any] = []
    for feature in features:
        name = getattr(feature, "name", type(feature).__name__)
        outcome = FeatureOutcome(name, True, "")
        applies = getattr(feature, "applies", None)
        try:
            outcome.applied = True if applies is None else bool(applies(scope))
        except Exception as exc:  # a throwing applies() counts as false, with a warning
            outcome.applied = False
            outcome.warning = f"applies() threw: {exc}"
        outcome.reason = outcome.warning or _reason(feature, scope, outcome.applied)
        if outcome.applied:
            contribute = getattr(feature, "contribute_model_adapters", None)
            if contribute is not None:
                try:
                    outcome.plugins = list(contribute(scope) or [])
                except Exception as exc:  # a throwing contribution is dropped alone
                    outcome.warning = f"contribute_model_adapters() threw: {exc}"
            hooks = getattr(feature, "contribute_hooks", None)
            if hooks is not None:
                try:
                    part = hooks(scope)
                except Exception as exc:
                    outcome.warning = f"contribute_hooks() threw: {exc}"
                    part = None
                if part:
                    outcome.hooks = part
                    hook_parts.append(part)
            plugins.extend(outcome.plugins)
        outcomes.append(outcome)
    return outcomes, plugins, hook_parts
