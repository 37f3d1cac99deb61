"""Small builders for RTK test filters (our own fixtures, written inline)."""

from __future__ import annotations

from typing import Any

from engine.rtk.model import RtkFilter, parse_filter


def canonical(fid: str = "t", *, rules: dict[str, Any] | None = None, preserve: dict[str, Any] | None = None,
              match: dict[str, Any] | None = None, priority: int = 50, category: str = "generic") -> dict:
    return {
        "id": fid, "label": fid, "category": category, "priority": priority,
        "match": match if match is not None else {},
        "rules": rules if rules is not None else {},
        "preserve": preserve if preserve is not None else {},
    }


def make(fid: str = "t", *, source: str = "builtin", profile: str = "omniroute", **kwargs: Any) -> RtkFilter:
    flt, diagnostics = parse_filter(canonical(fid, **kwargs), profile=profile, source=source)
    assert flt is not None, [d.message for d in diagnostics]
    return flt
