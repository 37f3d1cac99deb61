"""engine.jsregex.twin: the ``re`` twin compiled from a cheaper spelling of wide classes
(``negated_classes``) matches exactly what the emitted pattern matches."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caveman.preservation import DEFAULT_PRESERVE_PATTERNS
from engine.jsregex.charset import MAX_CP, normalize, to_pattern
from engine.jsregex.translate import translate
from engine.jsregex.twin import negated_classes, re_twin

# characters at the edges that matter: ASCII, Latin-1, BMP, surrogates, astral, U+10FFFF
PROBES = "\x00\t\n\r `az_AZ09-]\\^[\x7f\xa0\xff\u0100\u2028\u3000\ud800\udfff\ue000\uffff\U00010000\U0001F600\U0010ffff"
POINTS = st.one_of(st.sampled_from([ord(c) for c in PROBES]), st.integers(0, MAX_CP))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(POINTS, POINTS), min_size=1, max_size=5), st.booleans())
def test_a_wide_class_matches_as_its_negated_complement(pairs, to_top):
    ranges = [(min(a, b), max(a, b)) for a, b in pairs] + ([(0x200, MAX_CP)] if to_top else [])
    emitted = "(?:" + to_pattern(normalize(ranges)) + ")+x?"
    text = PROBES + "".join(chr(c) for pair in ranges for c in pair if not 0xD800 <= c <= 0xDFFF) + "x"
    cheaper = negated_classes(emitted)
    assert re.compile(cheaper).findall(text) == re.compile(emitted).findall(text)


def test_only_the_emitter_layout_is_rewritten():
    assert negated_classes(r"\x60[\x00-\x09\x0b-_a-\U0010ffff]+\x60") == r"\x60[^\U0000000a\U00000060]+\x60"
    for kept in (r"[^\n\r][\x00-\U0010ffff]", r"[\x00-\x7f]", r"[\s\S]", r"[\x00-\x09\x0b-\U0010ffff",
                 r"[\x00-\xff]", r"\[x]"):
        assert negated_classes(kept) == kept


def test_case_folding_patterns_keep_their_classes():
    emitted = r"(?i)[\x00-\x60\x7b-\U0010ffff]"
    twin = re_twin(emitted)
    assert twin is not None and twin.pattern == emitted


def _pack_patterns() -> list[tuple[str, str]]:
    root = Path(__file__).resolve().parents[3] / "rules"
    out = []
    for path in sorted(root.glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for rule in data.get("rules", []) if isinstance(data, dict) else []:
            if isinstance(rule, dict) and isinstance(rule.get("pattern"), str):
                out.append((rule["pattern"], rule.get("flags", "gi") or ""))
    # the default protected kinds, and class shapes the protected-region patterns use
    out += [(source, "g") for source in DEFAULT_PRESERVE_PATTERNS]
    out += [(r"\[[^\]\n]+\]\([^)\n]+\)", "g"), (r"\$[^$\n]+\$", "g"), (r"[^\s]+\([^)]*\)", "g"),
            (r"[^`]+", "gi"), (r"[^\n]+", "gu")]
    return out


def test_the_packs_twins_match_as_their_emitted_patterns():
    text = ("The quick `code` and (parens) é ß ſ ı \U0001F600 http://x.y/z?a=1 $x$ TypeError: boom\n"
            "| a | b |\n# Heading\nplease kindly just basically \u2028 end.") * 3
    checked = rewritten = 0
    for source, flags in _pack_patterns():
        try:
            t = translate(source, flags.replace("g", ""))
        except Exception:  # (a pattern this engine rejects has no twin to check)
            continue
        if t.unsupported or t.too_large:
            continue
        twin = re_twin(t.emitted)
        if twin is None:
            continue
        plain = re.compile(t.emitted)
        subject = text.upper() if "i" in flags else text
        assert [m.span() for m in twin.finditer(subject)] == [m.span() for m in plain.finditer(subject)], source
        checked += 1
        rewritten += twin.pattern != t.emitted
    assert checked > 50 and rewritten > 5
