"""A new, empty Caveman rule pack: valid, schema-referenced, with nothing that rewrites text yet.

An empty ``rules`` list is deliberate: a scaffold that shipped an example rule would rewrite
prose its author never chose to rewrite.
"""

from __future__ import annotations

import re
from typing import Any

from engine.jsvalues import json_stringify

PACK_SCHEMA_URL = "https://rulewright.dev/schemas/caveman-pack.schema.json"
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def scaffold_pack(language: str, category: str) -> dict[str, Any]:
    """The pack object for ``rules/<language>/<category>.json``; ValueError on an unusable name."""
    for what, value in (("language", language), ("category", category)):
        if not NAME_PATTERN.match(value or ""):
            raise ValueError(f"{what} {value!r}: use letters, digits, '-', '_' or '.', "
                             "starting with a letter or digit")
    return {"$schema": PACK_SCHEMA_URL, "language": language, "category": category, "description": "",
            "rules": []}


def render_pack(obj: dict[str, Any]) -> str:
    return (json_stringify(obj, 2) or "{}") + "\n"
