"""Every spec section the code cites (``§N``) has a row in ``docs/spec-glossary.md``.

The specs are not in the repository, so the glossary says in our words what each cited section is
about. A citation names its spec (``rtk.md §7.4``, ``verify-trust §3``) or, bare, means the spec of
the area it sits in (``engine/<area>/``; in ``engine/rtk/`` either ``rtk.md`` or
``verify-trust.md``; ``engine/bodies.py`` and ``engine/o200k.py`` cite ``caveman.md``).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IN_REPO = {"GAPS"}  # engine/jsregex/GAPS.md is in the repository itself
NAMED = re.compile(r"(?:\b([a-z][a-z-]*)(?:\.md)?`{0,2}\s*)?§§?(\d+(?:\.\d+)*)(?:\s*[–-]\s*§?(\d+(?:\.\d+)*))?")


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
    if parts[0] != "engine":
        return set()
    if parts[1] in ("bodies.py", "o200k.py"):
        return {"caveman"}
    if parts[1] == "rtk":
        return {"rtk", "verify-trust"}
    return {parts[1]} if len(parts) > 2 else set()


def citations() -> list[tuple[str, set[str], str]]:
    """(``file:line``, the specs it may mean, section) for every ``§`` in engine/ and app/."""
    tables = glossary()
    out = []
    for path in sorted([*(ROOT / "engine").rglob("*.py"), *(ROOT / "app").rglob("*.py")]):
        text = path.read_text(encoding="utf-8")
        for m in NAMED.finditer(text):
            named = m.group(1)
            if named in IN_REPO:
                continue
            specs = {named} if named in tables else specs_for_bare_citation(path)
            where = f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
            out.extend((where, specs, section) for section in filter(None, m.group(2, 3)))
    return out


def test_the_code_cites_spec_sections():
    assert len(citations()) > 100  # the scan finds the citations it is meant to check


def test_every_cited_section_is_explained_in_the_glossary():
    tables = glossary()
    unexplained = [f"{where}: §{section} ({' or '.join(sorted(specs)) or 'name the spec'})"
                   for where, specs, section in citations()
                   if not any(section in tables.get(spec, ()) for spec in specs)]
    assert unexplained == [], "add a row to docs/spec-glossary.md (or name the spec at the citation):\n" + \
        "\n".join(unexplained)
