"""Caveman: OmniRoute's prose compression rules, reproduced exactly (profile ``omniroute``) or
with its quirks fixed (profile ``strict``). Qt-free; plain data in, plain data out."""

from engine.caveman.compress import Compressor, CompressResult, compress, compress_text, estimate_tokens
from engine.caveman.config import CavemanConfig, adapter_config
from engine.caveman.explain import Explanation, explain
from engine.caveman.language import detect_language
from engine.caveman.lint import lint_idempotence
from engine.caveman.mcp import McpCounters, McpDescriptionCompressor
from engine.caveman.packs import (
    PackError,
    PackSource,
    Rule,
    check_pack,
    load_fallback_rules,
    validate_rule_pack,
)
from engine.caveman.quirks import QUIRKS

__all__ = [
    "QUIRKS", "CavemanConfig", "CompressResult", "Compressor", "Explanation", "McpCounters",
    "McpDescriptionCompressor", "PackError", "PackSource", "Rule", "adapter_config", "check_pack", "compress",
    "compress_text", "detect_language", "estimate_tokens", "explain", "lint_idempotence", "load_fallback_rules",
    "validate_rule_pack",
]
