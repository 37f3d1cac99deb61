"""A new RTK filter from the command it is for: valid, schema-referenced, and honest about its test.

``scaffold_filter`` derives the command pattern from the program and its subcommand
(``cargo clippy --all`` → ``^cargo\\s+clippy\\b``), picks the category the way OmniRoute derives
one for TOML filters, and leaves every rule empty: a scaffold must not hide output its author has
not looked at. With a sample it adds one test whose expected text is what the (empty) filter does
to it, so the file passes ``verify`` as written and each rule the author adds shows up as a diff.
The CLI's ``new filter`` and the IDE's "New Filter from the command" share it.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from engine.jsvalues import json_stringify

FILTER_SCHEMA_URL = "https://rulewright.dev/schemas/rtk-filter.schema.json"
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SUBCOMMAND = re.compile(r"^[A-Za-z][A-Za-z0-9_:-]*$")
_JS_SYNTAX = set("^$\\.*+?()[]{}|")


class ScaffoldError(ValueError):
    """The id or command cannot make a filter (said in words the CLI prints as they are)."""


def js_regex_escape(text: str) -> str:
    """``text`` as a JavaScript regex matching it literally (no flags needed)."""
    return "".join("\\" + ch if ch in _JS_SYNTAX else ch for ch in text)


def command_words(command: str) -> tuple[str, str | None]:
    """(program, subcommand or None) of a shell command line; leading ``VAR=value`` are skipped."""
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: still take the plain words
        words = command.split()
    words = [w for w in words if w]
    while words and _ENV_ASSIGNMENT.match(words[0]):
        words.pop(0)
    if not words:
        raise ScaffoldError("the command is empty: give the command whose output this filter is for")
    program = words[0]
    # only the word right after the program: after an option it may be the option's value
    # (``kubectl -n prod get``), and a broader pattern is the safer scaffold
    sub = words[1] if len(words) > 1 and _SUBCOMMAND.match(words[1]) else None
    return program, sub


def suggested_id(command: str) -> str:
    """``terraform plan -out x`` → ``terraform-plan`` (empty when the command has no words yet)."""
    try:
        program, sub = command_words(command)
    except ScaffoldError:
        return ""
    ident = "-".join(w for w in (program.rsplit("/", 1)[-1], sub) if w).lower()
    return ident if ID_PATTERN.match(ident) else ""


def command_pattern(command: str) -> str:
    """``^program\\s+subcommand\\b``: what selects this filter for the command (and its variants)."""
    program, sub = command_words(command)
    parts = [js_regex_escape(program)]
    if sub:
        parts.append(js_regex_escape(sub))
    last = sub or program
    end = r"\b" if re.match(r"\w", last[-1], re.ASCII) else r"(?=\s|$)"
    return "^" + r"\s+".join(parts) + end


def scaffold_filter(filter_id: str, command: str, sample: str | None = None) -> dict[str, Any]:
    """A canonical filter object (``$schema`` first) for ``command``; see the module docstring."""
    from engine.rtk.inline_test import run_filter_stage, strip_trailing_newlines
    from engine.rtk.model import parse_filter
    from engine.rtk.toml_io import derive_category

    if not ID_PATTERN.match(filter_id or ""):
        raise ScaffoldError(f"filter id {filter_id!r}: use letters, digits, '-', '_' or '.', "
                            "starting with a letter or digit")
    program, sub = command_words(command)
    pattern = command_pattern(command)
    label = " ".join(w for w in (program, sub) if w)
    obj: dict[str, Any] = {
        "$schema": FILTER_SCHEMA_URL,
        "id": filter_id,
        "label": label,
        "description": "",
        "category": derive_category(filter_id, label),
        "priority": 50,
        "match": {"commands": [pattern]},
        "rules": {"stripAnsi": True, "dropPatterns": [], "includePatterns": []},
        "preserve": {"errorPatterns": [], "summaryPatterns": []},
        "tests": [],
    }
    if sample is not None:
        flt, problems = parse_filter(obj, check_regex=True)
        if flt is None:  # the pattern is built from escaped words; say so if that ever breaks
            raise ScaffoldError("the scaffold does not load: " + "; ".join(d.message for d in problems))
        expected = strip_trailing_newlines(run_filter_stage(flt, sample))
        obj["tests"] = [{"name": "sample", "command": command, "input": sample, "expected": expected}]
    return obj


def render_filter(obj: dict[str, Any]) -> str:
    """The file text: two-space JSON like every filter in the library, final newline."""
    return (json_stringify(obj, 2) or "{}") + "\n"
