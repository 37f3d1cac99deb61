"""Lints for pack authors: rules that are not idempotent.

A rule is idempotent when running it on its own output changes nothing. Rules that are not
(``\\bfoo\\b`` → ``foo bar``, or an expansion that re-matches) make a compressed text drift
every time it is compressed again. We probe each rule with texts built from the rule itself
(its map keys and values, its replacement) and any samples the caller passes.
"""

from __future__ import annotations

from typing import Any

from engine.caveman.apply import RuleRunner
from engine.caveman.packs import rules_from_pack, validate_rule_pack
from engine.diagnostics import Diagnostic
from engine.jsregex import JSSyntaxError, RegexTimeout

_FRAMES = ("{}", "{} and more.", "Well, {} here.", "{}\n{}", "{} {}")
_GENERIC = (
    "Please note that the function basically returns a very large response.",
    "I think that we should probably update the configuration in order to fix it.",
    "The database request failed because the authentication token expired.",
    "Thanks! Could you please explain in detail how the dependency works?",
)


def _probes(raw: dict[str, Any], samples: tuple[str, ...]) -> list[str]:
    seeds: list[str] = []
    mapping = raw.get("replacementMap")
    if isinstance(mapping, dict):
        seeds.extend(k for k in mapping if isinstance(k, str))
        seeds.extend(v for v in mapping.values() if isinstance(v, str))
    if isinstance(raw.get("replacement"), str):
        seeds.append(raw["replacement"])
    probes = [frame.format(seed, seed) for seed in seeds if seed.strip() for frame in _FRAMES]
    return [*probes, *_GENERIC, *samples]


def lint_idempotence(pack: dict[str, Any], samples: list[str] | tuple[str, ...] = (),
                     *, profile: str = "omniroute") -> list[Diagnostic]:
    """A warning (code ``CAV-idempotence``, pointer ``/rules/i``) per rule whose second run on
    some probe text changes the text again, with that example."""
    if validate_rule_pack(pack):
        return []
    runner = RuleRunner(profile=profile)
    out: list[Diagnostic] = []
    for rule, raw in zip(rules_from_pack(pack, "lint"), pack["rules"]):
        for probe in _probes(raw, tuple(samples)):
            try:
                once = runner.apply(rule, probe, rx=runner.fresh(rule)).after
                twice = runner.apply(rule, once, rx=runner.fresh(rule)).after
            except (RegexTimeout, JSSyntaxError):
                break
            if once != twice:
                out.append(Diagnostic(
                    f"rule {rule.name} is not idempotent: {probe!r} → {once!r} → {twice!r}", "warning",
                    "CAV-idempotence", pointer=f"/rules/{rule.index}", source="caveman",
                    data={"rule": rule.name, "example": probe, "once": once, "twice": twice}))
                break
    return out
