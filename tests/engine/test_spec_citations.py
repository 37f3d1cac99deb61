"""Spec citations (``§N``) are for maintainers, and say what they rely on in our words.

The behavioural specs are not in the repository, so a reader who cloned it cannot open a cited
section. Three rules keep every citation readable without them:

- every cited section has a row in ``docs/spec-glossary.md`` saying what it is about;
- a citation sits in a docstring or a comment that states, in words, what the code takes from
  the section (at least ``MIN_WORDS`` words besides citations and quirk ids: a bare
  ``(§12)`` says nothing);
- nothing a user reads cites a section: no string the code uses at run time (a message, a
  diagnostic, a label) and no shipped document (``README.md``, the built-in ``rules/``,
  ``filters/``, ``resources/``) says "§"; a message says what is wrong in plain words.

A citation names its spec (``rtk.md §7.4``, ``verify-trust §3``) or, bare, means the spec of
the area it sits in (``engine/<area>/`` and its tests ``tests/engine/<area>/``; in ``rtk`` either
``rtk.md`` or ``verify-trust.md``; ``engine/bodies.py`` and ``engine/o200k.py`` cite
``caveman.md``). Code, tests, benchmarks and packaging are scanned.
"""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("engine", "app", "tests", "bench", "packaging")
SHIPPED = ("rules", "filters", "resources")  # package data: what users of the wheel read
IN_REPO = {"GAPS"}  # engine/jsregex/GAPS.md is in the repository itself
NAMED = re.compile(r"(?:\b([a-z][a-z-]*)(?:\.md)?`{0,2}\s*)?§§?(\d+(?:\.\d+)*)(?:\s*[–-]\s*§?(\d+(?:\.\d+)*))?")
QUIRK_ID = re.compile(r"\b[A-Z]{2,3}-(?:Q\d+|V8|SYNTAX|COUNT)\b")
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]+")
MIN_WORDS = 4


def glossary() -> dict[str, set[str]]:
    tables: dict[str, set[str]] = {}
    current = None
    for line in (ROOT / "docs" / "spec-glossary.md").read_text(encoding="utf-8").splitlines():
        heading = re.match(r"## (\S+)\.md\s*$", line)
        if heading:
            current = tables.setdefault(heading.group(1), set())
        row = re.match(r"\|\s*(\d+(?:\.\d+)*)\s*\|", line)
        if row and current is not None:
            current.add(row.group(1))
    return tables


def specs_for_bare_citation(path: Path) -> set[str]:
    parts = path.relative_to(ROOT).parts
    if parts[:2] == ("tests", "engine"):
        parts = ("engine", *parts[2:])  # a test folder cites the spec of the area it tests
    if parts[0] != "engine":
        return set()
    if parts[1] in ("bodies.py", "o200k.py"):
        return {"caveman"}
    if parts[1] == "rtk":
        return {"rtk", "verify-trust"}
    return {parts[1]} if len(parts) > 2 else set()


def sources() -> list[Path]:
    return sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*.py") if p != Path(__file__).resolve())


@dataclass(frozen=True)
class Citation:
    where: str  # file:line
    specs: frozenset[str]  # the specs it may mean
    section: str
    prose: str | None  # the docstring or comment block it sits in (None: neither, run-time text)


@dataclass(frozen=True)
class _Block:
    first: int
    last: int
    text: str


def _prose_blocks(text: str) -> list[_Block]:
    """Docstrings (module, class, function) and comment blocks (comments on consecutive lines)."""
    blocks: list[_Block] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                blocks.append(_Block(first.lineno, first.end_lineno or first.lineno, first.value.value))
    comments: list[tuple[int, str]] = [(tok.start[0], tok.string.lstrip("#"))
                                       for tok in tokenize.generate_tokens(io.StringIO(text).readline)
                                       if tok.type == tokenize.COMMENT]
    run: list[tuple[int, str]] = []
    for line, comment in comments:
        if run and line != run[-1][0] + 1:
            blocks.append(_Block(run[0][0], run[-1][0], " ".join(c for _l, c in run)))
            run = []
        run.append((line, comment))
    if run:
        blocks.append(_Block(run[0][0], run[-1][0], " ".join(c for _l, c in run)))
    return blocks


@functools.cache
def citations() -> tuple[Citation, ...]:
    """Every ``§`` citation of a spec in the scanned code (scanned once per test process)."""
    tables = glossary()
    out = []
    for path in sources():
        text = path.read_text(encoding="utf-8")
        if "§" not in text:
            continue
        blocks = None
        for m in NAMED.finditer(text):
            named = m.group(1)
            if named in IN_REPO:
                continue
            if blocks is None:
                blocks = _prose_blocks(text)
            line = text.count("\n", 0, m.start()) + 1
            around = [b for b in blocks if b.first <= line <= b.last]
            prose = min(around, key=lambda b: b.last - b.first).text if around else None
            specs = {named} if named in tables else specs_for_bare_citation(path)
            where = f"{path.relative_to(ROOT)}:{line}"
            out.extend(Citation(where, frozenset(specs), section, prose) for section in filter(None, m.group(2, 3)))
    return tuple(out)


def own_words(prose: str) -> list[str]:
    """The words of a docstring or comment besides its citations and quirk ids."""
    return WORD.findall(QUIRK_ID.sub(" ", NAMED.sub(" ", prose)))


def test_the_code_cites_spec_sections():
    assert len(citations()) > 200  # the scan finds the citations it is meant to check


def test_every_cited_section_is_explained_in_the_glossary():
    tables = glossary()
    unexplained = [f"{c.where}: §{c.section} ({' or '.join(sorted(c.specs)) or 'name the spec'})"
                   for c in citations() if not any(c.section in tables.get(spec, ()) for spec in c.specs)]
    assert unexplained == [], "add a row to docs/spec-glossary.md (or name the spec at the citation):\n" + \
        "\n".join(unexplained)


def test_citations_are_in_docstrings_or_comments_only():
    """A message, diagnostic or label never sends its reader to a section they cannot open."""
    at_run_time = [c.where for c in citations() if c.prose is None]
    assert at_run_time == [], "say what is wrong in plain words instead of citing the spec:\n" + \
        "\n".join(at_run_time)


def test_every_citation_states_what_it_relies_on():
    bare = sorted({f"{c.where}: {' '.join((c.prose or '').split())[:100]}" for c in citations()
                   if c.prose is not None and len(own_words(c.prose)) < MIN_WORDS})
    assert bare == [], "state, at the citation, what the code takes from the section:\n" + "\n".join(bare)


def test_shipped_documents_cite_no_spec_section():
    files = [ROOT / "README.md", *(p for folder in SHIPPED for p in (ROOT / folder).rglob("*")
                                   if p.is_file() and p.suffix in (".md", ".json", ".toml", ".txt"))]
    citing = [f"{p.relative_to(ROOT)}:{n}" for p in files
              for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
              if NAMED.search(line) and "§" in line]
    assert citing == [], "a user's document cites a spec they do not have:\n" + "\n".join(citing)


def test_the_checks_catch_what_they_are_meant_to():
    """The block finder and the word count see what the rules above rely on."""
    text = ('"""Module (spec §3): placeholders replace protected regions first."""\n'
            'X = "spec §9.3"\n'
            '# ---- budgets (§9.5)\n'
            'def f():\n    """Bare (§2)."""\n')
    blocks = _prose_blocks(text)
    assert sorted(b.first for b in blocks if "§" in b.text) == [1, 3, 5]
    assert not any(b.first <= 2 <= b.last for b in blocks)  # a run-time string is not prose
    assert len(own_words("budgets (§9.5)")) < MIN_WORDS
    assert len(own_words("Module (spec §3): placeholders replace protected regions first.")) >= MIN_WORDS
