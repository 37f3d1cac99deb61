"""The tool-argument repair pipeline of pi-repair-layer 0.4.3, reproduced in Python.

Public API (plain data in, plain data out; no Qt):

* :func:`run_repair` — ``runRepairPipeline`` on a JSON Schema, raw arguments and options;
* :func:`adapt_result` — what pi's tool adapter does with a result (return args or raise
  :class:`UnrepairableToolInputError`, or pass the raw input through);
* policy and model-family helpers shared with the leaked-tool-call grammar feature.
"""

from __future__ import annotations

from typing import Any

from .legacy import LegacyRepairResult, repair_tool_input
from .model import RepairChange, RepairObservation, RepairResult, UnrepairableToolInputError
from .options import RepairOptions
from .pipeline import run_repair
from .policy import (
    ANCHOR_BLEED_FAMILIES,
    DEFAULT_POLICY,
    GRAMMAR_PROMOTION_FAMILIES,
    GRAMMAR_TOKEN_FAMILIES,
    POLICY_NAMES,
    RepairPolicy,
    compile_family,
    grammar_mode_for,
    model_family_of,
    model_matches_families,
    policy_observes_valid_values,
    resolve_repair_policy,
)
from .presets import BUILTIN_TOOLS, builtin_legacy_config, builtin_preprocessors
from .quirks import DEFAULT_PROFILE, PROFILES, QUIRKS
from .rules import RULES, RuleInfo


def adapt_result(result: RepairResult, raw_args: object, *, unrepairable: str = "throw") -> Any:
    """The pi adapter: the arguments the tool receives, or raise when unrepairable."""
    if result.outcome != "unrepairable":
        return result.args
    if unrepairable == "passthrough":
        return raw_args
    raise UnrepairableToolInputError(result)


__all__ = [
    "ANCHOR_BLEED_FAMILIES",
    "BUILTIN_TOOLS",
    "DEFAULT_POLICY",
    "DEFAULT_PROFILE",
    "GRAMMAR_PROMOTION_FAMILIES",
    "GRAMMAR_TOKEN_FAMILIES",
    "POLICY_NAMES",
    "PROFILES",
    "QUIRKS",
    "RULES",
    "LegacyRepairResult",
    "RepairChange",
    "RepairObservation",
    "RepairOptions",
    "RepairPolicy",
    "RepairResult",
    "RuleInfo",
    "UnrepairableToolInputError",
    "adapt_result",
    "builtin_legacy_config",
    "builtin_preprocessors",
    "compile_family",
    "grammar_mode_for",
    "model_family_of",
    "model_matches_families",
    "policy_observes_valid_values",
    "repair_tool_input",
    "resolve_repair_policy",
    "run_repair",
]
