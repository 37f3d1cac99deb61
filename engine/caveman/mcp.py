"""MCP metadata description compression (``descriptionCompressor.ts``, spec §14).

Tool/prompt/resource descriptions are compressed with the English ``all``-context rules at
``full`` and a light normalisation; savings are counted as an *estimate*
(``source: "mcp_metadata_estimate"``), never as provider usage.
"""

from __future__ import annotations

import copy
import math
import os
import re
from dataclasses import asdict, dataclass
from typing import Any

from engine.caveman.apply import RuleRunner, select_rules
from engine.caveman.cleanup import recapitalize
from engine.caveman.packs import PackSource, Rule
from engine.caveman.prefilter import Prefilter
from engine.caveman.preservation import extract, restore
from engine.jsregex import RegexTimeout
from engine.jsvalues import js_trim, utf16_len

KILL_SWITCHES = ("OMNIROUTE_MCP_COMPRESS_DESCRIPTIONS", "OMNIROUTE_MCP_DESCRIPTION_COMPRESSION")
LIST_KEYS = ("tools", "prompts", "resources", "resourceTemplates")
_BLANKS = re.compile(r"[ \t]{2,}")
_BLANK_BEFORE_PUNCT = re.compile(r"[ \t]([,.;:!?])")
_BLANK_LINES = re.compile(r"\n{3,}")


@dataclass
class McpCounters:
    """Process-wide counters of the reference (one instance per session here)."""

    descriptionsCompressed: int = 0
    charsBefore: int = 0
    charsAfter: int = 0
    charsSaved: int = 0
    estimatedTokensSaved: int = 0

    def status(self, *, persisted_tokens: int = 0, persisted_snapshots: int = 0) -> dict[str, Any]:
        return {**asdict(self), "persistedEstimatedTokensSaved": persisted_tokens,
                "persistedSnapshots": persisted_snapshots, "source": "mcp_metadata_estimate",
                "notProviderUsage": True}


class McpDescriptionCompressor:
    def __init__(self, packs: PackSource, *, fallback_rules: list[Rule] | None = None,
                 profile: str = "omniroute", counters: McpCounters | None = None) -> None:
        self.packs = packs
        self.profile = profile
        self.fallback_rules = fallback_rules
        self.counters = counters or McpCounters()
        self.runner = RuleRunner(profile=profile)
        self._rules: list[Rule] | None = None

    def rules(self) -> list[Rule]:
        if self._rules is None:
            sel = select_rules(self.packs.rules_for("en"), self.fallback_rules, "all", "full", profile=self.profile)
            self._rules = sel.rules
        return self._rules

    def compress(self, text: str) -> dict[str, Any]:
        """``compressMcpDescription``: ``{compressed, before, after, changed}`` (lengths in UTF-16)."""
        if not text:
            return {"compressed": text, "before": 0, "after": 0, "changed": False}
        ex = extract(text, [], profile=self.profile)
        work = ex.text
        prefilter = None if self.profile == "strict" else Prefilter(work)
        for rule in self.rules():
            if prefilter is not None and not prefilter.attempt(rule.name):
                continue
            try:
                work = self.runner.apply(rule, work).after
            except RegexTimeout:
                continue
        work = _BLANKS.sub(" ", work)
        work = _BLANK_BEFORE_PUNCT.sub(r"\1", work)
        work = _BLANK_LINES.sub("\n\n", work)
        work = js_trim(recapitalize(work))
        out = restore(work, ex)
        return {"compressed": out, "before": utf16_len(text), "after": utf16_len(out), "changed": out != text}

    def maybe_compress(self, text: str, *, enabled: bool | None = None) -> str:
        """``maybeCompressMcpDescription``: the compressed text only when it is shorter."""
        if enabled is False or _killed() or not isinstance(text, str):
            return text
        r = self.compress(text)
        if not r["changed"] or r["after"] >= r["before"]:
            return text
        saved = r["before"] - r["after"]
        c = self.counters
        c.descriptionsCompressed += 1
        c.charsBefore += r["before"]
        c.charsAfter += r["after"]
        c.charsSaved += saved
        c.estimatedTokensSaved += math.ceil(saved / 4)
        compressed: str = r["compressed"]
        return compressed

    def list_metadata(self, value: Any, *, enabled: bool | None = None) -> Any:
        """``compressMcpListMetadata``: every string ``description`` inside tools/prompts/resources
        arrays, at any depth (input-schema property descriptions included), on a deep copy."""
        clone = copy.deepcopy(value)
        self._walk_lists(clone, enabled)
        return clone

    def _walk_lists(self, node: Any, enabled: bool | None) -> None:
        if isinstance(node, dict):
            for key, child in node.items():
                if key in LIST_KEYS and isinstance(child, list):
                    for item in child:
                        self._compress_descriptions(item, enabled)
                else:
                    self._walk_lists(child, enabled)
        elif isinstance(node, list):
            for child in node:
                self._walk_lists(child, enabled)

    def _compress_descriptions(self, node: Any, enabled: bool | None) -> None:
        if isinstance(node, dict):
            for key, child in list(node.items()):
                if key == "description" and isinstance(child, str):
                    node[key] = self.maybe_compress(child, enabled=enabled)
                else:
                    self._compress_descriptions(child, enabled)
        elif isinstance(node, list):
            for child in node:
                self._compress_descriptions(child, enabled)

    def registry_metadata(self, meta: dict[str, Any], *, enabled: bool | None = None) -> dict[str, Any]:
        """``compressMcpRegistryMetadata``: shallow copy, top-level ``description`` only."""
        out = dict(meta)
        if isinstance(out.get("description"), str):
            out["description"] = self.maybe_compress(out["description"], enabled=enabled)
        return out


def _killed() -> bool:
    for name in KILL_SWITCHES:
        value = os.environ.get(name)
        if value is not None and value.strip().lower() in ("0", "false", "off", "no"):
            return True
    return False
