"""Leaked tool-call grammar: find, strip and promote tool calls a model printed as text.

Reproduces pi-repair-layer 0.4.3 (the ``/grammar`` module and the extension's ``message_end``
hook) by default, quirks included; ``profile="strict"`` applies the quirk fixes.
"""

from __future__ import annotations

from typing import Any

from engine.grammar.candidates import GRAMMAR_NAMES
from engine.grammar.detect import detect
from engine.grammar.hook import HookState, message_end, recovery_note, tool_result_with_note
from engine.grammar.model_gate import model_leaks_grammar
from engine.grammar.recover import RecoveryResult, recover_grammar_leaks
from engine.grammar.settings import GrammarSettings, migrate

PROFILES = ("pi-repair-layer", "strict")

__all__ = [
    "GRAMMAR_NAMES",
    "PROFILES",
    "GrammarSettings",
    "HookState",
    "RecoveryResult",
    "detect",
    "message_end",
    "migrate",
    "model_leaks_grammar",
    "parse_tool_grammar_leaks",
    "recover_grammar_leaks",
    "recovery_note",
    "tool_result_with_note",
]


def is_strict(profile: str) -> bool:
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r} (expected one of {', '.join(PROFILES)})")
    return profile == "strict"


def parse_tool_grammar_leaks(text: str, grammars: Any = None, *, strict: bool = False) -> list[dict[str, Any]]:
    """``parseToolGrammarLeaks``: the kept calls, no gates, in selection order."""
    return [
        {"name": c.name, "arguments": c.arguments, "grammar": c.grammar}
        for c in detect(text, grammars, strict=strict).calls
    ]
