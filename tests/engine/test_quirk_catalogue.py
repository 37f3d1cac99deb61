"""The quirk catalogue (docs/quirks/<area>.md) matches the quirk tables, and every quirk is pinned.

A row is ``| id | default profile | strict | code | pinned by |``; the last column names the test
files that pin the quirk, and at least one of them must cite the id *in a test*: inside a test
function (its name, docstring, decorators or body) or in a string a test reads (a table of cases,
an expected diagnostic code) — a mention in a module docstring or a section comment pins nothing.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from engine.caveman.quirks import QUIRKS as CAVEMAN
from engine.grammar.quirks import QUIRKS as GRAMMAR
from engine.jsregex.quirks import QUIRKS as JSREGEX
from engine.params.quirks import QUIRKS as PARAMS
from engine.repair.quirks import QUIRKS as REPAIR
from engine.rtk.quirks import QUIRKS as RTK
from engine.rtk.quirks import VT_QUIRKS

ROOT = Path(__file__).resolve().parents[2]
AREAS = {
    "caveman": set(CAVEMAN), "rtk": set(RTK) | set(VT_QUIRKS), "jsregex": set(JSREGEX),
    "repair": set(REPAIR), "grammar": set(GRAMMAR), "params": set(PARAMS),
}
ROW = re.compile(r"^\|\s*([A-Z]+-(?:Q\d+|V8))\s*\|(.*)\|\s*$")


def cites(text: str, quirk: str) -> bool:
    return re.search(re.escape(quirk) + r"(?!\d)", text) is not None


@functools.cache
def cited_in_tests(path: Path) -> str:
    """The parts of a test file that belong to tests: the source of every test function (with
    its decorators) and every string that is not a docstring, joined."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    parts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            parts.append("\n".join(lines[first - 1:node.end_lineno]))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            parts.append(node.value)
    return "\n".join(parts)


def rows(area: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in (ROOT / "docs" / "quirks" / f"{area}.md").read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            assert m.group(1) not in out, f"docs/quirks/{area}.md lists {m.group(1)} twice"
            out[m.group(1)] = [c.strip() for c in re.split(r"(?<!\\)\|", m.group(2))]
    return out


@pytest.mark.parametrize("area", sorted(AREAS))
def test_catalogue_lists_exactly_the_quirk_ids(area):
    listed = set(rows(area))
    assert not AREAS[area] - listed, f"add a row to docs/quirks/{area}.md for {sorted(AREAS[area] - listed)}"
    assert not listed - AREAS[area], f"docs/quirks/{area}.md names unknown ids {sorted(listed - AREAS[area])}"


@pytest.mark.parametrize("area", sorted(AREAS))
def test_each_row_says_both_profiles_and_names_a_test_that_cites_it(area):
    for quirk, cells in rows(area).items():
        assert len(cells) == 4 and cells[0] and cells[1], f"{quirk}: fill the default and strict columns"
        pinned = re.findall(r"`(tests/[^`]+\.py)`", cells[3])
        assert pinned, f"{quirk}: docs/quirks/{area}.md names no pinning test"
        for name in pinned:
            path = ROOT / name
            assert path.is_file(), f"{quirk}: {name} does not exist"
            assert cites(path.read_text(encoding="utf-8"), quirk), f"{quirk}: {name} does not cite it"
        assert any(cites(cited_in_tests(ROOT / name), quirk) for name in pinned), \
            f"{quirk}: none of {pinned} cites it in a test (only in a module docstring or a comment outside tests)"


def test_every_quirk_id_is_cited_by_a_test():
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in (ROOT / "tests").rglob("*.py")
             if p.name != Path(__file__).name]
    unpinned = sorted(q for ids in AREAS.values() for q in ids if not any(cites(t, q) for t in texts))
    assert unpinned == [], f"no test cites {unpinned}: add one that runs both profiles"
