"""Small inline packs for the Caveman tests (never the reference's data)."""

from __future__ import annotations

from engine.caveman import Compressor, PackSource


def rule(name: str, pattern: str, replacement: str | None = "", **extra) -> dict:
    out = {"name": name, "pattern": pattern, **extra}
    if replacement is not None:
        out["replacement"] = replacement
    return out


def pack(*rules: dict, language: str = "xx", category: str = "filler") -> dict:
    return {"language": language, "category": category, "rules": list(rules)}


def run(text: str, *packs: dict, language: str = "xx", role: str = "user", profile: str = "omniroute",
        intensity: str = "full", fallback=None, timeout: float | None = None, **config):
    """Compress ``text`` as one message; returns (output text, result)."""
    cfg = {"enabled": True, "minMessageLength": 0, "compressRoles": [role], "language": language,
           "intensity": intensity, **config}
    result = Compressor(PackSource.from_packs(packs), cfg, profile=profile,
                        fallback_rules=fallback, timeout=timeout).compress_body({"messages": [{"role": role, "content": text}]})
    return result.body["messages"][0]["content"], result


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


FILLER = pack(
    rule("filler_words", r"\b(?:basically|really|just)\b\s*"),
    rule("polite", r"\bplease\s+", ""),
    rule("articles_g", r"\b(?:[Aa]n|[Aa]|[Tt]he)\s+(?=[a-z])", "", flags="g"),
)
