"""``runRepairPipeline`` (spec §1.1): envelope → owner hook → preprocessors → schema repair →
final Convert + Check, with truncated-object candidates tried first when the policy allows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .context import RepairContext
from .envelope import COMPLETE_NOTE, EnvelopeResult, recover_envelope, resolve_limits
from .feedback import retry_message
from .jsdata import deep_clone, same_value, stable_serialize
from .model import RepairChange, RepairObservation, RepairResult
from .options import RepairOptions
from .policy import resolve_repair_policy
from .preprocess import preprocess_input
from .quirks import DEFAULT_PROFILE, check_profile
from .schema_repair import repair_schema_input
from .typebox import build_schema, check, convert, errors

DECODE_PIPELINE_NOTE = ('Parsed your JSON-stringified arguments for tool "{tool}". Send the arguments '
                        "as a JSON object next time, not a string.")
OWNER_SHIM_NOTE = "The tool's own prepareArguments hook changed the arguments."
CONVERT_NOTE = "Converted argument values to the types the tool schema declares."


@dataclass
class _Attempt:
    outcome: str
    args: Any
    changes: list[RepairChange] = field(default_factory=list)
    observations: list[RepairObservation] = field(default_factory=list)
    issue_summary: str | None = None
    fingerprint: str | None = None
    retry_message: str | None = None


class _Pipeline:
    def __init__(self, raw: object, options: RepairOptions, ctx: RepairContext) -> None:
        self.raw = raw
        self.options = options
        self.ctx = ctx

    def emit(self, observations: list[RepairObservation]) -> None:
        callback = self.options.on_observation
        if callback is None:
            return
        for obs in observations:
            try:
                callback(obs.to_dict())
            except Exception:  # the reference swallows observer errors
                pass

    def owner(self, value: object) -> Any:
        hook = self.options.owner_prepare_arguments
        if hook is None:
            return value
        try:
            return hook(deep_clone(value))
        except Exception as exc:  # a failing owner hook keeps the value (spec §3)
            self.ctx.step("owner-shim", f"the owner hook threw ({exc}); the value is kept")
            return value

    def downstream(self, value: object, initial: list[RepairChange]) -> _Attempt:
        ctx = self.ctx
        shimmed = self.owner(value)
        owner_changed = stable_serialize(shimmed) != stable_serialize(value)
        owner_changes: list[RepairChange] = []
        if owner_changed:
            ctx.step("owner-shim", "the owner hook changed the arguments")
            if ctx.strict:  # strict fix of REP-Q12
                owner_changes.append(RepairChange("ownerPrepareArguments", "owner-shim", OWNER_SHIM_NOTE))
            else:
                ctx.quirk("REP-Q12", "the owner's prepareArguments hook changed the arguments unrecorded")
        pre = preprocess_input(shimmed, self.options.preprocessors, ctx)
        observations = [RepairObservation(rule_id, ctx.tool_name) for rule_id in pre.observed]
        stage = repair_schema_input(pre.value, ctx, self.options.legacy)
        if stage.outcome == "unrepairable":
            message = stage.retry_message
            if ctx.strict:  # strict fix of REP-Q3: raw input and the final attempt's errors
                message = retry_message(ctx.tool_name, errors(ctx.schema, stage.final_value), self.raw)
            elif not same_value(pre.value, self.raw):
                ctx.quirk("REP-Q3", "the retry message shows the preprocessed value, not the raw input")
            return _Attempt("unrepairable", stage.args, [], observations, stage.issue_summary,
                            stage.fingerprint, message)
        final = convert(ctx.schema, deep_clone(stage.args))
        if not check(ctx.schema, final):
            ctx.step("final-validation", "Convert + Check failed on the schema stage's result")
            return _Attempt("unrepairable", stage.args, [], observations, stage.issue_summary,
                            stage.fingerprint, None)
        changes = initial + owner_changes + pre.changes + stage.changes
        if changes:
            return _Attempt("repaired", final, changes, observations, stage.issue_summary, stage.fingerprint)
        args = shimmed if owner_changed else value
        if not same_value(final, args):
            if ctx.strict:  # strict fix of REP-Q2: hand back the converted value, say so
                return _Attempt("repaired", final, [RepairChange("convertValue", "final-validation", CONVERT_NOTE)],
                                observations)
            ctx.quirk("REP-Q2", "the input is valid only after Convert and is returned unconverted")
        return _Attempt("valid", args, [], observations)

    def _trace_envelope(self, envelope: EnvelopeResult) -> None:
        ctx = self.ctx
        if envelope.limited:
            ctx.step("envelope", "over the size or depth limit: the input is used as is")
            return
        decoded = sum(c.rule_id == "envelope.decode-json" for c in envelope.changes)
        if decoded:
            ctx.step("envelope", f"decoded {decoded} JSON layer(s)")
        if any(c.rule_id == "envelope.unwrap-singleton-object-array" for c in envelope.changes):
            ctx.step("envelope", "unwrapped a singleton object array")
        if envelope.candidates:
            allowed = "tried first" if ctx.policy.allow_truncated_envelope_completion else "not allowed by the policy"
            ctx.step("envelope", f"{len(envelope.candidates)} truncation candidate(s), {allowed}")
        if not envelope.changes and not envelope.candidates:
            ctx.step("envelope", "nothing to recover")

    def run(self) -> RepairResult:
        ctx, options = self.ctx, self.options
        envelope = recover_envelope(
            self.raw, resolve_limits(options.limits), exact_ints=ctx.strict,
            on_inexact=lambda literal: ctx.quirk("REP-Q15", f"integer {literal} lost precision as a double"))
        envelope_changes = [
            RepairChange(c.rule_id, c.stage, DECODE_PIPELINE_NOTE.format(tool=ctx.tool_name))
            if c.rule_id == "envelope.decode-json" else c
            for c in envelope.changes
        ]
        self._trace_envelope(envelope)
        winner: _Attempt | None = None
        if ctx.policy.allow_truncated_envelope_completion:
            for candidate in envelope.candidates:
                mark = len(ctx.diagnostics)
                ctx.step("envelope", f"trying truncation candidate {envelope.candidates.index(candidate) + 1}")
                attempt = self.downstream(candidate, [RepairChange("envelope.complete-truncated-object",
                                                                   "envelope", COMPLETE_NOTE)])
                ctx.step("envelope", f"truncation candidate {envelope.candidates.index(candidate) + 1} "
                                     f"ended {attempt.outcome}")
                if attempt.outcome != "unrepairable":
                    winner = attempt
                    break
                del ctx.diagnostics[mark:]  # a discarded attempt changed no result
                if not ctx.strict:
                    self.emit(attempt.observations)  # REP-Q13: failed candidates observe too
                    if attempt.observations:
                        ctx.quirk("REP-Q13", "a failed truncation candidate emitted observations")
        if winner is None:
            if envelope.candidates and ctx.policy.allow_truncated_envelope_completion:
                ctx.step("envelope", "no candidate passed: back to the primary path")
            winner = self.downstream(envelope.value, envelope_changes)
            if winner.outcome == "unrepairable":
                winner.args, winner.changes = self.raw, []
            elif winner.outcome == "valid" and stable_serialize(winner.args) == stable_serialize(self.raw):
                winner.args = self.raw
        self.emit(winner.observations)
        ctx.step("final-validation", f"outcome {winner.outcome}", changes=len(winner.changes))
        result = RepairResult(winner.outcome, winner.args, ctx.policy.profile, winner.changes,
                              winner.observations, winner.issue_summary, winner.fingerprint,
                              winner.retry_message if winner.outcome == "unrepairable" else None,
                              ctx.diagnostics, ctx.trace)
        if options.on_outcome is not None:
            try:
                options.on_outcome(result)
            except Exception:  # the reference swallows onOutcome errors
                pass
        return result


def run_repair(schema: object, args: object, options: dict[str, Any] | RepairOptions | None = None, *,
               profile: str = DEFAULT_PROFILE) -> RepairResult:
    """Repair one tool call's arguments against its parameter schema (``runRepairPipeline``).

    ``schema`` is a JSON Schema; ``options`` is the request options object (spec appendix A) or a
    :class:`RepairOptions`. ``profile="pi-repair-layer"`` reproduces the reference (quirks
    reported as ``REP-Qn`` diagnostics); ``"strict"`` applies the fixes.
    """
    check_profile(profile)
    opts = options if isinstance(options, RepairOptions) else RepairOptions.from_dict(options)
    strict = profile == "strict"
    policy = resolve_repair_policy(opts.policy, opts.policy_overrides, strict=strict)
    ctx = RepairContext(opts.tool_name, build_schema(schema, opts.schema_mode), policy, profile,
                        opts.model_id)
    if not policy.known:
        ctx.quirk("REP-Q10", f"unknown policy {policy.profile!r} disables completion and value transforms")
    from engine.jsregex import JSUnsupportedError, RegexTimeout

    try:
        return _Pipeline(args, opts, ctx).run()
    except (RegexTimeout, JSUnsupportedError) as exc:
        # Fail closed: a schema pattern or model-family regex could not be evaluated safely.
        pattern = getattr(exc, "source", "")
        ctx.note("REP-REGEX", f"regular expression /{pattern}/ could not be evaluated: {exc}", level="error")
        return RepairResult("unrepairable", args, policy.profile, diagnostics=ctx.diagnostics)
