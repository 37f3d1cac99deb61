"""JavaScript's replacement-template expansion (``GetSubstitution``), read once per template.

The rules: ``$$`` is ``$``; ``$&`` the match; ``$``` and ``$'`` the text before and after it;
``$n``/``$nn`` a group when that group exists (``$nn`` falls back to ``$n`` followed by a digit,
JSR-Q9), else literal; ``$<name>`` a named group (nothing when no group has that name), but a
literal ``$<`` when the pattern has no named groups or no ``>`` follows. Anything else is literal.

``pieces`` reads a template by these rules once (cached) into literal text and references;
three consumers expand them: ``JSRegExp.replace`` on its working units (``runtime``),
``regex_template`` for ``regex``'s own ``sub`` (when the template can be spelled there), and
``expand_template`` for a caller that holds a :class:`~engine.jsregex.runtime.JSMatch`
(Caveman's fast paths).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from engine.jsvalues import from_utf16_units, utf16_len, utf16_to_py_index

from .. import memo

if TYPE_CHECKING:
    from .runtime import JSMatch

MATCH = 0  # ``$&``
BEFORE = -1  # ``$```
AFTER = -2  # ``$'``
# A piece: literal text (str); a reference (int): group n ≥ 1, or MATCH/BEFORE/AFTER; or a
# named group (a 1-tuple holding its name, which the caller resolves).
Piece = str | int | tuple[str]


@memo.lru(maxsize=1024)
def pieces(template: str, group_count: int, named: bool) -> tuple[Piece, ...]:
    """``template`` read for a pattern with ``group_count`` groups (``named``: some have names).
    Adjacent literal text is one piece."""
    out: list[Piece] = []
    text: list[str] = []
    i, n = 0, len(template)
    while i < n:
        j = template.find("$", i)
        if j < 0 or j + 1 >= n:
            text.append(template[i:])
            break
        text.append(template[i:j])
        c = template[j + 1]
        token: Piece | None = None
        if c == "$":
            text.append("$")
            i = j + 2
            continue
        if c == "&":
            token, i = MATCH, j + 2
        elif c == "`":
            token, i = BEFORE, j + 2
        elif c == "'":
            token, i = AFTER, j + 2
        elif "0" <= c <= "9":
            d2 = template[j + 2] if j + 2 < n else ""
            if d2 and "0" <= d2 <= "9" and 1 <= int(c + d2) <= group_count:
                token, i = int(c + d2), j + 3
            elif 1 <= int(c) <= group_count:
                token, i = int(c), j + 2
        elif c == "<" and named:
            close = template.find(">", j + 2)
            if close < 0:
                text.append("$<")
                i = j + 2
                continue
            token, i = (from_utf16_units(template[j + 2:close]),), close + 1
        if token is None:
            text.append("$")
            i = j + 1
            continue
        if text:
            joined = "".join(text)
            if joined:
                out.append(joined)
            text.clear()
        out.append(token)
    joined = "".join(text)
    if joined:
        out.append(joined)
    return tuple(out)


@memo.lru(maxsize=1024)
def regex_template(template: str, group_count: int, names: tuple[tuple[str, int], ...]) -> str | None:
    """``template`` as a ``regex`` ``sub`` template for a translated pattern (JS group ``n`` is
    ``gn`` there; ``names``: (name, index) pairs); None when it needs ``$``` or ``$'``."""
    if "\\" not in template and "$" not in template:
        return template
    index = dict(names)
    out: list[str] = []
    for piece in pieces(template, group_count, bool(names)):
        if isinstance(piece, str):
            out.append(piece.replace("\\", "\\\\"))
        elif isinstance(piece, tuple):
            found = index.get(piece[0])
            if found is not None:
                out.append(f"\\g<g{found}>")
        elif piece > 0:
            out.append(f"\\g<g{piece}>")
        elif piece == MATCH:
            out.append("\\g<0>")
        else:
            return None
    return "".join(out)


class HasGroupNames(Protocol):
    """A compiled pattern (``JSRegExp`` or a wrapper around one) that knows its group names."""

    @property
    def group_names(self) -> list[str]: ...


def expand_template(template: str, m: JSMatch, subject: str, rx: HasGroupNames) -> str:
    """``GetSubstitution`` for one match ``m`` of ``rx`` in ``subject`` (Python strings)."""
    if "$" not in template:
        return template
    out: list[str] = []
    groups = m.groups
    for piece in pieces(template, len(groups), bool(rx.group_names)):
        if isinstance(piece, str):
            out.append(piece)
        elif isinstance(piece, tuple):
            out.append(m.named.get(piece[0]) or "")
        elif piece > 0:
            out.append(groups[piece - 1] or "")
        elif piece == MATCH:
            out.append(m.match)
        elif piece == BEFORE:
            out.append(subject[:utf16_to_py_index(subject, m.index)])
        else:
            out.append(subject[utf16_to_py_index(subject, m.index + utf16_len(m.match)):])
    return "".join(out)
