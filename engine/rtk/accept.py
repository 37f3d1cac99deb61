"""Accept actual outputs as expected: the ``expected`` value of each chosen test, and nothing else,
is rewritten in the file's own text.

JSON files are edited through ``engine.jsonedit`` (only the value's span changes; the
file's style is kept). In TOML the test is found by its ``[[tests.<filter>]]`` block and name,
and only the ``expected = …`` value is replaced (a ``\"\"\"`` block when it has line breaks).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.diagnostics import position
from engine.jsvalues import JsonObject

if TYPE_CHECKING:
    from engine.rtk.verify import TestOutcome


class AcceptError(ValueError):
    """The test cannot be edited in place (said in words)."""


@dataclass
class Accepted:
    filter_id: str
    test_name: str
    line: int
    column: int
    before: str
    after: str

    def to_dict(self) -> JsonObject:
        return {"filterId": self.filter_id, "testName": self.test_name, "line": self.line, "column": self.column,
                "before": self.before, "after": self.after}


def accept_json(text: str, outcomes: Iterable[TestOutcome]) -> tuple[str, list[Accepted]]:
    from engine import jsonedit, jsontree

    style = jsonedit.Style.detect(text)
    done: list[Accepted] = []
    for o in outcomes:
        parsed = jsontree.parse(text)
        if not parsed.ok or o.pointer is None:
            raise AcceptError("the file is not valid JSON; fix it first")
        test = jsontree.resolve(parsed.root, o.pointer)
        if test is None or not isinstance(test.value, dict) or test.value.get("name") != o.test_name:
            raise AcceptError(f"test '{o.test_name}' is no longer at {o.pointer}")
        splice = jsonedit.set_value(text, parsed, o.pointer + "/expected", o.actual, style)
        line, column = position(text, splice.start)
        done.append(Accepted(o.filter_id, o.test_name, line, column, test.value.get("expected", ""), o.actual))
        text = splice.apply(text)
    return text, done


_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*tests[ \t]*\.[ \t]*(\"(?:[^\"\\]|\\.)*\"|'[^']*'|[A-Za-z0-9_-]+)[ \t]*\]\]",
                     re.M)
_TABLE = re.compile(r"^[ \t]*\[", re.M)
_EXPECTED = re.compile(r"^[ \t]*expected[ \t]*=[ \t]*", re.M)


def _key_name(token: str) -> str:
    if token[0] in "\"'":
        name: str = tomllib.loads(f"k = {token}")["k"]  # a quoted TOML key is a string
        return name
    return token


def _value_end(text: str, start: int, want: str) -> int:
    """Where the TOML string value starting at ``start`` ends (the first line end that parses to ``want``)."""
    end = start
    while True:
        end = text.find("\n", end + 1)
        stop = len(text) if end < 0 else end
        try:
            if tomllib.loads("v = " + text[start:stop]).get("v") == want:
                return stop
        except tomllib.TOMLDecodeError:
            pass
        if end < 0:
            raise AcceptError("could not find the end of the expected value")


def _block(text: str, start: int) -> tuple[dict[str, Any], int] | None:
    """The test block after a header: the first following ``[`` line that ends a parseable body
    (a ``[`` inside a multi-line string leaves the body unterminated, so it is skipped)."""
    ends = [m.start() for m in _TABLE.finditer(text, start)] + [len(text)]
    for end in ends:
        try:
            return tomllib.loads(text[start:end]), end
        except tomllib.TOMLDecodeError:
            continue
    return None


def accept_toml(text: str, outcomes: Iterable[TestOutcome]) -> tuple[str, list[Accepted]]:
    from engine.rtk.toml_io import multiline_string

    done: list[Accepted] = []
    for o in outcomes:
        for header in _HEADER.finditer(text):
            if _key_name(header.group(1)) != o.filter_id:
                continue
            found = _block(text, header.end())
            if found is None:
                continue
            body, body_end = found
            if body.get("name") != o.test_name:
                continue
            key = _EXPECTED.search(text, header.end(), body_end)
            if key is None:
                raise AcceptError(f"test '{o.test_name}' of '{o.filter_id}' has no expected key")
            end = _value_end(text, key.end(), body.get("expected", ""))
            line, column = position(text, key.end())
            done.append(Accepted(o.filter_id, o.test_name, line, column, body.get("expected", ""), o.actual))
            text = text[:key.end()] + multiline_string(o.actual) + text[end:]
            break
        else:
            raise AcceptError(f"test '{o.test_name}' of '{o.filter_id}' was not found in the file")
    return text, done
