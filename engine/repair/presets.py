"""pi's seven built-in tool presets (pi-repair-layer ``tables.ts``, spec §13 and appendix).

Each preset is the extension's ``PIPELINE_PREPROCESSORS[tool]`` (run before any configured
preprocessors) plus ``REPAIR_CONFIGS[tool]`` as the legacy config.
"""

from __future__ import annotations

import copy
from typing import Any

from .policy import ANCHOR_BLEED_FAMILIES, GRAMMAR_TOKEN_FAMILIES
from .preprocess import NEW_TEXT_KEYS, OLD_TEXT_KEYS

PATH_ALIASES = ["file_path", "filePath", "filepath", "absolute_path", "absolutePath", "pathname",
                "file", "filename", "fileName", "target_file", "targetFile"]
DIRECTORY_ALIASES = ["directory", "dir", "folder", "directory_path", "directoryPath"]
COMMAND_ALIASES = ["cmd", "script", "shell", "bash_command", "bashCommand", "command_line",
                   "commandLine"]
EDITS_ALIASES = ["changes", "replacements", "modifications", "operations"]
CONTENT_ALIASES = ["text", "body", "data", "contents", "file_content", "fileContent", "file_text",
                   "fileText", "new_content", "newContent"]
GREP_PATTERN_ALIASES = ["query", "regex", "search", "q", "expression", "search_pattern",
                        "searchPattern"]
FIND_PATTERN_ALIASES = ["glob", "query", "name_pattern", "namePattern", "file_pattern",
                        "filePattern", "search", "name"]
OLD_TEXT_ALIASES = list(OLD_TEXT_KEYS[1:])
NEW_TEXT_ALIASES = list(NEW_TEXT_KEYS[1:])

BUILTIN_TOOLS = ("read", "bash", "edit", "write", "grep", "find", "ls")


def _families(names: tuple[str, ...]) -> list[dict[str, str]]:
    return [{"source": name, "flags": "i"} for name in names]


def _alias(selector: str, aliases: list[str], accepts: str, empty: bool = False) -> dict[str, Any]:
    return {"kind": "alias", "selector": selector, "aliases": list(aliases), "accepts": accepts,
            "emptyEquivalentToMissing": empty}


def _path(selector: str = "/path") -> dict[str, Any]:
    return {"kind": "filesystem-path", "selector": selector}


def _anchor(selector: str = "/path") -> dict[str, Any]:
    return {"kind": "anchor-bleed", "selector": selector, "modelFamilies": _families(ANCHOR_BLEED_FAMILIES)}


def _grammar(selector: str = "") -> dict[str, Any]:
    return {"kind": "grammar-tokens", "selector": selector, "modelFamilies": _families(GRAMMAR_TOKEN_FAMILIES)}


_PREPROCESSORS: dict[str, list[dict[str, Any]]] = {
    "read": [_alias("/path", PATH_ALIASES, "string", True), _path(), _anchor(), _grammar()],
    "bash": [_alias("/command", COMMAND_ALIASES, "string"), _grammar()],
    "edit": [
        _alias("/path", PATH_ALIASES, "string", True),
        _alias("/edits", EDITS_ALIASES, "array"),
        _alias("/edits/*/oldText", OLD_TEXT_ALIASES, "string"),
        _alias("/edits/*/newText", NEW_TEXT_ALIASES, "string"),
        _path(), _anchor(), _grammar(), _grammar("/edits/*"),
        {"kind": "structural", "selector": "", "builtin": "foldFlatEditFields",
         "ruleId": "foldFlatEditFields"},
    ],
    "write": [_alias("/path", PATH_ALIASES, "string", True), _alias("/content", CONTENT_ALIASES, "string"),
              _path(), _anchor(), _grammar()],
    "grep": [_alias("/pattern", GREP_PATTERN_ALIASES, "string"), _path(), _anchor(), _grammar()],
    "find": [_alias("/pattern", FIND_PATTERN_ALIASES, "string"), _path(), _anchor(),
             _anchor("/pattern"), _grammar()],
    "ls": [_alias("/path", DIRECTORY_ALIASES + PATH_ALIASES, "string", True), _path(), _anchor(), _grammar()],
}

_LEGACY: dict[str, dict[str, Any]] = {
    "read": {"fieldAliases": {"path": PATH_ALIASES}, "rootString": {"field": "path"}, "pathFields": ["path"]},
    "bash": {"fieldAliases": {"command": COMMAND_ALIASES}, "rootString": {"field": "command"}},
    "edit": {"fieldAliases": {"path": PATH_ALIASES, "edits": EDITS_ALIASES, "oldText": OLD_TEXT_ALIASES,
                              "newText": NEW_TEXT_ALIASES},
             "pathFields": ["path"], "structural": ["foldFlatEditFields"]},
    "write": {"fieldAliases": {"path": PATH_ALIASES, "content": CONTENT_ALIASES}, "pathFields": ["path"]},
    "grep": {"fieldAliases": {"pattern": GREP_PATTERN_ALIASES}, "rootString": {"field": "pattern"},
             "pathFields": ["path"]},
    "find": {"fieldAliases": {"pattern": FIND_PATTERN_ALIASES}, "rootString": {"field": "pattern"},
             "pathFields": ["path"]},
    "ls": {"fieldAliases": {"path": DIRECTORY_ALIASES + PATH_ALIASES}, "rootString": {"field": "path"},
           "pathFields": ["path"]},
}


def builtin_preprocessors(tool: str) -> list[dict[str, Any]]:
    """A fresh copy of ``PIPELINE_PREPROCESSORS[tool]``."""
    return copy.deepcopy(_PREPROCESSORS[tool])


def builtin_legacy_config(tool: str) -> dict[str, Any]:
    """A fresh copy of ``REPAIR_CONFIGS[tool]``."""
    return copy.deepcopy(_LEGACY[tool])
