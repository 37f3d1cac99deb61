"""engine.jsregex.template: one reading of a replacement template, three ways to expand it
(``replace`` on working units, ``regex``'s own ``sub``, ``expand_template`` on a match) — all
must give JavaScript's answer."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.jsregex import compile_js
from engine.jsregex.template import AFTER, BEFORE, MATCH, expand_template, pieces, regex_template
from engine.jsvalues import utf16_len, utf16_to_py_index


@pytest.mark.parametrize(("template", "count", "named", "expected"), [
    ("a$&b", 0, False, ("a", MATCH, "b")),
    ("$$1", 1, False, ("$1",)),
    ("$1$2", 1, False, (1, "$2")),
    ("$12", 1, False, (1, "2")),  # JSR-Q9: $12 is group 1 then "2" when there is no group 12
    ("$12", 12, False, (12,)),
    ("$01$0", 1, False, (1, "$0")),
    ("$`x$'", 0, False, (BEFORE, "x", AFTER)),
    ("$<n>", 1, True, (("n",),)),
    ("$<n>", 1, False, ("$<n>",)),  # no named groups: literal
    ("$<n", 1, True, ("$<n",)),
    ("$", 0, False, ("$",)),
    ("$x", 0, False, ("$x",)),
])
def test_pieces(template, count, named, expected):
    assert pieces(template, count, named) == expected


def test_regex_template_spells_groups_and_escapes_backslashes():
    assert regex_template("\\$1-$<n>$&", 1, (("n", 1),)) == "\\\\\\g<g1>-\\g<g1>\\g<0>"
    assert regex_template("$`", 0, ()) is None


def _replace_by_matches(rx, subject, template):
    """``subject.replace(rx, template)`` (``g``) built from the matches and ``expand_template``."""
    out, position = [], 0
    for m in rx.match_all(subject):
        start = utf16_to_py_index(subject, m.index)
        out.append(subject[position:start])
        out.append(expand_template(template, m, subject, rx))
        position = utf16_to_py_index(subject, m.index + utf16_len(m.match))
    out.append(subject[position:])
    return "".join(out)


PATTERNS = ["(a)(b)?", "(?<n>x+)(y)", "b", "(\u00e9)|(\U0001F600)", "(?<n>a)|(?<m>c)", "x*"]
TEMPLATE = st.lists(st.sampled_from(["$", "&", "`", "'", "0", "1", "2", "3", "<", ">", "n", "m", "z", "\\",
                                     "\u00e9", "\U0001F600"]), max_size=10).map("".join)
SUBJECT = st.lists(st.sampled_from(["a", "b", "c", "x", "y", "ab", "\u00e9", "\U0001F600", " "]),
                   max_size=10).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATTERNS), st.sampled_from(["g", "gi"]), TEMPLATE, SUBJECT)
def test_every_expansion_path_gives_the_same_text(source, flags, template, subject):
    """``g`` without ``i`` takes ``regex``'s ``sub`` when it can; ``gi`` expands on working
    units; ``expand_template`` expands on the matches: the same answer each time."""
    rx = compile_js(source, flags)
    # (an empty match between the halves of an astral character splits it: no Python string
    # offset for the match-by-match reference to cut at)
    assume(not (rx.translation.nullable and any(ord(c) > 0xFFFF for c in subject)))
    assert rx.replace(subject, template) == _replace_by_matches(rx, subject, template)
