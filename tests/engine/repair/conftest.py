"""Small shared fixtures for the repair tests (written here; no reference data)."""

from __future__ import annotations

import pytest

FILE_SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "minLength": 1},
        "offset": {"type": "number"},
        "labels": {"type": "array", "items": {"type": "string"}},
        "meta": {"type": "object"},
    },
    "required": ["path"],
}

READ_SCHEMA = {
    "type": "object",
    "required": ["path"],
    "properties": {"path": {"type": "string"}, "offset": {"type": "number"}, "limit": {"type": "number"}},
}

EDIT_SCHEMA = {
    "type": "object",
    "required": ["path", "edits"],
    "properties": {
        "path": {"type": "string"},
        "edits": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["oldText", "newText"],
                "properties": {"oldText": {"type": "string"}, "newText": {"type": "string"}},
            },
        },
    },
}


@pytest.fixture
def file_schema() -> dict:
    return FILE_SCHEMA


def rule_ids(result) -> list[str]:
    return [c.rule_id for c in result.changes]
