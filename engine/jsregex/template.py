"""JavaScript's replacement-template expansion (``GetSubstitution``) for one match.

Used where a caller holds a :class:`~engine.jsregex.runtime.JSMatch` and must expand a template
itself (Caveman's fast paths); ``JSRegExp.replace`` expands on its own working units. The
rules: ``$$`` is ``$``; ``$&`` the match; ``$``` and ``$'`` the text before and after it;
``$n``/``$nn`` a group when that group exists (``$nn`` falls back to ``$n`` followed by a digit,
JSR-Q9), else literal; ``$<name>`` a named group, literal when the pattern has no named groups.
"""

from __future__ import annotations

from typing import Protocol

from engine.jsvalues import utf16_len, utf16_to_py_index

from .runtime import JSMatch


class HasGroupNames(Protocol):
    """A compiled pattern (``JSRegExp`` or a wrapper around one) that knows its group names."""

    @property
    def group_names(self) -> list[str]: ...


def expand_template(template: str, m: JSMatch, subject: str, rx: HasGroupNames) -> str:
    """``GetSubstitution`` (jsregex.md §11) for one match: ``$$ $& $` $' $n $nn $<name>``."""
    if "$" not in template:
        return template
    out: list[str] = []
    i, n = 0, len(template)
    groups = m.groups
    count = len(groups)
    while i < n:
        c = template[i]
        if c != "$" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        nxt = template[i + 1]
        if nxt == "$":
            out.append("$")
            i += 2
        elif nxt == "&":
            out.append(m.match)
            i += 2
        elif nxt == "`":
            out.append(subject[:utf16_to_py_index(subject, m.index)])
            i += 2
        elif nxt == "'":
            out.append(subject[utf16_to_py_index(subject, m.index + utf16_len(m.match)):])
            i += 2
        elif nxt.isdigit() and nxt.isascii():
            two = template[i + 1:i + 3]
            if len(two) == 2 and two.isdigit() and two.isascii() and 1 <= int(two) <= count:
                out.append(groups[int(two) - 1] or "")
                i += 3
            elif 1 <= int(nxt) <= count:
                out.append(groups[int(nxt) - 1] or "")
                i += 2
            else:
                out.append("$")
                i += 1
        elif nxt == "<":
            close = template.find(">", i + 2)
            if not rx.group_names or close < 0:
                out.append("$<")
                i += 2
            else:
                out.append(m.named.get(template[i + 2:close]) or "")
                i = close + 1
        else:
            out.append("$")
            i += 1
    return "".join(out)
