"""engine.jsregex.pcre_twin: on ASCII subjects the PCRE2 twin finds exactly the matches of the
``re`` twin (on the canonical subject for ``i`` patterns), for random JavaScript patterns and
for every pattern of the built-in packs; what it cannot say exactly has no twin."""

from __future__ import annotations

import json
from pathlib import Path

import pcre2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman.preservation import DEFAULT_PRESERVE_PATTERNS
from engine.jsregex import compile_js
from engine.jsregex.pcre_twin import NO_ASCII, NoTwin, ascii_source, pcre_twin, substitute_ascii
from engine.jsregex.twin import re_twin

# ASCII subjects with what tells engines apart: blanks of every kind (``re``'s ``\s`` has
# \x1c-\x1f), line ends, case, word edges, punctuation the emitter escapes
SUBJECT = st.text(alphabet="aAbBsSkKeE_1 \t\n\r\x0b\x0c\x1c\x1f.,-()[]$^\\", max_size=40)

ATOMS = st.sampled_from([
    "a", "B", "s", "k", "e", "1", "_", r"\.", r"\(", r"\$", r"\\", " ", ",", "-",
    ".", r"\s", r"\S", r"\w", r"\W", r"\d", r"\D", "[a-c]", "[^a]", "[A-Z_]", r"[^\s]", r"[\s\S]",
    r"[\u00e9-\u017f]", r"\u017f", r"\u212a", "é", r"\n", r"\r", r"\x0b", r"[\x00-\x1f]",
])
ASSERTIONS = st.sampled_from([r"\b", r"\B", "^", "$"])


def _patterns() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, inner).map("".join),
            st.tuples(inner, inner).map("|".join),
            inner.map(lambda p: f"({p})"),
            inner.map(lambda p: f"(?:{p})"),
            st.tuples(inner, st.sampled_from(["*", "+", "?", "{1,3}", "*?", "+?", "{2}"])).map("".join),
            inner.map(lambda p: f"(?={p})"),
            inner.map(lambda p: f"(?!{p})"),
            st.tuples(st.sampled_from(["(?<=", "(?<!"]), ATOMS).map(lambda t: f"{t[0]}{t[1]})"),
            inner.map(lambda p: f"({p})\\1"),
        )
    # (followed by an atom: most random patterns could match empty otherwise, which the twin never serves)
    return st.tuples(st.recursive(st.one_of(ATOMS, ASSERTIONS), extend, max_leaves=6), ATOMS).map("".join)


def _twins(source: str, flags: str):
    """(re twin, PCRE2 twin, whether it runs on the canonical subject), or None."""
    try:
        t = compile_js(source, flags).translation
    except Exception:
        return None
    if t.unsupported or t.too_large or (t.ignore_case and t.unicode) or t.nullable is not False:
        return None  # (the twin serves patterns that cannot match empty)
    twin = re_twin(t.emitted)
    if twin is None:
        return None
    return twin, pcre_twin(t.emitted, caseless=t.ignore_case), t.ignore_case


def _spans(pattern, subject: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(subject)]


@settings(max_examples=600, deadline=None)
@given(_patterns(), st.sampled_from(["g", "gi", "gm", "gs", "gim"]), SUBJECT)
def test_the_twin_finds_what_re_finds(source, flags, subject):
    twins = _twins(source, flags)
    if twins is None or twins[1] is None:
        return
    plain, twin, canonical = twins
    expected = _spans(plain, subject.upper() if canonical else subject)
    assert _spans(twin, subject) == expected
    done = substitute_ascii(twin, "<$\\>", subject)
    assert done is not None
    out, count = done
    pieces, last = [], 0
    for start, end in expected:
        pieces += [subject[last:start], "<$\\>"]
        last = end
    assert (out, count) == ("".join(pieces) + subject[last:], len(expected))


def _pack_patterns() -> list[tuple[str, str]]:
    root = Path(__file__).resolve().parents[3] / "rules"
    out = [(source, "g") for source in DEFAULT_PRESERVE_PATTERNS]
    for path in sorted(root.glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for rule in data.get("rules", []) if isinstance(data, dict) else []:
            if isinstance(rule, dict) and isinstance(rule.get("pattern"), str):
                out.append((rule["pattern"], rule.get("flags", "gi") or ""))
    return out


def test_the_packs_twins_find_what_re_finds():
    text = ("Please kindly just basically check the API. I think that an owl and a Bee, each and every "
            "one... TypeError: boom\n  at f (x.js:1:2)\n| a | b |\n# Heading\nMAX_RETRY=3 v1.2.3 `code` "
            "https://x.y/z?a=1 [link](http://a.b) $x$ In order to do it, very quickly.\r\n") * 4
    checked = 0
    for source, flags in _pack_patterns():
        twins = _twins(source, flags)
        if twins is None or twins[1] is None:
            continue
        plain, twin, canonical = twins
        assert _spans(twin, text) == _spans(plain, text.upper() if canonical else text), source
        checked += 1
    assert checked > 100


def test_classes_keep_their_ascii_members():
    assert ascii_source(r"[^\n\r\u2028\u2029]x") == r"[\x00-\x09\x0b-\x0c\x0e-\x7f]x"
    assert ascii_source(r"[\x09-\x0d\x20\xa0\u1680\u2000-\u200a]+") == r"[\x09-\x0d\x20]+"
    assert ascii_source(r"[\u2028\u2029]|\u00e9") == f"{NO_ASCII}|{NO_ASCII}"  # nothing ASCII: never matches
    assert ascii_source(r"[\x00-\U0010ffff]") == r"[\x00-\x7f]"


def test_anchors_and_boundaries_read_as_re_reads_them():
    assert ascii_source(r"(?a:\b)x\Z") == r"(?:\b)x\z"  # (PCRE2's \Z would also match before a final \n)
    assert ascii_source("(?m:^)x(?m:$)") == r"(?:\A|(?<=\n))x(?=\n|\z)"


def test_a_caseless_twin_matches_the_canonical_letters_only():
    # "EACH" on the canonical subject: either case of the original; a lower-case letter of the
    # canonical pattern matches nothing; [^A] excludes both cases; ſ and the Kelvin sign never fold
    assert ascii_source(r"EACH|[^A]|e|\u017f", caseless=True) == (
        r"\x45\x41\x43\x48|[\x00-\x40\x42-\x60\x62-\x7f]|(?-i:[^\x00-\x7f])|(?-i:[^\x00-\x7f])")
    twin = pcre_twin(r"(?a:\b)(?:EACH|[\u212a]IT)", caseless=True)
    assert twin is not None
    assert _spans(twin, "each Each kit EACH") == [(0, 4), (5, 9), (14, 18)]


@pytest.mark.parametrize("emitted", [r"a.b", r"^a", r"a$", r"\d+", r"\s", r"(?i)a", r"(?s:a)", r"(?P<g1>a)\1",
                                     "é", r"[\w]"])
def test_what_it_cannot_say_has_no_twin(emitted):
    with pytest.raises(NoTwin):
        ascii_source(emitted)
    assert pcre_twin(emitted) is None


def test_a_limit_reached_in_pcre2_gives_no_result(monkeypatch):
    twin = pcre_twin("x")
    assert twin is not None

    def stopped(*_args, **_kwargs):
        raise pcre2.LibraryError(-47)  # PCRE2_ERROR_MATCHLIMIT

    monkeypatch.setattr(type(twin), "subn", stopped)
    assert substitute_ascii(twin, "y", "xx") is None
