"""The request ``options`` object (spec appendix A) turned into a pipeline configuration."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.jsvalues import as_object

from .presets import BUILTIN_TOOLS, builtin_legacy_config, builtin_preprocessors
from .schema_repair import LegacyConfig

OwnerHook = Callable[[Any], Any]


class OwnerShimError(Exception):
    """Raised by the ``{"kind": "throw"}`` owner shim; the pipeline swallows it."""


def owner_shim(spec: dict[str, Any]) -> OwnerHook:
    """A stand-in for a tool owner's ``prepareArguments`` hook."""
    kind = spec.get("kind")
    if kind == "rootStringTo":
        name = str(spec.get("field", ""))

        def root_string_to(value: object) -> Any:
            return {name: value} if isinstance(value, str) else value
        return root_string_to
    if kind == "throw":
        def always_throw(value: object) -> Any:
            raise OwnerShimError("owner prepareArguments failed")
        return always_throw
    raise ValueError(f"unknown ownerShim kind {kind!r} (expected rootStringTo or throw)")


@dataclass
class RepairOptions:
    tool_name: str = "tool"
    policy: str | None = None
    policy_overrides: dict[str, Any] = field(default_factory=dict)
    model_id: str | None = None
    limits: dict[str, Any] = field(default_factory=dict)
    preprocessors: list[dict[str, Any]] = field(default_factory=list)
    legacy: LegacyConfig = field(default_factory=LegacyConfig)
    owner_prepare_arguments: OwnerHook | None = None
    schema_mode: str = "typebox"
    unrepairable: str = "throw"
    on_observation: Callable[[dict[str, Any]], Any] | None = None
    on_outcome: Callable[[Any], Any] | None = None

    @classmethod
    def from_dict(cls, options: dict[str, Any] | None) -> RepairOptions:
        options = dict(options or {})
        builtin = options.get("builtinTool")
        if builtin is not None and builtin not in BUILTIN_TOOLS:
            raise ValueError(f"unknown builtinTool {builtin!r} (expected one of {', '.join(BUILTIN_TOOLS)})")
        preprocessors = [p for p in options.get("preprocessors") or [] if isinstance(p, dict)]
        legacy_data = as_object(options.get("legacyConfig"))
        if builtin:
            preprocessors = builtin_preprocessors(builtin) + preprocessors
            legacy_data = {**builtin_legacy_config(builtin), **legacy_data}  # shallow merge
        tool_name = options.get("toolName")
        if not isinstance(tool_name, str):
            tool_name = builtin or "tool"
        owner = options.get("ownerPrepareArguments")
        if not callable(owner):
            owner = owner_shim(options["ownerShim"]) if isinstance(options.get("ownerShim"), dict) else None
        mode = options.get("schemaMode")
        if mode is None:
            mode = "plain" if options.get("schemaIsTypeBox") is False else "typebox"
        policy = options.get("policy")
        model_id = options.get("modelId")
        unrepairable = options.get("unrepairable", "throw")
        if unrepairable not in ("throw", "passthrough"):
            raise ValueError(f"unknown unrepairable mode {unrepairable!r} (expected throw or passthrough)")
        return cls(
            tool_name=tool_name,
            policy=policy if isinstance(policy, str) else None,
            policy_overrides=as_object(options.get("policyOverrides")),
            model_id=model_id if isinstance(model_id, str) else None,
            limits=as_object(options.get("limits")),
            preprocessors=preprocessors,
            legacy=LegacyConfig.from_dict(legacy_data),
            owner_prepare_arguments=owner,
            schema_mode=mode,
            unrepairable=unrepairable,
            on_observation=options.get("onObservation") if callable(options.get("onObservation")) else None,
            on_outcome=options.get("onOutcome") if callable(options.get("onOutcome")) else None,
        )
